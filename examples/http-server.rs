//! The first server's router over Streamable HTTP, with hyper: the engine
//! (`Server::http`) does the transport's rules (sessions, headers, statuses, event streams),
//! this file only moves requests, responses and events between hyper and it.
//!
//! Its `roots` tool asks the client for its roots: a 2026-07-28 client gets `input_required`
//! and retries; a 2025-11-25 client is asked `roots/list` on the call's event stream. Its
//! `count` tool reports progress and logs each step, which go before its answer on the call's
//! event stream, as far as the client asked for them.
//!
//! cargo run --example http-server --features server,v2025_11_25 -- [--port <n>]
//!
//! It prints `listening on http://127.0.0.1:<port>/mcp` once it accepts connections.

use http_body_util::channel::{Channel, Sender};
use http_body_util::{BodyExt, Either, Full};
use hyper::body::{Bytes, Frame, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use mcp_spec_types::server::{
    HttpResponse, Router, Server, Sessions, StreamEvent, StreamId, Structured,
};
use mcp_spec_types::v2026_07_28::input_required::{InputRequired, RoundTrip};
use mcp_spec_types::v2026_07_28::*;
use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Arc, Mutex};
use std::time::Instant;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: f64,
    b: f64,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum {
    sum: f64,
}

fn router() -> Router {
    Router::new()
        .typed_tool("add", |Add { a, b }| {
            Ok(CallToolResult::text((a + b).to_string()))
        })
        // The same sum as a structure: listed with its `outputSchema`, answered with
        // `structuredContent` and the same JSON as text.
        .typed_tool("sum", |Add { a, b }| Ok(Structured(Sum { sum: a + b })))
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        })
        .tool(Tool::new("roots", ToolInputSchema::new()), |call| {
            if let Ok(listed) = RoundTrip::of(&call).roots("roots") {
                let uris: Vec<&str> = listed.roots.iter().map(|r| r.uri.as_str()).collect();
                return Ok(CallToolResult::text(uris.join(" ")).into());
            }
            let client = &call.meta.io_modelcontextprotocol_client_capabilities;
            let asked = InputRequired::new().list_roots("roots").build(client)?;
            Ok(CallToolResultOrInputRequired::from(asked))
        })
        .tool_with(Tool::new("count", ToolInputSchema::new()), |_, context| {
            for step in 1..=3 {
                context.progress(step, Some(3.into()), Some(&format!("step {step}")));
                context.log(LoggingLevel::Info, format!("counted {step}"));
            }
            Ok(CallToolResult::text("3"))
        })
        .with_logging()
}

/// Session ids from the standard library's per-process random keys. Unique, and hard to
/// guess from outside; a server with stronger needs draws them from a CSPRNG.
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

/// The engine's sessions and the event streams open on them: one lock, so that events go out
/// in the order the engine gives them.
struct Open {
    sessions: Sessions,
    streams: HashMap<StreamId, Sender<Bytes>>,
}

struct State {
    server: Server<Router>,
    open: Mutex<Open>,
    started: Instant,
}

type Body = Either<Full<Bytes>, Channel<Bytes>>;

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

    /// Writes a comment (which clients skip) on every open stream: a connection the client
    /// closed (or one too slow to take 64 events) is found by writing to it, and its stream
    /// closed, so that the engine frees what it kept for it (a `GET` stream's session, a
    /// `subscriptions/listen` stream).
    fn ping(&mut self, now_ms: u64) {
        let Open { sessions, streams } = self;
        streams.retain(|stream, sender| {
            let alive = sender.try_send(Frame::data(Bytes::from_static(b":\n\n")));
            if alive.is_err() {
                sessions.close(stream, now_ms);
            }
            alive.is_ok()
        });
    }
}

async fn serve(state: Arc<State>, request: Request<Incoming>) -> Response<Body> {
    let (parts, body) = request.into_parts();
    let body = match body.collect().await {
        Ok(body) => body.to_bytes(),
        Err(_) => return status(400),
    };
    let Ok(body) = std::str::from_utf8(&body) else {
        return status(400);
    };
    let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
    let now_ms = state.started.elapsed().as_millis() as u64;
    let mut open = state.open.lock().unwrap_or_else(|p| p.into_inner());
    let mut response: HttpResponse = (state.server).http(
        &mut open.sessions,
        parts.method.as_str(),
        header,
        body,
        now_ms,
    );
    let content_type = response.content_type();
    let body = match response.stream.take() {
        Some(stream) => {
            let (sender, channel) = Channel::new(64);
            open.streams.insert(stream, sender);
            Either::Right(channel)
        }
        None => Either::Left(Full::new(Bytes::from(
            response.body.take().unwrap_or_default(),
        ))),
    };
    let events = std::mem::take(&mut response.events);
    open.send(events, now_ms);
    // Dropping a stream's sender ends its body.
    for ended in &response.ended {
        open.streams.remove(ended);
    }
    let mut reply = Response::builder().status(response.status);
    for (name, value) in &response.headers {
        reply = reply.header(*name, value);
    }
    if let Some(content_type) = content_type {
        reply = reply.header("Content-Type", content_type);
    }
    reply.body(body).unwrap_or_else(|_| status(500))
}

fn status(code: u16) -> Response<Body> {
    let mut response = Response::new(Either::Left(Full::new(Bytes::new())));
    *response.status_mut() = hyper::StatusCode::from_u16(code).unwrap_or_default();
    response
}

fn main() -> std::io::Result<()> {
    let port = match std::env::args().skip(1).collect::<Vec<_>>().as_slice() {
        [flag, port] if flag == "--port" => port.parse().unwrap_or(0),
        _ => 0u16,
    };
    let state = Arc::new(State {
        server: Server::new(Implementation::new("memo", "0.1.0"), router()),
        open: Mutex::new(Open {
            sessions: Sessions::new(session_ids()),
            streams: HashMap::new(),
        }),
        started: Instant::now(),
    });
    let runtime = tokio::runtime::Runtime::new()?;
    let pinger = Arc::clone(&state);
    runtime.spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(15));
        loop {
            every.tick().await;
            let now_ms = pinger.started.elapsed().as_millis() as u64;
            let mut open = pinger.open.lock().unwrap_or_else(|p| p.into_inner());
            open.ping(now_ms);
        }
    });
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        println!("listening on http://{}/mcp", listener.local_addr()?);
        loop {
            let (stream, _) = listener.accept().await?;
            let state = Arc::clone(&state);
            tokio::spawn(async move {
                let service = service_fn(move |request| {
                    let state = Arc::clone(&state);
                    async move { Ok::<_, std::convert::Infallible>(serve(state, request).await) }
                });
                // A connection that breaks off mid-request only ends itself.
                let _ = http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    })
}
