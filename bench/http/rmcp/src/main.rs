//! The `add` tool served over Streamable HTTP by rmcp's `StreamableHttpService`, through
//! axum: `http-bench-rmcp --port <n>` (0: any free port). Prints
//! `listening on http://<address>/mcp` once it takes connections. Sets TCP_NODELAY on every
//! connection unless `--no-nodelay`.
//!
//! rmcp's configuration is its default but for `json_response`: sessions for the revisions
//! before 2026-07-28 (`legacy_session_mode: true`, answered as event streams), every
//! 2026-07-28 request served statelessly (rmcp routes them so whatever that setting), and a
//! stateless answer sent as one JSON message (`json_response: true`) rather than an event
//! stream, as this crate's service sends it.

use axum::serve::ListenerExt;
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{tool, tool_handler, tool_router, ServerHandler};
use std::sync::Arc;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: f64,
    b: f64,
}

/// The handler: the tool router built once, shared by every clone (see `main`).
#[derive(Clone)]
struct Memo {
    tool_router: Arc<ToolRouter<Self>>,
}

#[tool_router]
impl Memo {
    #[tool(description = "Adds two numbers")]
    fn add(&self, Parameters(Add { a, b }): Parameters<Add>) -> String {
        (a + b).to_string()
    }
}

// `router = self.tool_router`: the router built once. Without it the generated `call_tool` and
// `get_tool` build the router anew (`Self::tool_router()`) on every call.
#[tool_handler(router = self.tool_router)]
impl ServerHandler for Memo {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    // rmcp asks its factory for a handler per session and per stateless request: a clone of
    // one built here (an `Arc` of the router), the cheapest it can be given.
    let memo = Memo {
        tool_router: Arc::new(Memo::tool_router()),
    };
    let config = StreamableHttpServerConfig::default().with_json_response(true);
    let mcp: StreamableHttpService<Memo, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(memo.clone()), Default::default(), config);
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
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == "--port");
    at.and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(0)
}
