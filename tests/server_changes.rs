//! What a handler says changed while it answered (`Context::changed`): told, after the
//! answer, to the clients that asked to hear of it, by whichever way the handler ran: inline
//! over stdio (`Server::handle`), inline over HTTP (`Server::http`: a stateless client's
//! `subscriptions/listen` stream), or elsewhere (`HttpResponse::changes`, for the caller).
#![cfg(all(feature = "server", feature = "v2025_11_25"))]

use mcp_spec_types::http_headers::{self, lookup};
use mcp_spec_types::server::{Change, Handler, HttpIncoming, Router, Server, Session, Sessions};
use mcp_spec_types::v2026_07_28::*;
use serde_json::{json, Value};

/// A tool that adds a tool (it says so), and one that changes nothing.
fn server() -> Server<Router> {
    let router = Router::new()
        .tool_with(
            Tool::new("install", ToolInputSchema::new()),
            |_, context| {
                context.changed(Change::ToolList);
                context.changed(Change::ToolList);
                Ok(CallToolResult::text("installed"))
            },
        )
        .tool(Tool::new("echo", ToolInputSchema::new()), |_| {
            Ok(CallToolResult::text("echo"))
        })
        .with_list_changed();
    Server::new(Implementation::new("tools", "1.0.0"), router)
}

fn json_of(line: &str) -> Value {
    serde_json::from_str(line).expect("JSON")
}

fn stateless(id: i64, method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}});
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[test]
fn a_stateful_client_over_stdio_is_told_after_the_answer_once() {
    let server = server();
    let mut session = Session::new();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    server.handle(&mut session, &initialize.to_string());
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "install"}});
    let lines: Vec<Value> = (server.handle(&mut session, &call.to_string()).iter())
        .map(|line| json_of(line))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["result"]["content"][0]["text"], "installed");
    assert_eq!(
        lines[1],
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    );
    // A call that changes nothing tells nothing.
    let echo =
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo"}});
    assert_eq!(server.handle(&mut session, &echo.to_string()).len(), 1);
}

#[test]
fn over_http_a_listening_stream_is_told_and_a_handler_run_elsewhere_hands_its_changes_over() {
    let server = server();
    let mut sessions = Sessions::new(|| "unused".to_owned());
    let post = |sessions: &mut Sessions, body: &Value| {
        let method = body["method"].as_str().unwrap_or_default();
        let headers = http_headers::request_headers("2026-07-28", method, body.get("params"));
        server.http(sessions, "POST", lookup(&headers), &body.to_string(), 0)
    };
    let listen = stateless(
        1,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    );
    let listening = post(&mut sessions, &listen);
    let stream = listening.stream.clone().expect("the listen stream");

    let call = stateless(2, "tools/call", json!({"name": "install"}));
    let answered = post(&mut sessions, &call);
    assert_eq!(answered.status, 200, "{answered:?}");
    assert_eq!(json_of(answered.body.as_deref().expect("JSON"))["id"], 2);
    let told: Vec<(bool, Value)> = (answered.events.iter())
        .map(|e| (e.stream == stream, json_of(&e.message)))
        .collect();
    assert_eq!(
        told,
        [(
            true,
            json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": 1}}})
        )]
    );
    assert_eq!(answered.changes, [], "told already");

    // Run elsewhere: the changes come with the response, for the caller to tell.
    let headers = http_headers::request_headers("2026-07-28", "tools/call", call.get("params"));
    let incoming = server.http_receive(
        &mut sessions,
        "POST",
        lookup(&headers),
        &call.to_string(),
        1,
    );
    let HttpIncoming::Call(pending) = incoming else {
        panic!("expected a call")
    };
    let (request, mut context, responder) = pending.into_parts();
    let result = server.handler().call(request, &mut context);
    let finished = sessions.finish(responder.respond_with(&mut context, result));
    assert_eq!(finished.changes, [Change::ToolList]);
    assert!(finished.events.is_empty(), "{finished:?}");
    let told = sessions.notify(&server, &finished.changes[0]);
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].stream, stream);
}
