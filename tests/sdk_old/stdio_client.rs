//! A client over stdio, built as a crate of its own with the `stdio-client` feature alone
//! (tests/sdk_old.rs): starts the server command it is given, says the revision it speaks
//! with it, lists its tools and calls one.
//!
//! usage: stdio-client [--version <revision>] <tool> <arguments as JSON> <server program> [its arguments...]
//!
//! `--version` narrows the revisions the client speaks to one (by default, every one its
//! build speaks).

use mcp_spec_types::client::{Client, Connection};
use mcp_spec_types::v2026_07_28::Implementation;
use mcp_spec_types::ProtocolVersion;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).peekable();
    let mut client = Client::new(Implementation::new("caller", "0.1.0"));
    if args.next_if_eq("--version").is_some() {
        let version = args.next().ok_or("a revision after --version")?;
        client = client.with_versions([ProtocolVersion::from(version.as_str())]);
    }
    let tool = args.next().ok_or("a tool")?;
    let arguments: serde_json::Value = serde_json::from_str(&args.next().ok_or("arguments")?)?;
    let mut command = tokio::process::Command::new(args.next().ok_or("a server program")?);
    command.args(args);
    let server = Connection::stdio(command, client).await?;
    let version = server.version().map(|v| v.as_str().to_owned());
    println!("version: {}", version.unwrap_or_default());
    for tool in server.list_tools().await? {
        println!("tool: {}", tool.name);
    }
    let result = server.call_tool(&tool, arguments).await?;
    println!("{tool}: {}", serde_json::to_string(&result.content)?);
    Ok(())
}
