//! A handler that asks for input (`input_required`, 2026-07-28) served to every revision: a
//! 2026-07-28 client gets the result and retries; a client of a stateful revision, which has
//! no such result, is asked each input request as a request of its own revision, and the call
//! is handed to the handler again with the answers, as the 2026-07-28 retry would carry them.
#![cfg(all(feature = "server", feature = "v2025_11_25"))]

use mcp_spec_types::server::{Handler, Router, Server, Session};
use mcp_spec_types::v2026_07_28::input_required::{InputRequired, RoundTrip};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::RpcError;
use serde_json::{json, Value};

/// `greet` asks the client's name (elicitation) and roots, then greets; `nag` asks for the
/// roots whatever it is told.
fn server() -> Server<Router> {
    let greet = |call: CallToolRequestParams| -> Result<CallToolResultOrInputRequired, RpcError> {
        let round = RoundTrip::of(&call);
        if round.is_first() {
            let schema: ElicitRequestFormParamsRequestedSchema = serde_json::from_value(
                json!({"type": "object", "properties": {"name": {"type": "string"}}}),
            )
            .map_err(|e| RpcError::invalid_params(e.to_string()))?;
            let asked = InputRequired::new()
                .list_roots("roots")
                .elicit_form("name", "Your name?", schema)
                .with_state("greeting")
                .build_ignoring_capabilities()?;
            return Ok(asked.into());
        }
        assert_eq!(round.request_state.as_deref(), Some("greeting"));
        let content = round
            .elicitation("name")?
            .content
            .clone()
            .unwrap_or_default();
        let name = serde_json::to_value(content.get("name")).unwrap_or_default();
        let name = name.as_str().unwrap_or("?").to_owned();
        let roots = round.roots("roots")?;
        let text = format!("Hello {name}, in {}", roots.roots[0].uri);
        Ok(CallToolResult::text(text).into())
    };
    let nag = |_: CallToolRequestParams| -> Result<InputRequiredResult, RpcError> {
        Ok(InputRequired::new()
            .list_roots("roots")
            .build_ignoring_capabilities()?)
    };
    let router = Router::new()
        .tool(Tool::new("greet", ToolInputSchema::new()), greet)
        .tool(Tool::new("nag", ToolInputSchema::new()), nag);
    Server::new(Implementation::new("greeter", "1"), router)
}

fn send(server: &Server<Router>, session: &mut Session, message: Value) -> Value {
    match server.handle(session, &message.to_string()).pop() {
        Some(answer) => serde_json::from_str(&answer).expect("the answer is JSON"),
        None => Value::Null,
    }
}

/// A 2025-11-25 session whose client declared roots and elicitation.
fn stateful(server: &Server<Router>) -> Session {
    let mut session = Session::new();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {"roots": {}, "elicitation": {}},
        "clientInfo": {"name": "client", "version": "1"}}});
    let answer = send(server, &mut session, initialize);
    assert_eq!(
        answer["result"]["protocolVersion"], "2025-11-25",
        "{answer}"
    );
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(send(server, &mut session, initialized), Value::Null);
    session
}

fn call(id: i64, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool}})
}

fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

#[test]
fn a_stateful_client_is_asked_each_input_request_then_gets_the_answer() {
    let server = server();
    let mut session = stateful(&server);
    // The input requests one at a time, in the order of their keys, in 2025-11-25 terms.
    let asked = send(&server, &mut session, call(7, "greet"));
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    assert_eq!(asked["params"]["message"], "Your name?");
    assert_eq!(
        asked["params"]["requestedSchema"]["properties"]["name"]["type"],
        "string"
    );
    let accepted = json!({"action": "accept", "content": {"name": "Ada"}});
    let asked_roots = send(&server, &mut session, result(&asked["id"], accepted));
    assert_eq!(asked_roots["method"], "roots/list", "{asked_roots}");
    assert_ne!(asked_roots["id"], asked["id"]);
    assert_eq!(session.in_flight(), 1, "the call waits for its answers");
    let roots = json!({"roots": [{"uri": "file:///work", "name": "work"}]});
    let answer = send(&server, &mut session, result(&asked_roots["id"], roots));
    // The handler's answer to the retry, as 2025-11-25 writes it (no `resultType`).
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "id": 7, "result": {
            "content": [{"type": "text", "text": "Hello Ada, in file:///work"}]}})
    );
    assert_eq!(session.in_flight(), 0);
}

#[test]
fn a_2026_07_28_client_gets_the_same_handlers_input_required_and_retries() {
    let server = server();
    let mut session = Session::new();
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"roots": {}, "elicitation": {}}});
    let first = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "greet", "_meta": meta}});
    let answer = send(&server, &mut session, first);
    let asked = &answer["result"];
    assert_eq!(asked["resultType"], "input_required", "{answer}");
    assert_eq!(asked["inputRequests"]["roots"]["method"], "roots/list");
    assert_eq!(asked["requestState"], "greeting");
    let retry = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "greet", "_meta": meta, "requestState": "greeting",
        "inputResponses": {
            "name": {"action": "accept", "content": {"name": "Bo"}},
            "roots": {"roots": [{"uri": "file:///b"}]}}}});
    let answer = send(&server, &mut session, retry);
    assert_eq!(
        answer["result"]["content"][0]["text"], "Hello Bo, in file:///b",
        "{answer}"
    );
}

#[test]
fn the_clients_error_or_unreadable_answer_ends_the_call() {
    let server = server();
    let mut session = stateful(&server);
    let asked = send(&server, &mut session, call(7, "greet"));
    let refused = json!({"jsonrpc": "2.0", "id": asked["id"],
        "error": {"code": -32600, "message": "the user closed the form"}});
    let answer = send(&server, &mut session, refused);
    assert_eq!(answer["id"], 7, "{answer}");
    assert_eq!(answer["error"]["code"], -32600);
    assert_eq!(answer["error"]["message"], "the user closed the form");
    assert_eq!(session.in_flight(), 0);
    // An answer that is not the result of what was asked (roots for an elicitation).
    let asked = send(&server, &mut session, call(8, "greet"));
    let wrong = result(&asked["id"], json!({"action": 5}));
    let answer = send(&server, &mut session, wrong);
    assert_eq!(
        (&answer["id"], &answer["error"]["code"]),
        (&json!(8), &json!(-32603))
    );
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("elicitation/create"), "{message}");
    // A late answer to a finished round pairs with nothing.
    assert_eq!(
        send(&server, &mut session, result(&asked["id"], json!({}))),
        Value::Null
    );
}

#[test]
fn a_cancelled_call_asks_nothing_more_and_is_not_answered() {
    let server = server();
    let mut session = stateful(&server);
    let asked = send(&server, &mut session, call(7, "greet"));
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 7}});
    assert_eq!(send(&server, &mut session, cancel), Value::Null);
    assert_eq!(session.in_flight(), 0);
    let accepted = json!({"action": "accept", "content": {"name": "Ada"}});
    assert_eq!(
        send(&server, &mut session, result(&asked["id"], accepted)),
        Value::Null
    );
}

#[test]
fn a_handler_that_always_asks_is_stopped_after_eight_rounds() {
    let server = server();
    let mut session = stateful(&server);
    let mut line = send(&server, &mut session, call(9, "nag"));
    let mut asked = 0;
    while line["method"] == "roots/list" {
        asked += 1;
        line = send(
            &server,
            &mut session,
            result(&line["id"], json!({"roots": []})),
        );
    }
    assert_eq!(asked, 8);
    assert_eq!(
        (&line["id"], &line["error"]["code"]),
        (&json!(9), &json!(-32603))
    );
    assert_eq!(session.in_flight(), 0);
}

/// The crate's two engines, line by line, the client speaking `version`: the caller answers
/// the handler's input requests the same way whether they come as a stateful server's
/// requests or in a 2026-07-28 `input_required` answer; the text of the final answer, and how
/// many `tools/call` lines the client sent.
#[cfg(feature = "client")]
fn greeted_by_the_client_engine(version: &str) -> (Value, usize) {
    use mcp_spec_types::client::{Client, Event};
    use mcp_spec_types::ProtocolVersion;

    let server = server();
    let mut session = Session::new();
    let capabilities = ClientCapabilities::new()
        .with_roots(mcp_spec_types::JsonObject::new())
        .with_elicitation(ClientCapabilitiesElicitation::new());
    let mut client = Client::new(Implementation::new("client", "1"))
        .with_versions([ProtocolVersion::from(version)])
        .with_capabilities(capabilities);
    let mut to_server = vec![client.start().expect("a revision to speak")];
    while let Some(line) = to_server.pop() {
        let Some(answer) = server.handle(&mut session, &line).pop() else {
            continue;
        };
        for event in client.receive(&answer) {
            match event {
                Event::Send(line) => to_server.push(line),
                Event::Connected(_) => {}
                other => panic!("{other:?}"),
            }
        }
    }
    assert_eq!(client.version().map(|v| v.as_str()), Some(version));
    let call = CallToolRequestParams::new("greet", client.meta());
    let (id, line) = client.request(ClientCall::CallTool(call)).expect("sent");
    let (mut lines, mut calls) = (vec![line], 0);
    let text = 'answered: loop {
        let line = lines.pop().expect("a line to send");
        calls += usize::from(line.contains("tools/call"));
        let answer = server.handle(&mut session, &line).pop().expect("an answer");
        for event in client.receive(&answer) {
            match event {
                Event::Request { id, call } => {
                    let result: ServerCallResult = match call {
                        ServerCall::Elicit(_) => {
                            let accepted = json!({"action": "accept", "content": {"name": "Cy"}});
                            serde_json::from_value::<ElicitResult>(accepted)
                                .expect("an elicitation result")
                                .into()
                        }
                        ServerCall::ListRoots(_) => {
                            ListRootsResult::new([Root::new("file:///c")]).into()
                        }
                        other => panic!("{other:?}"),
                    };
                    // No line until the last input request of a 2026-07-28 answer.
                    let events = client.respond(&id, Ok(result)).expect("answered");
                    lines.extend(events.into_iter().map(|event| match event {
                        Event::Send(line) => line,
                        other => panic!("{other:?}"),
                    }));
                }
                Event::Answer {
                    id: answered,
                    result: Ok(ClientCallResult::CallTool(result)),
                } if answered == id => {
                    break 'answered serde_json::to_value(result).expect("JSON");
                }
                other => panic!("{other:?}"),
            }
        }
    };
    assert_eq!(client.in_flight(), 0);
    (text, calls)
}

#[cfg(feature = "client")]
#[test]
fn the_client_engine_answers_what_a_handler_asks_a_stateful_client() {
    let (text, calls) = greeted_by_the_client_engine("2025-11-25");
    assert_eq!(
        text["content"][0]["text"], "Hello Cy, in file:///c",
        "{text}"
    );
    assert_eq!(calls, 1, "the engine retried on the server's side");
}

#[cfg(feature = "client")]
#[test]
fn the_client_engine_answers_an_input_required_answer_and_retries() {
    let (text, calls) = greeted_by_the_client_engine("2026-07-28");
    assert_eq!(
        text["content"][0]["text"], "Hello Cy, in file:///c",
        "{text}"
    );
    assert_eq!(text["resultType"], "complete", "{text}");
    assert_eq!(calls, 2, "the client retried with the answers");
}

/// Over HTTP the request's response is an event stream: its first event asks the first input
/// request; each answer comes in a POST of its own (202), and what follows goes on the first
/// request's stream, the final answer last.
#[test]
fn over_http_a_stateful_client_is_asked_on_the_requests_event_stream() {
    use mcp_spec_types::http_headers::{lookup, MCP_SESSION_ID};
    use mcp_spec_types::server::{HttpResponse, Sessions, StreamEvent};

    let server = server();
    let mut sessions = Sessions::new(|| "session-1".to_owned());
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"roots": {}, "elicitation": {}},
        "clientInfo": {"name": "client", "version": "1"}}});
    let opened = server.http(
        &mut sessions,
        "POST",
        lookup::<&str, &str>(&[]),
        &initialize.to_string(),
        0,
    );
    assert_eq!(opened.status, 200, "{opened:?}");
    let headers = [(MCP_SESSION_ID, "session-1")];
    let mut post = |message: Value| -> HttpResponse {
        let body = message.to_string();
        server.http(&mut sessions, "POST", lookup(&headers), &body, 1)
    };
    let only_event = |response: &HttpResponse| -> (StreamEvent, Value) {
        assert_eq!(response.events.len(), 1, "{response:?}");
        let event = response.events[0].clone();
        let message = serde_json::from_str(&event.message).expect("a JSON message");
        (event, message)
    };

    let response = post(call(7, "greet"));
    assert_eq!(response.status, 200, "{response:?}");
    assert_eq!(response.body, None);
    assert_eq!(response.content_type(), Some("text/event-stream"));
    let stream = response.stream.clone().expect("the response is a stream");
    assert_eq!(
        (stream.session(), stream.request()),
        (Some("session-1"), Some(&mcp_spec_types::RequestId::from(7)))
    );
    let (event, asked) = only_event(&response);
    assert_eq!((&event.stream, event.last), (&stream, false));
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    // The session's first event: id 1, which a client resuming the stream names.
    assert_eq!(
        event.to_sse(),
        format!("id: 1\ndata: {}\n\n", event.message)
    );

    let accepted = json!({"action": "accept", "content": {"name": "Ada"}});
    let response = post(result(&asked["id"], accepted));
    assert_eq!((response.status, &response.body), (202, &None));
    assert_eq!(response.stream, None);
    let (event, asked_roots) = only_event(&response);
    assert_eq!((&event.stream, event.last), (&stream, false));
    assert_eq!(asked_roots["method"], "roots/list", "{asked_roots}");

    let roots = json!({"roots": [{"uri": "file:///work", "name": "work"}]});
    let response = post(result(&asked_roots["id"], roots));
    assert_eq!(response.status, 202);
    let (event, answer) = only_event(&response);
    assert_eq!((&event.stream, event.last), (&stream, true));
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "id": 7, "result": {
            "content": [{"type": "text", "text": "Hello Ada, in file:///work"}]}})
    );
    // An answer nobody asked for is taken and dropped.
    let response = post(result(&asked_roots["id"], json!({"roots": []})));
    assert_eq!((response.status, response.events.len()), (202, 0));

    // A client whose connection broke after the first event resumes the call's stream with
    // `Last-Event-ID`: it gets the roots request and the answer (the end of the stream) again.
    let resume = [
        (MCP_SESSION_ID, "session-1"),
        ("Accept", "text/event-stream"),
        ("Last-Event-ID", "1"),
    ];
    let resumed = server.http(&mut sessions, "GET", lookup(&resume), "", 2);
    assert_eq!(resumed.status, 200, "{resumed:?}");
    assert_eq!(resumed.stream, Some(stream.clone()));
    let replayed: Vec<(Option<&str>, Value, bool)> = (resumed.events.iter())
        .map(|e| {
            let message = serde_json::from_str(&e.message).expect("JSON");
            (e.id.as_deref(), message, e.last)
        })
        .collect();
    assert_eq!(
        replayed,
        [(Some("2"), asked_roots, false), (Some("3"), answer, true)]
    );
    // Resumed after its last event, the call's stream has nothing more: it ends at once.
    let after_last = [
        (MCP_SESSION_ID, "session-1"),
        ("Accept", "text/event-stream"),
        ("Last-Event-ID", "3"),
    ];
    let over = server.http(&mut sessions, "GET", lookup(&after_last), "", 3);
    assert_eq!((over.status, over.events.len()), (200, 0), "{over:?}");
    assert_eq!(over.ended, std::slice::from_ref(&stream));
}

/// A call handed out by `http_receive` after the client's input is finished on its first
/// request's stream (the POST that brought the input gets 202); the client's error ends the
/// call there.
#[test]
fn over_http_the_retried_call_and_the_clients_error_go_on_the_first_stream() {
    use mcp_spec_types::http_headers::{lookup, MCP_SESSION_ID};
    use mcp_spec_types::server::{HttpIncoming, HttpResponse, Sessions};

    let server = server();
    let mut sessions = Sessions::new(|| "s".to_owned());
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {"roots": {}},
        "clientInfo": {"name": "client", "version": "1"}}});
    let none: [(&str, &str); 0] = [];
    let body = initialize.to_string();
    let opened = server.http(&mut sessions, "POST", lookup(&none), &body, 0);
    assert_eq!(opened.status, 200, "{opened:?}");
    let headers = [(MCP_SESSION_ID, "s")];
    // What the POST of `message` gets, the handler run where a call is handed out.
    let mut post = |message: Value| -> (bool, HttpResponse) {
        let body = message.to_string();
        match server.http_receive(&mut sessions, "POST", lookup(&headers), &body, 1) {
            HttpIncoming::Call(call) => {
                let (call, mut context, responder) = call.into_parts();
                let answer = responder.respond(server.handler().call(call, &mut context));
                (true, sessions.finish(answer))
            }
            HttpIncoming::Respond(response) => (false, response),
            other => panic!("{other:?}"),
        }
    };
    let message = |response: &HttpResponse| -> Value {
        assert_eq!(response.events.len(), 1, "{response:?}");
        serde_json::from_str(&response.events[0].message).expect("a JSON message")
    };

    // `nag` asks for the roots each time it is called.
    let (handed_out, response) = post(call(3, "nag"));
    assert!(handed_out);
    assert_eq!(response.status, 200);
    let stream = response.stream.clone().expect("an event stream");
    let asked = message(&response);
    assert_eq!(asked["method"], "roots/list", "{asked}");

    let (handed_out, response) = post(result(&asked["id"], json!({"roots": []})));
    assert!(handed_out, "the call is handed out again with the roots");
    assert_eq!((response.status, response.stream.as_ref()), (202, None));
    assert_eq!(response.events[0].stream, stream);
    assert!(!response.events[0].last);
    let asked_again = message(&response);
    assert_eq!(asked_again["method"], "roots/list", "{asked_again}");
    assert_ne!(asked_again["id"], asked["id"]);

    let refused = json!({"jsonrpc": "2.0", "id": asked_again["id"],
        "error": {"code": -32601, "message": "no roots here"}});
    let (handed_out, response) = post(refused);
    assert!(!handed_out);
    assert_eq!(response.status, 202);
    assert_eq!(response.events[0].stream, stream);
    assert!(response.events[0].last);
    let answer = message(&response);
    assert_eq!(
        (&answer["id"], &answer["error"]["code"]),
        (&json!(3), &json!(-32601)),
        "{answer}"
    );
}

/// Over HTTP a request's stream also ends without a last event: when the client cancels the
/// request, or its session is deleted or expires. The response that learns it says which
/// (`ended`), so that the caller closes the connection.
#[test]
fn over_http_a_stream_ends_with_its_request_or_its_session() {
    use mcp_spec_types::http_headers::{lookup, MCP_SESSION_ID};
    use mcp_spec_types::server::{HttpResponse, Sessions};

    let server = server();
    let mut count = 0;
    let mut sessions = Sessions::new(move || {
        count += 1;
        format!("s{count}")
    });
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"roots": {}, "elicitation": {}},
        "clientInfo": {"name": "client", "version": "1"}}})
    .to_string();
    let http = |sessions: &mut Sessions, method: &str, session: &str, body: &str, now| {
        let headers = [(MCP_SESSION_ID, session), ("Accept", "text/event-stream")];
        let headers = if session.is_empty() {
            &headers[1..]
        } else {
            &headers[..]
        };
        server.http(sessions, method, lookup(headers), body, now)
    };
    let session_of = |response: &HttpResponse| {
        let id = response
            .headers
            .iter()
            .find(|(name, _)| *name == MCP_SESSION_ID);
        id.map(|(_, id)| id.clone()).expect("a session")
    };
    let opened = http(&mut sessions, "POST", "", &initialize, 0);
    let first = session_of(&opened);

    let asked = http(
        &mut sessions,
        "POST",
        &first,
        &call(7, "greet").to_string(),
        1,
    );
    let stream7 = asked.stream.clone().expect("a stream");
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 7}});
    let cancelled = http(&mut sessions, "POST", &first, &cancel.to_string(), 2);
    assert_eq!(cancelled.status, 202);
    assert_eq!(
        (cancelled.events.len(), &cancelled.ended),
        (0, &vec![stream7])
    );

    let asked = http(
        &mut sessions,
        "POST",
        &first,
        &call(8, "greet").to_string(),
        3,
    );
    let stream8 = asked.stream.clone().expect("a stream");
    let get = http(&mut sessions, "GET", &first, "", 4);
    let own = get.stream.clone().expect("the session's stream");
    let deleted = http(&mut sessions, "DELETE", &first, "", 5);
    assert_eq!(deleted.status, 200);
    assert_eq!(deleted.ended, vec![own, stream8]);

    let opened = http(&mut sessions, "POST", "", &initialize, 10);
    let second = session_of(&opened);
    let asked = http(
        &mut sessions,
        "POST",
        &second,
        &call(9, "greet").to_string(),
        11,
    );
    let stream9 = asked.stream.clone().expect("a stream");
    let later = 11 + sessions.idle_ms() + 1;
    let next = http(&mut sessions, "POST", "", &initialize, later);
    assert_eq!(next.status, 200);
    assert_eq!(next.ended, vec![stream9]);
    assert_eq!(sessions.len(), 1, "only the new session is left");
}

/// A 2026-07-28 client engine facing input requests it cannot or will not answer.
#[cfg(feature = "client")]
#[test]
fn the_client_engine_gives_up_or_passes_on_what_it_cannot_answer() {
    use mcp_spec_types::client::{Client, ClientError, Event};

    let connect = |client: &mut Client, server: &Server<Router>, session: &mut Session| {
        let discover = client.start().expect("a revision to speak");
        let answer = server.handle(session, &discover).pop().expect("discovered");
        assert!(matches!(
            client.receive(&answer).as_slice(),
            [Event::Connected(_)]
        ));
    };
    let server = server();
    // Without the elicitation capability the engine cannot ask: the answer is the caller's.
    let mut session = Session::new();
    let roots_only = ClientCapabilities::new().with_roots(mcp_spec_types::JsonObject::new());
    let mut client = Client::new(Implementation::new("c", "1")).with_capabilities(roots_only);
    connect(&mut client, &server, &mut session);
    let call = CallToolRequestParams::new("greet", client.meta());
    let (id, line) = client.request(ClientCall::CallTool(call)).expect("sent");
    let answer = server.handle(&mut session, &line).pop().expect("an answer");
    match client.receive(&answer).as_slice() {
        [Event::Answer {
            id: answered,
            result: Ok(result),
        }] => {
            assert_eq!(*answered, id);
            assert!(result.input_required().is_some(), "{result:?}");
        }
        other => panic!("{other:?}"),
    }

    // With it: a result of the wrong kind is refused, an error gives the request up.
    let both = ClientCapabilities::new()
        .with_roots(mcp_spec_types::JsonObject::new())
        .with_elicitation(ClientCapabilitiesElicitation::new());
    let mut client = Client::new(Implementation::new("c", "1")).with_capabilities(both);
    connect(&mut client, &server, &mut session);
    let call = CallToolRequestParams::new("greet", client.meta());
    let (called, line) = client.request(ClientCall::CallTool(call)).expect("sent");
    let answer = server.handle(&mut session, &line).pop().expect("an answer");
    let asked: Vec<(mcp_spec_types::RequestId, ServerCall)> = client
        .receive(&answer)
        .into_iter()
        .map(|event| match event {
            Event::Request { id, call } => (id, call),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(asked.len(), 2, "{asked:?}");
    let (elicit, _) = asked
        .iter()
        .find(|(_, call)| matches!(call, ServerCall::Elicit(_)))
        .expect("the elicitation");
    let roots = ServerCallResult::ListRoots(ListRootsResult::new([Root::new("file:///x")]));
    let wrong = client.respond(elicit, Ok(roots));
    assert!(matches!(wrong, Err(ClientError::Input(_))), "{wrong:?}");
    assert_eq!(client.in_flight(), 1, "still waiting for its answers");
    let declined = RpcError::new(mcp_spec_types::ErrorCode::InvalidRequest, "no");
    // The call is given up, and its caller told so under the id it knows, with the
    // refusal's code and what was refused.
    let given_up = client.respond(elicit, Err(declined)).expect("answered");
    let [Event::Answer {
        id,
        result: Err(why),
    }] = given_up.as_slice()
    else {
        panic!("{given_up:?}")
    };
    assert_eq!(id, &called);
    assert_eq!(why.code, mcp_spec_types::ErrorCode::InvalidRequest);
    assert!(
        why.message.contains("refused the server's input request"),
        "{why:?}"
    );
    assert!(why.message.ends_with(": no"), "{why:?}");
    assert_eq!(client.in_flight(), 0, "given up");
    let (other, _) = asked
        .iter()
        .find(|(id, _)| id != elicit)
        .expect("the roots");
    let late = ServerCallResult::ListRoots(ListRootsResult::new([Root::new("file:///x")]));
    assert!(matches!(
        client.respond(other, Ok(late)),
        Err(ClientError::NotAsked(_))
    ));
}

/// 2025-03-26 has no elicitation, and answers a batch with an array of responses: a call that
/// asks for it, or that asks from inside a batch, gets -32603 saying why.
#[cfg(feature = "v2025_03_26")]
#[test]
fn what_a_revision_or_a_batch_cannot_carry_is_refused() {
    let server = server();
    let mut session = Session::new();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {"roots": {}},
        "clientInfo": {"name": "client", "version": "1"}}});
    let answer = send(&server, &mut session, initialize);
    assert_eq!(
        answer["result"]["protocolVersion"], "2025-03-26",
        "{answer}"
    );
    let answer = send(&server, &mut session, call(7, "greet"));
    assert_eq!(
        (&answer["id"], &answer["error"]["code"]),
        (&json!(7), &json!(-32603))
    );
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("elicitation/create"), "{message}");
    // `nag` asks for roots, which 2025-03-26 has, but from inside a batch.
    let answer = send(&server, &mut session, json!([call(8, "nag")]));
    assert_eq!(answer[0]["id"], 8, "{answer}");
    assert_eq!(answer[0]["error"]["code"], -32603, "{answer}");
    assert_eq!(session.in_flight(), 0);
    // Outside a batch the same call asks.
    let asked = send(&server, &mut session, call(9, "nag"));
    assert_eq!(asked["method"], "roots/list", "{asked}");
}
