//! Streamable HTTP over hyper: the engine (`Server::http_receive`, `Sessions`) applies the
//! transport's rules (sessions, versions, headers, statuses, event streams and their
//! resumption); this file moves requests, responses and events between hyper and it, runs the
//! handler on a thread of its own, and adds what is about HTTP alone (the endpoint's path, the
//! body's size and type, the Host header, and OAuth with the `auth` feature).

use crate::handler::Conformance;
use http_body_util::channel::{Channel, Sender};
use http_body_util::{BodyExt, Either, Full, Limited};
use hyper::body::{Bytes, Frame, Incoming};
use hyper::header::{HeaderMap, ACCEPT, CONTENT_TYPE, HOST};
use hyper::{Method, Request, Response, StatusCode};
use mcp_spec_types::server::{
    Handler, HttpAnswer, HttpCall, HttpIncoming, HttpResponse, Server, Sessions, StreamEvent,
    StreamId,
};
use mcp_spec_types::v2026_07_28::ClientCall;
use mcp_spec_types::{ErrorCode, RpcError};
use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// The largest request body the server reads.
pub const MAX_BODY: usize = 4 * 1024 * 1024;

/// How long a client waits before it resumes a stream the server closed (SEP-1699).
const RETRY_MS: u64 = 500;

/// How many events a stream holds for a client that has not read them yet; a client further
/// behind is taken to be gone.
const STREAM_BUFFER: usize = 64;

/// A response body: whole, or a stream of server-sent events.
pub type Body = Either<Full<Bytes>, Channel<Bytes>>;

/// The engine's sessions and the event streams open on them: one lock, so that events go out
/// in the order the engine gives them.
struct Open {
    sessions: Sessions,
    streams: HashMap<StreamId, Sender<Bytes>>,
}

/// What every connection shares.
pub struct State {
    server: Server<Conformance>,
    open: Mutex<Open>,
    started: Instant,
}

impl State {
    pub fn new(server: Server<Conformance>) -> Self {
        State {
            server,
            open: Mutex::new(Open {
                sessions: Sessions::new(session_ids()),
                streams: HashMap::new(),
            }),
            started: Instant::now(),
        }
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn open(&self) -> MutexGuard<'_, Open> {
        // Every change under the lock is whole before the next step: a thread that panicked
        // holding it leaves it usable.
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes a comment (which clients skip) on every open stream: a stream whose client went
    /// away is found by writing to it, and closed, so that the engine frees what it kept for
    /// it.
    pub fn ping(&self) {
        let now_ms = self.now_ms();
        let mut open = self.open();
        let Open { sessions, streams } = &mut *open;
        streams.retain(|stream, sender| {
            let alive = sender.try_send(Frame::data(Bytes::from_static(b":\n\n")));
            if alive.is_err() {
                sessions.close(stream, now_ms);
            }
            alive.is_ok()
        });
    }
}

/// Session ids from the standard library's per-process random keys: unique, and hard to guess
/// from outside.
fn session_ids() -> impl FnMut() -> String + Send + 'static {
    let keys = RandomState::new();
    let mut count = 0u64;
    move || {
        count += 1;
        format!(
            "{:016x}{:016x}",
            keys.hash_one(count),
            keys.hash_one(!count)
        )
    }
}

impl Open {
    /// Writes each event on its stream; a stream whose client went away is closed.
    fn send(&mut self, events: Vec<StreamEvent>, now_ms: u64) {
        for event in events {
            let Some(sender) = self.streams.get_mut(&event.stream) else {
                continue;
            };
            let sent = sender.try_send(Frame::data(Bytes::from(event.to_sse())));
            if sent.is_err() || event.last {
                self.streams.remove(&event.stream);
                self.sessions.close(&event.stream, now_ms);
            }
        }
    }

    /// `response` as hyper's: a stream it opens is kept under its id, and its events (and
    /// those for other streams) are written.
    fn deliver(&mut self, mut response: HttpResponse, now_ms: u64) -> Response<Body> {
        let content_type = response.content_type();
        let body = match response.stream.take() {
            Some(stream) => {
                let (sender, channel) = Channel::new(STREAM_BUFFER);
                self.streams.insert(stream, sender);
                Either::Right(channel)
            }
            None => Either::Left(Full::new(Bytes::from(
                response.body.take().unwrap_or_default(),
            ))),
        };
        let events = std::mem::take(&mut response.events);
        self.send(events, now_ms);
        // Dropping a stream's sender ends its body.
        for ended in &response.ended {
            self.streams.remove(ended);
        }
        let mut reply = Response::builder().status(response.status);
        for (name, value) in &response.headers {
            reply = reply.header(*name, value);
        }
        if let Some(content_type) = content_type {
            reply = reply.header(CONTENT_TYPE, content_type);
        }
        reply.body(body).unwrap_or_else(|_| status(500))
    }

    /// The response to an answer, with what the handler said changed told to every client
    /// that listens for it.
    fn finish(&mut self, server: &Server<Conformance>, answer: HttpAnswer) -> HttpResponse {
        let mut response = self.sessions.finish(answer);
        for change in std::mem::take(&mut response.changes) {
            let told = self.sessions.notify(server, &change);
            response.events.extend(told);
        }
        response
    }
}

fn status(code: u16) -> Response<Body> {
    let mut response = Response::new(Either::Left(Full::new(Bytes::new())));
    *response.status_mut() =
        StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    response
}

/// A refusal of HTTP's own, with a JSON-RPC error without an id for the client to read.
fn refuse(code: StatusCode, error: ErrorCode, text: &str) -> Response<Body> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": RpcError::new(error, text),
    });
    let mut response = Response::new(Either::Left(Full::new(Bytes::from(body.to_string()))));
    *response.status_mut() = code;
    response.headers_mut().insert(
        CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

fn header(headers: &HeaderMap, name: impl hyper::header::AsHeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn accepts(headers: &HeaderMap, kind: &str) -> bool {
    header(headers, ACCEPT).is_some_and(|a| a.contains(kind) || a.contains("*/*"))
}

/// Whether every `Host` names this machine's loopback interface: a request that reached a
/// local server under a foreign name came through DNS rebinding (the engine checks `Origin`,
/// which a browser sends; this catches the rest).
fn local_host(headers: &HeaderMap) -> bool {
    headers.get_all(HOST).iter().all(|host| {
        let Ok(authority) = host.to_str() else {
            return false;
        };
        let name = match authority.strip_prefix('[') {
            Some(rest) => rest.split(']').next().unwrap_or_default(),
            None => authority.split(':').next().unwrap_or_default(),
        };
        matches!(
            name.to_ascii_lowercase().as_str(),
            "localhost" | "127.0.0.1" | "::1"
        )
    })
}

/// Serves one HTTP request.
pub async fn serve(state: Arc<State>, request: Request<Incoming>) -> Response<Body> {
    if !local_host(request.headers()) {
        return refuse(
            StatusCode::FORBIDDEN,
            ErrorCode::InvalidRequest,
            "Forbidden: the Host is not local",
        );
    }
    #[cfg(feature = "auth")]
    let mut granted = None;
    #[cfg(feature = "auth")]
    if crate::auth::enabled() {
        let path = request.uri().path();
        if let Some(document) = crate::auth::metadata_response(path, request.headers()) {
            let mut response = Response::new(Either::Left(Full::new(Bytes::from(document))));
            response.headers_mut().insert(
                CONTENT_TYPE,
                hyper::header::HeaderValue::from_static("application/json"),
            );
            return response;
        }
        if path == "/mcp" {
            match crate::auth::check(request.headers()).await {
                Ok(found) => granted = found,
                Err(denial) => return denied(&denial),
            }
        }
    }
    if request.uri().path() != "/mcp" {
        return refuse(
            StatusCode::NOT_FOUND,
            ErrorCode::InvalidRequest,
            "not found: the endpoint is /mcp",
        );
    }
    let (parts, body) = request.into_parts();
    let headers = &parts.headers;
    let mut text = String::new();
    if parts.method == Method::POST {
        if !(accepts(headers, "application/json") || accepts(headers, "text/event-stream")) {
            return refuse(
                StatusCode::NOT_ACCEPTABLE,
                ErrorCode::InvalidRequest,
                "Not Acceptable: Accept application/json and text/event-stream",
            );
        }
        if !header(headers, CONTENT_TYPE).is_some_and(|t| t.starts_with("application/json")) {
            return refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorCode::InvalidRequest,
                "Unsupported Media Type: Content-Type must be application/json",
            );
        }
        let bytes = match Limited::new(body, MAX_BODY).collect().await {
            Ok(body) => body.to_bytes(),
            Err(e) if e.is::<http_body_util::LengthLimitError>() => {
                let text = format!("Payload Too Large: the limit is {MAX_BODY} bytes");
                return refuse(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    ErrorCode::InvalidRequest,
                    &text,
                );
            }
            Err(_) => {
                let text = "the body could not be read";
                return refuse(StatusCode::BAD_REQUEST, ErrorCode::ParseError, text);
            }
        };
        text = match String::from_utf8(Vec::from(bytes)) {
            Ok(text) => text,
            Err(_) => {
                let text = "Parse error: the body is not UTF-8";
                return refuse(StatusCode::BAD_REQUEST, ErrorCode::ParseError, text);
            }
        };
        #[cfg(feature = "auth")]
        if let Some(granted) = &granted {
            if let Err(denial) = crate::auth::check_body(granted, headers, &text) {
                return denied(&denial);
            }
        }
    }
    // A client that takes JSON alone gets every answer as JSON, a `tools/call`'s too.
    let streams = accepts(headers, "text/event-stream");
    let lookup = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let now_ms = state.now_ms();
    let incoming = {
        let mut open = state.open();
        let incoming = (state.server).http_receive(
            &mut open.sessions,
            parts.method.as_str(),
            lookup,
            &text,
            now_ms,
        );
        match incoming {
            HttpIncoming::Respond(response) => return open.deliver(response, now_ms),
            HttpIncoming::Call(call) => call,
            _ => return status(500),
        }
    };
    answer(state, incoming, streams).await
}

/// Answers a call: a session's `tools/call` on an event stream opened at once (which the
/// client can resume, and which carries what the tool asks the client) when the client takes
/// event streams, any other call with its answer once the handler gave it.
async fn answer(state: Arc<State>, mut call: HttpCall, streams: bool) -> Response<Body> {
    let (tool, closes) = match call.pending().call() {
        request @ ClientCall::CallTool(_) => (streams, Conformance::closes_stream(request)),
        _ => (false, false),
    };
    let opened = if tool {
        let mut open = state.open();
        let opened = open.sessions.open_stream(&mut call, Some(RETRY_MS));
        opened.map(|response| {
            let stream = response.stream.clone();
            let reply = open.deliver(response, state.now_ms());
            if closes {
                // The priming event is written; the connection ends with it, and the answer
                // waits for the client to resume the stream.
                if let Some(stream) = &stream {
                    open.streams.remove(stream);
                }
            }
            reply
        })
    } else {
        None
    };
    match opened {
        Some(reply) => {
            tokio::spawn(async move {
                let answer = run(&state, call).await;
                let now_ms = state.now_ms();
                let mut open = state.open();
                let response = open.finish(&state.server, answer);
                // Only events: the call's own response is the stream already sent.
                let events = response.events;
                open.send(events, now_ms);
                for ended in &response.ended {
                    open.streams.remove(ended);
                }
            });
            reply
        }
        None => {
            let answer = run(&state, call).await;
            let now_ms = state.now_ms();
            let mut open = state.open();
            let response = open.finish(&state.server, answer);
            open.deliver(response, now_ms)
        }
    }
}

/// Runs the handler on a thread that may block (a tool that sleeps), and writes its answer.
async fn run(state: &Arc<State>, call: HttpCall) -> HttpAnswer {
    let (request, mut context, responder) = call.into_parts();
    let shared = Arc::clone(state);
    let ran = tokio::task::spawn_blocking(move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            shared.server.handler().call(request, &mut context)
        }));
        (result, context)
    })
    .await;
    let (result, mut context) = match ran {
        Ok((Ok(result), context)) => (result, context),
        Ok((Err(_), context)) => {
            let error = RpcError::new(ErrorCode::InternalError, "the handler failed");
            (Err(error), context)
        }
        Err(e) => {
            let error = RpcError::new(ErrorCode::InternalError, e.to_string());
            return responder.respond(Err(error));
        }
    };
    responder.respond_with(&mut context, result)
}

/// 401 or 403 with the challenge of an OAuth protected resource.
#[cfg(feature = "auth")]
fn denied(denial: &crate::auth::Denial) -> Response<Body> {
    let mut response = Response::new(Either::Left(Full::new(Bytes::from(denial.body()))));
    *response.status_mut() = denial.status;
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    if let Ok(value) = hyper::header::HeaderValue::from_str(&denial.header()) {
        headers.insert(hyper::header::WWW_AUTHENTICATE, value);
    }
    response
}
