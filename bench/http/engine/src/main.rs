//! What a `tools/call` costs the server engine alone, with no HTTP, no sockets and no runtime:
//! the same `add` tool as `http-bench-ours`, called as the load generator calls it, through
//! what `StreamableHttp` does for a call with nothing to report (`Server::http_receive`, the
//! handler, `HttpResponder::respond_with`, `Sessions::finish`):
//! - **2026-07-28**, stateless: the request carries its revision in `_meta` and the headers;
//! - **2025-11-25**, one session: the request names the session (`Mcp-Session-Id`); the engine
//!   converts it to the handler's 2026-07-28 terms and the answer back to 2025-11-25's.
//!
//! ```text
//! http-bench-engine [--rounds 21] [--calls 20000]
//! ```
//!
//! Each round times `--calls` calls of each revision, the order alternating from round to
//! round; printed: the median time per call of each and their ratio (the session's target is
//! at most 1.1x the stateless call).

use mcp_spec_types::server::{Handler, HttpIncoming, Router, Server, Sessions};
use mcp_spec_types::v2026_07_28::*;
use std::hint::black_box;
use std::time::Instant;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: f64,
    b: f64,
}

type Headers<'a> = [(&'a str, &'a str)];

/// One call through the engine; the answer's length.
fn call<H: Handler>(
    server: &Server<H>,
    sessions: &mut Sessions,
    headers: &Headers,
    body: &str,
) -> usize {
    let header = |name: &str| {
        let found = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name));
        found.map(|(_, value)| *value)
    };
    let response = match server.http_receive(sessions, "POST", header, body, 1) {
        HttpIncoming::Respond(response) => response,
        HttpIncoming::Call(call) => {
            let (call, mut context, responder) = call.into_parts();
            let result = server.handler().call(call, &mut context);
            sessions.finish(responder.respond_with(&mut context, result))
        }
        other => panic!("not a call: {other:?}"),
    };
    assert_eq!(response.status, 200, "{response:?}");
    let answer = response.body.expect("a JSON answer");
    assert!(answer.contains(r#""text":"3""#), "{answer}");
    answer.len()
}

fn number(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == name);
    at.and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(default)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let (rounds, calls) = (number("--rounds", 21), number("--calls", 20_000));
    let router = Router::new().typed_tool("add", |Add { a, b }| {
        Ok(CallToolResult::text((a + b).to_string()))
    });
    let server = Server::new(Implementation::new("memo", "0.1.0"), router);
    let mut sessions = Sessions::new({
        let mut next = 0u64;
        move || {
            next += 1;
            format!("s{next}")
        }
    });
    let base = [
        ("Accept", "application/json, text/event-stream"),
        ("Content-Type", "application/json"),
    ];
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"http-bench-engine","version":"0.0.0"}}}"#;
    let header = |name: &str| {
        base.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
    };
    let opened = server.http(&mut sessions, "POST", header, initialize, 0);
    let session = opened
        .headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("mcp-session-id"))
        .map(|(_, id)| id.clone())
        .expect("a session");
    let in_session = [
        base[0],
        base[1],
        ("MCP-Protocol-Version", "2025-11-25"),
        ("Mcp-Session-Id", session.as_str()),
    ];
    let header = |name: &str| {
        let found = in_session
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name));
        found.map(|(_, value)| *value)
    };
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert_eq!(
        server
            .http(&mut sessions, "POST", header, initialized, 0)
            .status,
        202
    );
    let stateless = [
        base[0],
        base[1],
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "add"),
    ];
    let stateless_body = |id: usize| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":1,"b":2}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
        )
    };
    let session_body = |id: usize| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":1,"b":2}}}}}}"#
        )
    };
    // The bodies are made before the clock starts: what is timed is the engine's work.
    let stateless_bodies: Vec<String> = (0..calls).map(stateless_body).collect();
    let session_bodies: Vec<String> = (0..calls).map(session_body).collect();
    let mut time = |headers: &Headers, bodies: &[String]| {
        let started = Instant::now();
        for body in bodies {
            black_box(call(&server, &mut sessions, headers, black_box(body)));
        }
        started.elapsed().as_secs_f64() * 1e6 / bodies.len() as f64
    };
    let (mut stateless_us, mut session_us) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        if round % 2 == 0 {
            stateless_us.push(time(&stateless, &stateless_bodies));
            session_us.push(time(&in_session, &session_bodies));
        } else {
            session_us.push(time(&in_session, &session_bodies));
            stateless_us.push(time(&stateless, &stateless_bodies));
        }
    }
    let (stateless_us, session_us) = (median(stateless_us), median(session_us));
    println!("| the engine alone, median of {rounds} rounds of {calls} calls | per call |");
    println!("|---|---|");
    println!("| 2026-07-28 stateless `tools/call` | {stateless_us:.2} µs |");
    println!("| 2025-11-25 one session `tools/call` | {session_us:.2} µs |");
    println!(
        "| session / stateless | {:.2}x |",
        session_us / stateless_us
    );
}
