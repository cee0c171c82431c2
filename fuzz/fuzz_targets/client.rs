//! The client engine (`client`): what a server sends, line by line, to clients waiting for
//! answers: one connected to a 2026-07-28 server (whose answers the engine types in one pass,
//! `src/client/reply.rs`), one connected to a stateful 2025-11-25 server and one to a 2024-11-05
//! server (whose answers it reads in their revision and converts up), one still discovering and
//! one still initializing. Each declares sampling, elicitation and roots.
//!
//! Input: lines (split on `\n`, lossily decoded from UTF-8), each handed to `Client::receive`
//! of every client, in order. The connected clients have the same requests in flight under the
//! same ids, so that one line answers the same method in each: 3 `tools/list`, 4 `tools/call`,
//! 5 `resources/read`, 6 `prompts/get`, 7 `resources/list`, 8 `resources/templates/list`,
//! 9 `prompts/list`, 10 `completion/complete`, 11 `subscriptions/listen` (2026-07-28 only);
//! 1 and 2 are their `server/discover` and `initialize` (or a second `server/discover`). The
//! discovering client waits for the answer to 1, the initializing one to 2. Every request of
//! the server a line gives the caller is answered at once with `Client::respond` (roots, a
//! declined elicitation, a sampled message).
//!
//! Properties:
//! - the engine never panics;
//! - a line never puts a request in flight: `in_flight()` does not grow on `receive`;
//! - an answer names a request the caller sent and not answered yet, and the one the line's id
//!   was sent for: a request is taken out of flight once, so the same line again is
//!   `Unpaired` (its id) and changes nothing;
//! - a response (an object with an integer or string `id` and no `method`) whose id the client
//!   never sent is `Unpaired` with that id or `Unreadable`, and changes nothing in flight;
//! - every line `receive` and `respond` give to send is JSON, a JSON-RPC 2.0 object: a request
//!   under an id not sent before (a retry keeps its request's method), a notification
//!   (`notifications/initialized`), or a response (`result` xor `error`) with the id of the
//!   server's request it answers; its HTTP headers (`Client::http_headers`) never panic;
//! - a request the engine gives the caller comes once connected, and can be answered (`respond` knows
//!   its id);
//! - a connected client never connects again nor is refused; the others connect at most
//!   once, in a revision they speak.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::client::{Client, ClientError, Event};
use mcp_spec_types::dispatch::MethodSet;
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::{ErrorCode, ProtocolVersion, RequestId, RpcError};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// A client as the target drives it, with what the target knows of the ids it sent.
#[derive(Clone)]
struct Peer {
    name: &'static str,
    client: Client,
    /// Every id the client sent a request under.
    sent: BTreeSet<RequestId>,
    /// The id the caller knows each sent request by (a retry's differs).
    caller_of: BTreeMap<RequestId, RequestId>,
    /// The ids the caller got from `Client::request`, and those answered.
    asked: BTreeSet<RequestId>,
    answered: BTreeSet<RequestId>,
    /// Whether the client was connected before the first line.
    connected: bool,
    connections: usize,
}

fn capabilities() -> ClientCapabilities {
    serde_json::from_value(json!({"sampling": {}, "elicitation": {}, "roots": {}}))
        .expect("the client's capabilities")
}

fn new_client(versions: Option<&[&str]>) -> Client {
    let client = Client::new(Implementation::new("fuzz", "1")).with_capabilities(capabilities());
    match versions {
        Some(versions) => client.with_versions(versions.iter().map(|v| ProtocolVersion::from(*v))),
        None => client,
    }
}

/// The lines the server answers the connection with, the last one connecting.
fn connect(client: &mut Client, answers: &[String]) {
    client.start().expect("a revision to speak");
    let mut events = Vec::new();
    for answer in answers {
        events.extend(client.receive(answer));
    }
    assert!(
        matches!(events.last(), Some(Event::Connected(_))),
        "while connecting: {events:?}"
    );
}

const NOT_FOUND: &str =
    r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#;
// A refused first `server/discover` has the 2026-07-28 client send a second one: its requests
// then start at id 3, as those of a client that initialized.
const REFUSED: &str = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}}}"#;
const DISCOVERED: &str = r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true},"prompts":{},"completions":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}}"#;

fn initialized(version: &str) -> String {
    let result = json!({"protocolVersion": version, "serverInfo": {"name": "s", "version": "1"},
        "capabilities": {"tools": {"listChanged": true}, "resources": {"subscribe": true},
                         "prompts": {}, "completions": {}, "logging": {}}});
    json!({"jsonrpc": "2.0", "id": 2, "result": result}).to_string()
}

/// The requests each connected client has in flight, in the order of their ids (from 3).
fn requests() -> [(&'static str, Value); 9] {
    [
        ("tools/list", json!({})),
        (
            "tools/call",
            json!({"name": "get_weather", "arguments": {"location": "New York"}}),
        ),
        (
            "resources/read",
            json!({"uri": "file:///project/src/main.rs"}),
        ),
        (
            "prompts/get",
            json!({"name": "code_review", "arguments": {"code": "def hello():\n    print('world')"}}),
        ),
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        ("prompts/list", json!({"cursor": "c1"})),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "code_review"},
                   "argument": {"name": "language", "value": "py"}}),
        ),
        (
            "subscriptions/listen",
            json!({"notifications": {"toolsListChanged": true, "resourceSubscriptions": ["file:///a"]}}),
        ),
    ]
}

fn peer(name: &'static str, client: Client, sent: &[i64]) -> Peer {
    let sent: BTreeSet<RequestId> = sent.iter().map(|&id| RequestId::from(id)).collect();
    let caller_of = sent.iter().map(|id| (id.clone(), id.clone())).collect();
    let connected = client.version().is_some();
    Peer {
        name,
        client,
        sent,
        caller_of,
        asked: BTreeSet::new(),
        answered: BTreeSet::new(),
        connected,
        connections: 0,
    }
}

fn with_requests(mut peer: Peer) -> Peer {
    for (expected, (method, mut params)) in (3i64..).zip(requests()) {
        params["_meta"] = serde_json::to_value(peer.client.meta()).expect("the meta");
        let raw = serde_json::value::to_raw_value(&params).expect("params");
        let call = ClientCall::from_parts(method, Some(&raw)).expect("a request");
        // A revision without the method cannot carry it; its id is spent all the same.
        if let Ok((id, line)) = peer.client.request(call) {
            assert_eq!(id, RequestId::from(expected), "{line}");
            peer.sent.insert(id.clone());
            peer.caller_of.insert(id.clone(), id.clone());
            peer.asked.insert(id);
        }
    }
    peer
}

fn peers() -> &'static [Peer] {
    static PEERS: OnceLock<Vec<Peer>> = OnceLock::new();
    PEERS.get_or_init(|| {
        let mut stateless = new_client(None);
        connect(&mut stateless, &[REFUSED.into(), DISCOVERED.into()]);
        let mut stateful = new_client(None);
        connect(
            &mut stateful,
            &[NOT_FOUND.into(), initialized("2025-11-25")],
        );
        let mut oldest = new_client(Some(&["2026-07-28", "2024-11-05"]));
        connect(&mut oldest, &[NOT_FOUND.into(), initialized("2024-11-05")]);
        let mut discovering = new_client(None);
        discovering.start().expect("server/discover");
        let mut initializing = new_client(None);
        initializing.start().expect("server/discover");
        initializing.receive(NOT_FOUND);
        vec![
            with_requests(peer("2026-07-28", stateless, &[1, 2])),
            with_requests(peer("2025-11-25", stateful, &[1, 2])),
            with_requests(peer("2024-11-05", oldest, &[1, 2])),
            peer("discovering", discovering, &[1]),
            peer("initializing", initializing, &[1, 2]),
        ]
    })
}

/// What the caller answers each kind of request of the server with.
fn answer(call: &ServerCall) -> Result<ServerCallResult, RpcError> {
    fn read<T: serde::de::DeserializeOwned>(value: Value) -> T {
        serde_json::from_value(value).expect("a result")
    }
    match call {
        ServerCall::ListRoots(_) => Ok(ServerCallResult::ListRoots(read(
            json!({"roots": [{"uri": "file:///work", "name": "work"}]}),
        ))),
        ServerCall::Elicit(_) => Ok(ServerCallResult::Elicit(read(json!({"action": "decline"})))),
        ServerCall::CreateMessage(_) => Ok(ServerCallResult::CreateMessage(read(
            json!({"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}),
        ))),
        _ => Err(RpcError::new(ErrorCode::MethodNotFound, "not asked")),
    }
}

/// The line's `id` when it is an integer or a string, as `serde_json::Value` reads it.
fn id_of(message: Option<&Value>) -> Option<RequestId> {
    let id = message?.get("id")?;
    (id.is_i64() || id.is_string()).then(|| serde_json::from_value(id.clone()).ok())?
}

/// A response the target can read: an object with an `id` and no `method`.
fn is_response(message: Option<&Value>) -> bool {
    message
        .and_then(Value::as_object)
        .is_some_and(|m| m.contains_key("id") && !m.contains_key("method"))
}

impl Peer {
    /// Checks a line the client gives to send; `caller` is the request it sends again, when
    /// it is a retry.
    fn sends(&mut self, line: &str, received: Option<&Value>, caller: Option<&RequestId>) {
        let sent: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{}: a line to send is not JSON ({e}): {line}", self.name));
        assert_eq!(sent["jsonrpc"], "2.0", "{}: {line}", self.name);
        // Whatever the client sends goes with headers.
        let _ = self.client.http_headers(line);
        let id = sent.get("id");
        match (sent.get("method"), id) {
            (Some(method), Some(id)) => {
                assert!(method.is_string(), "{}: {line}", self.name);
                let id: RequestId = serde_json::from_value(id.clone())
                    .unwrap_or_else(|e| panic!("{}: {e}: {line}", self.name));
                assert!(
                    self.sent.insert(id.clone()),
                    "{}: a request under an id sent before: {line}",
                    self.name
                );
                if let Some(caller) = caller {
                    self.caller_of.insert(id, caller.clone());
                }
            }
            (Some(method), None) => {
                assert_eq!(method, "notifications/initialized", "{}: {line}", self.name);
            }
            (None, Some(id)) => {
                let has = |member: &str| sent.get(member).is_some();
                assert!(has("result") != has("error"), "{}: {line}", self.name);
                // The answer to the server's request: under its id, or null when its id
                // could not be read.
                let asked = received.and_then(|m| m.get("id"));
                assert!(
                    Some(id) == asked || (id.is_null() && has("error")),
                    "{}: {line}\nanswers {received:?}",
                    self.name
                );
            }
            (None, None) => panic!("{}: neither a request nor a response: {line}", self.name),
        }
    }

    fn receive(&mut self, line: &str, message: Option<&Value>) {
        let name = self.name;
        let before = self.client.in_flight();
        let events = self.client.receive(line);
        let after = self.client.in_flight();
        assert!(
            after <= before,
            "{name}: {line}\nput a request in flight: {events:?}"
        );
        let id = id_of(message);
        if is_response(message) {
            if let Some(id) = id.as_ref().filter(|id| !self.sent.contains(id)) {
                let unpaired = matches!(events.as_slice(), [Event::Unpaired(Some(u))] if u == id);
                let unread = matches!(events.as_slice(), [Event::Unreadable(_)]);
                assert!(unpaired || unread, "{name}: {line}\n-> {events:?}");
                assert_eq!(after, before, "{name}: {line}");
            }
        }
        // The caller's id for the request this line answers: what a retry keeps.
        let caller = id.as_ref().and_then(|id| self.caller_of.get(id)).cloned();
        let mut answered = false;
        for event in &events {
            match event {
                Event::Send(sent) => self.sends(sent, message, caller.as_ref()),
                Event::Connected(version) => {
                    assert!(!self.connected, "{name}: connected again by {line}");
                    self.connections += 1;
                    assert_eq!(self.connections, 1, "{name}: connected twice");
                    assert_eq!(self.client.version(), Some(version), "{name}");
                    let spoken = ProtocolVersion::SUPPORTED_RELEASED.contains(version);
                    assert!(spoken, "{name}: connected in {version:?}");
                }
                Event::Refused(_) => {
                    assert!(!self.connected, "{name}: refused once connected, by {line}");
                }
                Event::NoRevisionInCommon { .. } => {
                    assert!(!self.connected, "{name}: no revision once connected, by {line}");
                }
                Event::Answer { id: answer, .. } => {
                    assert!(
                        self.asked.contains(answer),
                        "{name}: an answer to {answer:?}, never asked\n{line}"
                    );
                    assert!(
                        self.answered.insert(answer.clone()),
                        "{name}: {answer:?} answered twice\n{line}"
                    );
                    if let (Some(caller), true) = (&caller, is_response(message)) {
                        assert_eq!(caller, answer, "{name}: {line}");
                    }
                    answered = true;
                }
                Event::Request { id: asked, call } => {
                    // Before it connects, the client refuses the server's requests itself:
                    // the caller is given only what `respond` can answer.
                    let connected = self.client.version().is_some();
                    assert!(connected, "{name}: {asked:?} given before connecting\n{line}");
                    let reply = self.client.respond(asked, answer(call));
                    assert!(
                        !matches!(reply, Err(ClientError::NotAsked(_))),
                        "{name}: {asked:?} was given, yet not asked: {reply:?}\n{line}"
                    );
                    for event in reply.into_iter().flatten() {
                        match event {
                            // A retry (every input request answered) is a request of the
                            // caller's.
                            Event::Send(reply) => {
                                self.sends(&reply, Some(&json!({"id": asked})), caller.as_ref())
                            }
                            // A refused input request gives its call up: the caller's one
                            // answer.
                            Event::Answer { id: given_up, .. } => assert!(
                                self.answered.insert(given_up.clone()),
                                "{name}: {given_up:?} answered twice\n{line}"
                            ),
                            other => panic!("{name}: answering {asked:?} gave {other:?}\n{line}"),
                        }
                    }
                }
                // Notifications, what pairs with nothing, what cannot be read.
                _ => {}
            }
        }
        if answered && is_response(message) {
            let in_flight = self.client.in_flight();
            let again = self.client.receive(line);
            assert!(
                matches!(again.as_slice(), [Event::Unpaired(Some(u))] if Some(u) == id.as_ref()),
                "{name}: a request answered twice by {line}\n-> {again:?}"
            );
            assert_eq!(self.client.in_flight(), in_flight, "{name}: {line}");
        }
        if self.connected {
            assert!(self.client.version().is_some(), "{name}: {line}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut peers = peers().to_vec();
    for line in text.split('\n') {
        let message: Option<Value> = serde_json::from_str(line).ok();
        for peer in &mut peers {
            peer.receive(line, message.as_ref());
        }
    }
});
