//! A client over stdio, built as a crate of its own with the `stdio-client` feature alone
//! (tests/sdk_old.rs): starts the server command it is given, says the revision it speaks
//! with it, lists its tools and calls `add`.
//!
//! usage: stdio-client <server program> [its arguments...]

use mcp_spec_types::client::{Client, Connection};
use mcp_spec_types::v2026_07_28::Implementation;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut command = tokio::process::Command::new(args.next().ok_or("a server program")?);
    command.args(args);
    let client = Client::new(Implementation::new("adder", "0.1.0"));
    let server = Connection::stdio(command, client).await?;
    let version = server.version().map(|v| v.as_str().to_owned());
    println!("version: {}", version.unwrap_or_default());
    for tool in server.list_tools().await? {
        println!("tool: {}", tool.name);
    }
    let sum = server
        .call_tool("add", serde_json::json!({"a": 2, "b": 3.5}))
        .await?;
    println!("add: {}", serde_json::to_string(&sum.content)?);
    Ok(())
}
