//! A Streamable HTTP MCP server for the MCP conformance suite (`@modelcontextprotocol/conformance`),
//! every message read and written with this crate's types.
//!
//! ```text
//! cargo run --example conformance-server --features all-revisions,http-server -- [--port <n>]
//! ```
//!
//! With the `auth` feature, `--auth <issuer-url>` makes `/mcp` an OAuth protected resource
//! whose tokens that authorization server issues (`auth.rs`).
//!
//! Serves `http://127.0.0.1:<port>/mcp` (port 0, the default, picks a free one) and prints
//! `listening on <url>` once it accepts connections.
//!
//! The engine (`mcp_spec_types::server`) does the protocol: `initialize` and sessions for the
//! stateful revisions (2024-11-05 to 2025-11-25), stateless requests of 2026-07-28 with
//! `server/discover` and `subscriptions/listen`, each revision's shapes and error codes, the
//! header checks, `input_required` (asked of a session's client as requests of its revision),
//! progress and log messages, list-changed notifications, event streams and their
//! resumption, and `Origin` checks. What is left here:
//! * the handler (`handler.rs`), written once against 2026-07-28's types: the reference
//!   server's tools, prompts and resources (`fixtures.rs`), and for stateless requests the
//!   SEP-2322 tools (`input_required.rs`) and the tasks extension (`tasks.rs`, SEP-2663);
//! * the transport (`http.rs`): the crate's Streamable HTTP service served by axum, with the
//!   loopback names alone in `Host` (DNS rebinding), and a session's `tools/call` answered on
//!   an event stream opened at once (`test_reconnection` closes it before the answer, which
//!   the client then resumes);
//! * OAuth (`auth.rs`), with the `auth` feature.

#[cfg(feature = "auth")]
mod auth;
mod fixtures;
mod handler;
mod http;
mod input_required;
mod tasks;

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut port = 0u16;
    // `--port <n>` and `--port=<n>` alike.
    let mut args = std::env::args()
        .skip(1)
        .flat_map(|arg| match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => {
                vec![name.to_owned(), value.to_owned()]
            }
            _ => vec![arg],
        });
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--port", Some(p)) if p.parse::<u16>().is_ok() => port = p.parse().unwrap_or(0),
            #[cfg(feature = "auth")]
            ("--auth", Some(issuer)) => {
                if let Err(e) = auth::enable(&issuer) {
                    eprintln!("conformance-server: {e}");
                    return ExitCode::from(2);
                }
            }
            _ => {
                eprintln!("usage: conformance-server [--port <n>] [--auth <issuer-url>] (--auth needs the `auth` feature)");
                return ExitCode::from(2);
            }
        }
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("conformance-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(port)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("conformance-server: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(port: u16) -> std::io::Result<()> {
    let server = handler::server().map_err(std::io::Error::other)?;
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, http::app(server)).await
}
