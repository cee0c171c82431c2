//! The sans-IO client engine (`mcp_spec_types::client`) against the server engine, line by
//! line: connecting by `server/discover` or, to a server without a stateless revision in
//! common, by `initialize`; each request in the server's revision and each answer read as the
//! result of its request, in 2026-07-28 terms; notifications; what pairs with nothing.
#![cfg(all(feature = "client", feature = "server", feature = "v2025_11_25"))]

use mcp_spec_types::client::{Client, ClientError, Event};
use mcp_spec_types::server::{Change, Router, Server, Session};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::{ProtocolVersion, RequestId, RpcError};
use serde_json::Value;

fn server(versions: &[&str]) -> Server<Router> {
    let router = Router::new()
        .tool(
            Tool::new("echo", ToolInputSchema::new()).with_title("Echo"),
            |call| {
                let arguments = call.arguments.unwrap_or_default();
                let text = arguments.get::<String>("text").and_then(Result::ok);
                Ok(CallToolResult::text(text.unwrap_or_default()))
            },
        )
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        })
        .subscriptions(|_| Ok(()));
    let versions = versions.iter().map(|v| ProtocolVersion::from(*v));
    Server::new(Implementation::new("memo", "1"), router).with_versions(versions)
}

fn client() -> Client {
    Client::new(Implementation::new("reader", "1"))
}

/// Connects `client` to `server`, returning the lines the client sent.
fn connect(client: &mut Client, server: &Server<Router>, session: &mut Session) -> Vec<String> {
    connect_watching(client, server, session, |_, _| {})
}

/// [`connect`], showing `watch` each line as it is sent, with the client as it then is.
pub fn connect_watching(
    client: &mut Client,
    server: &Server<Router>,
    session: &mut Session,
    mut watch: impl FnMut(&Client, &str),
) -> Vec<String> {
    let mut sent = vec![client.start().expect("a revision to speak")];
    watch(client, &sent[0]);
    let mut to_send = vec![sent[0].clone()];
    while let Some(line) = to_send.pop() {
        let Some(answer) = server.handle(session, &line).pop() else {
            continue;
        };
        for event in client.receive(&answer) {
            match event {
                Event::Send(line) => {
                    watch(client, &line);
                    sent.push(line.clone());
                    to_send.push(line);
                }
                Event::Connected(_) => {}
                other => panic!("while connecting: {other:?}"),
            }
        }
    }
    // `notifications/initialized` gets no answer: the loop above sent it.
    sent
}

/// Sends `call` and returns its answer.
fn ask(
    client: &mut Client,
    server: &Server<Router>,
    session: &mut Session,
    call: ClientCall,
) -> Result<ClientCallResult, RpcError> {
    let (id, line) = client.request(call).expect("the request is sent");
    let answer = server.handle(session, &line).pop().expect("an answer");
    match client.receive(&answer).as_slice() {
        [Event::Answer {
            id: answered,
            result,
        }] if *answered == id => result.clone(),
        other => panic!("not the answer to {id:?}: {other:?}"),
    }
}

fn method(line: &str) -> String {
    let value: Value = serde_json::from_str(line).expect("JSON");
    value["method"].as_str().unwrap_or_default().to_owned()
}

#[test]
fn a_client_discovers_a_server_of_every_revision_and_speaks_2026_07_28() {
    let server = server(&["2026-07-28", "2025-11-25"]);
    let (mut client, mut session) = (client(), Session::new());
    let sent = connect(&mut client, &server, &mut session);
    assert_eq!(
        sent.iter().map(|l| method(l)).collect::<Vec<_>>(),
        ["server/discover"]
    );
    assert_eq!(
        client.version().map(ProtocolVersion::as_str),
        Some("2026-07-28")
    );

    let read = ReadResourceRequestParams::new("memo://hi", client.meta());
    let Ok(ClientCallResult::ReadResource(read)) = ask(
        &mut client,
        &server,
        &mut session,
        ClientCall::ReadResource(read),
    ) else {
        panic!("a read result")
    };
    let ReadResourceResultOrInputRequired::ReadResourceResult(read) = read else {
        panic!("complete")
    };
    assert_eq!(
        serde_json::to_value(&read.contents).unwrap()[0]["text"],
        "Hi!"
    );
    assert_eq!(client.in_flight(), 0);
}

#[test]
fn a_stateless_request_carries_the_sessions_meta_whatever_the_caller_put() {
    let server = server(&["2026-07-28"]);
    let (mut client, mut session) = (client(), Session::new());
    connect(&mut client, &server, &mut session);
    let stale = RequestMetaObject::new(ClientCapabilities::new(), "1999-01-01");
    let list = ClientCall::ListTools(PaginatedRequestParams::new(stale));
    let (_, line) = client.request(list).expect("sent");
    let sent: Value = serde_json::from_str(&line).expect("JSON");
    let meta = &sent["params"]["_meta"];
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28",
        "{line}"
    );
    assert_eq!(
        meta["io.modelcontextprotocol/clientInfo"]["name"], "reader",
        "{line}"
    );
}

#[test]
fn a_server_without_a_stateless_revision_in_common_gets_initialize() {
    let server = server(&["2025-11-25"]);
    let (mut client, mut session) = (client(), Session::new());
    let sent = connect(&mut client, &server, &mut session);
    let methods: Vec<String> = sent.iter().map(|l| method(l)).collect();
    assert_eq!(
        methods,
        ["server/discover", "initialize", "notifications/initialized"]
    );
    assert_eq!(
        client.version().map(ProtocolVersion::as_str),
        Some("2025-11-25")
    );
    assert!(session.is_initialized());

    // The request leaves out the stateless `_meta`; the answer comes back as 2026-07-28's,
    // `resultType` and all.
    let arguments: mcp_spec_types::JsonObject = serde_json::from_str(r#"{"text":"hi"}"#).unwrap();
    let call = CallToolRequestParams::new("echo", client.meta()).with_arguments(arguments);
    let (id, line) = client.request(ClientCall::CallTool(call)).expect("sent");
    assert!(!line.contains("io.modelcontextprotocol/"), "{line}");
    let answer = server.handle(&mut session, &line).pop().expect("an answer");
    let Some(Event::Answer {
        id: answered,
        result: Ok(ClientCallResult::CallTool(result)),
    }) = client.receive(&answer).pop()
    else {
        panic!("a tool result for {answer}")
    };
    assert_eq!(answered, id);
    let written = serde_json::to_value(&result).unwrap();
    assert_eq!(written["content"][0]["text"], "hi", "{written}");
    assert_eq!(written["resultType"], "complete", "{written}");

    // "Resource not found" as the server's revision writes it.
    let read = ReadResourceRequestParams::new("memo://missing", client.meta());
    let error = ask(
        &mut client,
        &server,
        &mut session,
        ClientCall::ReadResource(read),
    )
    .expect_err("not found");
    assert_eq!(error.code.code(), -32002);
}

#[test]
fn a_notification_reaches_the_client_in_2026_07_28_terms() {
    let server = server(&["2025-11-25"]);
    let (mut client, mut session) = (client(), Session::new());
    connect(&mut client, &server, &mut session);
    let subscribe =
        r#"{"jsonrpc":"2.0","id":"s","method":"resources/subscribe","params":{"uri":"memo://hi"}}"#;
    server
        .handle(&mut session, subscribe)
        .pop()
        .expect("subscribed");
    let lines = server.notify(&session, &Change::ResourceUpdated("memo://hi".into()));
    assert_eq!(lines.len(), 1);
    match client.receive(&lines[0]).as_slice() {
        [Event::Notification(ServerNotify::ResourceUpdated(updated))] => {
            assert_eq!(updated.uri, "memo://hi");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn what_pairs_with_no_request_is_said_and_requests_wait_for_the_connection() {
    let mut client = client();
    let list = ClientCall::ListTools(PaginatedRequestParams::new(client.meta()));
    assert_eq!(client.request(list).unwrap_err(), ClientError::NotConnected);

    let server = server(&["2026-07-28"]);
    let mut session = Session::new();
    connect(&mut client, &server, &mut session);
    let stray = r#"{"jsonrpc":"2.0","id":99,"result":{}}"#;
    assert_eq!(
        client.receive(stray),
        [Event::Unpaired(Some(RequestId::from(99)))]
    );
    let events = client.receive("{not json");
    assert!(
        matches!(events.as_slice(), [Event::Unreadable(_)]),
        "{events:?}"
    );
}

#[test]
fn a_servers_ping_is_answered_and_its_other_requests_refused() {
    let server = server(&["2025-11-25"]);
    let (mut client, mut session) = (client(), Session::new());
    connect(&mut client, &server, &mut session);
    let ping = client.receive(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    let [Event::Send(pong)] = ping.as_slice() else {
        panic!("{ping:?}")
    };
    assert_eq!(pong, r#"{"jsonrpc":"2.0","id":"p","result":{}}"#);
    let roots = client.receive(r#"{"jsonrpc":"2.0","id":3,"method":"roots/list"}"#);
    let [Event::Send(refusal)] = roots.as_slice() else {
        panic!("{roots:?}")
    };
    let refusal: Value = serde_json::from_str(refusal).unwrap();
    assert_eq!(refusal["error"]["code"], -32601, "{refusal}");
}

#[test]
fn a_servers_request_before_the_connection_is_refused_and_waits_for_nothing() {
    let capabilities = ClientCapabilities::new().with_roots(mcp_spec_types::JsonObject::new());
    let mut client = client().with_capabilities(capabilities);
    let sent = client.start().expect("a first request");
    assert_eq!(method(&sent), "server/discover");
    // The server asks for roots before answering: the client has no revision to answer in
    // yet, so the engine refuses it rather than give the caller what it could not answer.
    let early = client.receive(r#"{"jsonrpc":"2.0","id":"early","method":"roots/list"}"#);
    let [Event::Send(refusal)] = early.as_slice() else {
        panic!("{early:?}")
    };
    let refusal = json(refusal);
    assert_eq!(refusal["id"], "early", "{refusal}");
    assert_eq!(refusal["error"]["code"], -32600, "{refusal}");
    // Nothing waits under its id: once connected, the same id is a new request, given.
    let server = server(&["2026-07-28"]);
    let answer = server
        .handle(&mut Session::new(), &sent)
        .pop()
        .expect("an answer");
    let connected = client.receive(&answer);
    assert!(
        matches!(connected.as_slice(), [Event::Connected(_)]),
        "{connected:?}"
    );
    let later = client.receive(r#"{"jsonrpc":"2.0","id":"early","method":"roots/list"}"#);
    assert!(
        matches!(later.as_slice(), [Event::Request { .. }]),
        "{later:?}"
    );
}

/// The answer to a `resources/read` in flight, given as a line the test writes by hand, in
/// any member order: the client's events, its requests still in flight, and how many answers
/// it read in one pass meanwhile.
fn answer_by_hand(make_line: impl Fn(&str) -> String) -> (RequestId, Vec<Event>, usize, u64) {
    let server = server(&["2026-07-28"]);
    let mut session = Session::new();
    let mut client = client();
    connect(&mut client, &server, &mut session);
    let read = ReadResourceRequestParams::new("memo://hi", client.meta());
    let (id, _) = client
        .request(ClientCall::ReadResource(read))
        .expect("sent");
    let Ok(id_text) = serde_json::to_string(&id) else {
        panic!("an id")
    };
    let before = mcp_spec_types::dispatch::answers_read_in_one_pass();
    let events = client.receive(&make_line(&id_text));
    let one_pass = mcp_spec_types::dispatch::answers_read_in_one_pass() - before;
    (id, events, client.in_flight(), one_pass)
}

const READ_RESULT: &str = r#"{"contents":[{"uri":"memo://hi","text":"Hi!"}],"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{"x/y":1}}"#;

#[test]
fn an_answer_in_the_clients_revision_is_read_whatever_the_member_order() {
    let expected: ReadResourceResult =
        serde_json::from_str(READ_RESULT).expect("the schema's result");
    // Each order, and whether the one pass reads it (its `id` before its `result`) or the
    // general path does, with the same value.
    type Order = (fn(&str) -> String, u64);
    let orders: [Order; 3] = [
        (
            |id| format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{READ_RESULT}}}"#),
            1,
        ),
        (
            |id| format!(r#"{{"result":{READ_RESULT},"id":{id},"jsonrpc":"2.0"}}"#),
            0,
        ),
        (
            |id| format!(r#"{{"id":{id},"x-trace":[1],"result":{READ_RESULT},"jsonrpc":"2.0"}}"#),
            1,
        ),
    ];
    for (make_line, read_once) in orders {
        let (id, events, in_flight, one_pass) = answer_by_hand(make_line);
        assert_eq!(one_pass, read_once, "{}", make_line("1"));
        match events.as_slice() {
            [Event::Answer {
                id: answered,
                result:
                    Ok(ClientCallResult::ReadResource(
                        ReadResourceResultOrInputRequired::ReadResourceResult(read),
                    )),
            }] => {
                assert_eq!(*answered, id);
                assert_eq!(*read, expected);
                assert_eq!(read.extra.len(), 0);
                let meta = read.meta.as_ref().and_then(|m| m.extra.get("x/y"));
                assert_eq!(meta, Some(&Value::from(1)));
            }
            other => panic!("{}: {other:?}", make_line("1")),
        }
        assert_eq!(in_flight, 0, "the request is answered");
    }
}

#[test]
fn an_answer_that_is_not_its_requests_result_is_unreadable_with_where() {
    // `contents` of a read is an array; a second `result` is not one response.
    let wrong = |id: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"contents":5,"resultType":"complete","ttlMs":0,"cacheScope":"private"}}}}"#
        )
    };
    let (_, events, in_flight, _) = answer_by_hand(wrong);
    match events.as_slice() {
        [Event::Unreadable(why)] => assert!(why.contains("contents"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        in_flight, 0,
        "an unreadable answer still answers its request"
    );
    let twice = |id: &str| {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{READ_RESULT},"result":{READ_RESULT}}}"#)
    };
    let (_, events, _, _) = answer_by_hand(twice);
    assert!(
        matches!(events.as_slice(), [Event::Unreadable(_)]),
        "{events:?}"
    );
    let other_id = |_: &str| format!(r#"{{"jsonrpc":"2.0","id":"other","result":{READ_RESULT}}}"#);
    let (_, events, in_flight, _) = answer_by_hand(other_id);
    assert!(
        matches!(events.as_slice(), [Event::Unpaired(Some(id))] if *id == RequestId::from("other")),
        "{events:?}"
    );
    assert_eq!(in_flight, 1, "the request still waits");
}

/// A client declaring sampling and roots (not elicitation), connected to a 2025-11-25 server.
fn connected_with_hooks() -> Client {
    let server = server(&["2025-11-25"]);
    let mut session = Session::new();
    let capabilities = ClientCapabilities::new()
        .with_sampling(ClientCapabilitiesSampling::new())
        .with_roots(mcp_spec_types::JsonObject::new());
    let mut client = client().with_capabilities(capabilities);
    connect(&mut client, &server, &mut session);
    assert_eq!(client.version().map(|v| v.as_str()), Some("2025-11-25"));
    client
}

fn json(line: &str) -> Value {
    serde_json::from_str(line).expect("JSON")
}

#[test]
fn a_servers_request_for_a_declared_capability_reaches_the_caller_and_is_answered() {
    let mut client = connected_with_hooks();
    let events = client.receive(r#"{"jsonrpc":"2.0","id":"s1","method":"roots/list"}"#);
    let [Event::Request { id, call }] = events.as_slice() else {
        panic!("{events:?}")
    };
    assert_eq!(*id, RequestId::from("s1"));
    assert!(matches!(call, ServerCall::ListRoots(None)), "{call:?}");
    let roots = ListRootsResult::new([Root::new("file:///work").with_name("work")]);
    let events = client
        .respond(id, Ok(ServerCallResult::ListRoots(roots)))
        .expect("answered");
    let [Event::Send(line)] = events.as_slice() else {
        panic!("{events:?}")
    };
    assert_eq!(
        json(line),
        serde_json::json!({"jsonrpc": "2.0", "id": "s1",
            "result": {"roots": [{"uri": "file:///work", "name": "work"}]}})
    );
    // Answered once: a second answer has nothing to answer.
    let again = client.respond(
        id,
        Err(RpcError::new(
            mcp_spec_types::ErrorCode::InternalError,
            "late",
        )),
    );
    assert_eq!(again, Err(ClientError::NotAsked(RequestId::from("s1"))));

    let sampling = r#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}}"#;
    let events = client.receive(sampling);
    let [Event::Request {
        id,
        call: ServerCall::CreateMessage(params),
    }] = events.as_slice()
    else {
        panic!("{events:?}")
    };
    assert_eq!(params.max_tokens, 10);
    let refused = RpcError::new(
        mcp_spec_types::ErrorCode::InvalidRequest,
        "the user declined",
    );
    let events = client.respond(id, Err(refused)).expect("answered");
    let [Event::Send(line)] = events.as_slice() else {
        panic!("{events:?}")
    };
    let line = json(line);
    assert_eq!(
        (&line["id"], &line["error"]["code"]),
        (&Value::from(7), &Value::from(-32600))
    );
    assert_eq!(line["error"]["message"], "the user declined");
}

#[test]
fn a_servers_request_the_client_cannot_take_is_answered_by_the_engine() {
    let mut client = connected_with_hooks();
    // No `elicitation` capability: the server should not ask; the engine refuses it.
    let elicit = r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"name?","requestedSchema":{"type":"object","properties":{}}}}"#;
    let events = client.receive(elicit);
    let [Event::Send(line)] = events.as_slice() else {
        panic!("{events:?}")
    };
    let line = json(line);
    assert_eq!(
        (&line["id"], &line["error"]["code"]),
        (&Value::from(1), &Value::from(-32601))
    );
    // A method no revision defines, and `ping`.
    let events = client.receive(r#"{"jsonrpc":"2.0","id":2,"method":"x/custom"}"#);
    let [Event::Send(line)] = events.as_slice() else {
        panic!("{events:?}")
    };
    assert_eq!(json(line)["error"]["code"], -32601);
    let events = client.receive(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#);
    let [Event::Send(line)] = events.as_slice() else {
        panic!("{events:?}")
    };
    assert_eq!(
        json(line),
        serde_json::json!({"jsonrpc": "2.0", "id": 3, "result": {}})
    );
    // Params the server's revision does not read are refused before reaching the caller.
    let events = client.receive(r#"{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":{"maxTokens":"ten"}}"#);
    let [Event::Unreadable(why), Event::Send(line)] = events.as_slice() else {
        panic!("{events:?}")
    };
    assert!(why.contains("maxTokens"), "{why}");
    let line = json(line);
    assert_eq!(
        (&line["id"], &line["error"]["code"]),
        (&Value::from(4), &Value::from(-32602))
    );
    // An unreadable response is not answered.
    let events = client.receive(r#"{"jsonrpc":"2.0","id":5,"error":{"message":"no code"}}"#);
    assert!(
        matches!(events.as_slice(), [Event::Unreadable(_)]),
        "{events:?}"
    );
}

#[test]
fn the_servers_requests_waiting_for_the_caller_are_bounded() {
    let mut client = connected_with_hooks();
    for n in 0..Client::MAX_SERVER_REQUESTS {
        let line = format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"roots/list"}}"#);
        let events = client.receive(&line);
        assert!(
            matches!(events.as_slice(), [Event::Request { .. }]),
            "{n}: {events:?}"
        );
    }
    let past = r#"{"jsonrpc":"2.0","id":"past","method":"roots/list"}"#;
    let events = client.receive(past);
    let [Event::Send(line)] = events.as_slice() else {
        panic!("{events:?}")
    };
    assert_eq!(json(line)["error"]["code"], -32603);
    // An id already waiting is not taken twice.
    let events = client.receive(r#"{"jsonrpc":"2.0","id":0,"method":"roots/list"}"#);
    let [Event::Send(line)] = events.as_slice() else {
        panic!("{events:?}")
    };
    assert_eq!(json(line)["error"]["code"], -32600);
    // Answering one makes room for the next.
    let roots = ServerCallResult::ListRoots(ListRootsResult::new(Vec::<Root>::new()));
    client
        .respond(&RequestId::from(0), Ok(roots))
        .expect("answered");
    let events = client.receive(past);
    assert!(
        matches!(events.as_slice(), [Event::Request { .. }]),
        "{events:?}"
    );
}

#[test]
fn a_client_that_speaks_no_revision_of_this_build_has_nothing_to_send() {
    let mut client = client().with_versions([ProtocolVersion::from("1999-01-01")]);
    assert_eq!(client.start(), None);
    assert_eq!(client.version(), None);
    let call = ClientCall::ListTools(PaginatedRequestParams::new(client.meta()));
    assert!(matches!(
        client.request(call),
        Err(ClientError::NotConnected)
    ));
}

#[test]
fn a_result_without_result_type_is_read_as_complete() {
    // The schema requires `resultType`; the specification has a client take a result
    // without it as `complete`.
    let without =
        r#"{"contents":[{"uri":"memo://hi","text":"Hi!"}],"ttlMs":0,"cacheScope":"private"}"#;
    let (id, events, in_flight, _) =
        answer_by_hand(|id| format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{without}}}"#));
    let [Event::Answer {
        id: answered,
        result:
            Ok(ClientCallResult::ReadResource(ReadResourceResultOrInputRequired::ReadResourceResult(
                read,
            ))),
    }] = events.as_slice()
    else {
        panic!("{events:?}")
    };
    assert_eq!(*answered, id);
    assert_eq!(read.result_type.as_str(), "complete");
    assert_eq!(read.extra.len(), 0);
    assert_eq!(in_flight, 0);
    // Another `resultType` is read as it is: an unknown kind does not become `complete`.
    let (_, events, _, _) = answer_by_hand(|id| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"contents":[],"ttlMs":0,"cacheScope":"private","resultType":7}}}}"#
        )
    });
    assert!(
        matches!(events.as_slice(), [Event::Unreadable(_)]),
        "{events:?}"
    );
}

#[test]
fn a_discover_refused_for_its_version_is_sent_again_once_in_a_version_the_server_names() {
    let mut client = client();
    let first = client.start().expect("a revision to speak");
    let refusal = |id: &Value, supported: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32022,"message":"Unsupported protocol version","data":{{"supported":{supported},"requested":"2026-07-28"}}}}}}"#
        )
    };
    let sent = json(&first);
    let events = client.receive(&refusal(&sent["id"], r#"["2026-07-28"]"#));
    let [Event::Send(again)] = events.as_slice() else {
        panic!("{events:?}")
    };
    let again = json(again);
    assert_eq!(again["method"], "server/discover");
    assert_ne!(again["id"], sent["id"], "a new request, under a new id");
    assert_eq!(
        again["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    // Refused again: not asked a third time; on to `initialize`.
    let events = client.receive(&refusal(&again["id"], r#"["2026-07-28"]"#));
    let [Event::Send(initialize)] = events.as_slice() else {
        panic!("{events:?}")
    };
    assert_eq!(json(initialize)["method"], "initialize");

    // A refusal naming only versions the client does not speak statelessly: `initialize`.
    let mut client = self::client();
    let first = json(&client.start().expect("a revision to speak"));
    let events = client.receive(&refusal(&first["id"], r#"["2025-11-25", "2099-01-01"]"#));
    let [Event::Send(initialize)] = events.as_slice() else {
        panic!("{events:?}")
    };
    assert_eq!(json(initialize)["method"], "initialize");
}

#[test]
fn a_request_refused_for_its_version_is_sent_again_once_in_a_version_named() {
    let server = server(&["2026-07-28"]);
    let mut session = Session::new();
    let mut client = client();
    connect(&mut client, &server, &mut session);
    let refusal = |id: &Value| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32022,"message":"Unsupported protocol version","data":{{"supported":["2026-07-28"],"requested":"2026-07-28"}}}}}}"#
        )
    };
    // A read, refused: the line that sends it again, and both ids.
    let refused = |client: &mut Client| {
        let read = ReadResourceRequestParams::new("memo://hi", client.meta());
        let (id, line) = client
            .request(ClientCall::ReadResource(read))
            .expect("sent");
        let events = client.receive(&refusal(&json(&line)["id"]));
        let [Event::Send(again)] = events.as_slice() else {
            panic!("{events:?}")
        };
        (id, line, again.clone())
    };
    let (id, line, again) = refused(&mut client);
    let again = &again;
    let sent = json(again);
    assert_eq!(sent["method"], "resources/read");
    assert_ne!(
        sent["id"],
        json(&line)["id"],
        "a new request, under a new id"
    );
    assert_eq!(
        sent["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    // Its answer comes under the id the caller knows.
    let answer = server.handle(&mut session, again).pop().expect("an answer");
    let events = client.receive(&answer);
    assert!(
        matches!(&events[..], [Event::Answer { id: answered, result: Ok(_) }] if *answered == id),
        "{events:?}"
    );

    // Refused again after its retry: the refusal is the answer.
    let (id, _, again) = refused(&mut client);
    let events = client.receive(&refusal(&json(&again)["id"]));
    assert!(
        matches!(&events[..], [Event::Answer { id: answered, result: Err(error) }]
            if *answered == id && error.code == mcp_spec_types::ErrorCode::UnsupportedProtocolVersion),
        "{events:?}"
    );
    assert_eq!(client.in_flight(), 0);
}

// ---------------------------------------------------------------------------------------------
// The one-pass read of an answer (src/client/reply.rs) against the general read: the one pass
// takes a response whose `id` comes before its `result` (it types the result by the request
// the id names as it reads it); a `result` first leaves the line to the general read, which
// keeps the result raw, reads it in the server's revision and converts it. Both must give the
// same event, which is also the result as serde reads it. Which path a line took is not
// observable through the client's API: the test cannot assert that the first order is read in
// one pass, only that both orders read alike and right.

use proptest::prelude::*;
use serde_json::json;

/// A 2026-07-28 client waiting for the answers to a `tools/list`, a `tools/call`, a
/// `resources/read` and a `prompts/get`, with the id of each.
fn waiting_for_answers() -> (Client, [(&'static str, RequestId); 4]) {
    let server = server(&["2026-07-28"]);
    let (mut client, mut session) = (client(), Session::new());
    connect(&mut client, &server, &mut session);
    let meta = client.meta();
    let calls = [
        ClientCall::ListTools(PaginatedRequestParams::new(meta.clone())),
        ClientCall::CallTool(CallToolRequestParams::new("echo", meta.clone())),
        ClientCall::ReadResource(ReadResourceRequestParams::new("memo://hi", meta.clone())),
        ClientCall::GetPrompt(GetPromptRequestParams::new("greet", meta)),
    ];
    let ids = calls.map(|call| {
        let method = match &call {
            ClientCall::ListTools(_) => "tools/list",
            ClientCall::CallTool(_) => "tools/call",
            ClientCall::ReadResource(_) => "resources/read",
            _ => "prompts/get",
        };
        (method, client.request(call).expect("sent").0)
    });
    (client, ids)
}

/// Text with what JSON escapes, and beyond ASCII.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ -~]{0,12}",
        "[a-z\"\\\\/\n\t\u{1}é€😀]{0,8}",
        Just(String::new()),
    ]
}

/// Members no revision defines, which a result keeps in its `extra`.
fn any_extra() -> impl Strategy<Value = serde_json::Map<String, Value>> {
    let value = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        any_text().prop_map(Value::from),
        prop::collection::vec(any::<i32>().prop_map(Value::from), 0..3).prop_map(Value::from),
    ];
    prop::collection::btree_map("x-[a-z]{1,6}", value, 0..3).prop_map(|m| m.into_iter().collect())
}

fn with_extra(mut object: Value, extra: serde_json::Map<String, Value>) -> Value {
    if let Value::Object(members) = &mut object {
        members.extend(extra);
    }
    object
}

/// An optional member: `Null` is left out.
fn put(object: &mut Value, name: &str, value: Value) {
    if !value.is_null() {
        object[name] = value;
    }
}

fn any_meta() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any_text().prop_map(|t| json!({"com.example/trace": t})),
    ]
}

fn any_uri() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "memo://hi",
        "file:///project/src/main.rs",
        "https://example.com/a?b=c#d",
        "urn:x:y",
    ])
    .prop_map(String::from)
}

fn any_base64() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["", "aGk=", "AAECAwQ=", "/w==", "iVBORw0KGgo="])
        .prop_map(String::from)
}

fn any_content() -> impl Strategy<Value = Value> {
    let annotations = prop_oneof![
        Just(Value::Null),
        (0.0f64..=1.0).prop_map(|p| json!({"audience": ["user"], "priority": p})),
    ];
    let kind = prop_oneof![
        any_text().prop_map(|text| json!({"type": "text", "text": text})),
        (any_base64(), "image/(png|jpeg)")
            .prop_map(|(data, mime)| json!({"type": "image", "data": data, "mimeType": mime})),
        any_base64()
            .prop_map(|data| json!({"type": "audio", "data": data, "mimeType": "audio/wav"})),
        (any_uri(), any_text(), prop::option::of(0i64..1 << 40)).prop_map(|(uri, name, size)| {
            let mut link = json!({"type": "resource_link", "uri": uri, "name": name});
            put(&mut link, "size", size.map_or(Value::Null, Value::from));
            link
        }),
        any_resource_contents()
            .prop_map(|resource| json!({"type": "resource", "resource": resource})),
    ];
    (kind, annotations, any_meta(), any_extra()).prop_map(
        |(mut content, annotations, meta, extra)| {
            put(&mut content, "annotations", annotations);
            put(&mut content, "_meta", meta);
            with_extra(content, extra)
        },
    )
}

fn any_resource_contents() -> impl Strategy<Value = Value> {
    let body = prop_oneof![
        any_text().prop_map(|text| ("text", text)),
        any_base64().prop_map(|blob| ("blob", blob)),
    ];
    (
        any_uri(),
        body,
        prop::option::of("text/[a-z]{1,6}"),
        any_extra(),
    )
        .prop_map(|(uri, (member, body), mime, extra)| {
            let mut contents = json!({"uri": uri, member: body});
            put(
                &mut contents,
                "mimeType",
                mime.map_or(Value::Null, Value::from),
            );
            with_extra(contents, extra)
        })
}

fn any_tool() -> impl Strategy<Value = Value> {
    let property = prop::sample::select(vec!["string", "number", "integer", "boolean"]);
    let properties = prop::collection::btree_map("[a-z]{1,6}", property, 0..3);
    (
        "[a-z_]{1,10}",
        prop::option::of(any_text()),
        properties,
        prop::option::of(any::<bool>()),
        any_meta(),
        any_extra(),
    )
        .prop_map(|(name, description, properties, read_only, meta, extra)| {
            let required: Vec<&String> = properties.keys().take(1).collect();
            let properties: serde_json::Map<String, Value> = properties
                .iter()
                .map(|(name, kind)| (name.clone(), json!({"type": kind})))
                .collect();
            let schema = json!({"type": "object", "properties": properties, "required": required});
            let mut tool = json!({"name": name, "inputSchema": schema});
            put(
                &mut tool,
                "description",
                description.map_or(Value::Null, Value::from),
            );
            let hints = read_only.map_or(Value::Null, |r| json!({"readOnlyHint": r}));
            put(&mut tool, "annotations", hints);
            put(&mut tool, "_meta", meta);
            with_extra(tool, extra)
        })
}

/// A result of one of the four methods, as a 2026-07-28 server writes it: the method and the
/// result's JSON.
fn any_result() -> impl Strategy<Value = (&'static str, Value)> {
    let cache = (
        0u64..=86_400_000,
        prop::sample::select(vec!["public", "private"]),
    );
    let tools = (
        prop::collection::vec(any_tool(), 0..4),
        prop::option::of(any_text()),
        cache.clone(),
    )
        .prop_map(|(tools, cursor, (ttl, scope))| {
            let mut result = json!({"tools": tools, "ttlMs": ttl, "cacheScope": scope});
            put(
                &mut result,
                "nextCursor",
                cursor.map_or(Value::Null, Value::from),
            );
            ("tools/list", result)
        });
    let structured = prop_oneof![
        Just(Value::Null),
        any_text().prop_map(|t| json!({"text": t, "n": 1})),
    ];
    let call = (
        prop::collection::vec(any_content(), 0..4),
        structured,
        prop::option::of(any::<bool>()),
    )
        .prop_map(|(content, structured, is_error)| {
            let mut result = json!({"content": content});
            put(&mut result, "structuredContent", structured);
            put(
                &mut result,
                "isError",
                is_error.map_or(Value::Null, Value::from),
            );
            ("tools/call", result)
        });
    let read = (prop::collection::vec(any_resource_contents(), 0..4), cache).prop_map(
        |(contents, (ttl, scope))| {
            let result = json!({"contents": contents, "ttlMs": ttl, "cacheScope": scope});
            ("resources/read", result)
        },
    );
    let role = prop::sample::select(vec!["user", "assistant"]);
    let message =
        (role, any_content()).prop_map(|(role, content)| json!({"role": role, "content": content}));
    let prompt = (
        prop::collection::vec(message, 0..4),
        prop::option::of(any_text()),
    )
        .prop_map(|(messages, description)| {
            let mut result = json!({"messages": messages});
            put(
                &mut result,
                "description",
                description.map_or(Value::Null, Value::from),
            );
            ("prompts/get", result)
        });
    (
        prop_oneof![tools, call, read, prompt],
        any_meta(),
        any_extra(),
    )
        .prop_map(|((method, mut result), meta, extra)| {
            result["resultType"] = "complete".into();
            put(&mut result, "_meta", meta);
            (method, with_extra(result, extra))
        })
}

/// `value` written with every object's members in the reverse of serde_json's order.
fn reversed(value: &Value) -> String {
    match value {
        Value::Object(members) => {
            let written: Vec<String> = members
                .iter()
                .rev()
                .map(|(name, value)| format!("{}:{}", Value::from(name.as_str()), reversed(value)))
                .collect();
            format!("{{{}}}", written.join(","))
        }
        Value::Array(items) => {
            let written: Vec<String> = items.iter().map(reversed).collect();
            format!("[{}]", written.join(","))
        }
        other => other.to_string(),
    }
}

/// The result as serde reads it, as the answer to `method`.
fn typed(method: &str, result: &Value) -> ClientCallResult {
    let result = result.clone();
    let read = match method {
        "tools/list" => serde_json::from_value::<ListToolsResult>(result).map(Into::into),
        "tools/call" => serde_json::from_value::<CallToolResult>(result).map(Into::into),
        "resources/read" => serde_json::from_value::<ReadResourceResult>(result).map(Into::into),
        _ => serde_json::from_value::<GetPromptResult>(result).map(Into::into),
    };
    read.unwrap_or_else(|e| panic!("the test's {method} result does not read: {e}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn an_answer_reads_alike_in_one_pass_and_when_its_members_are_reordered(
        (method, result) in any_result(),
        order in 0usize..3,
    ) {
        static WAITING: std::sync::OnceLock<(Client, [(&str, RequestId); 4])> =
            std::sync::OnceLock::new();
        let (waiting, ids) = WAITING.get_or_init(waiting_for_answers);
        let id = ids.iter().find(|(m, _)| *m == method).map(|(_, id)| id.clone()).unwrap();
        let id_text = serde_json::to_string(&id).unwrap();
        let text = serde_json::to_string(&result).unwrap();
        // The id before the result: the one-pass read.
        let in_one_pass = format!(r#"{{"jsonrpc":"2.0","id":{id_text},"result":{text}}}"#);
        // The result before the id (its own members reversed too): the general read.
        let text = reversed(&result);
        let reordered = match order {
            0 => format!(r#"{{"result":{text},"id":{id_text},"jsonrpc":"2.0"}}"#),
            1 => format!(r#"{{"jsonrpc":"2.0","result":{text},"id":{id_text}}}"#),
            _ => format!(r#"{{"x-trace":{{"span":1}},"result":{text},"jsonrpc":"2.0","id":{id_text}}}"#),
        };
        let mut first = waiting.clone();
        let mut second = waiting.clone();
        let events = first.receive(&in_one_pass);
        let expected = [Event::Answer { id: id.clone(), result: Ok(typed(method, &result)) }];
        prop_assert_eq!(&events[..], &expected[..], "{}", in_one_pass);
        prop_assert_eq!(second.receive(&reordered), events, "{}", reordered);
        prop_assert_eq!(first.in_flight(), waiting.in_flight() - 1);
        prop_assert_eq!(second.in_flight(), waiting.in_flight() - 1);
    }
}

#[test]
fn a_request_the_caller_gives_up_is_cancelled_and_its_late_answer_finds_nothing() {
    for versions in [&["2026-07-28"][..], &["2025-11-25"][..]] {
        let server = server(versions);
        let (mut client, mut session) = (client(), Session::new());
        connect(&mut client, &server, &mut session);
        let read = ReadResourceRequestParams::new("memo://hi", client.meta());
        let (id, line) = client
            .request(ClientCall::ReadResource(read))
            .expect("sent");
        // The server answered, but the answer has not reached the client yet.
        let late = server.handle(&mut session, &line).pop().expect("an answer");
        let cancel = client
            .cancel(&id, "no longer wanted")
            .expect("a request in flight is cancelled");
        assert_eq!(
            json(&cancel),
            serde_json::json!({
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": serde_json::to_value(&id).unwrap(), "reason": "no longer wanted"}
            }),
            "{versions:?}"
        );
        assert_eq!(client.in_flight(), 0, "{versions:?}");
        // The server takes it as a notification: nothing to answer.
        assert!(
            server.handle(&mut session, &cancel).is_empty(),
            "{versions:?}"
        );
        assert_eq!(
            client.receive(&late),
            [Event::Unpaired(Some(id.clone()))],
            "{versions:?}"
        );
        // Given up already: nothing more to tell.
        assert_eq!(client.cancel(&id, "again"), None, "{versions:?}");
    }
}
