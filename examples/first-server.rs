use mcp_spec_types::server::{Router, Server};
use mcp_spec_types::v2026_07_28::*;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: f64,
    b: f64,
}

fn main() -> std::io::Result<()> {
    let router = Router::new()
        .typed_tool("add", |Add { a, b }| {
            Ok(CallToolResult::text((a + b).to_string()))
        })
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        });
    Server::new(Implementation::new("memo", "0.1.0"), router).serve_stdio()
}
