//! A second SDK's client drives the example server on 2026-07-28: the TypeScript SDK v2
//! (`@modelcontextprotocol/client`, pinned with Node 22 in `tests/sdk_v2/`), while its legacy
//! handshake holds a 2025-11-25 session on the same server process at the same time.
//!
//! The expected values are the suite's contract for the reference server's resources, prompts
//! and `input_required` tools (`everything-server.ts` in `modelcontextprotocol/conformance`),
//! which the example server implements.

use crate::server::Server;
use crate::support::run_limited as run;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

#[test]
fn the_typescript_sdk_v2_client_drives_the_server_on_2026_07_28() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/sdk_v2");
    let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
    let mut ci = Command::new(npm);
    ci.current_dir(&dir)
        .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
    let what = "`npm ci` in tests/sdk_v2 (needs npm and the npm registry)";
    let output = run(ci, what, Duration::from_secs(300));
    assert!(
        output.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );

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
