use mcp_spec_types::client::{CallOptions, Client, Connection};
use mcp_spec_types::v2026_07_28::Implementation;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .unwrap_or("http://127.0.0.1:8080/mcp".into());
    let client = Client::new(Implementation::new("adder", "0.1.0"));
    let server = Connection::http(url, client).await?;
    for tool in server.list_tools().await? {
        println!("tool: {}", tool.name);
    }
    let progress = CallOptions::new().on_progress(|p| println!("progress: {}", p.progress));
    let arguments = serde_json::json!({"a": 2, "b": 3.5});
    let sum = server.call_tool_with("add", arguments, progress).await?;
    println!("add: {}", serde_json::to_string(&sum.content)?);
    Ok(())
}
