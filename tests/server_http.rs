//! The server engine over Streamable HTTP, as plain data (`Server::http`): sessions of a
//! stateful revision by `Mcp-Session-Id`, stateless requests checked against their headers,
//! each error with its status, sessions that expire and are capped, and a stateless client's
//! `subscriptions/listen` stream.
#![cfg(all(feature = "server", feature = "v2025_11_25"))]

use mcp_spec_types::http_headers::{self, lookup, MCP_NAME, MCP_SESSION_ID};
use mcp_spec_types::server::{
    Change, Handler, HttpIncoming, HttpResponse, Router, Server, Sessions,
};
use mcp_spec_types::v2026_07_28::*;
use serde_json::{json, Value};

fn server() -> Server<Router> {
    let router = Router::new()
        .tool(Tool::new("echo", ToolInputSchema::new()), |call| {
            let arguments = call.arguments.unwrap_or_default();
            let text = arguments.get::<String>("text").and_then(Result::ok);
            Ok(CallToolResult::text(text.unwrap_or_default()))
        })
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        });
    Server::new(Implementation::new("memo", "1.0.0"), router)
}

/// Session ids counted up: unique, which is all these tests need (a server uses random ones).
fn sessions() -> Sessions {
    let mut next = 0u64;
    Sessions::new(move || {
        next += 1;
        format!("session-{next}")
    })
}

fn post(
    server: &Server<Router>,
    sessions: &mut Sessions,
    headers: &[(&str, &str)],
    body: &Value,
    now_ms: u64,
) -> HttpResponse {
    server.http(sessions, "POST", lookup(headers), &body.to_string(), now_ms)
}

fn body(response: &HttpResponse) -> Value {
    serde_json::from_str(response.body.as_deref().expect("a body")).expect("a JSON body")
}

fn header<'a>(response: &'a HttpResponse, name: &str) -> Option<&'a str> {
    (response.headers.iter())
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}})
}

/// Opens a 2025-11-25 session at `now_ms`; its id.
fn open(server: &Server<Router>, sessions: &mut Sessions, now_ms: u64) -> String {
    let response = post(server, sessions, &[], &initialize(), now_ms);
    assert_eq!(response.status, 200, "{response:?}");
    header(&response, MCP_SESSION_ID)
        .expect("a session id")
        .to_owned()
}

#[test]
fn a_stateful_session_lives_by_its_id_until_deleted() {
    let server = server();
    let mut sessions = sessions();
    let response = post(&server, &mut sessions, &[], &initialize(), 0);
    assert_eq!(response.status, 200);
    assert_eq!(body(&response)["result"]["protocolVersion"], "2025-11-25");
    let id = header(&response, MCP_SESSION_ID)
        .expect("a session id")
        .to_owned();
    assert_eq!(sessions.len(), 1);

    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let versioned = [
        (MCP_SESSION_ID, id.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let response = post(&server, &mut sessions, &versioned, &list, 10);
    assert_eq!(response.status, 200);
    assert_eq!(body(&response)["result"]["tools"][0]["name"], "echo");
    // Without the version header the session's own version holds.
    let bare = [(MCP_SESSION_ID, id.as_str())];
    assert_eq!(post(&server, &mut sessions, &bare, &list, 20).status, 200);
    // A version the server does not speak is refused.
    let unknown = [
        (MCP_SESSION_ID, id.as_str()),
        ("MCP-Protocol-Version", "1999-01-01"),
    ];
    let response = post(&server, &mut sessions, &unknown, &list, 30);
    assert_eq!(response.status, 400);
    assert_eq!(body(&response)["error"]["code"], -32600);
    // One it speaks that is not the session's is taken: the answer is the session's revision's
    // (2025-11-25 results have no `resultType`).
    let other = [
        (MCP_SESSION_ID, id.as_str()),
        ("MCP-Protocol-Version", "2025-06-18"),
    ];
    let response = post(&server, &mut sessions, &other, &list, 35);
    assert_eq!(response.status, 200);
    assert!(body(&response)["result"].get("resultType").is_none());
    // A notification is accepted with no body.
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = post(&server, &mut sessions, &bare, &initialized, 40);
    assert_eq!((response.status, response.body), (202, None));

    let deleted = server.http(&mut sessions, "DELETE", lookup(&bare), "", 50);
    assert_eq!(deleted.status, 200);
    assert!(sessions.is_empty());
    let response = post(&server, &mut sessions, &bare, &list, 60);
    assert_eq!(response.status, 404);
    assert_eq!(body(&response)["id"], 1);
    let none: [(&str, &str); 0] = [];
    assert_eq!(
        server
            .http(&mut sessions, "DELETE", lookup(&none), "", 70)
            .status,
        400
    );
    let get = server.http(&mut sessions, "GET", lookup(&none), "", 80);
    assert_eq!(get.status, 405);
    assert_eq!(header(&get, "Allow"), Some("POST, DELETE"));
}

#[test]
fn a_request_without_a_session_that_is_not_stateless_is_refused() {
    let server = server();
    let mut sessions = sessions();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let response = post(&server, &mut sessions, &[], &list, 0);
    // Read as the stateless revision it does not name: its `_meta` is missing.
    assert_eq!(response.status, 400, "{response:?}");
    assert_eq!(body(&response)["error"]["code"], -32602);
    assert!(sessions.is_empty());
}

fn stateless_call(name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": name, "arguments": {"text": "hi"},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}})
}

/// The headers a client sends with `body` (the crate's client-side rule), for the version its
/// `_meta` names.
fn headers_for(body: &Value) -> Vec<(String, String)> {
    let method = body["method"].as_str().expect("a method");
    let version = body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]
        .as_str()
        .expect("a version");
    http_headers::request_headers(version, method, body.get("params"))
}

fn as_pairs(headers: &[(String, String)]) -> Vec<(&str, &str)> {
    headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect()
}

#[test]
fn a_stateless_request_is_served_when_its_headers_say_what_its_body_says() {
    let server = server();
    let mut sessions = sessions();
    let call = stateless_call("echo");
    let headers = headers_for(&call);
    let response = post(&server, &mut sessions, &as_pairs(&headers), &call, 0);
    assert_eq!(response.status, 200, "{response:?}");
    assert_eq!(body(&response)["result"]["content"][0]["text"], "hi");
    assert!(sessions.is_empty(), "a stateless request opens no session");

    let mut forged = as_pairs(&headers);
    forged.retain(|(n, _)| !n.eq_ignore_ascii_case(MCP_NAME));
    forged.push((MCP_NAME, "delete_everything"));
    let response = post(&server, &mut sessions, &forged, &call, 0);
    assert_eq!(response.status, 400);
    assert_eq!(body(&response)["error"]["code"], -32020);
    assert_eq!(body(&response)["id"], 7);
}

#[test]
fn a_tools_annotated_arguments_must_be_in_their_headers() {
    let schema = json!({"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "priority": {"type": "integer", "x-mcp-header": "Priority"},
        "text": {"type": "string"}}});
    let schema: ToolInputSchema = serde_json::from_value(schema).expect("a schema");
    let router = Router::new().tool(Tool::new("route", schema), |_| {
        Ok(CallToolResult::text("routed"))
    });
    let server = Server::new(Implementation::new("router", "1.0.0"), router);
    let mut sessions = sessions();
    let mut call = stateless_call("route");
    call["params"]["arguments"] = json!({"region": "eu-west", "priority": 3});
    let headers = headers_for(&call);
    let send = |sessions: &mut Sessions, extra: &[(&str, &str)]| {
        let mut sent = as_pairs(&headers);
        sent.extend_from_slice(extra);
        post(&server, sessions, &sent, &call, 0)
    };

    let both = [("Mcp-Param-Region", "eu-west"), ("Mcp-Param-Priority", "3")];
    let response = send(&mut sessions, &both);
    assert_eq!(response.status, 200, "{response:?}");
    assert_eq!(body(&response)["result"]["content"][0]["text"], "routed");

    // A gateway routing on a header the body contradicts: refused as a mismatch, naming it.
    let wrong = [("Mcp-Param-Region", "us-east"), ("Mcp-Param-Priority", "3")];
    let response = send(&mut sessions, &wrong);
    assert_eq!(response.status, 400);
    assert_eq!(body(&response)["error"]["code"], -32020);
    assert_eq!(body(&response)["id"], 7);
    let message = body(&response)["error"]["message"].to_string();
    assert!(message.contains("Mcp-Param-Region"), "{message}");
    // An annotated argument without its header.
    let response = send(&mut sessions, &[("Mcp-Param-Region", "eu-west")]);
    assert_eq!(response.status, 400);
    assert_eq!(body(&response)["error"]["code"], -32020);
    // An integer compares as a number, however it is written.
    let written = [
        ("Mcp-Param-Region", "eu-west"),
        ("Mcp-Param-Priority", "3.0"),
    ];
    assert_eq!(send(&mut sessions, &written).status, 200);
}

#[test]
fn a_stateless_transport_error_carries_its_status() {
    let server = server();
    let mut sessions = sessions();
    let mut unsupported = stateless_call("echo");
    unsupported["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let headers = headers_for(&unsupported);
    let response = post(&server, &mut sessions, &as_pairs(&headers), &unsupported, 0);
    assert_eq!(response.status, 400);
    assert_eq!(body(&response)["error"]["code"], -32022);

    let mut unknown = stateless_call("echo");
    unknown["method"] = json!("tools/nothing");
    let headers = headers_for(&unknown);
    let response = post(&server, &mut sessions, &as_pairs(&headers), &unknown, 0);
    assert_eq!(response.status, 404);
    assert_eq!(body(&response)["error"]["code"], -32601);

    // An unknown tool is the tool's error, not the transport's: 200.
    let call = stateless_call("nothing");
    let headers = headers_for(&call);
    let response = post(&server, &mut sessions, &as_pairs(&headers), &call, 0);
    assert_eq!(body(&response)["error"]["code"], -32602);
}

#[test]
fn abandoned_sessions_expire_and_their_state_is_freed() {
    let server = server();
    let idle_ms = 1_000;
    let mut sessions = sessions().with_limits(Sessions::DEFAULT_MAX, idle_ms);
    // 10,000 clients open a session each, 10 ms apart, and never come back.
    for i in 0..10_000 {
        open(&server, &mut sessions, i * 10);
        // Only those of the last second are still there.
        assert!(sessions.len() <= 101, "{} sessions at {i}", sessions.len());
    }
    // The last second's, both ends included, go when their time is up.
    assert_eq!(sessions.expire(10_000 * 10 + idle_ms + 1), 101);
    assert!(sessions.is_empty());
}

/// Opens the session's own stream (`GET`), which keeps it in use.
fn listen(server: &Server<Router>, sessions: &mut Sessions, id: &str, now_ms: u64) {
    let headers = [(MCP_SESSION_ID, id), ("Accept", "text/event-stream")];
    let get = server.http(sessions, "GET", lookup(&headers), "", now_ms);
    assert_eq!(get.status, 200, "{get:?}");
}

#[test]
fn a_full_table_makes_room_by_dropping_the_idlest_session_and_refuses_only_when_all_are_busy() {
    let server = server();
    let mut sessions = sessions().with_limits(3, 60_000);
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let first = open(&server, &mut sessions, 0);
    let second = open(&server, &mut sessions, 100);
    let third = open(&server, &mut sessions, 200);
    // The first is used again at 250: the second is now the one idle the longest.
    let used = post(
        &server,
        &mut sessions,
        &[(MCP_SESSION_ID, &first)],
        &ping,
        250,
    );
    assert_eq!(used.status, 200);
    let fourth = open(&server, &mut sessions, 300);
    assert_eq!(sessions.len(), 3);
    let dropped = post(
        &server,
        &mut sessions,
        &[(MCP_SESSION_ID, &second)],
        &ping,
        310,
    );
    assert_eq!(dropped.status, 404, "{dropped:?}");
    for kept in [&first, &third, &fourth] {
        let used = post(
            &server,
            &mut sessions,
            &[(MCP_SESSION_ID, kept)],
            &ping,
            320,
        );
        assert_eq!(used.status, 200, "{kept}: {used:?}");
    }
    // Every session in use (its stream open): nothing can go, so the next one is refused.
    for busy in [&first, &third, &fourth] {
        listen(&server, &mut sessions, busy, 400);
    }
    let refused = post(&server, &mut sessions, &[], &initialize(), 500);
    assert_eq!(refused.status, 503);
    assert_eq!(body(&refused)["id"], 0);
    assert_eq!(header(&refused, MCP_SESSION_ID), None);
    assert_eq!(sessions.len(), 3);
}

#[test]
fn clients_that_fill_the_table_and_abandon_it_shut_no_one_out() {
    let server = server();
    let mut sessions = sessions();
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    // A well-behaved client comes first, and keeps using its session.
    let user = open(&server, &mut sessions, 0);
    // An attacker opens sessions as fast as it can, twice as many as the table holds, and
    // never comes back; the user's session stays in use in between.
    let mut attacker = Vec::new();
    for i in 0..2 * Sessions::DEFAULT_MAX as u64 {
        if i % 100 == 0 {
            let used = post(&server, &mut sessions, &[(MCP_SESSION_ID, &user)], &ping, i);
            assert_eq!(used.status, 200, "the user's session at {i}");
        }
        attacker.push(open(&server, &mut sessions, i));
    }
    assert_eq!(sessions.len(), Sessions::DEFAULT_MAX);
    // A new client is served at once, not 30 minutes later.
    let newcomer = open(&server, &mut sessions, 2 * Sessions::DEFAULT_MAX as u64);
    for id in [&user, &newcomer] {
        let used = post(
            &server,
            &mut sessions,
            &[(MCP_SESSION_ID, id)],
            &ping,
            10_000,
        );
        assert_eq!(used.status, 200, "{id}: {used:?}");
    }
    // What went to make room were the attacker's oldest sessions.
    let oldest = post(
        &server,
        &mut sessions,
        &[(MCP_SESSION_ID, &attacker[0])],
        &ping,
        10_001,
    );
    assert_eq!(oldest.status, 404);
}

#[test]
fn a_call_handed_out_over_http_is_answered_later_or_not_after_its_session_ends() {
    let server = server();
    let mut sessions = sessions();
    let id = open(&server, &mut sessions, 0);
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": "later"}}});
    let headers = [(MCP_SESSION_ID, id.as_str())];
    let receive = |sessions: &mut Sessions| match server.http_receive(
        sessions,
        "POST",
        lookup(&headers),
        &call.to_string(),
        10,
    ) {
        HttpIncoming::Call(call) => call,
        other => panic!("expected a call, got {other:?}"),
    };
    let (request, mut context, responder) = receive(&mut sessions).into_parts();
    let answer = responder.respond(server.handler().call(request, &mut context));
    let response = sessions.finish(answer);
    assert_eq!(response.status, 200);
    assert_eq!(body(&response)["result"]["content"][0]["text"], "later");

    let (request, mut context, responder) = receive(&mut sessions).into_parts();
    server.http(&mut sessions, "DELETE", lookup(&headers), "", 20);
    let answer = responder.respond(server.handler().call(request, &mut context));
    let response = sessions.finish(answer);
    assert_eq!((response.status, response.body), (202, None));
}

#[test]
fn an_id_source_that_repeats_itself_is_refused_not_looped_on() {
    let server = server();
    let mut sessions = Sessions::new(|| "same".to_owned());
    assert_eq!(open(&server, &mut sessions, 0), "same");
    let refused = post(&server, &mut sessions, &[], &initialize(), 10);
    assert_eq!(refused.status, 500);
    assert_eq!(body(&refused)["error"]["code"], -32603);
    assert_eq!(sessions.len(), 1);
}

/// One resource, to which every client may subscribe.
fn subscribing_server() -> Server<Router> {
    let router = Router::new()
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        })
        .subscriptions(|_| Ok(()));
    Server::new(Implementation::new("memo", "1.0.0"), router)
}

/// A session's own stream: a `GET` with the session's id opens it (once at a time: a second
/// gets 409; 406 when the client does not take event streams, 404 for an unknown session),
/// `Sessions::notify` writes on it what the client subscribed to, and an open stream keeps its
/// session from expiring until the caller closes it.
#[test]
fn a_get_opens_the_sessions_stream_on_which_its_subscriptions_are_told() {
    let server = subscribing_server();
    let mut sessions = sessions();
    let id = open(&server, &mut sessions, 0);
    let listen = [
        (MCP_SESSION_ID, id.as_str()),
        ("Accept", "application/json, text/event-stream"),
    ];
    let get = server.http(&mut sessions, "GET", lookup(&listen), "", 1);
    assert_eq!(get.status, 200, "{get:?}");
    assert_eq!(get.content_type(), Some("text/event-stream"));
    assert_eq!((&get.body, get.events.len()), (&None, 0));
    let stream = get.stream.clone().expect("the GET opens a stream");
    assert_eq!(
        (stream.session(), stream.request()),
        (Some(id.as_str()), None)
    );
    let again = server.http(&mut sessions, "GET", lookup(&listen), "", 2);
    assert_eq!((again.status, again.stream), (409, None));
    let json_only = [
        (MCP_SESSION_ID, id.as_str()),
        ("Accept", "application/json"),
    ];
    assert_eq!(
        server
            .http(&mut sessions, "GET", lookup(&json_only), "", 3)
            .status,
        406
    );
    let unknown = [(MCP_SESSION_ID, "nobody"), ("Accept", "text/event-stream")];
    assert_eq!(
        server
            .http(&mut sessions, "GET", lookup(&unknown), "", 4)
            .status,
        404
    );

    let updated = Change::ResourceUpdated("memo://hi".to_owned());
    assert_eq!(sessions.notify(&server, &updated), []);
    let subscribe = json!({"jsonrpc": "2.0", "id": 1, "method": "resources/subscribe",
        "params": {"uri": "memo://hi"}});
    let bare = [(MCP_SESSION_ID, id.as_str())];
    let response = post(&server, &mut sessions, &bare, &subscribe, 5);
    assert_eq!(
        body(&response),
        json!({"jsonrpc": "2.0", "id": 1, "result": {}})
    );
    let events = sessions.notify(&server, &updated);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!((&events[0].stream, events[0].last), (&stream, false));
    let told: Value = serde_json::from_str(&events[0].message).expect("JSON");
    assert_eq!(
        told,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
            "params": {"uri": "memo://hi"}})
    );

    // Closed, the stream leaves its session idle from the close on.
    let later = 5 + sessions.idle_ms();
    sessions.close(&stream, later);
    assert_eq!(sessions.notify(&server, &updated), []);
    let reopened = server.http(&mut sessions, "GET", lookup(&listen), "", later);
    assert_eq!(reopened.stream, Some(stream.clone()));
    sessions.close(&stream, later + 1);
    assert_eq!(sessions.expire(later + 1 + sessions.idle_ms()), 0);
    assert_eq!(sessions.expire(later + 2 + sessions.idle_ms()), 1);
    // Open, the stream does not keep a session whose client sends no request alive: a client
    // that holds streams open and says nothing must not hold the table. The session ends,
    // and its stream with it.
    let start = later + 3 + sessions.idle_ms();
    let id = open(&server, &mut sessions, start);
    let listen = [
        (MCP_SESSION_ID, id.as_str()),
        ("Accept", "text/event-stream"),
    ];
    let held = server.http(&mut sessions, "GET", lookup(&listen), "", start);
    let held = held.stream.expect("the session's own stream");
    assert_eq!(sessions.expire(start + sessions.idle_ms()), 0);
    let idle_at = start + sessions.idle_ms() + 1;
    let idle = server.http(&mut sessions, "GET", lookup::<&str, &str>(&[]), "", idle_at);
    assert!(idle.ended.contains(&held), "{:?}", idle.ended);
    assert_eq!(sessions.len(), 0);
}

/// A stateless client's `subscriptions/listen` (2026-07-28) over HTTP: its response is an
/// event stream that outlives the request, acknowledged first, then told what it asked for;
/// two clients' streams are apart even with the same request id; closing the connection ends
/// it; and the open streams are capped.
#[test]
fn a_stateless_listen_stream_is_kept_open_and_told_until_it_closes() {
    let router = Router::new()
        .tool(Tool::new("echo", ToolInputSchema::new()), |_| {
            Ok(CallToolResult::text("echo"))
        })
        .with_list_changed();
    let server = Server::new(Implementation::new("memo", "1.0.0"), router);
    let mut sessions = sessions().with_limits(2, 1000);
    let listen = json!({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen", "params": {
        "notifications": {"toolsListChanged": true},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}});
    let headers = headers_for(&listen);
    let open = |sessions: &mut Sessions| {
        let response = post(&server, sessions, &as_pairs(&headers), &listen, 0);
        assert_eq!(response.status, 200, "{response:?}");
        assert_eq!(response.content_type(), Some("text/event-stream"));
        let stream = response.stream.clone().expect("a stream");
        assert_eq!(
            (stream.session(), stream.request()),
            (None, Some(&3.into()))
        );
        let ack: Vec<Value> = (response.events.iter())
            .map(|e| serde_json::from_str(&e.message).expect("JSON"))
            .collect();
        let on_stream = json!({"io.modelcontextprotocol/subscriptionId": 3});
        assert_eq!(
            ack,
            [
                json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                "params": {"_meta": on_stream, "notifications": {"toolsListChanged": true}}})
            ]
        );
        assert!(response
            .events
            .iter()
            .all(|e| e.stream == stream && !e.last));
        stream
    };
    let first = open(&mut sessions);
    let second = open(&mut sessions);
    assert_ne!(first, second, "two clients' streams, the same request id");
    assert_eq!(sessions.listening(), 2);

    let told = sessions.notify(&server, &Change::ToolList);
    let streams: Vec<_> = told.iter().map(|e| e.stream.clone()).collect();
    assert_eq!(streams, [first.clone(), second.clone()]);
    let message: Value = serde_json::from_str(&told[0].message).expect("JSON");
    assert_eq!(
        message,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
            "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": 3}}})
    );
    assert!(sessions.notify(&server, &Change::ResourceList).is_empty());

    // At the cap, the next stream is refused until one closes.
    let refused = post(&server, &mut sessions, &as_pairs(&headers), &listen, 0);
    assert_eq!(refused.status, 503, "{refused:?}");
    sessions.close(&first, 5);
    assert_eq!(sessions.listening(), 1);
    let told = sessions.notify(&server, &Change::ToolList);
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].stream, second);
    let third = open(&mut sessions);
    assert_ne!(third, second);
}

/// Resuming the session's own stream: each event has an id unique in the session; after the
/// client's connection broke (the caller closes the stream), a `GET` with `Last-Event-ID`
/// gets what the stream missed since that event, then what comes. The session keeps its
/// latest `Sessions::EVENTS_KEPT` events: an id older than those opens the stream afresh.
#[test]
fn a_get_with_last_event_id_resumes_the_sessions_stream_with_what_it_missed() {
    let server = subscribing_server();
    let mut sessions = sessions();
    let id = open(&server, &mut sessions, 0);
    let subscribe = json!({"jsonrpc": "2.0", "id": 1, "method": "resources/subscribe",
        "params": {"uri": "memo://hi"}});
    post(
        &server,
        &mut sessions,
        &[(MCP_SESSION_ID, id.as_str())],
        &subscribe,
        1,
    );
    let accept = ("Accept", "text/event-stream");
    let plain = [(MCP_SESSION_ID, id.as_str()), accept];
    let get = server.http(&mut sessions, "GET", lookup(&plain), "", 2);
    let stream = get.stream.expect("a stream");

    let updated = Change::ResourceUpdated("memo://hi".to_owned());
    let ids: Vec<String> = (0..3)
        .map(|_| sessions.notify(&server, &updated))
        .map(|events| events[0].id.clone().expect("an id"))
        .collect();
    assert_eq!(ids, ["1", "2", "3"]);
    let told = sessions.notify(&server, &updated);
    assert!(told[0].to_sse().starts_with("id: 4\ndata: {"), "{told:?}");

    // The connection broke after event 2: events 3 and 4 are replayed, with their ids.
    sessions.close(&stream, 3);
    let resume = [
        (MCP_SESSION_ID, id.as_str()),
        accept,
        ("Last-Event-ID", "2"),
    ];
    let resumed = server.http(&mut sessions, "GET", lookup(&resume), "", 4);
    assert_eq!(resumed.status, 200, "{resumed:?}");
    assert_eq!(resumed.stream, Some(stream.clone()));
    let replayed: Vec<(Option<&str>, bool)> = (resumed.events.iter())
        .map(|e| (e.id.as_deref(), e.stream == stream))
        .collect();
    assert_eq!(replayed, [(Some("3"), true), (Some("4"), true)]);
    // Resumed, the stream is open again: a second one is refused.
    let again = server.http(&mut sessions, "GET", lookup(&resume), "", 5);
    assert_eq!(again.status, 409);

    // Only the latest events are kept: the first is gone after that many more.
    for _ in 0..Sessions::EVENTS_KEPT {
        sessions.notify(&server, &updated);
    }
    sessions.close(&stream, 6);
    let evicted = [
        (MCP_SESSION_ID, id.as_str()),
        accept,
        ("Last-Event-ID", "1"),
    ];
    let fresh = server.http(&mut sessions, "GET", lookup(&evicted), "", 7);
    assert_eq!((fresh.status, fresh.events.len()), (200, 0), "{fresh:?}");
    sessions.close(&stream, 8);
    let kept = (4 + Sessions::EVENTS_KEPT - 1).to_string();
    let latest = [
        (MCP_SESSION_ID, id.as_str()),
        accept,
        ("Last-Event-ID", kept.as_str()),
    ];
    let resumed = server.http(&mut sessions, "GET", lookup(&latest), "", 9);
    let replayed: Vec<Option<&str>> = resumed.events.iter().map(|e| e.id.as_deref()).collect();
    let last = (4 + Sessions::EVENTS_KEPT).to_string();
    assert_eq!(replayed, [Some(last.as_str())]);
}

#[test]
fn a_long_call_answers_on_a_stream_the_client_can_resume_before_its_answer() {
    let server = server();
    let mut sessions = sessions();
    let id = open(&server, &mut sessions, 0);
    let session = [(MCP_SESSION_ID, id.as_str())];
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": "at last"}}});
    let receive = |sessions: &mut Sessions| match server.http_receive(
        sessions,
        "POST",
        lookup(&session),
        &call.to_string(),
        1,
    ) {
        HttpIncoming::Call(call) => call,
        other => panic!("expected a call, got {other:?}"),
    };
    let mut pending = receive(&mut sessions);
    let opened = sessions
        .open_stream(&mut pending, Some(500))
        .expect("a session's call can answer on a stream");
    assert_eq!(opened.status, 200);
    assert_eq!(opened.content_type(), Some("text/event-stream"));
    let stream = opened.stream.clone().expect("the call's stream");
    assert_eq!(stream.request(), Some(&mcp_spec_types::RequestId::from(5)));
    // The priming event: an id to resume after, no message, the reconnection delay.
    let [priming] = opened.events.as_slice() else {
        panic!("{opened:?}")
    };
    assert_eq!(priming.to_sse(), "id: 1\nretry: 500\ndata: \n\n");
    // Opened once: the call already has its stream.
    assert!(sessions.open_stream(&mut pending, None).is_none());

    // The server closed the connection; the client resumes after the priming event before
    // the answer: the stream opens again, with nothing missed yet, and stays open.
    sessions.close(&stream, 2);
    let resume = [
        (MCP_SESSION_ID, id.as_str()),
        ("Accept", "text/event-stream"),
        ("Last-Event-ID", "1"),
    ];
    let resumed = server.http(&mut sessions, "GET", lookup(&resume), "", 3);
    assert_eq!(resumed.status, 200, "{resumed:?}");
    assert_eq!(resumed.stream.as_ref(), Some(&stream));
    assert_eq!((resumed.events.len(), resumed.ended.len()), (0, 0));

    // The answer is the stream's last event, kept for a client that resumes later still.
    let (request, mut context, responder) = pending.into_parts();
    let answer = responder.respond(server.handler().call(request, &mut context));
    let finished = sessions.finish(answer);
    assert_eq!((finished.status, finished.body.as_deref()), (202, None));
    let [answer] = finished.events.as_slice() else {
        panic!("{finished:?}")
    };
    assert_eq!((answer.stream == stream, answer.last), (true, true));
    assert_eq!(answer.id.as_deref(), Some("2"));
    let message: Value = serde_json::from_str(&answer.message).expect("JSON");
    assert_eq!(message["result"]["content"][0]["text"], "at last");
    let again = server.http(&mut sessions, "GET", lookup(&resume), "", 4);
    let replayed: Vec<&str> = again.events.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(replayed, [answer.message.as_str()]);

    // A stateless call has no stream to resume: its answer is its response.
    let call = stateless_call("echo");
    let headers = headers_for(&call);
    let incoming = server.http_receive(
        &mut sessions,
        "POST",
        lookup(&as_pairs(&headers)),
        &call.to_string(),
        5,
    );
    let HttpIncoming::Call(mut stateless) = incoming else {
        panic!("expected a call")
    };
    assert!(sessions.open_stream(&mut stateless, Some(500)).is_none());
}

/// A session of a revision before 2025-11-25 gets the stream without its priming event: its
/// clients do not expect an event without a message.
#[cfg(feature = "v2025_06_18")]
#[test]
fn a_long_calls_stream_in_2025_06_18_opens_without_a_priming_event() {
    let server = server();
    let mut sessions = sessions();
    let mut older = initialize();
    older["params"]["protocolVersion"] = json!("2025-06-18");
    let opened = post(&server, &mut sessions, &[], &older, 0);
    let id = header(&opened, MCP_SESSION_ID)
        .expect("a session")
        .to_owned();
    let headers = [
        (MCP_SESSION_ID, id.as_str()),
        ("MCP-Protocol-Version", "2025-06-18"),
    ];
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "echo"}});
    let incoming = server.http_receive(
        &mut sessions,
        "POST",
        lookup(&headers),
        &call.to_string(),
        1,
    );
    let HttpIncoming::Call(mut pending) = incoming else {
        panic!("expected a call")
    };
    let opened = sessions
        .open_stream(&mut pending, Some(500))
        .expect("a stream");
    assert!(opened.stream.is_some());
    assert_eq!(opened.events, []);
}

#[test]
fn a_request_from_a_page_of_another_origin_is_forbidden() {
    let server = server();
    let call = stateless_call("echo");
    let headers = headers_for(&call);
    let with_origin = |origin: &'static str| {
        let mut sent = as_pairs(&headers);
        sent.push(("Origin", origin));
        sent
    };
    let mut sessions = sessions();
    // DNS rebinding: a page of evil.example.com whose name resolves to this machine.
    let response = post(
        &server,
        &mut sessions,
        &with_origin("http://evil.example.com"),
        &call,
        0,
    );
    assert_eq!(response.status, 403, "{response:?}");
    assert_eq!(body(&response)["error"]["code"], -32600);
    assert_eq!(body(&response)["id"], Value::Null);
    // An opaque origin, and one that only starts like a local one.
    for origin in [
        "null",
        "http://localhost.evil.example.com",
        "http://[::1]evil",
    ] {
        let response = post(&server, &mut sessions, &with_origin(origin), &call, 0);
        assert_eq!(response.status, 403, "{origin}");
    }
    // Local pages, and clients that send no Origin, are served.
    for origin in [
        "http://localhost:3000",
        "https://127.0.0.1",
        "http://[::1]:8080",
    ] {
        let response = post(&server, &mut sessions, &with_origin(origin), &call, 0);
        assert_eq!(response.status, 200, "{origin}: {response:?}");
    }
    assert_eq!(
        post(&server, &mut sessions, &as_pairs(&headers), &call, 0).status,
        200
    );
    // A server whose web app lives elsewhere names its origin; one behind a gateway that
    // checks the origin stops checking.
    let mut listed = self::sessions().with_origins(["https://app.example.com"]);
    let app = post(
        &server,
        &mut listed,
        &with_origin("https://APP.example.com"),
        &call,
        0,
    );
    assert_eq!(app.status, 200, "{app:?}");
    let evil = post(
        &server,
        &mut listed,
        &with_origin("http://evil.example.com"),
        &call,
        0,
    );
    assert_eq!(evil.status, 403);
    let mut any = self::sessions().with_any_origin();
    let evil = post(
        &server,
        &mut any,
        &with_origin("http://evil.example.com"),
        &call,
        0,
    );
    assert_eq!(evil.status, 200);
}

#[test]
fn a_responses_content_type_stays_once_its_body_or_stream_is_taken() {
    let server = server();
    let mut sessions = sessions();
    let mut answered = post(&server, &mut sessions, &[], &initialize(), 0);
    let id = header(&answered, MCP_SESSION_ID)
        .expect("a session")
        .to_owned();
    assert!(answered.body.take().is_some());
    assert_eq!(answered.content_type(), Some("application/json"));
    let headers = [
        (MCP_SESSION_ID, id.as_str()),
        ("Accept", "text/event-stream"),
    ];
    let mut get = server.http(&mut sessions, "GET", lookup(&headers), "", 1);
    assert!(get.stream.take().is_some());
    assert_eq!(get.content_type(), Some("text/event-stream"));
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let accepted = post(
        &server,
        &mut sessions,
        &[(MCP_SESSION_ID, &id)],
        &initialized,
        2,
    );
    assert_eq!((accepted.status, accepted.content_type()), (202, None));
}
