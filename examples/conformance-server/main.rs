//! A Streamable HTTP MCP server for the MCP conformance suite (`@modelcontextprotocol/conformance`),
//! every message read and written with this crate's types.
//!
//! ```text
//! cargo run --example conformance-server --features all-revisions,convert -- [--port <n>]
//! ```
//!
//! With the `auth` feature, `--auth <issuer-url>` makes `/mcp` an OAuth protected resource
//! whose tokens that authorization server issues (`auth.rs`).
//!
//! Serves `http://127.0.0.1:<port>/mcp` (port 0, the default, picks a free one) and prints
//! `listening on <url>` once it accepts connections.
//!
//! * Two lifecycles on one endpoint, chosen per request. A POST whose `params._meta` names a
//!   protocol version (or whose `MCP-Protocol-Version` header names one that is not a stateful
//!   revision) is stateless, 2026-07-28 (`stateless.rs`): no session, every request carrying
//!   its version and the client's capabilities; `server/discover`, `subscriptions/listen`
//!   streams (`listen.rs`), results with `resultType` and cache hints. Any other POST belongs
//!   to a session.
//! * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on the stateless path
//!   (`tasks.rs`): for a request that declares it, some tools answer with a task handle, which
//!   `tasks/get`, `tasks/update` and `tasks/cancel` follow.
//! * Sessions (`Mcp-Session-Id`) in every stateful revision (2024-11-05 to 2025-11-25), chosen
//!   by `initialize` with the crate's negotiation rule; each session's messages are read and
//!   written in its own revision's types (`revision.rs`).
//! * The handlers are written once, against 2026-07-28's types (`fixtures.rs`: the tools,
//!   prompts and resources of the suite's reference server), and see a request only as a
//!   `Call` (`call.rs`): a stateless request reaches them as it is; a session's request is
//!   converted up to them and the answer down, for a peer, to the session's revision. What
//!   only sessions have (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe`)
//!   stays in the session layer (`http.rs`).
//! * In a session, a POST with `tools/call` is answered on an SSE stream, which also carries
//!   the call's notifications and requests to the client (sampling, elicitation); other
//!   requests get JSON. Every stream opens with a priming event (`id`, `retry`, no data) and
//!   keeps its events, so a client resumes it with GET and `Last-Event-ID`; GET alone opens
//!   the server's own stream (without a session, GET is 405); DELETE ends the session.
//! * Bad input gets the JSON-RPC or HTTP error the specification names (`http.rs`): 403 for a
//!   Host or Origin that is not local (DNS rebinding), 404 for an unknown session, 400 for an
//!   unsupported `MCP-Protocol-Version`, 413 above 4 MiB, -32700/-32600/-32601/-32602.

#[cfg(feature = "auth")]
mod auth;
mod call;
mod fixtures;
mod http;
mod input_required;
mod listen;
mod revision;
mod session;
mod stateless;
mod tasks;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use std::process::ExitCode;
use std::sync::Arc;

fn main() -> ExitCode {
    let mut port = 0u16;
    let mut args = std::env::args().skip(1);
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
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    let sessions = Arc::new(session::Sessions::default());
    loop {
        let (stream, _) = listener.accept().await?;
        let sessions = Arc::clone(&sessions);
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let sessions = Arc::clone(&sessions);
                async move { Ok::<_, std::convert::Infallible>(http::serve(sessions, request).await) }
            });
            // A connection that breaks off mid-request only ends itself.
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
