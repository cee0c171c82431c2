//! What a handler reports while it answers (`server::Context`): progress on a request that
//! asked for it with a progress token, log messages at the level the client chose
//! (`logging/setLevel` in a stateful session, `_meta`'s `logLevel` from 2026-07-28), sent
//! before the answer as notifications of the client's revision; inline, over stdio and HTTP,
//! and from a handler run elsewhere.
#![cfg(all(
    feature = "server",
    feature = "v2024_11_05",
    feature = "v2025_03_26",
    feature = "v2025_11_25"
))]

use mcp_spec_types::server::{
    Context, Handler, HttpIncoming, Incoming, Router, Server, Session, Sessions,
};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::RpcError;
use serde_json::{json, Value};

/// A tool that reports twice and logs at two levels, then answers.
fn router() -> Router {
    Router::new()
        .with_logging()
        .tool_with(Tool::new("index", ToolInputSchema::new()), index)
}

fn index(_: CallToolRequestParams, context: &mut Context) -> Result<CallToolResult, RpcError> {
    context.progress(1, Some(2.into()), Some("half"));
    context.log(LoggingLevel::Info, "an info line");
    context.log(LoggingLevel::Error, json!({"failed": "one file"}));
    context.progress(2, Some(2.into()), None);
    Ok(CallToolResult::text("indexed"))
}

fn server(router: Router) -> Server<Router> {
    Server::new(Implementation::new("reports", "1.0.0"), router)
}

/// The `_meta` of each 2026-07-28 result of [`server`]: who answered.
fn server_info() -> Value {
    json!({"io.modelcontextprotocol/serverInfo": {"name": "reports", "version": "1.0.0"}})
}

fn lines_of(server: &Server<Router>, session: &mut Session, message: Value) -> Vec<Value> {
    let lines = server.handle(session, &message.to_string());
    let read = |line: &String| serde_json::from_str(line).expect("JSON");
    lines.iter().map(read).collect()
}

fn initialized(server: &Server<Router>, version: &str) -> Session {
    let mut session = Session::new();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    let answer = lines_of(server, &mut session, initialize);
    assert_eq!(answer[0]["result"]["protocolVersion"], version);
    session
}

fn call(id: u32, meta: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "index", "_meta": meta}})
}

fn progress(token: Value, progress: u32, message: Option<&str>) -> Value {
    let mut params = json!({"progressToken": token, "progress": progress, "total": 2});
    if let Some(message) = message {
        params["message"] = json!(message);
    }
    json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})
}

fn log(level: &str, data: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": level, "data": data}})
}

fn answer(id: u32) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {
        "content": [{"type": "text", "text": "indexed"}]}})
}

#[test]
fn a_stateful_client_hears_progress_and_the_logs_at_its_level_before_the_answer() {
    let server = server(router());
    let mut session = initialized(&server, "2025-11-25");
    // Before `logging/setLevel`, no log message may be sent.
    let lines = lines_of(
        &server,
        &mut session,
        call(1, json!({"progressToken": "p1"})),
    );
    let expected = vec![
        progress(json!("p1"), 1, Some("half")),
        progress(json!("p1"), 2, None),
        answer(1),
    ];
    assert_eq!(lines, expected);

    let set = json!({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel",
        "params": {"level": "warning"}});
    let set = lines_of(&server, &mut session, set);
    assert_eq!(set, vec![json!({"jsonrpc": "2.0", "id": 2, "result": {}})]);
    assert_eq!(session.log_level(), Some(LoggingLevel::Warning));
    let lines = lines_of(&server, &mut session, call(3, json!({"progressToken": 7})));
    let expected = vec![
        progress(json!(7), 1, Some("half")),
        log("error", json!({"failed": "one file"})),
        progress(json!(7), 2, None),
        answer(3),
    ];
    assert_eq!(lines, expected);

    // A request with no progress token gets no progress.
    let lines = lines_of(&server, &mut session, call(4, json!({})));
    assert_eq!(
        lines,
        vec![log("error", json!({"failed": "one file"})), answer(4)]
    );
}

#[test]
fn a_2024_11_05_client_gets_progress_without_what_its_revision_lacks() {
    let server = server(router());
    let mut session = initialized(&server, "2024-11-05");
    let lines = lines_of(
        &server,
        &mut session,
        call(1, json!({"progressToken": "old"})),
    );
    // 2024-11-05's progress notification has no `message`.
    let expected = vec![
        progress(json!("old"), 1, None),
        progress(json!("old"), 2, None),
        answer(1),
    ];
    assert_eq!(lines, expected);
}

#[test]
fn a_stateless_request_chooses_its_log_level_in_its_meta() {
    let server = server(router());
    let meta = |level: Option<&str>| {
        let mut meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}, "progressToken": "s"});
        if let Some(level) = level {
            meta["io.modelcontextprotocol/logLevel"] = json!(level);
        }
        meta
    };
    let stateless_answer = |id| {
        let mut answer = answer(id);
        answer["result"]["resultType"] = json!("complete");
        answer["result"]["_meta"] = server_info();
        answer
    };
    let mut session = Session::new();
    let lines = lines_of(&server, &mut session, call(1, meta(Some("info"))));
    let expected = vec![
        progress(json!("s"), 1, Some("half")),
        log("info", json!("an info line")),
        log("error", json!({"failed": "one file"})),
        progress(json!("s"), 2, None),
        stateless_answer(1),
    ];
    assert_eq!(lines, expected);
    let lines = lines_of(&server, &mut session, call(2, meta(None)));
    let expected = vec![
        progress(json!("s"), 1, Some("half")),
        progress(json!("s"), 2, None),
        stateless_answer(2),
    ];
    assert_eq!(lines, expected);
}

#[test]
fn set_level_is_refused_where_the_server_does_not_log_and_in_the_stateless_revision() {
    let quiet = server(
        Router::new().tool(Tool::new("t", ToolInputSchema::new()), |_| {
            Ok(CallToolResult::text("t"))
        }),
    );
    let mut session = initialized(&quiet, "2025-11-25");
    let set = json!({"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel",
        "params": {"level": "debug"}});
    let refused = lines_of(&quiet, &mut session, set.clone());
    assert_eq!(refused[0]["error"]["code"], -32601, "{refused:?}");
    assert_eq!(session.log_level(), None);

    let logging = server(router());
    let mut session = initialized(&logging, "2025-11-25");
    let mut bad = set.clone();
    bad["params"]["level"] = json!("loud");
    let refused = lines_of(&logging, &mut session, bad);
    assert_eq!(refused[0]["error"]["code"], -32602, "{refused:?}");
    assert_eq!(session.log_level(), None);

    // 2026-07-28 has no `logging/setLevel`.
    let mut stateless = set;
    stateless["params"]["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}});
    let refused = lines_of(&logging, &mut Session::new(), stateless);
    assert_eq!(refused[0]["error"]["code"], -32601, "{refused:?}");
}

#[test]
fn an_item_of_a_batch_gets_no_reports() {
    let server = server(router());
    let mut session = initialized(&server, "2025-03-26");
    let set = json!({"jsonrpc": "2.0", "id": 0, "method": "logging/setLevel",
        "params": {"level": "debug"}});
    assert_eq!(lines_of(&server, &mut session, set)[0]["result"], json!({}));
    // The batch's answer is one array of responses: no progress, no log message in it.
    let batch = json!([call(1, json!({"progressToken": "b"}))]);
    let lines = lines_of(&server, &mut session, batch);
    assert_eq!(lines, vec![json!([answer(1)])]);
}

#[test]
fn a_handler_run_elsewhere_sends_its_reports_as_it_goes() {
    let server = server(router());
    let mut session = initialized(&server, "2025-11-25");
    let line = call(1, json!({"progressToken": "far"})).to_string();
    let Incoming::Call(pending) = server.receive(&mut session, &line) else {
        panic!("a call for the handler");
    };
    let (_, mut context, responder) = pending.into_parts();
    assert_eq!(context.progress_token, Some("far".into()));
    assert!(context.progress(1, None, None));
    assert!(!context.log(LoggingLevel::Emergency, "unheard: no level set"));
    let now = responder.notes(&mut context);
    let expected = json!({"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"progressToken": "far", "progress": 1}});
    let now: Vec<Value> = now
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(now, vec![expected]);
    assert_eq!(context.pending_notes(), 0);
    // Taken once: nothing is sent twice.
    assert!(responder.notes(&mut context).is_empty());
    let answered = session.finish(responder.respond(Ok(CallToolResult::text("indexed").into())));
    let answered: Value = serde_json::from_str(&answered.expect("the answer")).unwrap();
    assert_eq!(answered, answer(1));
}

/// `Accept` and the version header of a 2026-07-28 request, for HTTP.
fn headers(name: &str) -> Option<&'static str> {
    match name.to_ascii_lowercase().as_str() {
        "accept" => Some("application/json, text/event-stream"),
        "mcp-protocol-version" => Some("2026-07-28"),
        "mcp-method" => Some("tools/call"),
        "mcp-name" => Some("index"),
        _ => None,
    }
}

fn event_messages(response: &mcp_spec_types::server::HttpResponse) -> Vec<Value> {
    let read = |e: &mcp_spec_types::server::StreamEvent| serde_json::from_str(&e.message).unwrap();
    response.events.iter().map(read).collect()
}

#[test]
fn over_http_the_reports_and_the_answer_are_one_event_stream() {
    let server = server(router());
    let mut sessions = Sessions::new(|| "s-1".to_owned());
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}, "progressToken": "h",
        "io.modelcontextprotocol/logLevel": "error"});
    let body = call(9, meta).to_string();
    let response = server.http(&mut sessions, "POST", headers, &body, 0);
    assert_eq!(response.status, 200, "{response:?}");
    assert_eq!(response.content_type(), Some("text/event-stream"));
    assert_eq!(response.body, None);
    let stream = response.stream.clone().expect("a stream");
    assert_eq!(stream.session(), None);
    assert_eq!(stream.request(), Some(&9.into()));
    let mut answered = answer(9);
    answered["result"]["resultType"] = json!("complete");
    answered["result"]["_meta"] = server_info();
    let expected = vec![
        progress(json!("h"), 1, Some("half")),
        log("error", json!({"failed": "one file"})),
        progress(json!("h"), 2, None),
        answered,
    ];
    assert_eq!(event_messages(&response), expected);
    let lasts: Vec<bool> = response.events.iter().map(|e| e.last).collect();
    assert_eq!(lasts, vec![false, false, false, true]);
    assert!(response.events.iter().all(|e| e.stream == stream));

    // Without a progress token nor a level, the answer is JSON, as before.
    let plain = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}});
    let response = server.http(
        &mut sessions,
        "POST",
        headers,
        &call(10, plain).to_string(),
        0,
    );
    assert_eq!(response.content_type(), Some("application/json"));
    assert!(response.stream.is_none() && response.events.is_empty());
}

#[test]
fn over_http_a_handler_run_elsewhere_answers_after_its_reports() {
    let server = server(router());
    let mut sessions = Sessions::new(|| "s-2".to_owned());
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    let none = |_: &str| None;
    let opened = server.http(&mut sessions, "POST", none, &initialize.to_string(), 0);
    assert_eq!(opened.status, 200);
    let in_session = |name: &str| match name.to_ascii_lowercase().as_str() {
        "mcp-session-id" => Some("s-2"),
        "accept" => Some("application/json, text/event-stream"),
        _ => None,
    };
    let body = call(5, json!({"progressToken": 5})).to_string();
    let HttpIncoming::Call(pending) =
        server.http_receive(&mut sessions, "POST", in_session, &body, 1)
    else {
        panic!("a call for the handler");
    };
    let (call, mut context, responder) = pending.into_parts();
    let result = server.handler().call(call, &mut context);
    let response = sessions.finish(responder.respond_with(&mut context, result));
    assert_eq!(response.status, 200);
    let stream = response.stream.clone().expect("a stream");
    assert_eq!(
        (stream.session(), stream.request()),
        (Some("s-2"), Some(&5.into()))
    );
    let expected = vec![
        progress(json!(5), 1, Some("half")),
        progress(json!(5), 2, None),
        answer(5),
    ];
    assert_eq!(event_messages(&response), expected);
}
