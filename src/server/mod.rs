//! A sans-IO MCP server (feature `server`): handlers written once, against the crate's default
//! revision (2026-07-28), served to a client of every revision the build enables.
//!
//! The engine ([`Server`]) takes a line a client sent and gives back the line to send (or
//! none); it does no I/O of its own, so any transport and any runtime can carry it
//! ([`Server::serve_stdio`] is the one loop the crate has, over `std::io`). It owns what every
//! server must get right, so that no handler can get it wrong:
//! - **negotiation**: `initialize` for the stateful revisions (2024-11-05 to 2025-11-25), the
//!   version each request of a stateless revision names (2026-07-28 on), refused with
//!   `-32022` and the list the server offers; `server/discover` and `ping`;
//! - **conversion**: a client's request reaches the handler as a 2026-07-28 call (with the
//!   session's version and capabilities in `_meta`, as a stateless request carries them),
//!   and the answer goes back in the client's revision, without what that revision does not
//!   define ([`crate::convert`]'s conversions for a peer);
//! - **each revision's error codes**: "resource not found" is `-32002` up to 2025-11-25 and
//!   `-32602` from 2026-07-28, whichever a handler built;
//! - **what cannot be read** gets the error response JSON-RPC names (`-32700`, `-32600`,
//!   `-32602`), with the request's id when it can be read;
//! - **asking the client for input**: a handler answers `input_required` (2026-07-28) to ask
//!   for elicitation, sampling or roots; a 2026-07-28 client gets it and retries, and a client
//!   of a stateful revision, which has no such result, is asked each input request as a
//!   request of its revision, the call then handed to the handler again with the answers, as
//!   the retry would carry them (at most 8 rounds a request; over HTTP, on the call's event
//!   stream).
//! - **progress and logging**: a handler reports progress and log messages through its
//!   [`Context`], which knows the request's progress token and the log level the client
//!   chose (`logging/setLevel`, which the engine answers for the stateful revisions, or the
//!   request's `_meta` from 2026-07-28); they go out before the answer, as notifications of
//!   the client's revision, and only as far as the client asked for them.
//!
//! The handler is a [`Handler`]: a [`Router`] of tools, resources, resource templates and
//! prompts (which derives the capabilities and pages the lists), or a function of the call.
//!
//! [`Server::handle`] runs the handler inline. To run it elsewhere (a thread pool, an async
//! task), [`Server::receive`] hands each request out as a [`PendingCall`]: its call in
//! 2026-07-28, and a [`Responder`] that writes the answer in the client's revision. The
//! [`Session`] that received it turns the answer into the line to send
//! ([`Session::finish`]), or into nothing when the client cancelled the request meanwhile; it
//! refuses a request whose id is still in flight, and more than
//! [`Session::MAX_IN_FLIGHT`] at once.
//!
//! ```
//! use mcp_spec_types::server::{Router, Server, Session};
//! use mcp_spec_types::v2026_07_28::*;
//!
//! let router = Router::new().resource(Resource::new("memo://hi", "hi"), |read| {
//!     Ok(ReadResourceResult::text(read.uri, "Hi!"))
//! });
//! let server = Server::new(Implementation::new("memo", "0.1.0"), router);
//! let mut session = Session::new();
//! let read = r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"memo://hi",
//!     "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
//!              "io.modelcontextprotocol/clientCapabilities":{}}}}"#;
//! let answer = server.handle(&mut session, read).pop().unwrap();
//! assert!(answer.contains(r#""text":"Hi!""#));
//! ```

use crate::http_headers::ToolHeaders;
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::{ProgressToken, ProtocolVersion, RpcError};
use alloc::sync::Arc;
use core::fmt;
use core::sync::atomic::{AtomicBool, Ordering};
use serde_json::Value;

mod batch;
mod call;
mod engine;
mod http;
mod later;
mod lifecycle;
mod logging;
mod notification;
mod notify;
mod origin;
mod paging;
mod peek;
mod resume;
mod rounds;
mod router;
#[cfg(feature = "http-server")]
mod service;
mod session;
mod shared;
#[cfg(feature = "std")]
mod stdio;
#[cfg(feature = "http-server")]
pub mod store;
mod stream;
mod typed;

pub use batch::Batch;
pub use call::{Answer, PendingCall, Responder};
pub use engine::{Incoming, Server};
pub use http::{
    HttpAnswer, HttpBatch, HttpCall, HttpIncoming, HttpResponder, HttpResponse, Sessions,
};
pub use later::CallFuture;
pub use notify::Change;
pub use paging::page;
pub use router::Router;
#[cfg(feature = "http-server")]
pub use service::{HttpBody, StreamableHttp};
pub use session::Session;
pub use shared::{Broadcast, SessionRecord};
#[cfg(feature = "http-server")]
pub use store::{MemoryStore, Store, StoreError};
pub use stream::{StreamEvent, StreamId};
pub use typed::{
    arguments, elicited, form_schema, input_schema, object_schema, output_schema, prompt_arguments,
    IntoPrompt, IntoTool, InvalidArguments, SchemaError, Structured, ToolOutput,
};

/// What a server does with the requests a client sends, written against 2026-07-28 (the
/// handlers' revision, whatever revision the client speaks).
///
/// The engine answers `server/discover`, `initialize` and `ping` itself; every other request of
/// 2026-07-28 reaches [`Handler::call`]. So does a stateless request of a method 2026-07-28
/// does not define, as `ClientCall::Unknown` with its params as they came: an extension's
/// (the tasks extension defines `tasks/get` again, which 2025-11-25 had), whose result the
/// handler gives as `ClientCallResult::Unknown`, written as it is; a defined request may be
/// answered so too (a `tools/call` answered with the tasks extension's task handle). A
/// [`Router`] answers what it does not know with -32601. A function
/// `Fn(ClientCall) -> Result<ClientCallResult, RpcError>` is a handler with no capabilities
/// (give them with [`Server::with_capabilities`]); a [`Router`] derives its own.
pub trait Handler {
    /// What the server offers: `server/discover` and `initialize` answer with it.
    fn capabilities(&self) -> latest::ServerCapabilities {
        latest::ServerCapabilities::new()
    }

    /// Answers one request. An error is sent as the request's error response; "resource not
    /// found" ([`RpcError::resource_not_found`]) gets the code of the client's revision.
    fn call(
        &self,
        call: latest::ClientCall,
        context: &mut Context,
    ) -> Result<latest::ClientCallResult, RpcError>;

    /// Whether `call` is answered by [`Handler::call_async`]: a transport that runs an async
    /// runtime (the `http-server` feature's service) then awaits its future there, rather than
    /// give [`Handler::call`] a thread that may block. `false` by default; a [`Router`] says
    /// `true` for a tool it was given as an async function ([`Router::tool_async`]).
    fn is_async(&self, call: &latest::ClientCall) -> bool {
        let _ = call;
        false
    }

    /// Answers one request as a future, for a transport that awaits it (see
    /// [`Handler::is_async`]). By default, [`Handler::call`]'s answer, ready at once. A call
    /// that is async is still answered through [`Handler::call`] where nothing awaits (the
    /// stdio loop, [`Server::handle`]): a [`Router`] then runs the future to its end on the
    /// caller's thread.
    fn call_async<'a>(
        &'a self,
        call: latest::ClientCall,
        context: &'a mut Context,
    ) -> CallFuture<'a> {
        Box::pin(core::future::ready(self.call(call, context)))
    }

    /// The `x-mcp-header` annotations of tool `name`'s input schema, which a 2026-07-28
    /// client mirrors into `Mcp-Param-*` headers over Streamable HTTP: the engine refuses a
    /// stateless `tools/call` whose headers disagree with its arguments (`-32020`, status
    /// 400), as it refuses one whose `Mcp-Name` disagrees. `None` (the default): no such header
    /// is checked. A [`Router`] gives the annotations of the tools it offers.
    fn tool_headers(&self, name: &str) -> Option<&ToolHeaders> {
        let _ = name;
        None
    }

    /// Whether a client may subscribe to the resource at `uri` (`resources/subscribe`, or a
    /// `subscriptions/listen` stream's `resourceSubscriptions`): an error refuses the request
    /// ("resource not found" gets the code of the client's revision). Asked only when the
    /// capabilities announce `resources.subscribe`; by default every URI is accepted.
    fn subscribe(&self, uri: &str, context: &Context) -> Result<(), RpcError> {
        let _ = (uri, context);
        Ok(())
    }
}

impl<F> Handler for F
where
    F: Fn(latest::ClientCall) -> Result<latest::ClientCallResult, RpcError>,
{
    fn call(
        &self,
        call: latest::ClientCall,
        _context: &mut Context,
    ) -> Result<latest::ClientCallResult, RpcError> {
        self(call)
    }
}

/// What a handler may want to know about the request beyond its params, and where it reports
/// on the request while answering it: progress ([`Context::progress`]) and log messages
/// ([`Context::log`]).
///
/// What a handler reports is sent before its answer, as notifications of the client's
/// revision: [`Server::handle`] and [`Server::http`] send them with the answer; a handler run
/// elsewhere (a [`PendingCall`]) sends them as it goes through its responder
/// ([`Responder::notes`]), or over HTTP with its answer ([`HttpResponder::respond_with`]).
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
    notes: Vec<latest::ServerNotify>,
    /// What the handler said changed on the server, for the clients not yet told.
    changes: Vec<Change>,
    /// Where reports go as the handler makes them ([`Context::send_reports_to`]).
    live: Option<Live>,
    /// Set when the client cancels the request ([`Context::is_cancelled`]).
    cancelled: Cancelled,
    /// What ends the event stream the request's answer is to go on
    /// ([`Context::close_stream`]), when there is one.
    closer: Option<Closer>,
    /// For the context an async tool owns: where what it keeps goes, for the request's own
    /// context to take back.
    #[cfg(feature = "std")]
    shared: Option<later::Shared>,
}

/// Whether the client cancelled a request (`notifications/cancelled`): set by its session,
/// read by its handler's context, wherever the handler runs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cancelled(Arc<AtomicBool>);

impl Cancelled {
    fn set(&self) {
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
struct Live(Arc<dyn Fn(String) + Send + Sync>);

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
struct Closer(Arc<dyn Fn() + Send + Sync>);

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
    /// it is told, in its revision ([`Server::notify`]), as the server's capabilities allow.
    /// [`Server::handle`] tells its session's client, after the answer; [`Server::http`] tells
    /// the sessions' clients and the stateless clients' `subscriptions/listen` streams, in the
    /// response's events. A handler run elsewhere: its caller takes the changes
    /// ([`Context::take_changes`]) and tells the clients itself, or over HTTP finds them in
    /// [`HttpResponse::changes`] once [`HttpResponder::respond_with`] took them. A change
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

    fn note(&mut self, notification: latest::ServerNotify) {
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
