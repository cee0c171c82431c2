//! The example client against the example server.

use crate::server::Server;
use crate::support::run_limited as run;
use std::process::Command;
use std::time::Duration;

/// The example client against the example server: every tool, the server's requests answered
/// on the call's stream, and the reconnection tool's answer after resuming its stream.
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
        "session in revision 2025-11-25",
        "test_sampling: LLM response: This is a test response from the client",
        "test_elicitation_sep1034_defaults: Elicitation completed: action=accept, content={\"age\":30,\"name\":\"John Doe\",\"score\":95.5,\"status\":\"active\",\"verified\":true}",
        "test_reconnection: Reconnection test completed successfully",
        "test_tool_with_progress: 0",
    ] {
        assert!(stderr.contains(expected), "missing {expected:?} in:\n{stderr}");
    }
}
