use mcp_spec_types::client::{CallOptions, Client, Connection};
use mcp_spec_types::v2026_07_28::Implementation;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1); // [url] [tool]
    let url = args.next().unwrap_or("http://127.0.0.1:8080/mcp".into());
    let tool = args.next().unwrap_or("add".into()); // one of two numbers, `a` and `b`
    let client = Client::new(Implementation::new("adder", "0.1.0"));
    let server = Connection::http(url, client).await?;
    for tool in server.list_tools().await? {
        println!("tool: {}", tool.name);
    }
    let progress = CallOptions::new().on_progress(|p| println!("progress: {}", p.progress));
    let arguments = serde_json::json!({"a": 2, "b": 3.5});
    let sum = server.call_tool_with(&tool, arguments, progress).await?;
    println!("{tool}: {}", serde_json::to_string(&sum.content)?);
    Ok(())
}
