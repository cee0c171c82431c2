use mcp_spec_types::server::{Router, Server, StreamableHttp, Structured};
use mcp_spec_types::v2026_07_28::*;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: f64,
    b: f64,
}
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum {
    sum: f64,
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let router = Router::new()
        .typed_tool("add", |Add { a, b }| {
            Ok(CallToolResult::text((a + b).to_string()))
        })
        .typed_tool("sum", |Add { a, b }| Ok(Structured(Sum { sum: a + b })))
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        });
    let mcp = StreamableHttp::new(Server::new(Implementation::new("memo", "0.1.0"), router));
    let args = std::env::args().skip(1).collect::<Vec<_>>().join("="); // --port <n>, --port=<n>
    let port = args.strip_prefix("--port=").unwrap_or("0");
    let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{port}")).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    mcp.serve(listener).await
}
