//! A second SDK's client drives the example server on 2026-07-28: the TypeScript SDK v2
//! (`@modelcontextprotocol/client`, pinned with Node 22 in `tests/sdk_v2/`), while its legacy
//! handshake holds a 2025-11-25 session on the same server process at the same time.
//!
//! The expected values are the suite's contract for the reference server's resources, prompts
//! and `input_required` tools (`everything-server.ts` in `modelcontextprotocol/conformance`),
//! which the example server implements.

use crate::server::Server;
use crate::support::{run_limited as run, sdk_v2};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

#[test]
fn the_typescript_sdk_v2_client_drives_the_server_on_2026_07_28() {
    let dir = sdk_v2();
    let server = Server::start();
    let mut client = Command::new(dir.join("node_modules/.bin/node"));
    client.current_dir(&dir).arg("client.mjs").arg(&server.url);
    let output = run(client, "the SDK v2 client", Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the SDK v2 client failed:\n{stderr}"
    );
    let got: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "the client's output is not JSON ({e}):\n{}",
            String::from_utf8_lossy(&output.stdout)
        )
    });

    let modern = &got["modern"];
    assert_eq!(modern["protocolVersion"], "2026-07-28", "{modern}");
    let resources = modern["resources"].as_array().expect("resource URIs");
    for uri in ["test://static-text", "test://static-binary"] {
        assert!(resources.contains(&json!(uri)), "{uri} in {resources:?}");
    }
    assert_eq!(modern["templates"], json!(["test://template/{id}/data"]));
    assert_eq!(
        modern["read"],
        json!([{
            "uri": "test://static-text",
            "mimeType": "text/plain",
            "text": "This is the content of the static text resource."
        }])
    );
    assert_eq!(modern["fromTemplate"][0]["uri"], "test://template/42/data");
    // The tool asked for input (`input_required`), the SDK answered through its elicitation
    // handler and called again; the second answer uses what was elicited.
    assert_eq!(modern["elicited"], json!(["What is your name?"]));
    assert_eq!(
        modern["call"],
        json!([{ "type": "text", "text": "Hello, Ada!" }])
    );
    assert_eq!(
        modern["prompt"],
        json!([{
            "role": "user",
            "content": { "type": "text", "text": "Prompt with arguments: arg1='one', arg2='two'" }
        }])
    );
    // `arg1` of that prompt completes from alpha, beta, gamma; the client typed "b".
    assert_eq!(modern["completion"]["values"], json!(["beta"]));

    let legacy = &got["legacy"];
    assert_eq!(legacy["protocolVersion"], "2025-11-25", "{legacy}");
    assert!(legacy["tools"].as_u64().is_some_and(|n| n > 0), "{legacy}");
    assert_eq!(
        legacy["call"],
        json!([{ "type": "text", "text": "This is a simple text response for testing." }])
    );
}

/// The README's three programs are the examples the tests run, word for word, in its
/// `rust,no_run` blocks in this order, each within its length: the first server
/// (`examples/first-server.rs`), the same server over HTTP (`examples/http-server.rs`), and
/// its client (`examples/http-client.rs`).
#[test]
fn the_readme_shows_the_first_server_example() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let open = "```rust,no_run\n";
    let mut rest = readme.as_str();
    for (file, most) in [
        ("examples/first-server.rs", 40),
        ("examples/http-server.rs", 30),
        ("examples/http-client.rs", 25),
    ] {
        let example = std::fs::read_to_string(root.join(file)).expect("the example");
        let start = rest
            .find(open)
            .unwrap_or_else(|| panic!("the README's block for {file}"))
            + open.len();
        let end = start + rest[start..].find("```").expect("the block's end");
        assert_eq!(&rest[start..end], example, "README.md and {file} differ");
        assert!(
            example.lines().count() <= most,
            "{file} grew past {most} lines"
        );
        rest = &rest[end..];
    }
}

/// The README's first server (`examples/first-server.rs`: one tool and one resource, written
/// against 2026-07-28) run by the TypeScript SDK v2 client over stdio in `mode`, what the
/// client got back as JSON.
fn first_server_session(mode: &str) -> Value {
    let server = crate::support::example_binary("first-server");
    run_first_server_client(server.as_os_str(), mode)
}

/// The client of `first-server.mjs` against `server` (a binary to spawn, or a URL), in `mode`.
fn run_first_server_client(server: &std::ffi::OsStr, mode: &str) -> Value {
    let dir = sdk_v2();
    let mut client = Command::new(dir.join("node_modules/.bin/node"));
    client
        .current_dir(&dir)
        .arg("first-server.mjs")
        .arg(server)
        .arg(mode);
    let what = format!("the SDK v2 client of the first server ({mode})");
    let output = run(client, &what, Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the client failed:\n{stderr}");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "the client's output is not JSON ({e}):\n{}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

/// What both sessions must have got: the tool, its sum, the resource and its text.
fn assert_first_server_answers(got: &Value) {
    assert_eq!(got["tools"][0]["name"], "add", "{got}");
    assert_eq!(
        got["tools"][0]["inputSchema"]["properties"]["b"],
        json!({"type": "number", "format": "double"})
    );
    assert_eq!(
        got["tools"][0]["inputSchema"]["required"],
        json!(["a", "b"])
    );
    assert_eq!(got["call"], json!([{"type": "text", "text": "5.5"}]));
    // The typed tool's arguments did not read (no `a`): the client got a tool error naming
    // the argument, and the function never ran.
    assert_eq!(got["bad"]["isError"], true, "{got}");
    assert_eq!(
        got["bad"]["content"],
        json!([{"type": "text", "text": "invalid arguments for tool `add`: missing field `a`"}])
    );
    assert_eq!(
        got["resources"],
        json!([{"name": "hi", "uri": "memo://hi"}])
    );
    assert_eq!(got["read"], json!([{"uri": "memo://hi", "text": "Hi!"}]));
}

/// The HTTP example's `sum`, a typed tool with a structured result: `structuredContent` in
/// both revisions, and the same JSON as a text block for clients that read content alone.
fn assert_structured_sum(got: &Value) {
    assert_eq!(
        got["sum"]["structuredContent"],
        json!({"sum": 5.5}),
        "{got}"
    );
    assert_eq!(
        got["sum"]["content"],
        json!([{"type": "text", "text": "{\"sum\":5.5}"}])
    );
}

/// The first server on the stateless revision: the client discovers it, then each request
/// names 2026-07-28.
#[test]
fn the_first_server_answers_the_typescript_sdk_v2_client_on_2026_07_28() {
    let got = first_server_session("2026-07-28");
    assert_eq!(got["protocolVersion"], "2026-07-28", "{got}");
    assert_first_server_answers(&got);
    // An unknown resource is the 2026-07-28 page's -32602 (SEP-2164), not -32002.
    assert_eq!(got["missing"]["code"], -32602, "{got}");
    assert_eq!(got["missing"]["wireCode"], -32602, "{got}");
}

/// The same server, unchanged, to the client's 2025 sequence: `initialize` negotiates
/// 2025-11-25, and the same handlers answer through the engine's conversions.
#[test]
fn the_first_server_answers_the_typescript_sdk_v2_client_on_2025_11_25() {
    let got = first_server_session("legacy");
    assert_eq!(got["protocolVersion"], "2025-11-25", "{got}");
    assert_first_server_answers(&got);
    // The same handler's "resource not found", in 2025-11-25's code on the wire (the client
    // gives it to its user as -32602, the code of the revision it was written for).
    assert_eq!(got["missing"]["wireCode"], -32002, "{got}");
}

/// The same router over Streamable HTTP (`examples/http-server.rs`), on the stateless
/// revision: each request's headers say what its body says, or the engine refuses it.
#[cfg(feature = "http-server")]
#[test]
fn the_http_server_answers_the_typescript_sdk_v2_client_on_2026_07_28() {
    let server = Server::start_example("http-server");
    let got = run_first_server_client(server.url.as_ref(), "2026-07-28");
    assert_eq!(got["protocolVersion"], "2026-07-28", "{got}");
    assert_first_server_answers(&got);
    assert_structured_sum(&got);
    assert_eq!(got["missing"]["wireCode"], -32602, "{got}");
}

/// The same router over Streamable HTTP, in the client's 2025 mode: `initialize` opens a
/// session, whose id and version every later request carries.
#[cfg(feature = "http-server")]
#[test]
fn the_http_server_answers_the_typescript_sdk_v2_client_on_2025_11_25() {
    let server = Server::start_example("http-server");
    let got = run_first_server_client(server.url.as_ref(), "legacy");
    assert_eq!(got["protocolVersion"], "2025-11-25", "{got}");
    assert_first_server_answers(&got);
    assert_structured_sum(&got);
    assert_eq!(got["missing"]["wireCode"], -32002, "{got}");
}
