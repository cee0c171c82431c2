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
    let mut sent = vec![client.start()];
    let mut to_send = vec![sent[0].clone()];
    while let Some(line) = to_send.pop() {
        let Some(answer) = server.handle(session, &line) else {
            continue;
        };
        for event in client.receive(&answer) {
            match event {
                Event::Send(line) => {
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
    let answer = server.handle(session, &line).expect("an answer");
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
    let answer = server.handle(&mut session, &line).expect("an answer");
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
    server.handle(&mut session, subscribe).expect("subscribed");
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
