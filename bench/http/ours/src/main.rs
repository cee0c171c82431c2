//! The `add` tool served over Streamable HTTP by this crate's `StreamableHttp`, through axum,
//! as `examples/http-server.rs` serves it: `http-bench-ours --port <n>` (0: any free port);
//! built with the feature `redis`, `--redis <url>` keeps its state in Redis.
//! Prints `listening on http://<address>/mcp` once it takes connections. Sets TCP_NODELAY on
//! every connection unless `--no-nodelay`.

use axum::serve::ListenerExt;
use mcp_spec_types::server::{Router, Server, StreamableHttp};
use mcp_spec_types::v2026_07_28::*;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: f64,
    b: f64,
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let router = Router::new().typed_tool("add", |Add { a, b }| {
        Ok(CallToolResult::text((a + b).to_string()))
    });
    // The defaults: at most 1,024 sessions (the session measurement opens 1,000), 30 minutes
    // idle, the loopback origins.
    let mcp = StreamableHttp::new(Server::new(Implementation::new("memo", "0.1.0"), router));
    #[cfg(feature = "redis")]
    let mcp = match flag("--redis") {
        Some(url) => {
            let store = mcp_spec_types::server::store::RedisStore::open(&url);
            mcp.with_store(store.map_err(std::io::Error::other)?)
        }
        None => mcp,
    };
    let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{}", port())).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    let app = axum::Router::new().route_service("/mcp", mcp);
    if std::env::args().any(|a| a == "--no-nodelay") {
        return axum::serve(listener, app).await;
    }
    axum::serve(listener.tap_io(nodelay), app).await
}

/// Sets TCP_NODELAY on an accepted connection (unless `--no-nodelay`), as both servers of the
/// comparison do: an answer written in several pieces (an event stream) then goes out at
/// once, not after the client's delayed acknowledgement (about 40 ms).
fn nodelay(tcp: &mut tokio::net::TcpStream) {
    let _ = tcp.set_nodelay(true);
}

/// The port after `--port`, 0 without one.
fn port() -> u16 {
    flag("--port")
        .and_then(|port| port.parse().ok())
        .unwrap_or(0)
}

/// The value after `name`.
fn flag(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1).cloned()
}
