//! Every stateful revision is negotiated by the example server and answered in its own types.

use crate::server::{exchange, open_session, Server, ACCEPT, JSON};

/// Every stateful revision is negotiated, and its sessions are answered in its own types.
#[test]
fn every_stateful_revision_is_answered_in_its_own_types() {
    use mcp_spec_types::dispatch::Message;
    let server = Server::start();
    let port = server.port();
    macro_rules! check {
        ($module:ident, $version:literal, audio: $audio:literal) => {{
            use mcp_spec_types::$module as mcp;
            let session = open_session(port, $version);
            // `Accept: application/json` alone: every answer comes as JSON, tools/call too.
            let headers = [
                JSON,
                ("accept", "application/json"),
                ("mcp-session-id", &session),
            ];
            let ask = |method: &str, params: &str| {
                let body =
                    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}}}"#);
                let (status, _, reply) = exchange(port, "POST", &headers, body.into_bytes());
                assert_eq!(status, 200, "{} {method}: {reply}", $version);
                mcp::ServerMessage::parse(&reply.to_string())
                    .unwrap_or_else(|e| panic!("{} {method}: {e}: {reply}", $version))
            };
            let result = |message| match message {
                Message::Response(response) => response,
                other => panic!("{}: not a result: {other:?}", $version),
            };
            let tools = result(ask("tools/list", "{}"))
                .result_for::<mcp::ListToolsRequest>()
                .unwrap();
            assert_eq!(tools.tools.len(), 14, "{}", $version);
            let call = result(ask(
                "tools/call",
                r#"{"name":"test_simple_text","arguments":{}}"#,
            ));
            let call = call.result_for::<mcp::CallToolRequest>().unwrap();
            assert_eq!(call.content.len(), 1);
            let read = result(ask(
                "resources/read",
                r#"{"uri":"test://template/42/data"}"#,
            ));
            let read = read.result_for::<mcp::ReadResourceRequest>().unwrap();
            assert_eq!(read.contents.len(), 1);
            let prompt = result(ask("prompts/get", r#"{"name":"test_prompt_with_image"}"#));
            assert_eq!(
                prompt
                    .result_for::<mcp::GetPromptRequest>()
                    .unwrap()
                    .messages
                    .len(),
                2
            );
            let audio = ask(
                "tools/call",
                r#"{"name":"test_audio_content","arguments":{}}"#,
            );
            match (audio, $audio) {
                (Message::Response(r), true) => {
                    r.result_for::<mcp::CallToolRequest>().unwrap();
                }
                // The revision has no audio content: the answer cannot be written in its types.
                (Message::Error(e), false) => assert_eq!(e.code().code(), -32603),
                (other, _) => panic!("{}: audio: {other:?}", $version),
            }
        }};
    }
    check!(v2024_11_05, "2024-11-05", audio: false);
    check!(v2025_03_26, "2025-03-26", audio: true);
    check!(v2025_06_18, "2025-06-18", audio: true);
    check!(v2025_11_25, "2025-11-25", audio: true);
    // A version the server does not speak gets the newest stateful one.
    let session = exchange(
        port,
        "POST",
        &[JSON, ACCEPT],
        br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.to_vec(),
    );
    assert_eq!(session.2["result"]["protocolVersion"], "2025-11-25");
}
