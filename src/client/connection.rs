//! A client connected to a server, with calls in one line (features `http-client`,
//! `stdio-client`): see [`Connection`].

#[cfg(feature = "http-client")]
mod http;
#[cfg(feature = "http-client")]
pub use http::HttpOptions;
mod call_options;
mod calls;
mod error;
mod inner;
#[cfg(feature = "http-client")]
mod sse;
#[cfg(feature = "stdio-client")]
mod stdio;

pub use call_options::CallOptions;
#[cfg(feature = "http-client")]
pub use error::Bound;
pub use error::CallError;

use super::Client;
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::{ProgressToken, ProtocolVersion, RequestId, RpcError};
use core::time::Duration;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::oneshot;

/// A client connected to a server, with calls in one line (features `http-client`,
/// `stdio-client`): the engine ([`Client`]) over a transport, each call awaited as its result.
///
/// ```no_run
/// # async fn run() -> Result<(), mcp_spec_types::client::CallError> {
/// use mcp_spec_types::client::{Client, Connection};
/// use mcp_spec_types::v2026_07_28::Implementation;
///
/// let client = Client::new(Implementation::new("adder", "0.1.0"));
/// let server = Connection::http("http://127.0.0.1:8080/mcp", client).await?;
/// let tools = server.list_tools().await?;
/// let sum = server.call_tool("add", serde_json::json!({"a": 2, "b": 3})).await?;
/// # let _ = (tools, sum); Ok(()) }
/// ```
///
/// The engine does the protocol (discovery or `initialize`, each request in the server's
/// revision, its `_meta`, the answers read and converted up to 2026-07-28, `input_required`
/// rounds); the connection does the I/O:
/// - over **Streamable HTTP** (`http-client`, with reqwest: add reqwest's `rustls` or
///   `native-tls` feature to your own dependencies for `https://`): each message is a POST
///   with the headers the engine gives ([`Client::http_headers`]) and the session's
///   `Mcp-Session-Id`; the answer is read as JSON or as an event stream, and a stream that
///   ends before its answer is resumed with `GET` and `Last-Event-ID`, after the `retry` delay
///   the server gave (three times at most); a `server/discover` refused with an HTTP error
///   falls back to `initialize` ([`Client::no_answer`]). What the server sends is read within
///   bounds, each with a default ([`HttpOptions`]: 16 MiB an answer or an event, 60 seconds a
///   call and a silence within it, 100 of the server's requests a call, redirects to the
///   server's own origin only); passing one ends the call with [`CallError::Bound`];
/// - over **stdio** (`stdio-client`): the server is a child process spoken to in lines on its
///   standard input and output, its standard error left to the parent's, and killed when the
///   connection is dropped.
///
/// Calls may run at once from several tasks (the engine is locked only to write a request and
/// to read a line, never across I/O). The server's notifications go to the function given to
/// [`Connection::on_notification`]; its requests (sampling, elicitation, roots), to the one
/// given to [`Connection::on_request`].
///
/// A call may be watched, timed out and cancelled ([`CallOptions`], given to
/// [`Connection::call_tool_with`] or [`Connection::request_with`]): its progress and its log
/// messages go to functions of its own, it ends with [`CallError::Timeout`] past its timeout
/// (or the connection's, [`Connection::with_call_timeout`]), and a call whose future is
/// dropped before its answer, or that timed out, is cancelled at the server: over stdio and
/// in a session of a stateful revision with `notifications/cancelled`, over Streamable HTTP
/// in 2026-07-28 by closing its response stream, as each revision's cancellation page asks.
pub struct Connection {
    inner: Arc<Inner>,
}

/// The server's own stream ends with the connection (over stdio, the server's process is
/// killed once the last task holding the connection's state ends).
impl Drop for Connection {
    fn drop(&mut self) {
        #[cfg(feature = "http-client")]
        if let Some(link) = self.inner.http_link() {
            link.stop_own_stream();
        }
    }
}

impl core::fmt::Debug for Connection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Connection")
            .field("version", &self.version())
            .finish_non_exhaustive()
    }
}

type Answered = Result<latest::ClientCallResult, CallError>;
type Notified = Arc<dyn Fn(latest::ServerNotify) + Send + Sync>;
type Progressed = Arc<dyn Fn(latest::ProgressNotificationParams) + Send + Sync>;
type Logged = Arc<dyn Fn(latest::LoggingMessageNotificationParams) + Send + Sync>;

/// What a call in flight is watched by.
struct Watch {
    token: Option<ProgressToken>,
    progress: Option<Progressed>,
    logged: Option<Logged>,
}
type Answering =
    Arc<dyn Fn(latest::ServerCall) -> Result<latest::ServerCallResult, RpcError> + Send + Sync>;

struct Inner {
    engine: Mutex<Client>,
    /// The calls waiting for their answers, by the id the engine gave them.
    pending: Mutex<HashMap<RequestId, oneshot::Sender<Answered>>>,
    /// Who waits for the connection, while it is made.
    connecting: Mutex<Option<oneshot::Sender<Result<ProtocolVersion, CallError>>>>,
    notified: Mutex<Option<Notified>>,
    answering: Mutex<Option<Answering>>,
    /// The watched calls in flight, by the id the engine gave them.
    watches: Mutex<HashMap<RequestId, Watch>>,
    /// The progress tokens made so far.
    tokens: AtomicU64,
    /// The longest a call may take, unless its own options say otherwise.
    call_timeout: Mutex<Option<Duration>>,
    link: Link,
}

enum Link {
    #[cfg(feature = "http-client")]
    Http(http::HttpLink),
    #[cfg(feature = "stdio-client")]
    Stdio(Box<stdio::StdioLink>),
}

impl Connection {
    /// Connects `client` to the server at `url` (`http://` or, with reqwest's TLS features,
    /// `https://`) over Streamable HTTP, within the default bounds ([`HttpOptions`], whose
    /// [`connect`](HttpOptions::connect) sets others).
    ///
    /// # Errors
    ///
    /// [`CallError::Transport`] when the server cannot be reached, [`CallError::Server`] when
    /// it refuses to connect, [`CallError::NoRevisionInCommon`] when it speaks no revision
    /// this client does, [`CallError::Timeout`] when it does not answer within the call
    /// timeout, [`CallError::Bound`] when it passes a bound.
    #[cfg(feature = "http-client")]
    pub async fn http(url: impl Into<String>, client: Client) -> Result<Self, CallError> {
        HttpOptions::new().connect(url, client).await
    }

    /// [`Connection::http`] with the HTTP client `http` (its timeouts, proxies, TLS roots,
    /// default headers such as an `Authorization`, and its redirect policy: reqwest's default
    /// follows redirects to any origin, see [`HttpOptions`]).
    ///
    /// # Errors
    ///
    /// As [`Connection::http`].
    #[cfg(feature = "http-client")]
    pub async fn http_with(
        url: impl Into<String>,
        http: reqwest::Client,
        client: Client,
    ) -> Result<Self, CallError> {
        HttpOptions::new().connect_with(url, http, client).await
    }

    /// [`Connection::http`], each request sent by `send` rather than by reqwest: another HTTP
    /// client, or one that authorizes each request (an OAuth access token, a DPoP proof) and
    /// sends a refused one again once authorized. `send` gets each request whole (the
    /// method, the server's URL, the headers the transport needs, the body) and gives the
    /// response, whose body is read as it comes (an event stream stays open as long as the
    /// server keeps it). Its error is a transport error.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcp_spec_types::client::CallError> {
    /// use mcp_spec_types::client::{Client, Connection};
    /// use mcp_spec_types::v2026_07_28::Implementation;
    ///
    /// let http = reqwest::Client::new();
    /// let client = Client::new(Implementation::new("me", "0.1.0"));
    /// let server = Connection::http_via("http://127.0.0.1:8080/mcp", client, move |request| {
    ///     let http = http.clone();
    ///     async move {
    ///         let mut request = reqwest::Request::try_from(request).map_err(|e| e.to_string())?;
    ///         let token = "a token got elsewhere";
    ///         let bearer = format!("Bearer {token}").parse().map_err(|_| "a header")?;
    ///         request.headers_mut().insert("authorization", bearer);
    ///         let response = http.execute(request).await.map_err(|e| e.to_string())?;
    ///         Ok(http::Response::from(response))
    ///     }
    /// })
    /// .await?;
    /// # Ok(()) }
    /// ```
    ///
    /// The bounds of [`HttpOptions`] hold for what `send` gives, but for the connect timeout
    /// and the redirects, which are `send`'s.
    ///
    /// # Errors
    ///
    /// As [`Connection::http`].
    #[cfg(feature = "http-client")]
    pub async fn http_via<F, Fut, B>(
        url: impl Into<String>,
        client: Client,
        send: F,
    ) -> Result<Self, CallError>
    where
        F: Fn(::http::Request<String>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<::http::Response<B>, String>> + Send + 'static,
        B: http_body::Body + Send + 'static,
        B::Error: core::fmt::Display,
    {
        HttpOptions::new().connect_via(url, client, send).await
    }

    /// Starts `command` (its standard input and output piped, its standard error the
    /// parent's) and connects `client` to it over stdio. The process is killed when the
    /// connection is dropped.
    ///
    /// # Errors
    ///
    /// [`CallError::Transport`] when the process cannot be started or ends before it
    /// answers, [`CallError::Server`] when it refuses to connect,
    /// [`CallError::NoRevisionInCommon`] when it speaks no revision this client does.
    #[cfg(feature = "stdio-client")]
    pub async fn stdio(
        command: impl Into<tokio::process::Command>,
        client: Client,
    ) -> Result<Self, CallError> {
        if tokio::runtime::Handle::try_current().is_err() {
            let why = "a stdio connection runs in a tokio runtime";
            return Err(CallError::Transport(why.to_owned()));
        }
        let (link, stdout) = stdio::StdioLink::spawn(command.into())?;
        let inner = Arc::new(Inner::new(client, Link::Stdio(Box::new(link))));
        stdio::read_lines(Arc::downgrade(&inner), stdout);
        Connection { inner }.connected().await
    }

    /// Connects over HTTP; in a session, opens the server's own stream before the first call.
    #[cfg(feature = "http-client")]
    async fn connect(client: Client, link: Link) -> Result<Self, CallError> {
        let inner = Arc::new(Inner::new(client, link));
        let connection = Connection { inner }.connected().await?;
        http::HttpLink::open_own_stream(&connection.inner).await;
        Ok(connection)
    }

    /// Sends the engine's first line and waits for the connection, within the call timeout.
    async fn connected(self) -> Result<Self, CallError> {
        let (told, connection) = oneshot::channel();
        *lock(&self.inner.connecting) = Some(told);
        let first = self.inner.engine().start();
        // The client speaks no revision this build enables (`Client::with_versions`).
        let first = first.ok_or(CallError::NoRevisionInCommon {
            client: Vec::new(),
            server: Vec::new(),
        })?;
        let connecting = async {
            self.inner.send(first, None).await?;
            match connection.await {
                Ok(connected) => connected.map(|_| ()),
                Err(_) => Err(CallError::Transport(
                    "the server did not answer the connection".to_owned(),
                )),
            }
        };
        let limit = *lock(&self.inner.call_timeout);
        within(limit, connecting).await?;
        Ok(self)
    }

    /// Sets the longest a call may take before it ends with [`CallError::Timeout`] and is
    /// cancelled at the server, for the calls whose [`CallOptions`] set none; `None`: no
    /// limit. Over HTTP it starts as [`HttpOptions::with_call_timeout`] (60 seconds by
    /// default); over stdio there is none until set.
    #[must_use]
    pub fn with_call_timeout(self, timeout: impl Into<Option<Duration>>) -> Self {
        *lock(&self.inner.call_timeout) = timeout.into();
        self
    }

    /// The revision spoken with the server.
    pub fn version(&self) -> Option<ProtocolVersion> {
        self.inner.engine().version().cloned()
    }

    /// What the server offers.
    pub fn server_capabilities(&self) -> Option<latest::ServerCapabilities> {
        self.inner.engine().server_capabilities().cloned()
    }

    /// Gives each notification of the server (progress, log messages, list changes) to
    /// `notified`, in 2026-07-28's terms, as it comes.
    pub fn on_notification(&self, notified: impl Fn(latest::ServerNotify) + Send + Sync + 'static) {
        *lock(&self.inner.notified) = Some(Arc::new(notified));
    }

    /// Answers each request of the server (sampling, elicitation, roots: those of the
    /// capabilities the client declared, [`Client::with_capabilities`]) with `answer`, in
    /// 2026-07-28's terms: the engine writes the answer in the server's revision, and answers
    /// the input requests of a 2026-07-28 server's `input_required` the same way, sending the
    /// call again with them. Without it, such requests are refused (-32601).
    pub fn on_request(
        &self,
        answer: impl Fn(latest::ServerCall) -> Result<latest::ServerCallResult, RpcError>
            + Send
            + Sync
            + 'static,
    ) {
        *lock(&self.inner.answering) = Some(Arc::new(answer));
    }

    /// Sends `call` and waits for its result. The call's `_meta` is the engine's (what the
    /// server's revision needs there), whatever the caller put.
    ///
    /// # Errors
    ///
    /// See [`CallError`].
    pub async fn request(
        &self,
        call: latest::ClientCall,
    ) -> Result<latest::ClientCallResult, CallError> {
        self.request_with(call, CallOptions::new()).await
    }

    /// [`Connection::request`], watched and timed as `options` say. Dropping the future before
    /// it ends cancels the call at the server.
    ///
    /// # Errors
    ///
    /// See [`CallError`].
    pub async fn request_with(
        &self,
        mut call: latest::ClientCall,
        options: CallOptions,
    ) -> Result<latest::ClientCallResult, CallError> {
        let CallOptions {
            progress,
            log,
            timeout,
        } = options;
        let token = progress.as_ref().and_then(|_| {
            let meta = meta_of(&mut call)?;
            let n = self.inner.tokens.fetch_add(1, Ordering::Relaxed) + 1;
            let token = ProgressToken::String(format!("progress-{n}"));
            meta.progress_token = Some(token.clone());
            Some(token)
        });
        let logged = log.map(|(level, logged)| {
            if let Some(meta) = meta_of(&mut call) {
                meta.io_modelcontextprotocol_log_level = Some(level);
            }
            logged
        });
        let (id, line) = self
            .inner
            .engine()
            .request(call)
            .map_err(CallError::Client)?;
        let (answer, mut answered) = oneshot::channel();
        lock(&self.inner.pending).insert(id.clone(), answer);
        if progress.is_some() || logged.is_some() {
            let watch = Watch {
                token,
                progress,
                logged,
            };
            lock(&self.inner.watches).insert(id.clone(), watch);
        }
        // Until the answer comes, dropping this future cancels the call at the server.
        let mut flight = InFlight {
            inner: Arc::clone(&self.inner),
            id: id.clone(),
            reason: "the caller gave the call up",
            answered: false,
        };
        let call = async {
            let sent = self.inner.send(line, Some(id.clone())).await;
            // Over HTTP the answer came with the exchange, or the engine gave one for it; over
            // stdio it comes from the task reading the server's output. An exchange that
            // failed may still have brought it first.
            match sent {
                Ok(()) => (&mut answered).await.unwrap_or_else(|_| {
                    Err(CallError::Transport(
                        "the connection ended before the answer".to_owned(),
                    ))
                }),
                Err(error) => answered.try_recv().unwrap_or(Err(error)),
            }
        };
        let limit = timeout.or(*lock(&self.inner.call_timeout));
        let answered = within(limit, call).await;
        match &answered {
            Err(CallError::Timeout(_)) => flight.reason = "the call timed out",
            _ => flight.answered = true,
        }
        drop(flight);
        answered
    }

    /// The `_meta` a request is written with, for building a call's params: the engine puts
    /// its own there when it sends, whatever the call holds.
    pub fn meta(&self) -> latest::RequestMetaObject {
        self.inner.engine().meta()
    }
}

/// `call`'s `_meta`, which every request of 2026-07-28 has (a method no revision defines:
/// none).
fn meta_of(call: &mut latest::ClientCall) -> Option<&mut latest::RequestMetaObject> {
    use latest::ClientCall as C;
    match call {
        C::Complete(params) => Some(&mut params.meta),
        C::GetPrompt(params) => Some(&mut params.meta),
        C::ReadResource(params) => Some(&mut params.meta),
        C::Discover(params) => Some(&mut params.meta),
        C::SubscriptionsListen(params) => Some(&mut params.meta),
        C::CallTool(params) => Some(&mut params.meta),
        C::ListPrompts(params)
        | C::ListResources(params)
        | C::ListResourceTemplates(params)
        | C::ListTools(params) => Some(&mut params.meta),
        _ => None,
    }
}

/// `call`, unless `limit` passes first: then [`CallError::Timeout`].
async fn within<T>(
    limit: Option<Duration>,
    call: impl Future<Output = Result<T, CallError>>,
) -> Result<T, CallError> {
    match limit {
        Some(limit) => tokio::time::timeout(limit, call)
            .await
            .unwrap_or(Err(CallError::Timeout(limit))),
        None => call.await,
    }
}

/// A call whose answer has not come: dropped so (its future dropped, or timed out), it is
/// cancelled at the server.
struct InFlight {
    inner: Arc<Inner>,
    id: RequestId,
    reason: &'static str,
    answered: bool,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        lock(&self.inner.pending).remove(&self.id);
        lock(&self.inner.watches).remove(&self.id);
        if self.answered {
            return;
        }
        let cancel = self.inner.engine().cancel(&self.id, self.reason);
        let Some(cancel) = cancel.filter(|_| self.inner.tells_cancellation()) else {
            return;
        };
        // Sent by a task of its own: a drop cannot wait. Outside a runtime (one shutting
        // down) nothing can be sent.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let inner = Arc::clone(&self.inner);
            runtime.spawn(async move {
                let _ = inner.send(cancel, None).await;
            });
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing panics while holding these locks but the caller's own notification function,
    // which is never called under one.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
