//! Bad input on the stateless (2026-07-28) path gets the JSON-RPC or HTTP error the
//! specification names, never a panic; and a 2026-07-28 client and a 2025-11-25 session on
//! one server process, at the same time, are each answered in their own revision.
//!
//! The codes: -32602 for a request whose `_meta` lacks what every stateless request carries,
//! -32022 `UnsupportedProtocolVersionError` (with `requested` and `supported`), -32020
//! `HeaderMismatchError` for headers that are missing or disagree with the body, all with
//! HTTP 400 (2026-07-28 schema and Streamable HTTP transport); -32601 with HTTP 404 for a
//! method the revision removed; HTTP 413 for a body over the server's stated limit.

use crate::server::{exchange, open_session, Server, ACCEPT, JSON};
use serde_json::{json, Value};

const VERSION: &str = "2026-07-28";

/// The `_meta` every stateless request carries.
fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientInfo": { "name": "t", "version": "1" },
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// A stateless POST: the standard headers for `method` (with `Mcp-Name` when given), each
/// replaced or dropped as `overrides` says (`None` drops it); returns status and body.
fn post(
    port: u16,
    id: i64,
    method: &str,
    params: Value,
    name: Option<&str>,
    overrides: &[(&str, Option<&str>)],
) -> (u16, Value) {
    let mut headers: Vec<(&str, &str)> = vec![
        JSON,
        ACCEPT,
        ("mcp-protocol-version", VERSION),
        ("mcp-method", method),
    ];
    if let Some(name) = name {
        headers.push(("mcp-name", name));
    }
    for (header, value) in overrides {
        headers.retain(|(h, _)| !h.eq_ignore_ascii_case(header));
        if let Some(value) = value {
            headers.push((header, value));
        }
    }
    let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    let (status, _, body) = exchange(port, "POST", &headers, body.to_string().into_bytes());
    (status, body)
}

/// The error's code, checking that it answers request `id`.
fn error_code(body: &Value, id: i64) -> i64 {
    assert_eq!(body["id"], id, "the error answers the request: {body}");
    body["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("no JSON-RPC error in {body}"))
}

#[test]
fn bad_input_on_the_stateless_path_gets_the_error_the_specification_names() {
    let mut server = Server::start();
    let port = server.port();

    // A well-formed request is answered, in 2026-07-28's vocabulary.
    let (status, body) = post(port, 1, "tools/list", json!({ "_meta": meta() }), None, &[]);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["resultType"], "complete", "{body}");

    // `_meta` missing, or missing the protocol version or the client capabilities: -32602.
    let (status, body) = post(port, 2, "tools/list", json!({}), None, &[]);
    assert_eq!((status, error_code(&body, 2)), (400, -32602), "{body}");
    for key in [
        "io.modelcontextprotocol/protocolVersion",
        "io.modelcontextprotocol/clientCapabilities",
    ] {
        let mut partial = meta();
        partial.as_object_mut().unwrap().remove(key);
        let (status, body) = post(
            port,
            3,
            "tools/list",
            json!({ "_meta": partial }),
            None,
            &[],
        );
        assert_eq!(
            (status, error_code(&body, 3)),
            (400, -32602),
            "{key}: {body}"
        );
    }
    // `clientInfo` is a SHOULD: a request without it is served.
    let mut no_info = meta();
    no_info
        .as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientInfo");
    let (status, body) = post(
        port,
        4,
        "tools/list",
        json!({ "_meta": no_info }),
        None,
        &[],
    );
    assert_eq!(status, 200, "{body}");

    // A version the server does not speak: -32022, naming what was asked and what it speaks.
    let mut future = meta();
    future["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let (status, body) = post(
        port,
        5,
        "tools/list",
        json!({ "_meta": future }),
        None,
        &[("mcp-protocol-version", Some("2099-01-01"))],
    );
    assert_eq!((status, error_code(&body, 5)), (400, -32022), "{body}");
    assert_eq!(body["error"]["data"]["requested"], "2099-01-01", "{body}");
    let supported = body["error"]["data"]["supported"]
        .as_array()
        .expect("supported versions");
    assert!(supported.contains(&json!(VERSION)), "{body}");

    // Headers missing or disagreeing with the body: -32020.
    let call = json!({ "name": "test_simple_text", "arguments": {}, "_meta": meta() });
    for (what, overrides) in [
        (
            "no MCP-Protocol-Version",
            vec![("mcp-protocol-version", None)],
        ),
        (
            "MCP-Protocol-Version against _meta",
            vec![("mcp-protocol-version", Some("2025-11-25"))],
        ),
        ("no Mcp-Method", vec![("mcp-method", None)]),
        (
            "Mcp-Method against the body",
            vec![("mcp-method", Some("tools/list"))],
        ),
        ("no Mcp-Name", vec![("mcp-name", None)]),
        (
            "Mcp-Name against the body",
            vec![("mcp-name", Some("test_error_handling"))],
        ),
    ] {
        let (status, body) = post(
            port,
            6,
            "tools/call",
            call.clone(),
            Some("test_simple_text"),
            &overrides,
        );
        assert_eq!(
            (status, error_code(&body, 6)),
            (400, -32020),
            "{what}: {body}"
        );
    }

    // A method this revision removed: -32601 with HTTP 404.
    let (status, body) = post(port, 7, "ping", json!({ "_meta": meta() }), None, &[]);
    assert_eq!((status, error_code(&body, 7)), (404, -32601), "{body}");

    // Input responses for a request that asked for none are ignored.
    let mut extra = call.clone();
    extra["inputResponses"] = json!({ "unasked": { "action": "accept", "content": {} } });
    let (status, body) = post(port, 8, "tools/call", extra, Some("test_simple_text"), &[]);
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["result"]["content"][0]["text"], "This is a simple text response for testing.",
        "{body}"
    );

    // Request state the server did not hand out (or handed out and someone changed): refused.
    // The tool asks for a confirmation: the client declares elicitation.
    let mut asks = meta();
    asks["io.modelcontextprotocol/clientCapabilities"] = json!({ "elicitation": {} });
    let first = json!({
        "name": "test_input_required_result_tampered_state",
        "arguments": {},
        "_meta": asks
    });
    let name = Some("test_input_required_result_tampered_state");
    let (status, body) = post(port, 9, "tools/call", first.clone(), name, &[]);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["resultType"], "input_required", "{body}");
    let state = body["result"]["requestState"]
        .as_str()
        .expect("request state")
        .to_owned();
    let mut tampered = first;
    tampered["requestState"] = json!(format!("{state}-TAMPERED"));
    let (_, body) = post(port, 10, "tools/call", tampered, name, &[]);
    assert_eq!(error_code(&body, 10), -32602, "{body}");

    // A body over the stated limit (4 MiB): 413.
    let big = json!({ "_meta": meta(), "cursor": "a".repeat(4 * 1024 * 1024) });
    let (status, _) = post(port, 11, "tools/list", big, None, &[]);
    assert_eq!(status, 413);

    assert!(server.is_running(), "the server is still running");
}

/// One server process, two clients at once: a 2025-11-25 session gets 2025-11-25 results (no
/// `resultType`, which that revision lacks), a 2026-07-28 request gets 2026-07-28 results.
#[test]
fn a_stateless_client_and_a_session_are_each_answered_in_their_own_revision() {
    let server = Server::start();
    let port = server.port();
    let session = open_session(port, "2025-11-25");
    let threads: Vec<_> = (0..8)
        .map(|i| {
            let session = session.clone();
            std::thread::spawn(move || {
                for n in 0..10 {
                    if i % 2 == 0 {
                        // A request id is used once in a session (a second one in flight
                        // is refused): each thread's requests have their own.
                        let body = format!(
                            r#"{{"jsonrpc":"2.0","id":{},"method":"resources/list"}}"#,
                            i * 100 + n
                        );
                        let headers = [JSON, ACCEPT, ("mcp-session-id", session.as_str())];
                        let (status, _, reply) =
                            exchange(port, "POST", &headers, body.as_bytes().to_vec());
                        assert_eq!(status, 200, "{reply}");
                        assert!(reply["result"]["resources"].is_array(), "{reply}");
                        assert!(reply["result"].get("resultType").is_none(), "{reply}");
                        assert!(reply["result"].get("ttlMs").is_none(), "{reply}");
                    } else {
                        let (status, reply) = post(
                            port,
                            2,
                            "resources/list",
                            json!({ "_meta": meta() }),
                            None,
                            &[],
                        );
                        assert_eq!(status, 200, "{reply}");
                        assert!(reply["result"]["resources"].is_array(), "{reply}");
                        assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
                    }
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("a client thread");
    }
}
