//! Streamable HTTP, the client's side: each message a POST, its answer JSON or an event
//! stream, the session's id, the server's own stream (`GET`), and a stream resumed with `GET`
//! and `Last-Event-ID`. The requests go out through a sender: reqwest's by default, or the
//! caller's ([`Connection::http_via`](super::Connection::http_via)).

use super::sse::SseReader;
use super::{lock, CallError, Inner};
use crate::http_headers::{LAST_EVENT_ID, MCP_PROTOCOL_VERSION, MCP_SESSION_ID};
use crate::prelude::*;
use crate::{ErrorCode, RequestId, RpcError};
use bytes::{Buf, Bytes};
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How many times a stream that ends before its answer is resumed.
const RESUMPTIONS: usize = 3;

/// The longest a server's `retry` makes the client wait before it resumes.
const MAX_RETRY: Duration = Duration::from_secs(30);

/// How long connecting waits for the server's own stream to open: a server may answer on any
/// stream of the session, so the stream should be open before the first call.
const OWN_STREAM_WAIT: Duration = Duration::from_secs(5);

/// A response whose body is read as it comes.
pub(super) type Response = ::http::Response<Body>;

/// What sends one request and gives its response.
pub(super) type Sender =
    Arc<dyn Fn(::http::Request<String>) -> Pin<Box<dyn SendFuture>> + Send + Sync>;

/// A sent request's response, coming.
pub(super) trait SendFuture: Future<Output = Result<Response, String>> + Send {}
impl<F: Future<Output = Result<Response, String>> + Send> SendFuture for F {}

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

    /// The whole body.
    async fn whole(mut self) -> Result<Vec<u8>, String> {
        let mut whole = Vec::new();
        while let Some(chunk) = self.chunk().await? {
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

/// reqwest as the sender.
pub(super) fn reqwest_sender(http: reqwest::Client) -> Sender {
    Arc::new(move |request: ::http::Request<String>| {
        let http = http.clone();
        let sent = async move {
            let request = reqwest::Request::try_from(request).map_err(|e| e.to_string())?;
            let response = http.execute(request).await.map_err(|e| e.to_string())?;
            let (parts, body) = ::http::Response::from(response).into_parts();
            Ok(::http::Response::from_parts(parts, Body::of(body)))
        };
        Box::pin(sent) as Pin<Box<dyn SendFuture>>
    })
}

pub(super) struct HttpLink {
    send: Sender,
    url: String,
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

impl HttpLink {
    pub(super) fn new(url: String, send: Sender) -> Self {
        HttpLink {
            send,
            url,
            session: Mutex::new(None),
            own_stream: Mutex::new(None),
        }
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

    async fn send(&self, request: ::http::Request<String>) -> Result<Response, CallError> {
        (self.send)(request).await.map_err(CallError::Transport)
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
                let Ok(resumed) = link.read_stream(&inner, response, None).await else {
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

    /// POSTs `line` and reads what answers it, sending what the engine gives to send back.
    pub(super) fn exchange<'a>(
        &'a self,
        inner: &'a Inner,
        line: String,
        id: Option<RequestId>,
    ) -> Pin<Box<dyn Future<Output = Result<(), CallError>> + Send + 'a>> {
        Box::pin(async move {
            let headers = inner.engine().http_headers(&line);
            let request = self.request(::http::Method::POST, headers, line.clone())?;
            let response = self.send(request).await?;
            if let Some(session) = response.headers().get(MCP_SESSION_ID) {
                if let Ok(session) = session.to_str() {
                    *lock(&self.session) = Some(session.to_owned());
                }
            }
            let status = response.status();
            let to_send = if is_event_stream(&response) {
                let end = self.read_stream(inner, response, id.as_ref()).await?;
                match &id {
                    Some(id) if inner.waits(id) => self.resume(inner, &line, id, end).await?,
                    _ => Vec::new(),
                }
            } else {
                let body = response.into_body().whole().await;
                let body = body.map_err(CallError::Transport)?;
                let body = String::from_utf8_lossy(&body);
                let body = body.trim();
                if body.starts_with('{') || body.starts_with('[') {
                    inner.receive(body)
                } else if status.is_success() {
                    Vec::new()
                } else {
                    let why = format!("HTTP {status} with no JSON-RPC answer");
                    inner.no_answer(&line, RpcError::new(ErrorCode::InternalError, why))
                }
            };
            for next in to_send {
                self.exchange(inner, next, None).await?;
            }
            // A request's answer came in its exchange, or it never will: the engine is told
            // (it ignores a line already answered). A refusal whose body names no request (a
            // stateful server's 400 to `server/discover`, with a null id) so still moves the
            // engine on to `initialize`.
            let why = match status.is_success() {
                true => "the server's response ended without the answer".to_owned(),
                false => format!("HTTP {status} without the answer"),
            };
            let to_send = inner.no_answer(&line, RpcError::new(ErrorCode::InternalError, why));
            for next in to_send {
                self.exchange(inner, next, None).await?;
            }
            if let Some(id) = &id {
                // Over HTTP every answer comes within its exchange: a caller still waiting
                // (a server that ended the exchange in the middle of an input round) is
                // told now, not never.
                inner.give_up(id, "the exchange ended without the answer");
            }
            Ok(())
        })
    }

    /// Reads an event stream to its end, giving each message to the engine and sending what
    /// it gives to send back as it comes (a server's request waits for its answer before the
    /// stream goes on); with `until`, only until that request is answered: a resumed stream
    /// may be one the server keeps open.
    async fn read_stream(
        &self,
        inner: &Inner,
        response: Response,
        until: Option<&RequestId>,
    ) -> Result<StreamEnd, CallError> {
        let mut body = response.into_body();
        let mut reader = SseReader::default();
        let mut end = StreamEnd::default();
        // A connection that breaks mid-stream ends it as its end would: resumed if it can be.
        while let Ok(Some(bytes)) = body.chunk().await {
            for event in reader.feed(&bytes).map_err(CallError::Transport)? {
                if let Some(id) = event.id {
                    end.last_id = Some(id);
                }
                if let Some(retry) = event.retry {
                    end.retry = Some(Duration::from_millis(retry).min(MAX_RETRY));
                }
                if event.data.is_empty() {
                    continue; // an event that only sets an id: the priming event
                }
                for next in inner.receive(&event.data) {
                    self.exchange(inner, next, None).await?;
                }
                if until.is_some_and(|id| !inner.waits(id)) {
                    return Ok(end);
                }
            }
        }
        Ok(end)
    }

    /// Resumes the stream of request `id` (sent as `line`) that ended before its answer: `GET`
    /// with `Last-Event-ID`, after the server's `retry` delay, until the answer comes.
    async fn resume(
        &self,
        inner: &Inner,
        line: &str,
        id: &RequestId,
        mut end: StreamEnd,
    ) -> Result<Vec<String>, CallError> {
        for _ in 0..RESUMPTIONS {
            let Some(last_id) = end.last_id.clone() else {
                break; // nothing to resume after
            };
            if let Some(retry) = end.retry {
                tokio::time::sleep(retry).await;
            }
            let mut headers = vec![
                ("Accept".to_owned(), "text/event-stream".to_owned()),
                (LAST_EVENT_ID.to_owned(), last_id),
            ];
            let named = inner.engine().http_headers(line).into_iter();
            headers
                .extend(named.filter(|(name, _)| name.eq_ignore_ascii_case(MCP_PROTOCOL_VERSION)));
            let request = self.request(::http::Method::GET, headers, String::new())?;
            let response = self.send(request).await?;
            if !response.status().is_success() || !is_event_stream(&response) {
                break;
            }
            let resumed = self.read_stream(inner, response, Some(id)).await?;
            if !inner.waits(id) {
                return Ok(Vec::new());
            }
            end = StreamEnd {
                last_id: resumed.last_id.or(end.last_id),
                retry: resumed.retry.or(end.retry),
            };
        }
        let why = "the answer's stream ended, and resuming it did not bring the answer";
        Ok(inner.no_answer(line, RpcError::new(ErrorCode::InternalError, why)))
    }
}

fn is_event_stream(response: &Response) -> bool {
    response
        .headers()
        .get(::http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"))
}
