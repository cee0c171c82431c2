//! The sans-IO server engine (`mcp_spec_types::server`): one router, written against
//! 2026-07-28, answering clients of a stateful and of the stateless revision line by line, with
//! each revision's lifecycle, negotiation and error codes.
#![cfg(all(feature = "server", feature = "v2025_11_25"))]

use crate::support;

use mcp_spec_types::server::{Handler, Incoming, PendingCall, Router, Server, Session};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::{ProtocolVersion, RequestId, RpcError};
use serde_json::{json, Value};

/// One tool (titled, so that a revision without `title` shows what it drops), one resource,
/// one template.
fn router() -> Router {
    let schema = ToolInputSchema::new();
    Router::new()
        .tool(Tool::new("echo", schema).with_title("Echo"), |call| {
            let arguments = call.arguments.unwrap_or_default();
            let text = arguments.get::<String>("text").and_then(Result::ok);
            Ok(CallToolResult::text(text.unwrap_or_default()))
        })
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        })
        .template(
            ResourceTemplate::new("note:///{id}", "note"),
            |read, vars| {
                let id = vars.get_str("id").unwrap_or_default().to_owned();
                Ok(ReadResourceResult::text(read.uri, format!("note {id}")))
            },
        )
}

fn server() -> Server<Router> {
    Server::new(Implementation::new("memo", "1.0.0"), router()).with_instructions("Notes.")
}

/// Sends `message` and reads the answer as JSON (`Value::Null` for no answer).
fn send<H: Handler>(server: &Server<H>, session: &mut Session, message: Value) -> Value {
    match server.handle(session, &message.to_string()).pop() {
        Some(answer) => serde_json::from_str(&answer).expect("the answer is JSON"),
        None => Value::Null,
    }
}

/// A stateless request's `_meta`, for `version`.
fn meta(version: &str) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

fn initialize(version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}
    }})
}

#[test]
fn a_2025_11_25_client_initializes_and_uses_the_handlers() {
    let server = server();
    let mut session = Session::new();
    let answer = send(&server, &mut session, initialize("2025-11-25"));
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}, "resources": {}},
            "serverInfo": {"name": "memo", "version": "1.0.0"},
            "instructions": "Notes."
        }})
    );
    assert_eq!(
        session.version(),
        Some(&ProtocolVersion::from("2025-11-25"))
    );
    assert!(!session.is_initialized());
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(send(&server, &mut session, initialized), Value::Null);
    assert!(session.is_initialized());

    // No `resultType`, `ttlMs` or `cacheScope`: 2025-11-25 does not define them.
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    assert_eq!(
        send(&server, &mut session, list),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "echo", "title": "Echo", "inputSchema": {"type": "object"}}
        ]}})
    );
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": "hello"}}});
    assert_eq!(
        send(&server, &mut session, call),
        json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "hello"}]}})
    );
    let ping = json!({"jsonrpc": "2.0", "id": "p", "method": "ping"});
    assert_eq!(
        send(&server, &mut session, ping),
        json!({"jsonrpc": "2.0", "id": "p", "result": {}})
    );
    let note = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read",
        "params": {"uri": "note:///7"}});
    assert_eq!(
        send(&server, &mut session, note)["result"]["contents"],
        json!([{"uri": "note:///7", "text": "note 7"}])
    );
    // The router's "resource not found", in 2025-11-25's code.
    let missing = json!({"jsonrpc": "2.0", "id": 4, "method": "resources/read",
        "params": {"uri": "memo://nothing"}});
    assert_eq!(
        send(&server, &mut session, missing)["error"],
        json!({"code": -32002, "message": "Resource not found", "data": {"uri": "memo://nothing"}})
    );
}

#[test]
fn the_lifecycle_refuses_a_second_initialize_and_what_is_not_offered() {
    let server = server();
    let mut session = Session::new();
    send(&server, &mut session, initialize("2025-11-25"));
    let again = send(&server, &mut session, initialize("2025-11-25"));
    assert_eq!(again["error"]["code"], -32600, "{again}");
    // 2025-11-25 has `logging/setLevel`; the server offers no logging.
    let level = json!({"jsonrpc": "2.0", "id": 5, "method": "logging/setLevel",
        "params": {"level": "info"}});
    let refused = send(&server, &mut session, level);
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
    assert_eq!(refused["id"], 5);
    let unknown_tool = json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call",
        "params": {"name": "nothing"}});
    let refused = send(&server, &mut session, unknown_tool);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["message"], "Unknown tool: nothing");
}

#[test]
fn initialize_with_an_unknown_version_gets_the_newest_stateful_one() {
    let server = server();
    let mut session = Session::new();
    let answer = send(&server, &mut session, initialize("1999-01-01"));
    assert_eq!(
        answer["result"]["protocolVersion"], "2025-11-25",
        "{answer}"
    );
    // A stateless revision has no `initialize`: asking for it there gets a stateful one too.
    let mut session = Session::new();
    let answer = send(&server, &mut session, initialize("2026-07-28"));
    assert_eq!(
        answer["result"]["protocolVersion"], "2025-11-25",
        "{answer}"
    );
}

#[cfg(feature = "v2024_11_05")]
#[test]
fn a_2024_11_05_client_gets_only_what_its_revision_defines() {
    let server = server();
    let mut session = Session::new();
    let answer = send(&server, &mut session, initialize("2024-11-05"));
    assert_eq!(
        answer["result"]["protocolVersion"], "2024-11-05",
        "{answer}"
    );
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    // `title` came in 2025-06-18.
    assert_eq!(
        send(&server, &mut session, list)["result"],
        json!({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]})
    );
}

#[test]
fn a_stateless_client_discovers_the_server_and_each_request_names_its_version() {
    let server = server();
    let mut session = Session::new();
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
        "params": {"_meta": meta("2026-07-28")}});
    assert_eq!(
        send(&server, &mut session, discover),
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            // Every 2026-07-28 result says who answered it.
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "memo", "version": "1.0.0"}},
            "supportedVersions": ["2026-07-28"],
            "capabilities": {"tools": {}, "resources": {}},
            "instructions": "Notes.",
            "resultType": "complete",
            "ttlMs": 0,
            "cacheScope": "private"
        }})
    );
    // Nothing is remembered for a stateless client.
    assert_eq!(session.version(), None);
    let read = json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read",
        "params": {"uri": "memo://hi", "_meta": meta("2026-07-28")}});
    assert_eq!(
        send(&server, &mut session, read)["result"],
        json!({
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "memo", "version": "1.0.0"}},
            "contents": [{"uri": "memo://hi", "text": "Hi!"}],
            "resultType": "complete",
            "ttlMs": 0,
            "cacheScope": "private"
        })
    );
    // The same "resource not found" as for 2025-11-25, in 2026-07-28's code (SEP-2164).
    let missing = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read",
        "params": {"uri": "memo://nothing", "_meta": meta("2026-07-28")}});
    assert_eq!(
        send(&server, &mut session, missing)["error"],
        json!({"code": -32602, "message": "Resource not found", "data": {"uri": "memo://nothing"}})
    );
}

#[test]
fn a_2026_07_28_result_says_who_answered_unless_the_server_is_told_not_to() {
    let traced = |trace: Value| {
        let mut result = CallToolResult::text("traced");
        result.meta = serde_json::from_value(trace).ok();
        Ok(result)
    };
    let tracing = Router::new()
        .tool(Tool::new("traced", ToolInputSchema::new()), move |_| {
            traced(json!({"x/trace": 7}))
        })
        .tool(Tool::new("named", ToolInputSchema::new()), move |_| {
            traced(json!({"io.modelcontextprotocol/serverInfo": {"name": "other", "version": "2"}}))
        });
    let call = |name: &str| {
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": {"name": name, "_meta": meta("2026-07-28")}})
    };
    let server = Server::new(Implementation::new("memo", "1.0.0"), tracing);
    let ours = json!({"name": "memo", "version": "1.0.0"});
    // The handler's `_meta` keeps its members; one naming a server keeps that name.
    let answer = send(&server, &mut Session::new(), call("traced"));
    assert_eq!(
        answer["result"]["_meta"],
        json!({"x/trace": 7, "io.modelcontextprotocol/serverInfo": ours})
    );
    let answer = send(&server, &mut Session::new(), call("named"));
    assert_eq!(
        answer["result"]["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({"name": "other", "version": "2"})
    );
    // Told not to: nothing added.
    let quiet = Server::new(Implementation::new("memo", "1.0.0"), router()).without_server_info();
    let list = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list",
        "params": {"_meta": meta("2026-07-28")}});
    let answer = send(&quiet, &mut Session::new(), list.clone());
    assert_eq!(answer["result"].get("_meta"), None, "{answer}");
    // A stateful revision's results have no such member.
    let mut session = Session::new();
    send(&server, &mut session, initialize("2025-11-25"));
    let list = json!({"jsonrpc": "2.0", "id": 6, "method": "tools/list"});
    let answer = send(&server, &mut session, list);
    assert_eq!(answer["result"].get("_meta"), None, "{answer}");
}

#[test]
fn a_version_the_server_does_not_offer_is_refused_with_the_list() {
    let server = server();
    let mut session = Session::new();
    for version in ["2099-01-01", "2025-11-25"] {
        let list = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list",
            "params": {"_meta": meta(version)}});
        assert_eq!(
            send(&server, &mut session, list),
            json!({"jsonrpc": "2.0", "id": 7, "error": {
                "code": -32022,
                "message": "Unsupported protocol version",
                "data": {"requested": version, "supported": ["2026-07-28"]}
            }}),
            "{version}"
        );
    }
}

#[test]
fn a_stateless_request_without_its_meta_is_invalid_params() {
    let server = server();
    let mut session = Session::new();
    let list = json!({"jsonrpc": "2.0", "id": 8, "method": "tools/list", "params": {}});
    let refused = send(&server, &mut session, list);
    assert_eq!(refused["id"], 8, "{refused}");
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("_meta"),
        "{refused}"
    );
}

#[test]
fn a_server_offering_only_the_stateless_revision_refuses_initialize() {
    let server = server().with_versions([ProtocolVersion::V2026_07_28]);
    assert_eq!(server.versions(), [ProtocolVersion::V2026_07_28]);
    let mut session = Session::new();
    let answer = send(&server, &mut session, initialize("2025-11-25"));
    assert_eq!(answer["error"]["code"], -32022, "{answer}");
    assert_eq!(answer["error"]["data"]["supported"], json!(["2026-07-28"]));
    assert_eq!(session.version(), None);
}

#[test]
fn the_draft_is_offered_only_when_asked_for() {
    let server = server();
    let offered: Vec<&str> = server.versions().iter().map(|v| v.as_str()).collect();
    assert!(!offered.contains(&"draft"), "{offered:?}");
    assert!(offered.contains(&"2026-07-28") && offered.contains(&"2025-11-25"));
    #[cfg(feature = "unstable-draft")]
    {
        let server = server.with_versions([ProtocolVersion::Draft, ProtocolVersion::V2026_07_28]);
        let offered: Vec<&str> = server.versions().iter().map(|v| v.as_str()).collect();
        assert_eq!(offered, ["draft", "2026-07-28"]);
    }
}

#[test]
fn what_cannot_be_read_gets_the_json_rpc_error_and_notifications_get_nothing() {
    let server = server();
    let mut session = Session::new();
    let truncated = server
        .handle(&mut session, r#"{"jsonrpc":"2.0","id":6,"#)
        .pop();
    let truncated: Value = serde_json::from_str(&truncated.expect("an answer")).unwrap();
    assert_eq!(truncated["id"], Value::Null);
    assert_eq!(truncated["error"]["code"], -32700);
    let batch = server
        .handle(&mut session, "[1,2]")
        .pop()
        .expect("an answer");
    let batch: Value = serde_json::from_str(&batch).unwrap();
    assert_eq!(batch["error"]["code"], -32600, "{batch}");
    let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 1}});
    assert_eq!(send(&server, &mut session, cancelled), Value::Null);
    let response = json!({"jsonrpc": "2.0", "id": 1, "result": {}});
    assert_eq!(send(&server, &mut session, response), Value::Null);
}

#[test]
fn lists_are_paged_with_the_cursor_the_router_gave() {
    let router = Router::new()
        .resource(Resource::new("memo://a", "a"), |r| {
            Ok(ReadResourceResult::text(r.uri, "a"))
        })
        .resource(Resource::new("memo://b", "b"), |r| {
            Ok(ReadResourceResult::text(r.uri, "b"))
        })
        .resource(Resource::new("memo://c", "c"), |r| {
            Ok(ReadResourceResult::text(r.uri, "c"))
        })
        .with_page_size(2);
    let server = Server::new(Implementation::new("pages", "1"), router);
    let mut session = Session::new();
    let list = |cursor: Option<&str>| {
        let mut params = json!({"_meta": meta("2026-07-28")});
        if let Some(cursor) = cursor {
            params["cursor"] = json!(cursor);
        }
        json!({"jsonrpc": "2.0", "id": 1, "method": "resources/list", "params": params})
    };
    let first = send(&server, &mut session, list(None));
    let names: Vec<&str> = (first["result"]["resources"].as_array().unwrap().iter())
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "b"]);
    let cursor = first["result"]["nextCursor"]
        .as_str()
        .expect("a next page")
        .to_owned();
    let second = send(&server, &mut session, list(Some(&cursor)));
    assert_eq!(second["result"]["resources"][0]["name"], "c");
    assert_eq!(second["result"].get("nextCursor"), None, "{second}");
    let invalid = send(&server, &mut session, list(Some("not a cursor")));
    assert_eq!(invalid["error"]["code"], -32602, "{invalid}");
}

#[test]
fn a_function_is_a_handler_with_the_capabilities_it_is_given() {
    let handler = |call: ClientCall| -> Result<ClientCallResult, RpcError> {
        match call {
            ClientCall::ListPrompts(_) => Ok(ListPromptsResult::complete(
                [Prompt::new("greet")],
                60_000,
                mcp_spec_types::cache::CacheScope::Public,
            )
            .into()),
            other => Err(RpcError::method_not_found(
                mcp_spec_types::dispatch::MethodSet::method(&other),
            )),
        }
    };
    let capabilities = ServerCapabilities::new().with_prompts(ServerCapabilitiesPrompts::new());
    let server =
        Server::new(Implementation::new("prompts", "1"), handler).with_capabilities(capabilities);
    let mut session = Session::new();
    send(&server, &mut session, initialize("2025-11-25"));
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/list"});
    assert_eq!(
        send(&server, &mut session, list)["result"],
        json!({"prompts": [{"name": "greet"}]})
    );
}

/// What the stdio loop of `server` writes for `input`, whole and as one JSON message a line.
fn serve_lines(server: &Server<Router>, input: &str) -> (String, Vec<Value>) {
    let mut output = Vec::new();
    server
        .serve(input.as_bytes(), &mut output)
        .expect("in-memory I/O");
    let output = String::from_utf8(output).expect("UTF-8");
    let lines = output
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON message a line"))
        .collect();
    (output, lines)
}

#[test]
fn the_stdio_loop_answers_each_line_with_one_line() {
    let server = server();
    let input = [
        initialize("2025-11-25").to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
        String::new(),
        json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string(),
    ]
    .join("\n");
    let (output, lines) = serve_lines(&server, &input);
    assert_eq!(lines.len(), 2, "{output}");
    assert_eq!(lines[0]["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(lines[1], json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
}

#[test]
fn the_stdio_loop_answers_a_panicking_tool_and_ends_with_its_input() {
    let router = Router::new().tool(
        Tool::new("broken", ToolInputSchema::new()),
        |_| -> Result<CallToolResult, _> { panic!("a bug in a tool") },
    );
    let server = Server::new(Implementation::new("memo", "1.0.0"), router);
    let input = [
        initialize("2025-11-25").to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "broken"}})
            .to_string(),
        json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}).to_string(),
    ]
    .join("\n");
    // The loop returns once the input has ended and every call has answered: a call whose
    // handler panicked answers too. (A loop that never returns fails here, not by hanging.)
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(serve_lines(&server, &input));
    });
    let (output, lines) = finished
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the loop ends with its input");
    let broken = lines.iter().find(|line| line["id"] == 1);
    let broken = broken.unwrap_or_else(|| panic!("no answer to the call: {output}"));
    assert_eq!(broken["error"]["code"], -32603, "{broken}");
    assert!(lines.iter().any(|line| line["id"] == 2), "{output}");
}

/// A `tools/call` of a stateless client, as `receive` hands it out.
fn echo_call(id: i64, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": text}, "_meta": meta("2026-07-28")}})
}

fn pending(incoming: Incoming) -> PendingCall {
    match incoming {
        Incoming::Call(call) => *call,
        other => panic!("expected a call for the handler, got {other:?}"),
    }
}

#[test]
fn a_call_handed_out_is_answered_later_from_another_thread() {
    let server = server();
    let mut session = Session::new();
    let first = pending(server.receive(&mut session, &echo_call(1, "one").to_string()));
    let second = pending(server.receive(&mut session, &echo_call(2, "two").to_string()));
    assert_eq!(session.in_flight(), 2);
    assert!(matches!(first.call(), ClientCall::CallTool(call) if call.name == "echo"));
    assert_eq!(first.context().peer, ProtocolVersion::V2026_07_28);
    // The second is answered first, on a thread of its own.
    let (call, mut context, responder) = second.into_parts();
    let answer = std::thread::spawn(move || {
        let result = server_handler().call(call, &mut context);
        responder.respond(result)
    })
    .join()
    .expect("the handler's thread");
    let line = session.finish(answer).expect("a line to send");
    let sent: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(sent["id"], 2);
    assert_eq!(sent["result"]["content"][0]["text"], "two");
    let (call, mut context, responder) = first.into_parts();
    let line = session
        .finish(responder.respond(server_handler().call(call, &mut context)))
        .expect("a line to send");
    assert_eq!(serde_json::from_str::<Value>(&line).unwrap()["id"], 1);
    assert_eq!(session.in_flight(), 0);
}

fn server_handler() -> Router {
    router()
}

#[test]
fn a_cancelled_call_is_not_answered() {
    let server = server();
    let mut session = Session::new();
    let call = pending(server.receive(&mut session, &echo_call(9, "late").to_string()));
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 9, "_meta": meta("2026-07-28")}});
    assert!(matches!(
        server.receive(&mut session, &cancel.to_string()),
        Incoming::Nothing
    ));
    assert_eq!(session.in_flight(), 0);
    let (call, mut context, responder) = call.into_parts();
    let answer = responder.respond(server_handler().call(call, &mut context));
    assert_eq!(answer.id(), &RequestId::from(9));
    assert_eq!(session.finish(answer), None);
}

#[test]
fn a_stateful_call_handed_out_is_answered_in_the_sessions_revision() {
    let server = server();
    let mut session = Session::new();
    send(&server, &mut session, initialize("2025-11-25"));
    let read = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read",
        "params": {"uri": "memo://nothing"}});
    let call = pending(server.receive(&mut session, &read.to_string()));
    assert_eq!(call.context().peer, ProtocolVersion::V2025_11_25);
    // The handler's revision writes -32602; the client's revision gets -32002.
    let (_, _, responder) = call.into_parts();
    let error = RpcError::resource_not_found_for(&ProtocolVersion::V2026_07_28, "memo://nothing");
    let line = session
        .finish(responder.respond(Err(error)))
        .expect("a line");
    let sent: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(sent["error"]["code"], -32002, "{sent}");
}

#[test]
fn an_id_in_flight_is_not_taken_twice() {
    let server = server();
    let mut session = Session::new();
    let _first = pending(server.receive(&mut session, &echo_call(4, "a").to_string()));
    match server.receive(&mut session, &echo_call(4, "b").to_string()) {
        Incoming::Answer(line) => {
            let sent: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(sent["id"], 4);
            assert_eq!(sent["error"]["code"], -32600, "{sent}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(session.in_flight(), 1);
}

#[test]
fn a_flood_of_unanswered_requests_is_refused_past_the_limit() {
    let server = server();
    let mut session = Session::new();
    let mut calls = Vec::new();
    for id in 0..Session::MAX_IN_FLIGHT as i64 {
        calls.push(pending(
            server.receive(&mut session, &echo_call(id, "x").to_string()),
        ));
    }
    assert_eq!(session.in_flight(), Session::MAX_IN_FLIGHT);
    let over = Session::MAX_IN_FLIGHT as i64;
    match server.receive(&mut session, &echo_call(over, "x").to_string()) {
        Incoming::Answer(line) => {
            let sent: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(sent["id"], over);
            assert_eq!(sent["error"]["code"], -32603, "{sent}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(session.in_flight(), Session::MAX_IN_FLIGHT);
    // One answered makes room for one more.
    let (call, mut context, responder) = calls.pop().expect("a call").into_parts();
    let answer = responder.respond(server_handler().call(call, &mut context));
    assert!(session.finish(answer).is_some());
    let _next = pending(server.receive(&mut session, &echo_call(over, "x").to_string()));
    assert_eq!(session.in_flight(), Session::MAX_IN_FLIGHT);
}

/// `examples/async-server.rs`: a call still waiting does not hold up the calls sent after it,
/// and a call cancelled while it waits is never answered, even once it could go on.
///
/// The calls that wait are `roots` calls of a 2025-11-25 session: each waits for the client's
/// answer to the `roots/list` the engine asks, so the test, not a clock, says when it goes on.
#[test]
fn the_async_example_answers_as_calls_finish_and_not_a_cancelled_one() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let binary = support::example_binary("async-server");
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the example starts");
    let mut input = child.stdin.take().expect("its input");
    let output = child.stdout.take().expect("its output");
    let (lines, written) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(output).lines().map_while(Result::ok) {
            let message: Value = serde_json::from_str(&line).expect("one JSON message a line");
            if lines.send(message).is_err() {
                return;
            }
        }
    });
    let mut send = |message: Value| {
        writeln!(input, "{message}").expect("a line is written");
        input.flush().expect("the line goes out");
    };
    // Only bounds a test whose example never answers: every wait below ends on a message.
    let next = || {
        written
            .recv_timeout(Duration::from_secs(30))
            .expect("the example's next message")
    };
    let call = |id: i64, name: &str, arguments: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}})
    };
    let roots = |asked: &Value, uri: &str| {
        let listed = json!({"roots": [{"uri": uri}]});
        json!({"jsonrpc": "2.0", "id": asked["id"], "result": listed})
    };

    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"roots": {}},
        "clientInfo": {"name": "test", "version": "1"}}});
    send(initialize);
    assert_eq!(next()["id"], 0);
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    // Call 1 waits for the client's roots; call 2, sent after it, is answered meanwhile.
    send(call(1, "roots", json!({})));
    let asked_for_one = next();
    assert_eq!(asked_for_one["method"], "roots/list", "{asked_for_one}");
    send(call(2, "wait", json!({"ms": 0})));
    let quick = next();
    assert_eq!(quick["id"], 2, "{quick}");
    assert_eq!(quick["result"]["content"][0]["text"], "waited 0 ms");

    // Call 3 waits too, and is cancelled. The example reads its lines in order, so once the
    // ping sent after the cancellation is answered, the cancellation has been taken.
    send(call(3, "roots", json!({})));
    let asked_for_three = next();
    assert_eq!(asked_for_three["method"], "roots/list", "{asked_for_three}");
    assert_ne!(asked_for_three["id"], asked_for_one["id"]);
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 3}});
    send(cancel);
    send(json!({"jsonrpc": "2.0", "id": 4, "method": "ping"}));
    assert_eq!(next()["id"], 4);

    // Both get their roots; then the input ends, and the example ends once no call it still
    // owes an answer runs: what it wrote until then is all it will write.
    send(roots(&asked_for_three, "file:///three"));
    send(roots(&asked_for_one, "file:///one"));
    drop(input);
    let status = child.wait().expect("the example ends");
    assert!(status.success(), "{status:?}");
    reader.join().expect("its output is read to the end");
    let rest: Vec<Value> = written.try_iter().collect();
    let ids: Vec<&Value> = rest.iter().map(|message| &message["id"]).collect();
    assert_eq!(ids, [&json!(1)], "{rest:?}");
    assert_eq!(rest[0]["result"]["content"][0]["text"], "file:///one");
}

/// Found by the fuzz target `server`: a line with two `id`s is refused, and since its id
/// cannot be told, with a null one (serde_json's own value would keep the last).
#[test]
fn a_line_with_two_ids_gets_an_error_with_a_null_id() {
    let server = server();
    let mut session = Session::new();
    let line = r#"{"jsonrpc":"2.0","id":3,"method":"r0","id":4,"method":"resources/list","params":{"cursor":"1"}}"#;
    let answer: Value =
        serde_json::from_str(&server.handle(&mut session, line).pop().expect("an answer"))
            .expect("JSON");
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
}

/// `completion/complete` through `Router::completion`: announced as `completions` where the
/// client's revision has that capability, answered in each revision, refused (-32601) by a
/// router that offers none.
#[test]
fn the_router_completes_arguments_in_every_revision_it_offers_them() {
    let complete = |asked: CompleteRequestParams| {
        let names = ["alpha", "alpine", "beta"];
        let values = names
            .iter()
            .filter(|n| n.starts_with(&asked.argument.value));
        let completion = CompleteResultCompletion::new(values.copied()).with_has_more(false);
        Ok(CompleteResult::complete(completion))
    };
    let server = Server::new(
        Implementation::new("memo", "1.0.0"),
        router().completion(complete),
    );
    let ask = |id: u32| {
        json!({"jsonrpc": "2.0", "id": id, "method": "completion/complete", "params": {
            "ref": {"type": "ref/prompt", "name": "greet"},
            "argument": {"name": "who", "value": "al"}}})
    };
    let completed = json!({"completion": {"values": ["alpha", "alpine"], "hasMore": false}});

    let mut session = Session::new();
    let answer = send(&server, &mut session, initialize("2025-11-25"));
    assert_eq!(answer["result"]["capabilities"]["completions"], json!({}));
    let answer = send(&server, &mut session, ask(1));
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "id": 1, "result": completed})
    );

    // 2024-11-05 has `completion/complete` but no `completions` capability to announce it.
    let mut old = Session::new();
    let answer = send(&server, &mut old, initialize("2024-11-05"));
    assert_eq!(
        answer["result"]["capabilities"].get("completions"),
        None,
        "{answer}"
    );
    let answer = send(&server, &mut old, ask(2));
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "id": 2, "result": completed})
    );

    let mut stateless = ask(3);
    stateless["params"]["_meta"] = meta("2026-07-28");
    let answer = send(&server, &mut Session::new(), stateless.clone());
    let mut completed_now = completed.clone();
    completed_now["resultType"] = json!("complete");
    completed_now["_meta"] =
        json!({"io.modelcontextprotocol/serverInfo": {"name": "memo", "version": "1.0.0"}});
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "id": 3, "result": completed_now})
    );

    let without = send(&server_without_completion(), &mut Session::new(), stateless);
    assert_eq!(without["error"]["code"], -32601, "{without}");
}

fn server_without_completion() -> Server<Router> {
    Server::new(Implementation::new("memo", "1.0.0"), router())
}

/// A session's calls reach the handler in 2026-07-28 terms: each carries, in `_meta`, what a
/// stateless request carries (the version, the client's capabilities and `clientInfo` as the
/// session's `initialize` sent them), whether the call brought a `_meta` of its own or not.
#[test]
fn a_session_call_carries_the_sessions_meta_to_the_handler() {
    let router = Router::new().tool(Tool::new("meta", ToolInputSchema::new()), |call| {
        let params = serde_json::to_value(&call).expect("params write");
        Ok(CallToolResult::text(params["_meta"].to_string()))
    });
    let server = Server::new(Implementation::new("memo", "1.0.0"), router);
    let mut session = Session::new();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {"roots": {"listChanged": true}},
        "clientInfo": {"name": "test", "version": "1"}
    }});
    send(&server, &mut session, initialize);
    send(
        &server,
        &mut session,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    let sessions_keys = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"roots": {"listChanged": true}},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"}
    });
    let meta_seen = |session: &mut Session, id: u32, params: Value| {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
        let answer = send(&server, session, call);
        let text = answer["result"]["content"][0]["text"]
            .as_str()
            .map(str::to_owned);
        serde_json::from_str::<Value>(&text.expect("a text answer")).expect("JSON")
    };
    // No `_meta` of its own: the session's keys are all it carries.
    let seen = meta_seen(
        &mut session,
        1,
        json!({"name": "meta", "arguments": {"a": 1}}),
    );
    assert_eq!(seen, sessions_keys);
    // Without arguments either.
    assert_eq!(
        meta_seen(&mut session, 2, json!({"name": "meta"})),
        sessions_keys
    );
    // Its own `_meta`: kept, the session's keys added beside it.
    let own = json!({"name": "meta", "_meta": {"progressToken": 7}});
    let mut expected = sessions_keys.clone();
    expected["progressToken"] = json!(7);
    assert_eq!(meta_seen(&mut session, 3, own), expected);
    // A `_meta` deep in the arguments is the arguments' own: the call's is the session's.
    let deep = json!({"name": "meta", "arguments": {"x": {"_meta": {"k": 1}}}});
    assert_eq!(meta_seen(&mut session, 4, deep), sessions_keys);
}
