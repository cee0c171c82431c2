//! What a handler knows of the request it answers, and what it may do besides answering:
//! [`Context`].

use super::notification;
use super::Change;
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::{ProgressToken, ProtocolVersion};
use alloc::sync::Arc;
use core::fmt;
use core::sync::atomic::{AtomicBool, Ordering};
use serde_json::Value;

/// What a handler may want to know about the request beyond its params, and where it reports
/// on the request while answering it: progress ([`Context::progress`]) and log messages
/// ([`Context::log`]).
///
/// What a handler reports is sent before its answer, as notifications of the client's
/// revision: [`Server::handle`](crate::server::Server::handle) and [`Server::http`](crate::server::Server::http) send them with the answer; a handler run
/// elsewhere (a [`PendingCall`](crate::server::PendingCall)) sends them as it goes through its responder
/// ([`Responder::notes`](crate::server::Responder::notes)), or over HTTP with its answer ([`HttpResponder::respond_with`](crate::server::HttpResponder::respond_with)).
///
/// ```
/// use mcp_spec_types::server::{Router, Server, Session};
/// use mcp_spec_types::v2026_07_28::*;
///
/// let count = Tool::new("count", ToolInputSchema::new());
/// let router = Router::new().tool_with(count, |_, context| {
///     for done in 1..=2 {
///         context.progress(done, Some(2.into()), None);
///     }
///     Ok(CallToolResult::text("counted"))
/// });
/// let server = Server::new(Implementation::new("counter", "0.1.0"), router);
/// let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count",
///     "_meta":{"progressToken":"p","io.modelcontextprotocol/protocolVersion":"2026-07-28",
///              "io.modelcontextprotocol/clientCapabilities":{}}}}"#;
/// let lines = server.handle(&mut Session::new(), call);
/// assert_eq!(lines.len(), 3); // two progress notifications, then the answer
/// assert!(lines[1].contains(r#""progress":2,"progressToken":"p","total":2"#));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Context {
    /// The revision the client speaks: its answer is converted into it.
    pub peer: ProtocolVersion,
    /// The request's `_meta.progressToken`: the client asked for progress reports on it.
    pub progress_token: Option<ProgressToken>,
    /// The least severe log level the client wants to hear of while the request is answered:
    /// its session's `logging/setLevel` (the stateful revisions), or the request's
    /// `io.modelcontextprotocol/logLevel` (2026-07-28 on). `None`: no log message may be sent.
    pub log_level: Option<latest::LoggingLevel>,
    /// What the handler reported, not yet sent.
    pub(in crate::server) notes: Vec<latest::ServerNotify>,
    /// What the handler said changed on the server, for the clients not yet told.
    pub(in crate::server) changes: Vec<Change>,
    /// Where reports go as the handler makes them ([`Context::send_reports_to`]).
    pub(in crate::server) live: Option<Live>,
    /// Set when the client cancels the request ([`Context::is_cancelled`]).
    pub(in crate::server) cancelled: Cancelled,
    /// What ends the event stream the request's answer is to go on
    /// ([`Context::close_stream`]), when there is one.
    pub(in crate::server) closer: Option<Closer>,
    /// For the context an async tool owns: where what it keeps goes, for the request's own
    /// context to take back.
    #[cfg(feature = "std")]
    pub(in crate::server) shared: Option<super::reports::Shared>,
}

/// Whether the client cancelled a request (`notifications/cancelled`): set by its session,
/// read by its handler's context, wherever the handler runs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cancelled(Arc<AtomicBool>);

impl Cancelled {
    pub(in crate::server) fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Two contexts are alike whatever becomes of their requests.
impl PartialEq for Cancelled {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Where a handler's reports go as it makes them: each as the line to send.
#[derive(Clone)]
pub(in crate::server) struct Live(Arc<dyn Fn(String) + Send + Sync>);

impl fmt::Debug for Live {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Live")
    }
}

/// Two contexts are alike whatever their reports' destination: it is where they go, not what
/// the request is.
impl PartialEq for Live {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// What ends a request's event stream early ([`Context::close_stream`]).
#[derive(Clone)]
pub(in crate::server) struct Closer(Arc<dyn Fn() + Send + Sync>);

impl fmt::Debug for Closer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Closer")
    }
}

/// Two contexts are alike whatever their stream: it is how the answer goes, not what the
/// request is.
impl PartialEq for Closer {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Context {
    pub(crate) fn new(peer: ProtocolVersion) -> Self {
        Context {
            peer,
            progress_token: None,
            log_level: None,
            notes: Vec::new(),
            changes: Vec::new(),
            live: None,
            cancelled: Cancelled::default(),
            closer: None,
            #[cfg(feature = "std")]
            shared: None,
        }
    }

    /// Whether the client has cancelled the request (`notifications/cancelled`, in a session
    /// of a stateful revision): its answer will not be sent, so a handler that runs long may
    /// check this between its steps and stop. A stateless request has no way to be cancelled
    /// but closing its connection, which the handler does not see: this stays `false`.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.is_set()
    }

    /// Sends each report the handler makes from now on (progress, log messages) at once, as
    /// the line of the client's revision, to `send`, rather than keeping it to go before the
    /// answer: a transport that carries the call's answer on an event stream writes them as
    /// they come (the `http-server` feature's service does). What was reported before is
    /// sent first. A report the client's revision cannot say is not sent.
    pub fn send_reports_to(&mut self, send: impl Fn(String) + Send + Sync + 'static) {
        let send: Arc<dyn Fn(String) + Send + Sync> = Arc::new(send);
        for note in self.take_notes() {
            if let Some(line) = notification::notification_line(&self.peer, &note) {
                send(line);
            }
        }
        self.live = Some(Live(send));
    }

    /// Ends the event stream the request's answer is to go on, before the answer: the client
    /// reconnects after the stream's `retry` delay and resumes it with `Last-Event-ID`,
    /// getting what was sent meanwhile, the answer included (the transport's polling: a long
    /// call need not hold a connection). Whether there was a stream to close: a session's call
    /// answered on an event stream by the `http-server` feature's service (see its
    /// `with_call_streams`); never over stdio, or for a stateless request.
    ///
    /// What the handler reports after closing it goes with the answer, to be resumed with it.
    pub fn close_stream(&mut self) -> bool {
        let Some(Closer(close)) = self.closer.take() else {
            return false;
        };
        close();
        self.live = None;
        #[cfg(feature = "std")]
        if let Some(shared) = &self.shared {
            shared.closed();
        }
        true
    }

    /// Makes [`Context::close_stream`] call `close`: for the transport that opened the stream.
    #[cfg(feature = "http-server")]
    pub(crate) fn close_stream_with(&mut self, close: impl Fn() + Send + Sync + 'static) {
        self.closer = Some(Closer(Arc::new(close)));
    }

    /// Says that `change` happened while the request was answered (a tool that adds tools, a
    /// write to a resource): once the request is answered, every client that asked to hear of
    /// it is told, in its revision ([`Server::notify`](crate::server::Server::notify)), as the server's capabilities allow.
    /// [`Server::handle`](crate::server::Server::handle) tells its session's client, after the answer; [`Server::http`](crate::server::Server::http) tells
    /// the sessions' clients and the stateless clients' `subscriptions/listen` streams, in the
    /// response's events. A handler run elsewhere: its caller takes the changes
    /// ([`Context::take_changes`]) and tells the clients itself, or over HTTP finds them in
    /// [`HttpResponse::changes`](crate::server::HttpResponse::changes) once [`HttpResponder::respond_with`](crate::server::HttpResponder::respond_with) took them. A change
    /// already said for the request is said once.
    pub fn changed(&mut self, change: Change) {
        #[cfg(feature = "std")]
        if let Some(shared) = &self.shared {
            return shared.changed(change);
        }
        if !self.changes.contains(&change) {
            self.changes.push(change);
        }
    }

    /// What the handler said changed ([`Context::changed`]), taken: the clients are to be told.
    pub fn take_changes(&mut self) -> Vec<Change> {
        core::mem::take(&mut self.changes)
    }

    /// Reports progress on the request (`notifications/progress`, with the request's token):
    /// `progress` should grow with each report; `total`, when known, is what it counts to.
    /// Whether the report will be sent: not when the client asked for none (no progress
    /// token).
    pub fn progress(
        &mut self,
        progress: impl Into<serde_json::Number>,
        total: Option<serde_json::Number>,
        message: Option<&str>,
    ) -> bool {
        let Some(token) = &self.progress_token else {
            return false;
        };
        let params = latest::ProgressNotificationParams {
            message: message.map(String::from),
            meta: None,
            progress: progress.into(),
            progress_token: token.clone(),
            total,
            extra: serde_json::Map::new(),
        };
        self.note(latest::ServerNotify::Progress(params));
        true
    }

    /// Logs `data` (a text, or any JSON value) at `level` (`notifications/message`). Whether
    /// the message will be sent: only when the client asked to hear of `level` (see
    /// [`Context::log_level`]).
    pub fn log(&mut self, level: latest::LoggingLevel, data: impl Into<Value>) -> bool {
        if !self.logs(level) {
            return false;
        }
        let params = latest::LoggingMessageNotificationParams {
            data: data.into(),
            level,
            logger: None,
            meta: None,
            extra: serde_json::Map::new(),
        };
        self.note(latest::ServerNotify::LoggingMessage(params));
        true
    }

    /// Whether a log message at `level` would be sent: it is at least as severe as the level
    /// the client asked for (the syslog order: debug, info, notice, warning, error, critical,
    /// alert, emergency).
    pub fn logs(&self, level: latest::LoggingLevel) -> bool {
        self.log_level
            .is_some_and(|least| severity(level) >= severity(least))
    }

    /// How many reports wait to be sent: a bound on them is the handler's, as on any output.
    pub fn pending_notes(&self) -> usize {
        self.notes.len()
    }

    pub(in crate::server) fn note(&mut self, notification: latest::ServerNotify) {
        match &self.live {
            Some(Live(send)) => {
                if let Some(line) = notification::notification_line(&self.peer, &notification) {
                    send(line);
                }
            }
            #[cfg(feature = "std")]
            None if self.shared.is_some() => {
                if let Some(shared) = &self.shared {
                    shared.note(notification);
                }
            }
            None => self.notes.push(notification),
        }
    }

    /// The reports not yet sent, taken.
    pub(crate) fn take_notes(&mut self) -> Vec<latest::ServerNotify> {
        core::mem::take(&mut self.notes)
    }
}

/// The rank of `level` in the syslog order (RFC 5424) the specification gives, least severe
/// first.
fn severity(level: latest::LoggingLevel) -> u8 {
    use latest::LoggingLevel as L;
    match level {
        L::Debug => 0,
        L::Info => 1,
        L::Notice => 2,
        L::Warning => 3,
        L::Error => 4,
        L::Critical => 5,
        L::Alert => 6,
        L::Emergency => 7,
    }
}
