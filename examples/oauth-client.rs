//! A client of a server behind OAuth (feature `oauth`): the provider discovers the
//! authorization server, registers the client, and asks the user to sign in; the user pastes
//! back the address the browser was sent to. The README shows this file.
//!
//! ```text
//! cargo run --example oauth-client --features oauth -- https://mcp.example.com/mcp
//! ```

use mcp_spec_types::client::{oauth::OAuth, Client};
use mcp_spec_types::v2026_07_28::Implementation;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .unwrap_or("http://127.0.0.1:8080/mcp".into());
    let oauth =
        OAuth::new(&url, "http://127.0.0.1:8976/callback").with_browser(|page| async move {
            println!("Sign in at {page}\nthen paste the address the browser was sent back to:");
            let mut back = String::new();
            std::io::stdin()
                .read_line(&mut back)
                .map_err(|e| e.to_string())?;
            Ok(back.trim().to_owned())
        });
    let server = oauth
        .connect(Client::new(Implementation::new("me", "0.1.0")))
        .await?;
    for tool in server.list_tools().await? {
        println!("tool: {}", tool.name);
    }
    Ok(())
}
