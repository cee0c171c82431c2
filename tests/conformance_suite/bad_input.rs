//! Bad input to the example server gets the JSON-RPC or HTTP error the specification names.

use crate::server::{code, exchange, open_session, post, Server, ACCEPT, JSON};
use serde_json::Value;

#[test]
fn bad_input_gets_the_error_the_specification_names() {
    let mut server = Server::start();
    let port = server.port();
    let session = open_session(port, "2025-11-25");
    let s = Some(session.as_str());

    // Not JSON: -32700, with a null id, HTTP 400.
    let (status, body) = post(port, s, "{not json");
    assert_eq!((status, code(&body)), (400, -32700), "{body}");
    assert_eq!(body["id"], Value::Null);
    let (status, body) = post(port, None, "\u{1}");
    assert_eq!((status, code(&body)), (400, -32700), "{body}");
    // JSON that is not JSON-RPC: -32600.
    let (status, body) = post(port, s, r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#);
    assert_eq!((status, code(&body)), (400, -32600), "{body}");
    // A method the client does not send, and one nobody defines: -32601 with the request's id.
    let (status, body) = post(
        port,
        s,
        r#"{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}"#,
    );
    assert_eq!(
        (status, code(&body), body["id"].clone()),
        (200, -32601, Value::from(4)),
        "{body}"
    );
    let (status, body) = post(
        port,
        s,
        r#"{"jsonrpc":"2.0","id":"x","method":"no/such/method"}"#,
    );
    assert_eq!(
        (status, code(&body), body["id"].clone()),
        (200, -32601, Value::from("x")),
        "{body}"
    );
    // Params that do not fit: -32602.
    let (status, body) = post(
        port,
        s,
        r#"{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":7}}"#,
    );
    assert_eq!((status, code(&body)), (200, -32602), "{body}");
    let (status, body) = post(
        port,
        s,
        r#"{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"test://nothing"}}"#,
    );
    assert_eq!((status, code(&body)), (200, -32002), "{body}");
    // A batch where the revision has none (2025-11-25): -32600; in 2025-03-26 it is answered.
    let batch =
        r#"[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":8,"method":"ping"}]"#;
    let (status, body) = post(port, s, batch);
    assert_eq!((status, code(&body)), (400, -32600), "{body}");
    let old = open_session(port, "2025-03-26");
    let (status, body) = post(port, Some(&old), batch);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body.as_array().map(Vec::len), Some(2), "{body}");
    assert_eq!(body[1]["id"], 8);
    // Initialize again in a session: -32600.
    let again = r#"{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let (_, body) = post(port, s, again);
    assert_eq!(code(&body), -32600, "{body}");

    // Sessions: a request other than initialize without one is read as a stateless request
    // (2026-07-28), and `ping` is no method of that revision (404, -32601); an unknown session
    // is 404 too.
    let ping = r#"{"jsonrpc":"2.0","id":10,"method":"ping"}"#;
    let (status, body) = post(port, None, ping);
    assert_eq!((status, code(&body)), (404, -32601), "{body}");
    assert_eq!(post(port, Some("no-such-session"), ping).0, 404);
    // A body over the stated limit (4 MiB): 413.
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":11,"method":"ping","params":{{"_meta":{{"x":"{}"}}}}}}"#,
        "a".repeat(4 * 1024 * 1024)
    );
    assert_eq!(post(port, s, &big).0, 413);
    // HTTP-level refusals.
    let (status, _, _) = exchange(
        port,
        "POST",
        &[
            JSON,
            ACCEPT,
            ("mcp-session-id", &session),
            ("host", "evil.example.com"),
        ],
        ping.into(),
    );
    assert_eq!(status, 403, "a foreign Host");
    let (status, _, _) = exchange(
        port,
        "POST",
        &[
            JSON,
            ACCEPT,
            ("mcp-session-id", &session),
            ("origin", "http://evil.example.com"),
        ],
        ping.into(),
    );
    assert_eq!(status, 403, "a foreign Origin");
    let (status, _, _) = exchange(
        port,
        "POST",
        &[
            ("content-type", "text/plain"),
            ACCEPT,
            ("mcp-session-id", &session),
        ],
        ping.into(),
    );
    assert_eq!(status, 415, "a body that is not JSON by its type");
    let (status, _, _) = exchange(
        port,
        "POST",
        &[JSON, ("accept", "text/html"), ("mcp-session-id", &session)],
        ping.into(),
    );
    assert_eq!(status, 406, "an Accept without JSON or SSE");
    let (status, _, _) = exchange(
        port,
        "POST",
        &[
            JSON,
            ACCEPT,
            ("mcp-session-id", &session),
            ("mcp-protocol-version", "1999-01-01"),
        ],
        ping.into(),
    );
    assert_eq!(status, 400, "an unsupported MCP-Protocol-Version");
    let (status, _, _) = exchange(
        port,
        "GET",
        &[("accept", "application/json"), ("mcp-session-id", &session)],
        Vec::new(),
    );
    assert_eq!(status, 406, "GET without Accept: text/event-stream");
    // (An unknown `Last-Event-ID` opens the session's own stream afresh, as a server that
    // does not resume would: `tests/server_http.rs` has it, where the open stream can be read
    // without waiting for its end.)
    let (status, _, _) = exchange(port, "PUT", &[], Vec::new());
    assert_eq!(status, 405);

    // The server is still there and answers; DELETE ends the session.
    let (status, body) = post(port, s, ping);
    assert_eq!(
        (status, body["result"].clone()),
        (200, serde_json::json!({})),
        "{body}"
    );
    let (status, _, _) = exchange(port, "DELETE", &[("mcp-session-id", &session)], Vec::new());
    assert_eq!(status, 200);
    assert_eq!(post(port, s, ping).0, 404, "a request in an ended session");
    assert!(server.is_running(), "the server is still running");
}
