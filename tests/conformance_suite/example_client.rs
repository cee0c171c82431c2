//! The example client against the example server.

use crate::server::Server;
use crate::support::run_limited as run;
use std::process::Command;
use std::time::Duration;

/// The example client against the example server: both speak 2026-07-28 (the newest released
/// revision both have), so every call is stateless; the tools that ask for input are answered
/// through `input_required` rounds (the stateful revisions' server-to-client requests and
/// stream resumption are the suite's 2025-11-25 client scenarios, against its own server, and
/// the SDK clients of the e2e tests).
#[test]
fn the_example_client_drives_the_example_server() {
    let server = Server::start();
    let client = crate::support::example_binary("conformance-client");
    let mut command = Command::new(client);
    command.arg(&server.url);
    let output = run(command, "the example client", Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the client failed:\n{stderr}");
    for expected in [
        "stateless, revision 2026-07-28",
        "test_simple_text: This is a simple text response for testing.",
        "test_tool_with_progress: 0",
        "test_reconnection: Reconnection test completed successfully",
        // What a handler asks the client (sampling, elicitation) travels as input_required
        // rounds on this path: the same handlers get their answers.
        "test_sampling: LLM response: This is a test response from the client",
        "test_elicitation_sep1034_defaults: Elicitation completed: action=accept, content={\"age\":30,\"name\":\"John Doe\",\"score\":95.5,\"status\":\"active\",\"verified\":true}",
        // The tools written for input_required get what they ask for, in rounds.
        "test_input_required_result_sampling: Sampling result: This is a test response from the client",
        "test_input_required_result_tampered_state: integrity-ok: state verified",
        "test_input_required_result_capabilities: capabilities-ok: received elicit_input,sample_input",
        "test_input_required_result_multi_round: Multi-round complete for",
    ] {
        assert!(stderr.contains(expected), "missing {expected:?} in:\n{stderr}");
    }
}
