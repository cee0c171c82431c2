//! A server with an async tool, over stdio: `wait` sleeps on tokio's timer, reporting its
//! progress each quarter as it goes; `roots` asks the client for its roots (`input_required`,
//! which the engine relays to a 2025-11-25 client as a `roots/list` request, calling the tool
//! again with the answer). The stdio loop runs each call on a thread of its own, inside the
//! runtime `main` runs in, so a call still waiting holds up none sent after it, and a call the
//! client cancels is never answered.
//!
//! cargo run --example async-server --features server,v2025_11_25

use mcp_spec_types::server::{Router, Server};
use mcp_spec_types::v2026_07_28::input_required::{InputRequired, RoundTrip};
use mcp_spec_types::v2026_07_28::*;
use std::time::Duration;

/// `wait`'s arguments: its schema is the tool's `inputSchema`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Wait {
    /// How long to wait, in milliseconds.
    #[schemars(range(max = 10_000))]
    ms: Option<u64>,
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let router = Router::new()
        .typed_tool_async("wait", |Wait { ms }, mut context| async move {
            let ms = ms.unwrap_or(0);
            for quarter in 1..=4u64 {
                tokio::time::sleep(Duration::from_millis(ms.min(10_000) / 4)).await;
                context.progress(quarter, Some(4.into()), None);
            }
            Ok(CallToolResult::text(format!("waited {ms} ms")))
        })
        .tool(Tool::new("roots", ToolInputSchema::new()), |call| {
            if let Ok(listed) = RoundTrip::of(&call).roots("roots") {
                let uris: Vec<&str> = listed.roots.iter().map(|r| r.uri.as_str()).collect();
                return Ok(CallToolResult::text(uris.join(" ")).into());
            }
            let client = &call.meta.io_modelcontextprotocol_client_capabilities;
            let asked = InputRequired::new().list_roots("roots").build(client)?;
            Ok(CallToolResultOrInputRequired::from(asked))
        });
    let server = Server::new(Implementation::new("waiter", "0.1.0"), router);
    // The loop blocks its thread: it runs beside the runtime's workers, which the tools use.
    tokio::task::spawn_blocking(move || server.serve_stdio()).await?
}
