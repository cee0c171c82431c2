use mcp_spec_types::server::{Router, Server};
use mcp_spec_types::v2026_07_28::*;

fn add(call: CallToolRequestParams) -> CallToolResult {
    let arguments = call.arguments.unwrap_or_default();
    let number = |n| arguments.get::<f64>(n).and_then(Result::ok).unwrap_or(0.0);
    CallToolResult::text((number("a") + number("b")).to_string())
}

fn main() -> std::io::Result<()> {
    let numbers = serde_json::json!({"a": {"type": "number"}, "b": {"type": "number"}});
    let schema = ToolInputSchema::new().with_extra("properties", numbers);
    let router = Router::new()
        .tool(Tool::new("add", schema), |call| Ok(add(call)))
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        });
    Server::new(Implementation::new("memo", "0.1.0"), router).serve_stdio()
}
