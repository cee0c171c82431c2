//! The first server's router over Streamable HTTP, with hyper: the engine
//! (`Server::http`) does the transport's rules (sessions, headers, statuses), this file only
//! moves requests and responses between hyper and it.
//!
//! cargo run --example http-server --features server,v2025_11_25 -- [--port <n>]
//!
//! It prints `listening on http://127.0.0.1:<port>/mcp` once it accepts connections.

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use mcp_spec_types::server::{Router, Server, Sessions};
use mcp_spec_types::v2026_07_28::*;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Arc, Mutex};
use std::time::Instant;

fn router() -> Router {
    let numbers = serde_json::json!({"a": {"type": "number"}, "b": {"type": "number"}});
    let schema = ToolInputSchema::new().with_extra("properties", numbers);
    Router::new()
        .tool(Tool::new("add", schema), |call| {
            let arguments = call.arguments.unwrap_or_default();
            let number = |n| arguments.get::<f64>(n).and_then(Result::ok).unwrap_or(0.0);
            Ok(CallToolResult::text(
                (number("a") + number("b")).to_string(),
            ))
        })
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        })
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

struct State {
    server: Server<Router>,
    sessions: Mutex<Sessions>,
    started: Instant,
}

async fn serve(state: Arc<State>, request: Request<Incoming>) -> Response<Full<Bytes>> {
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
    let response = {
        let mut sessions = state.sessions.lock().unwrap_or_else(|p| p.into_inner());
        (state.server).http(&mut sessions, parts.method.as_str(), header, body, now_ms)
    };
    let mut reply = Response::builder().status(response.status);
    for (name, value) in &response.headers {
        reply = reply.header(*name, value);
    }
    if response.body.is_some() {
        reply = reply.header("Content-Type", "application/json");
    }
    let body = Full::new(Bytes::from(response.body.unwrap_or_default()));
    reply.body(body).unwrap_or_else(|_| status(500))
}

fn status(code: u16) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::new()));
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
        sessions: Mutex::new(Sessions::new(session_ids())),
        started: Instant::now(),
    });
    let runtime = tokio::runtime::Runtime::new()?;
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
