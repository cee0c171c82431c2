//! How a connection over Streamable HTTP is made, and the bounds it holds a server to.

#[cfg(doc)]
use super::super::{Bound, CallError, Connection};
use std::time::Duration;

/// How a connection over Streamable HTTP is made and what it bounds: every option has a
/// default, and [`Connection::http`], [`Connection::http_with`] and [`Connection::http_via`]
/// use the defaults. A hostile or broken server cannot make the client keep all it sends,
/// wait forever, follow it elsewhere or answer it without end:
///
/// | option | default | what passing it gives |
/// |---|---|---|
/// | [`with_max_answer`](Self::with_max_answer) | 16 MiB | [`Bound::AnswerSize`] |
/// | [`with_max_event`](Self::with_max_event) | 16 MiB | [`Bound::EventSize`] |
/// | [`with_connect_timeout`](Self::with_connect_timeout) | 10 s | [`Bound::ConnectTimeout`] |
/// | [`with_call_timeout`](Self::with_call_timeout) | 60 s | [`CallError::Timeout`] |
/// | [`with_idle_timeout`](Self::with_idle_timeout) | 60 s | [`Bound::IdleTimeout`] |
/// | [`with_max_server_requests`](Self::with_max_server_requests) | 100 a call | [`Bound::ServerRequests`] |
/// | [`with_redirects`](Self::with_redirects) | to the same origin | [`Bound::OtherOrigin`] |
///
/// ```no_run
/// # async fn run() -> Result<(), mcp_spec_types::client::CallError> {
/// use mcp_spec_types::client::{Client, HttpOptions};
/// use mcp_spec_types::v2026_07_28::Implementation;
/// use std::time::Duration;
///
/// let client = Client::new(Implementation::new("patient", "0.1.0"));
/// let server = HttpOptions::new()
///     .with_call_timeout(Duration::from_secs(600)) // long tools
///     .with_idle_timeout(Duration::from_secs(60)) // but never a minute without a message
///     .connect("http://127.0.0.1:8080/mcp", client)
///     .await?;
/// # let _ = server; Ok(()) }
/// ```
///
/// The connect timeout and the redirects are those of the reqwest client the connection
/// builds ([`HttpOptions::connect`]); with your own client ([`HttpOptions::connect_with`]) or
/// sender ([`HttpOptions::connect_via`]) they are yours to set (reqwest's default follows ten
/// redirects to any origin, with the request's body and its `Mcp-Session-Id`: build it with a
/// `redirect::Policy` of your own). The other bounds hold whatever sends the requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    pub(super) max_answer: usize,
    pub(super) max_event: usize,
    pub(super) connect_timeout: Option<Duration>,
    pub(super) call_timeout: Option<Duration>,
    pub(super) idle_timeout: Option<Duration>,
    pub(super) max_server_requests: usize,
    pub(super) redirects: bool,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            max_answer: Self::MAX_ANSWER,
            max_event: Self::MAX_EVENT,
            connect_timeout: Some(Self::CONNECT_TIMEOUT),
            call_timeout: Some(Self::CALL_TIMEOUT),
            idle_timeout: Some(Self::IDLE_TIMEOUT),
            max_server_requests: Self::MAX_SERVER_REQUESTS,
            redirects: true,
        }
    }
}

impl HttpOptions {
    /// The default cap on an answer read whole (a JSON body): 16 MiB.
    pub const MAX_ANSWER: usize = 16 << 20;
    /// The default cap on one event's data: 16 MiB, as an answer's, since a server may send
    /// the same answer either way.
    pub const MAX_EVENT: usize = 16 << 20;
    /// The default time to open a connection to the server: 10 seconds.
    pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default time for a whole call: 60 seconds (the TypeScript SDK's default request
    /// timeout).
    pub const CALL_TIMEOUT: Duration = Duration::from_secs(60);
    /// The default time a call waits for the server's next message: 60 seconds, the call's
    /// own, so that it bounds a call whose timeout is lifted.
    pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
    /// The default number of the server's requests one call answers: 100.
    pub const MAX_SERVER_REQUESTS: usize = 100;

    /// The defaults (the table above).
    pub fn new() -> Self {
        Self::default()
    }

    /// The most bytes of an answer read whole: a response that is not an event stream (a
    /// JSON answer, an error's body). A larger one (by its `Content-Length`, or as it comes)
    /// ends the call with [`Bound::AnswerSize`].
    pub fn with_max_answer(mut self, bytes: usize) -> Self {
        self.max_answer = bytes;
        self
    }

    /// The most bytes of one event's data (its `data` lines joined), and of any line of an
    /// event stream, comments too, past the few bytes of a field's name. A larger one ends the
    /// call with [`Bound::EventSize`] (on the server's own stream, it ends that stream).
    pub fn with_max_event(mut self, bytes: usize) -> Self {
        self.max_event = bytes;
        self
    }

    /// The longest opening a connection to the server may take (`None`: the system's);
    /// past it, [`Bound::ConnectTimeout`]. Only for the reqwest client
    /// [`HttpOptions::connect`] builds.
    pub fn with_connect_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.connect_timeout = timeout.into();
        self
    }

    /// The longest one call may take, from its request to its answer, the server's requests
    /// answered on the way included (`None`: no limit); past it, [`CallError::Timeout`], and
    /// the call is cancelled at the server. [`Connection::with_call_timeout`] changes it once
    /// connected, [`CallOptions::with_timeout`](crate::client::CallOptions::with_timeout) for one
    /// call.
    /// Connecting (`server/discover`, or `initialize`) is a call too, and so is answering a
    /// request that comes on the server's own stream.
    pub fn with_call_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.call_timeout = timeout.into();
        self
    }

    /// The longest a call waits for the server's next message (`None`: no limit): from each
    /// request sent to the response's first message, and between two messages of an event
    /// stream. Keep-alive comments, events without data and bytes of a message not ended yet
    /// are no message. Past it, [`Bound::IdleTimeout`]. The server's own stream, which may
    /// stay quiet as long as the session has nothing to say, is not bound by it.
    pub fn with_idle_timeout(mut self, timeout: impl Into<Option<Duration>>) -> Self {
        self.idle_timeout = timeout.into();
        self
    }

    /// The most requests of the server one call answers: those that come on the call's
    /// streams, or on the responses to its answers (sampling, elicitation, roots, `ping`).
    /// Past it, [`Bound::ServerRequests`]: a server that answers each answer with another
    /// request ends the call, not the client. Each event of the server's own stream has a
    /// count of its own. (The input requests of a 2026-07-28 `input_required` are answered
    /// within the request sent again, at most eight rounds: the engine's bound.)
    pub fn with_max_server_requests(mut self, requests: usize) -> Self {
        self.max_server_requests = requests;
        self
    }

    /// Whether a redirect to the server's own origin (scheme, host and port) is followed
    /// (`true`, the default: up to ten in a row); a redirect to another origin never is: the
    /// request ends with [`Bound::OtherOrigin`], sent nowhere else. With `false`, no redirect
    /// is followed: the redirect itself ends the call, a [`CallError::Transport`]. Only for
    /// the reqwest client [`HttpOptions::connect`] builds.
    pub fn with_redirects(mut self, same_origin: bool) -> Self {
        self.redirects = same_origin;
        self
    }
}
