//! Streamable HTTP, the client's side: each message a POST, its answer JSON or an event
//! stream, the session's id, the server's own stream (`GET`), and a stream resumed with `GET`
//! and `Last-Event-ID`. The requests go out through a sender: reqwest's by default, or the
//! caller's ([`Connection::http_via`](super::Connection::http_via)).
//!
//! What a server sends is read within bounds ([`HttpOptions`]): an answer's size, an event's
//! size, the time a call and its silences may take, how many of the server's requests one
//! call answers, and the origin a redirect may lead to. A server's request that comes within
//! an exchange is answered by the same loop that reads the exchange, never by a call nested in
//! it: a server that answers each answer with another request grows a list, up to its bound,
//! not the stack.

use super::sse::{SseEvent, SseReader};
use super::{lock, Bound, CallError, Client, Connection, Inner, Link};
use crate::http_headers::{LAST_EVENT_ID, MCP_PROTOCOL_VERSION, MCP_SESSION_ID};
use crate::prelude::*;
use crate::{ErrorCode, RequestId, RpcError};
use alloc::collections::VecDeque;
use bytes::{Buf, Bytes};
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// How many times a stream that ends before its answer is resumed.
const RESUMPTIONS: usize = 3;

/// The longest a server's `retry` makes the client wait before it resumes.
const MAX_RETRY: Duration = Duration::from_secs(30);

/// How long connecting waits for the server's own stream to open: a server may answer on any
/// stream of the session, so the stream should be open before the first call.
const OWN_STREAM_WAIT: Duration = Duration::from_secs(5);

/// The most redirects to the server's own origin one request follows (reqwest's own default).
const MAX_REDIRECTS: usize = 10;

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
    max_answer: usize,
    max_event: usize,
    connect_timeout: Option<Duration>,
    call_timeout: Option<Duration>,
    idle_timeout: Option<Duration>,
    max_server_requests: usize,
    redirects: bool,
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
    /// connected, [`CallOptions::with_timeout`](super::CallOptions::with_timeout) for one
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

    /// Connects `client` to the server at `url` over Streamable HTTP with these options, by a
    /// reqwest client built with the connect timeout and the redirect policy they say.
    ///
    /// # Errors
    ///
    /// As [`Connection::http`].
    pub async fn connect(
        self,
        url: impl Into<String>,
        client: Client,
    ) -> Result<Connection, CallError> {
        let redirects = match self.redirects {
            true => same_origin_redirects(),
            false => reqwest::redirect::Policy::none(),
        };
        let mut http = reqwest::Client::builder().redirect(redirects);
        if let Some(timeout) = self.connect_timeout {
            http = http.connect_timeout(timeout);
        }
        let http = http
            .build()
            .map_err(|error| CallError::Transport(error_chain(&error)))?;
        let send = reqwest_sender(http, self.connect_timeout);
        Connection::connect(client, Link::Http(HttpLink::new(url.into(), send, self))).await
    }

    /// [`HttpOptions::connect`] with the HTTP client `http`: its own timeouts, proxies, TLS
    /// roots, default headers, and redirect policy (see [`HttpOptions`]); these options'
    /// connect timeout and redirects are not applied to it.
    ///
    /// # Errors
    ///
    /// As [`Connection::http`].
    pub async fn connect_with(
        self,
        url: impl Into<String>,
        http: reqwest::Client,
        client: Client,
    ) -> Result<Connection, CallError> {
        let send = reqwest_sender(http, None);
        Connection::connect(client, Link::Http(HttpLink::new(url.into(), send, self))).await
    }

    /// [`HttpOptions::connect`], each request sent by `send`, as [`Connection::http_via`]
    /// does; these options' connect timeout and redirects are `send`'s affair.
    ///
    /// # Errors
    ///
    /// As [`Connection::http`].
    pub async fn connect_via<F, Fut, B>(
        self,
        url: impl Into<String>,
        client: Client,
        send: F,
    ) -> Result<Connection, CallError>
    where
        F: Fn(::http::Request<String>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<::http::Response<B>, String>> + Send + 'static,
        B: http_body::Body + Send + 'static,
        B::Error: core::fmt::Display,
    {
        let send: Sender = Arc::new(move |request| {
            let sent = send(request);
            Box::pin(async move {
                let (parts, body) = sent.await.map_err(CallError::Transport)?.into_parts();
                Ok(::http::Response::from_parts(parts, Body::of(body)))
            })
        });
        Connection::connect(client, Link::Http(HttpLink::new(url.into(), send, self))).await
    }
}

/// A response whose body is read as it comes.
pub(super) type Response = ::http::Response<Body>;

/// What sends one request and gives its response.
pub(super) type Sender =
    Arc<dyn Fn(::http::Request<String>) -> Pin<Box<dyn SendFuture>> + Send + Sync>;

/// A sent request's response, coming.
pub(super) trait SendFuture: Future<Output = Result<Response, CallError>> + Send {}
impl<F: Future<Output = Result<Response, CallError>> + Send> SendFuture for F {}

/// A response's body: any `http_body::Body`, its chunks as bytes and its errors as text.
pub(super) struct Body(Pin<Box<dyn http_body::Body<Data = Bytes, Error = String> + Send>>);

impl Body {
    pub(super) fn of<B>(body: B) -> Self
    where
        B: http_body::Body + Send + 'static,
        B::Error: core::fmt::Display,
    {
        Body(Box::pin(Mapped(Box::pin(body))))
    }

    /// The next chunk of data; `None` at the end.
    async fn chunk(&mut self) -> Result<Option<Bytes>, String> {
        loop {
            let frame = core::future::poll_fn(|cx| self.0.as_mut().poll_frame(cx)).await;
            let Some(frame) = frame else {
                return Ok(None);
            };
            if let Ok(data) = frame?.into_data() {
                return Ok(Some(data));
            }
        }
    }

    /// The whole body, at most `max` bytes: a longer one is [`Bound::AnswerSize`].
    async fn whole(mut self, max: usize) -> Result<Vec<u8>, CallError> {
        let mut whole = Vec::new();
        while let Some(chunk) = self.chunk().await.map_err(CallError::Transport)? {
            if whole.len().saturating_add(chunk.len()) > max {
                return Err(CallError::Bound(Bound::AnswerSize(max)));
            }
            whole.extend_from_slice(&chunk);
        }
        Ok(whole)
    }
}

/// A body whose data and errors are made the connection's.
struct Mapped<B>(Pin<Box<B>>);

impl<B> http_body::Body for Mapped<B>
where
    B: http_body::Body,
    B::Error: core::fmt::Display,
{
    type Data = Bytes;
    type Error = String;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, String>>> {
        self.0.as_mut().poll_frame(cx).map(|frame| {
            frame.map(|frame| match frame {
                Ok(frame) => Ok(frame.map_data(|mut data| data.copy_to_bytes(data.remaining()))),
                Err(error) => Err(error.to_string()),
            })
        })
    }
}

/// A redirect to another origin than the request's, refused: its URL.
#[derive(Debug)]
struct OtherOrigin(String);

impl core::fmt::Display for OtherOrigin {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "a redirect to another origin, {}, not followed", self.0)
    }
}

impl std::error::Error for OtherOrigin {}

/// Redirects followed to the request's own origin only (scheme, host and port): the request's
/// body and its session id go nowhere else.
fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let first = attempt.previous().first().map(|url| url.origin());
        if first != Some(attempt.url().origin()) {
            let to = attempt.url().to_string();
            return attempt.error(OtherOrigin(to));
        }
        if attempt.previous().len() > MAX_REDIRECTS {
            let why = format!("more than {MAX_REDIRECTS} redirects");
            return attempt.error(why);
        }
        attempt.follow()
    })
}

/// reqwest as the sender; `connect_timeout` is the one its client was built with, named by
/// the error when it passes.
fn reqwest_sender(http: reqwest::Client, connect_timeout: Option<Duration>) -> Sender {
    Arc::new(move |request: ::http::Request<String>| {
        let http = http.clone();
        let sent = async move {
            let request = reqwest::Request::try_from(request)
                .map_err(|error| CallError::Transport(error_chain(&error)))?;
            let response = http
                .execute(request)
                .await
                .map_err(|error| sending_failed(&error, connect_timeout))?;
            let (parts, body) = ::http::Response::from(response).into_parts();
            Ok(::http::Response::from_parts(parts, Body::of(body)))
        };
        Box::pin(sent) as Pin<Box<dyn SendFuture>>
    })
}

/// What a request reqwest could not send amounts to: a bound when it is one.
fn sending_failed(error: &reqwest::Error, connect_timeout: Option<Duration>) -> CallError {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(error) = cause {
        if let Some(OtherOrigin(to)) = error.downcast_ref::<OtherOrigin>() {
            return CallError::Bound(Bound::OtherOrigin(to.clone()));
        }
        cause = error.source();
    }
    match connect_timeout {
        Some(timeout) if error.is_connect() && error.is_timeout() => {
            CallError::Bound(Bound::ConnectTimeout(timeout))
        }
        _ => CallError::Transport(error_chain(error)),
    }
}

/// An error and its causes, as one line.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(error) = cause {
        text.push_str(": ");
        text.push_str(&error.to_string());
        cause = error.source();
    }
    text
}

pub(super) struct HttpLink {
    send: Sender,
    url: String,
    options: HttpOptions,
    /// The session's `Mcp-Session-Id`, once the server gave one.
    session: Mutex<Option<String>>,
    /// The task that reads the server's own stream, ended with the link.
    own_stream: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

/// What a stream's events left: the last event id, the server's `retry` delay.
#[derive(Default)]
struct StreamEnd {
    last_id: Option<String>,
    retry: Option<Duration>,
}

impl StreamEnd {
    /// Takes note of `event`'s id and `retry`.
    fn note(&mut self, event: &SseEvent) {
        if let Some(id) = &event.id {
            self.last_id = Some(id.clone());
        }
        if let Some(retry) = event.retry {
            self.retry = Some(Duration::from_millis(retry).min(MAX_RETRY));
        }
    }
}

/// One POST of an exchange, while its response is read and what it gave is sent back.
struct Post {
    /// The line POSTed.
    line: String,
    /// The caller's request this POST carries (the exchange's first): its stream is read
    /// only until it is answered, and resumed when it ends before.
    id: Option<RequestId>,
    status: ::http::StatusCode,
    /// The lines to send back before reading on, in order.
    to_send: VecDeque<String>,
    /// The events read and not handled yet.
    events: VecDeque<SseEvent>,
    end: StreamEnd,
    /// How many times the stream was resumed.
    resumed: usize,
    stage: Stage,
}

/// Where a POST's reading is.
enum Stage {
    /// Its event stream is read.
    Reading(Body, SseReader),
    /// Its event stream ended: resumed if the caller's answer has not come.
    Ended,
    /// Nothing is left to read: the engine is told the answer will not come.
    Read,
    /// The caller, still waiting, is told so; then the POST is done.
    Done,
}

/// What one step of a POST left.
enum Step {
    Going,
    Done,
}

impl HttpLink {
    pub(super) fn new(url: String, send: Sender, options: HttpOptions) -> Self {
        HttpLink {
            send,
            url,
            options,
            session: Mutex::new(None),
            own_stream: Mutex::new(None),
        }
    }

    /// The longest one call may take.
    pub(super) fn call_timeout(&self) -> Option<Duration> {
        self.options.call_timeout
    }

    fn session(&self) -> Option<String> {
        lock(&self.session).clone()
    }

    /// Ends the task that reads the server's own stream: it holds the connection's state while
    /// it reads, so it would outlive the connection otherwise.
    pub(super) fn stop_own_stream(&self) {
        if let Some(task) = lock(&self.own_stream).take() {
            task.abort();
        }
    }

    /// A request to the server's URL with `headers`, and the session's id once there is one.
    fn request(
        &self,
        method: ::http::Method,
        headers: impl IntoIterator<Item = (String, String)>,
        body: String,
    ) -> Result<::http::Request<String>, CallError> {
        let mut request = ::http::Request::builder()
            .method(method)
            .uri(self.url.as_str());
        for (name, value) in headers {
            request = request.header(name, value);
        }
        if let Some(session) = self.session() {
            request = request.header(MCP_SESSION_ID, session);
        }
        request
            .body(body)
            .map_err(|e| CallError::Transport(e.to_string()))
    }

    /// Sends `request`; a redirect that came back unfollowed is an error.
    async fn send(&self, request: ::http::Request<String>) -> Result<Response, CallError> {
        let response = (self.send)(request).await?;
        let status = response.status();
        if status.is_redirection() {
            let to = response.headers().get(::http::header::LOCATION);
            let to = to.and_then(|to| to.to_str().ok()).unwrap_or("nowhere said");
            let why = format!("HTTP {status}, a redirect to {to}, not followed");
            return Err(CallError::Transport(why));
        }
        Ok(response)
    }

    /// A `GET` for an event stream: to resume one after `last_id`, or the server's own.
    fn get(
        &self,
        inner: &Inner,
        last_id: Option<String>,
    ) -> Result<::http::Request<String>, CallError> {
        let mut headers = vec![("Accept".to_owned(), "text/event-stream".to_owned())];
        if let Some(version) = inner.engine().version() {
            headers.push((MCP_PROTOCOL_VERSION.to_owned(), version.as_str().to_owned()));
        }
        if let Some(last_id) = last_id {
            headers.push((LAST_EVENT_ID.to_owned(), last_id));
        }
        self.request(::http::Method::GET, headers, String::new())
    }

    /// Opens the server's own stream of a session (`GET`), read by a task of its own until
    /// the link is dropped, resumed after its last event when it ends; waits until its
    /// headers came (or a few seconds). A server that has no such stream (405) is left be.
    pub(super) async fn open_own_stream(inner: &Arc<Inner>) {
        let Some(link) = inner.http_link() else {
            return;
        };
        if link.session().is_none() {
            return; // stateless: no session, no stream of its own
        }
        let (opened, open) = tokio::sync::oneshot::channel();
        let reader = Arc::downgrade(inner);
        let task = tokio::spawn(async move {
            let mut opened = Some(opened);
            let mut end = StreamEnd::default();
            for _ in 0..=RESUMPTIONS {
                let Some(inner) = reader.upgrade() else {
                    return;
                };
                let Some(link) = inner.http_link() else {
                    return;
                };
                if let Some(retry) = end.retry.filter(|_| end.last_id.is_some()) {
                    tokio::time::sleep(retry).await;
                }
                let Ok(request) = link.get(&inner, end.last_id.clone()) else {
                    return;
                };
                let response = link.send(request).await;
                if let Some(opened) = opened.take() {
                    let _ = opened.send(());
                }
                let Ok(response) = response else {
                    return;
                };
                if !response.status().is_success() || !is_event_stream(&response) {
                    return;
                }
                let Ok(resumed) = link.read_own_stream(&inner, response).await else {
                    return;
                };
                end = StreamEnd {
                    last_id: resumed.last_id.or(end.last_id),
                    retry: resumed.retry.or(end.retry),
                };
            }
        });
        *lock(&link.own_stream) = Some(task);
        let _ = tokio::time::timeout(OWN_STREAM_WAIT, open).await;
    }

    /// Reads the server's own stream to its end, each request on it answered in an exchange
    /// of its own (within the call timeout), before the stream goes on.
    async fn read_own_stream(
        &self,
        inner: &Inner,
        response: Response,
    ) -> Result<StreamEnd, CallError> {
        let mut body = response.into_body();
        let mut reader = SseReader::new(self.options.max_event);
        let mut end = StreamEnd::default();
        // A connection that breaks mid-stream ends it as its end would: resumed if it can be.
        while let Ok(Some(bytes)) = body.chunk().await {
            let events = reader.feed(&bytes).map_err(|_| self.event_too_long())?;
            for event in events {
                end.note(&event);
                if event.data.is_empty() {
                    continue; // an event that only sets an id: the priming event
                }
                for next in inner.receive(&event.data) {
                    let answered = self.exchange(inner, next, None);
                    match self.options.call_timeout {
                        Some(limit) => match tokio::time::timeout(limit, answered).await {
                            Ok(answered) => answered?,
                            Err(_) => return Err(CallError::Timeout(limit)),
                        },
                        None => answered.await?,
                    }
                }
            }
        }
        Ok(end)
    }

    fn event_too_long(&self) -> CallError {
        CallError::Bound(Bound::EventSize(self.options.max_event))
    }

    /// POSTs `line` and reads what answers it, sending back what the engine gives to send as
    /// it comes (a server's request waits for its answer before its stream goes on), each in
    /// a POST of its own read the same way: one loop over a list of the POSTs open, the
    /// latest read first, so that a server that answers each answer with another request
    /// lengthens the list (up to [`HttpOptions::with_max_server_requests`]), not the stack.
    pub(super) async fn exchange(
        &self,
        inner: &Inner,
        line: String,
        id: Option<RequestId>,
    ) -> Result<(), CallError> {
        let mut idle = Idle::new(self.options.idle_timeout);
        let mut posts: Vec<Post> = Vec::new();
        let mut next = Some((line, id));
        // The server's requests this exchange answered.
        let mut answered = 0usize;
        loop {
            if let Some((line, id)) = next.take() {
                idle.renew();
                let post = self.post(inner, line, id, &mut idle).await?;
                posts.push(post);
                continue;
            }
            let Some(post) = posts.last_mut() else {
                return Ok(());
            };
            if let Some(line) = post.to_send.pop_front() {
                answered += usize::from(is_answer(&line));
                if answered > self.options.max_server_requests {
                    let bound = Bound::ServerRequests(self.options.max_server_requests);
                    return Err(CallError::Bound(bound));
                }
                next = Some((line, None));
                continue;
            }
            if let Step::Done = self.step(inner, post, &mut idle).await? {
                posts.pop();
            }
        }
    }

    /// POSTs `line` and reads its response's headers, and its body when it is not an event
    /// stream.
    async fn post(
        &self,
        inner: &Inner,
        line: String,
        id: Option<RequestId>,
        idle: &mut Idle,
    ) -> Result<Post, CallError> {
        let headers = inner.engine().http_headers(&line);
        let request = self.request(::http::Method::POST, headers, line.clone())?;
        let response = idle.within(self.send(request)).await??;
        if let Some(session) = response.headers().get(MCP_SESSION_ID) {
            if let Ok(session) = session.to_str() {
                *lock(&self.session) = Some(session.to_owned());
            }
        }
        let status = response.status();
        let mut post = Post {
            line,
            id,
            status,
            to_send: VecDeque::new(),
            events: VecDeque::new(),
            end: StreamEnd::default(),
            resumed: 0,
            stage: Stage::Read,
        };
        if is_event_stream(&response) {
            let reader = SseReader::new(self.options.max_event);
            post.stage = Stage::Reading(response.into_body(), reader);
            return Ok(post);
        }
        let max = self.options.max_answer;
        let declared = response.headers().get(::http::header::CONTENT_LENGTH);
        let declared = declared.and_then(|length| length.to_str().ok()?.parse::<u64>().ok());
        if declared.is_some_and(|length| length > max as u64) {
            return Err(CallError::Bound(Bound::AnswerSize(max)));
        }
        let body = idle.within(response.into_body().whole(max)).await??;
        let body = String::from_utf8_lossy(&body);
        let body = body.trim();
        if body.starts_with('{') || body.starts_with('[') {
            idle.renew();
            post.to_send.extend(inner.receive(body));
        } else if !status.is_success() {
            let why = format!("HTTP {status} with no JSON-RPC answer");
            let why = RpcError::new(ErrorCode::InternalError, why);
            post.to_send.extend(inner.no_answer(&post.line, why));
        }
        Ok(post)
    }

    /// One step of reading `post`: an event handled, a chunk read, the stream resumed, or
    /// its end told.
    async fn step(
        &self,
        inner: &Inner,
        post: &mut Post,
        idle: &mut Idle,
    ) -> Result<Step, CallError> {
        if let Some(event) = post.events.pop_front() {
            post.end.note(&event);
            if !event.data.is_empty() {
                idle.renew();
                post.to_send
                    .extend(inner.receive_on(&event.data, post.id.as_ref()));
                if post.id.as_ref().is_some_and(|id| !inner.waits(id)) {
                    // Answered: the stream may be one the server keeps open.
                    post.events.clear();
                    post.stage = Stage::Read;
                }
            }
            return Ok(Step::Going);
        }
        match &mut post.stage {
            Stage::Reading(body, reader) => match idle.within(body.chunk()).await? {
                Ok(Some(bytes)) => {
                    let events = reader.feed(&bytes).map_err(|_| self.event_too_long())?;
                    post.events.extend(events);
                }
                // A connection that breaks mid-stream ends it as its end would: resumed if it
                // can be.
                Ok(None) | Err(_) => post.stage = Stage::Ended,
            },
            Stage::Ended => {
                post.stage = Stage::Read;
                let Some(id) = post.id.clone().filter(|id| inner.waits(id)) else {
                    return Ok(Step::Going);
                };
                let resumed = match post.resumed < RESUMPTIONS {
                    true => self.resume(inner, &post.line, &post.end, idle).await?,
                    false => None,
                };
                if let Some(stream) = resumed {
                    post.resumed += 1;
                    post.stage = Stage::Reading(stream, SseReader::new(self.options.max_event));
                } else if inner.waits(&id) {
                    let why = "the answer's stream ended, and resuming it did not bring the answer";
                    let why = RpcError::new(ErrorCode::InternalError, why);
                    post.to_send.extend(inner.no_answer(&post.line, why));
                }
            }
            Stage::Read => {
                // A request's answer came in its exchange, or it never will: the engine is
                // told (it ignores a line already answered). A refusal whose body names no
                // request (a stateful server's 400 to `server/discover`, with a null id) so
                // still moves the engine on to `initialize`.
                let status = post.status;
                let why = match status.is_success() {
                    true => "the server's response ended without the answer".to_owned(),
                    false => format!("HTTP {status} without the answer"),
                };
                let why = RpcError::new(ErrorCode::InternalError, why);
                post.to_send.extend(inner.no_answer(&post.line, why));
                post.stage = Stage::Done;
            }
            Stage::Done => {
                if let Some(id) = &post.id {
                    // Over HTTP every answer comes within its exchange: a caller still
                    // waiting (a server that ended the exchange in the middle of an input
                    // round) is told now, not never.
                    inner.give_up(id, "the exchange ended without the answer");
                }
                return Ok(Step::Done);
            }
        }
        Ok(Step::Going)
    }

    /// The stream of request `line`, which ended before its answer at `end`, resumed: `GET`
    /// with `Last-Event-ID`, after the server's `retry` delay. `None` when it cannot be (no
    /// event id to resume after, refused).
    async fn resume(
        &self,
        inner: &Inner,
        line: &str,
        end: &StreamEnd,
        idle: &mut Idle,
    ) -> Result<Option<Body>, CallError> {
        let Some(last_id) = end.last_id.clone() else {
            return Ok(None); // nothing to resume after
        };
        if let Some(retry) = end.retry {
            tokio::time::sleep(retry).await;
        }
        let mut headers = vec![
            ("Accept".to_owned(), "text/event-stream".to_owned()),
            (LAST_EVENT_ID.to_owned(), last_id),
        ];
        let named = inner.engine().http_headers(line).into_iter();
        headers.extend(named.filter(|(name, _)| name.eq_ignore_ascii_case(MCP_PROTOCOL_VERSION)));
        let request = self.request(::http::Method::GET, headers, String::new())?;
        idle.renew();
        let response = idle.within(self.send(request)).await??;
        if !response.status().is_success() || !is_event_stream(&response) {
            return Ok(None);
        }
        Ok(Some(response.into_body()))
    }
}

/// The idle timeout of one exchange: the time left until the server's next message.
struct Idle {
    timeout: Option<Duration>,
    deadline: Option<Instant>,
}

impl Idle {
    fn new(timeout: Option<Duration>) -> Self {
        Idle {
            timeout,
            deadline: timeout.map(|timeout| Instant::now() + timeout),
        }
    }

    /// A message came, or a request went: the wait starts again.
    fn renew(&mut self) {
        self.deadline = self.timeout.map(|timeout| Instant::now() + timeout);
    }

    /// `waited`, unless the deadline passes first: then [`Bound::IdleTimeout`].
    async fn within<T>(&self, waited: impl Future<Output = T>) -> Result<T, CallError> {
        match (self.deadline, self.timeout) {
            (Some(deadline), Some(timeout)) => tokio::time::timeout_at(deadline, waited)
                .await
                .map_err(|_| CallError::Bound(Bound::IdleTimeout(timeout))),
            _ => Ok(waited.await),
        }
    }
}

/// Whether `line`, one the engine gave to send, answers a request of the server (a response:
/// an id and no method). The engine's other lines are bounded by the engine itself (one
/// `initialize`, eight `input_required` rounds).
fn is_answer(line: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Sent {
        method: Option<serde::de::IgnoredAny>,
    }
    crate::json::from_str::<Sent>(line).is_ok_and(|sent| sent.method.is_none())
}

fn is_event_stream(response: &Response) -> bool {
    response
        .headers()
        .get(::http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"))
}
