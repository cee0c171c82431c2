//! Streamable HTTP, the client's side: each message a POST, its answer JSON or an event
//! stream, the session's id, and a stream resumed with `GET` and `Last-Event-ID`.

use super::sse::SseReader;
use super::{lock, CallError, Inner};
use crate::http_headers::{LAST_EVENT_ID, MCP_SESSION_ID};
use crate::prelude::*;
use crate::{ErrorCode, RequestId, RpcError};
use core::future::Future;
use core::pin::Pin;
use std::sync::Mutex;
use std::time::Duration;

/// How many times a stream that ends before its answer is resumed.
const RESUMPTIONS: usize = 3;

/// The longest a server's `retry` makes the client wait before it resumes.
const MAX_RETRY: Duration = Duration::from_secs(30);

pub(super) struct HttpLink {
    http: reqwest::Client,
    url: String,
    /// The session's `Mcp-Session-Id`, once the server gave one.
    session: Mutex<Option<String>>,
}

/// What a stream's events left: the last event id, the server's `retry` delay.
#[derive(Default)]
struct StreamEnd {
    last_id: Option<String>,
    retry: Option<Duration>,
}

impl HttpLink {
    pub(super) fn new(url: String) -> Self {
        Self::with_client(url, reqwest::Client::new())
    }

    pub(super) fn with_client(url: String, http: reqwest::Client) -> Self {
        HttpLink {
            http,
            url,
            session: Mutex::new(None),
        }
    }

    fn session(&self) -> Option<String> {
        lock(&self.session).clone()
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
            let mut request = self.http.post(&self.url).body(line.clone());
            for (name, value) in headers {
                request = request.header(name, value);
            }
            if let Some(session) = self.session() {
                request = request.header(MCP_SESSION_ID, session);
            }
            let response = request.send().await.map_err(transport)?;
            if let Some(session) = response.headers().get(MCP_SESSION_ID) {
                if let Ok(session) = session.to_str() {
                    *lock(&self.session) = Some(session.to_owned());
                }
            }
            let status = response.status();
            let to_send = if is_event_stream(&response) {
                let end = self.read_stream(inner, response).await?;
                match &id {
                    Some(id) if inner.waits(id) => self.resume(inner, &line, id, end).await?,
                    _ => Vec::new(),
                }
            } else {
                let body = response.bytes().await.map_err(transport)?;
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
            if let Some(id) = &id {
                if inner.waits(id) {
                    let why = "the server's response ended without the answer";
                    let to_send =
                        inner.no_answer(&line, RpcError::new(ErrorCode::InternalError, why));
                    for next in to_send {
                        self.exchange(inner, next, None).await?;
                    }
                }
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
    /// stream goes on).
    async fn read_stream(
        &self,
        inner: &Inner,
        mut response: reqwest::Response,
    ) -> Result<StreamEnd, CallError> {
        let mut reader = SseReader::default();
        let mut end = StreamEnd::default();
        // A connection that breaks mid-stream ends it as its end would: resumed if it can be.
        while let Ok(Some(bytes)) = response.chunk().await {
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
            let mut request = self
                .http
                .get(&self.url)
                .header("Accept", "text/event-stream")
                .header(LAST_EVENT_ID, last_id);
            for (name, value) in inner.engine().http_headers(line) {
                if name.eq_ignore_ascii_case(crate::http_headers::MCP_PROTOCOL_VERSION) {
                    request = request.header(name, value);
                }
            }
            if let Some(session) = self.session() {
                request = request.header(MCP_SESSION_ID, session);
            }
            let response = request.send().await.map_err(transport)?;
            if !response.status().is_success() || !is_event_stream(&response) {
                break;
            }
            let resumed = self.read_stream(inner, response).await?;
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

fn is_event_stream(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/event-stream"))
}

fn transport(error: reqwest::Error) -> CallError {
    CallError::Transport(error.to_string())
}
