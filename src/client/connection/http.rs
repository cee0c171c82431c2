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
use core::future::Future;
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

mod options;
mod sender;

pub use options::HttpOptions;
use sender::{error_chain, reqwest_sender, same_origin_redirects, Body, Response, Sender};

impl HttpOptions {
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
    fn new(url: String, send: Sender, options: HttpOptions) -> Self {
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
