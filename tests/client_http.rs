//! The client engine's HTTP headers (`Client::http_headers`) and what it learns of the server
//! (`Client::server_capabilities`), against the server engine: the headers a stateless
//! request mirrors from its body, the `Mcp-Param-*` headers of a listed tool, the negotiated
//! version of a stateful session from 2025-06-18 on and none before it.
#![cfg(all(
    feature = "client",
    feature = "server",
    feature = "v2025_03_26",
    feature = "v2025_11_25"
))]

use mcp_spec_types::client::{Client, Event};
use mcp_spec_types::http_headers;
use mcp_spec_types::server::{Router, Server, Session, Sessions};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::{JsonObject, ProtocolVersion};
use serde_json::json;

fn tool(name: &str, schema: serde_json::Value) -> Tool {
    let schema: ToolInputSchema = serde_json::from_value(schema).expect("an input schema");
    Tool::new(name, schema)
}

fn server(versions: &[&str]) -> Server<Router> {
    let region = json!({
        "type": "object",
        "properties": {
            "region": { "type": "string", "x-mcp-header": "Region" },
            "text": { "type": "string" }
        }
    });
    // A space is not allowed in a header name: the tool breaks the transport's rules.
    let broken = json!({
        "type": "object",
        "properties": { "region": { "type": "string", "x-mcp-header": "My Region" } }
    });
    let answer = |_: CallToolRequestParams| Ok(CallToolResult::text("done"));
    let router = Router::new()
        .tool(tool("weather", region), answer)
        .tool(tool("broken", broken), answer);
    let versions = versions.iter().map(|v| ProtocolVersion::from(*v));
    Server::new(Implementation::new("weather", "1"), router).with_versions(versions)
}

/// Connects a client to `server`; the lines it sent, each with its headers as they were
/// when it was sent.
fn connect(server: &Server<Router>, session: &mut Session) -> (Client, Vec<Sent>) {
    let mut client = Client::new(Implementation::new("reader", "1"));
    let mut sent = Vec::new();
    crate::client::connect_watching(&mut client, server, session, |client, line| {
        sent.push(Sent::of(client, line.to_owned()));
    });
    (client, sent)
}

struct Sent {
    line: String,
    headers: Vec<(String, String)>,
}

impl Sent {
    fn of(client: &Client, line: String) -> Sent {
        let headers = client.http_headers(&line);
        Sent { line, headers }
    }

    fn header(&self, name: &str) -> Option<&str> {
        let found = self
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name));
        found.map(|(_, v)| v.as_str())
    }
}

fn names(headers: &[(String, String)]) -> Vec<&str> {
    headers.iter().map(|(k, _)| k.as_str()).collect()
}

fn call(client: &mut Client, name: &str, arguments: serde_json::Value) -> Sent {
    let arguments: JsonObject = serde_json::from_value(arguments).expect("arguments");
    let params = CallToolRequestParams::new(name, client.meta()).with_arguments(arguments);
    let (_, line) = client.request(ClientCall::CallTool(params)).expect("sent");
    Sent::of(client, line)
}

#[test]
fn a_stateless_request_mirrors_its_body_and_a_listed_tool_its_annotated_arguments() {
    let server = server(&["2026-07-28"]);
    let mut session = Session::new();
    let (mut client, sent) = connect(&server, &mut session);
    let discover = &sent[0];
    assert_eq!(discover.header("MCP-Protocol-Version"), Some("2026-07-28"));
    assert_eq!(discover.header("Mcp-Method"), Some("server/discover"));
    assert_eq!(discover.header("Mcp-Name"), None);
    assert_eq!(
        discover.header("Accept"),
        Some("application/json, text/event-stream")
    );
    assert_eq!(discover.header("Content-Type"), Some("application/json"));

    // Before the tools are listed, the engine knows no annotation.
    let before = call(
        &mut client,
        "weather",
        json!({ "region": "eu-west", "text": "x" }),
    );
    assert_eq!(before.header("Mcp-Name"), Some("weather"));
    assert_eq!(before.header("Mcp-Param-Region"), None);

    let (id, line) = client
        .request(ClientCall::ListTools(PaginatedRequestParams::new(
            client.meta(),
        )))
        .expect("sent");
    let answer = server.handle(&mut session, &line).pop().expect("an answer");
    let events = client.receive(&answer);
    assert!(
        matches!(&events[..], [Event::Answer { id: answered, result: Ok(_) }] if *answered == id),
        "{events:?}"
    );

    let after = call(
        &mut client,
        "weather",
        json!({ "region": "eu-west", "text": "x" }),
    );
    assert_eq!(after.header("Mcp-Param-Region"), Some("eu-west"));
    assert_eq!(
        names(&after.headers),
        [
            "Content-Type",
            "Accept",
            "MCP-Protocol-Version",
            "Mcp-Method",
            "Mcp-Name",
            "Mcp-Param-Region"
        ]
    );
    // The server engine checks what the client engine sent: the call is answered, and the
    // same call with another region in its header is refused.
    let mut sessions = Sessions::new(|| "unused".to_owned());
    let mut post = |headers: &[(String, String)]| {
        let lookup = http_headers::lookup(headers);
        server.http(&mut sessions, "POST", lookup, &after.line, 0)
    };
    let answered = post(&after.headers);
    assert_eq!(answered.status, 200, "{answered:?}");
    let mut forged = after.headers.clone();
    forged.retain(|(name, _)| name != "Mcp-Param-Region");
    forged.push(("Mcp-Param-Region".to_owned(), "us-east".to_owned()));
    assert_eq!(post(&forged).status, 400);
    // A value the header cannot carry (the annotation says string) leaves the headers out.
    let unsendable = call(&mut client, "weather", json!({ "region": 7 }));
    assert_eq!(unsendable.header("Mcp-Param-Region"), None);
    // A tool whose annotations break the rules gets none.
    let broken = call(&mut client, "broken", json!({ "region": "eu-west" }));
    assert_eq!(broken.header("Mcp-Param-My Region"), None);
    assert_eq!(broken.header("Mcp-Name"), Some("broken"));
}

#[test]
fn a_stateful_session_sends_its_version_from_2025_06_18_on() {
    for (version, expected) in [("2025-11-25", Some("2025-11-25")), ("2025-03-26", None)] {
        let server = server(&[version]);
        let mut session = Session::new();
        let (mut client, sent) = connect(&server, &mut session);
        let methods: Vec<String> = sent
            .iter()
            .map(|s| {
                let value: serde_json::Value = serde_json::from_str(&s.line).expect("JSON");
                value["method"].as_str().unwrap_or_default().to_owned()
            })
            .collect();
        assert_eq!(
            methods,
            ["server/discover", "initialize", "notifications/initialized"],
            "{version}"
        );
        // `initialize` goes before a version is agreed; `notifications/initialized` after.
        assert_eq!(sent[1].header("MCP-Protocol-Version"), None, "{version}");
        assert_eq!(
            sent[2].header("MCP-Protocol-Version"),
            expected,
            "{version}"
        );
        let listed = {
            let (_, line) = client
                .request(ClientCall::ListTools(PaginatedRequestParams::new(
                    client.meta(),
                )))
                .expect("sent");
            Sent::of(&client, line)
        };
        assert_eq!(listed.header("MCP-Protocol-Version"), expected, "{version}");
        // The stateless headers are not the older revisions'.
        assert_eq!(listed.header("Mcp-Method"), None, "{version}");
    }
}

#[test]
fn the_servers_capabilities_are_known_once_connected() {
    for version in ["2026-07-28", "2025-11-25", "2025-03-26"] {
        let server = server(&[version]);
        let fresh = Client::new(Implementation::new("reader", "1"));
        assert_eq!(fresh.server_capabilities(), None);
        let mut session = Session::new();
        let (client, _) = connect(&server, &mut session);
        let offered = client.server_capabilities().expect("connected");
        assert!(offered.tools.is_some(), "{version}: {offered:?}");
        assert_eq!(offered.resources, None, "{version}");
        assert_eq!(offered.prompts, None, "{version}");
    }
}

#[test]
fn a_request_the_transport_got_no_answer_to_is_answered_by_the_engine() {
    let why =
        || mcp_spec_types::RpcError::new(mcp_spec_types::ErrorCode::InternalError, "HTTP 404");
    // `server/discover` refused at the HTTP level: on to `initialize`.
    let mut client = Client::new(Implementation::new("reader", "1"));
    let discover = client.start().expect("a revision to speak");
    let events = client.no_answer(&discover, why());
    let [Event::Send(initialize)] = events.as_slice() else {
        panic!("{events:?}")
    };
    let sent: serde_json::Value = serde_json::from_str(initialize).expect("JSON");
    assert_eq!(sent["method"], "initialize");
    // `initialize` without an answer: the server cannot be spoken to.
    let events = client.no_answer(initialize, why());
    assert!(
        matches!(&events[..], [Event::Refused(error)] if error.message == "HTTP 404"),
        "{events:?}"
    );

    // A request in flight gets `why` as its answer, once.
    let server = server(&["2026-07-28"]);
    let mut session = Session::new();
    let (mut client, _) = connect(&server, &mut session);
    let list = ClientCall::ListTools(PaginatedRequestParams::new(client.meta()));
    let (id, line) = client.request(list).expect("sent");
    assert_eq!(client.in_flight(), 1);
    let events = client.no_answer(&line, why());
    assert!(
        matches!(&events[..], [Event::Answer { id: answered, result: Err(error) }]
            if *answered == id && error.message == "HTTP 404"),
        "{events:?}"
    );
    assert_eq!(client.in_flight(), 0);
    assert_eq!(client.no_answer(&line, why()), []);
    // A line that is no request expects no answer.
    let notification = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert_eq!(client.no_answer(notification, why()), []);
}
