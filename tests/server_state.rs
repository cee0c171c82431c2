//! The engine's request-state hook (`Server::with_state_codec`): the `requestState` a handler
//! hands a 2026-07-28 client is sealed on the way out and opened on the way back, so the
//! handler reads its state in the clear and a state the client altered is refused before any
//! handler runs.
#![cfg(all(feature = "server", feature = "v2026_07_28"))]

use mcp_spec_types::input_required::{KeyRing, StateCodec, StateError};
use mcp_spec_types::server::{Router, Server, Session};
use mcp_spec_types::v2026_07_28::input_required::{InputRequired, RoundTrip};
use mcp_spec_types::v2026_07_28::*;
use serde_json::{json, Value};

/// A toy seal: the state reversed, behind a mark the opener checks. (A server uses an HMAC.)
struct Reversed;

impl StateCodec for Reversed {
    fn seal(&self, state: &[u8]) -> Result<String, StateError> {
        let text = String::from_utf8(state.to_vec()).map_err(|_| StateError::Tampered)?;
        Ok(format!("sealed:{}", text.chars().rev().collect::<String>()))
    }
    fn open(&self, sealed: &str) -> Result<Vec<u8>, StateError> {
        let body = sealed.strip_prefix("sealed:").ok_or(StateError::Tampered)?;
        Ok(body.chars().rev().collect::<String>().into_bytes())
    }
}

/// A toy seal under a named key: the key's name, then the state reversed.
struct Keyed(&'static str);

impl StateCodec for Keyed {
    fn seal(&self, state: &[u8]) -> Result<String, StateError> {
        let sealed = Reversed.seal(state)?;
        Ok(format!("{}:{sealed}", self.0))
    }
    fn open(&self, sealed: &str) -> Result<Vec<u8>, StateError> {
        let rest = sealed
            .strip_prefix(self.0)
            .and_then(|r| r.strip_prefix(':'));
        Reversed.open(rest.ok_or(StateError::Tampered)?)
    }
}

/// A tool that asks for the client's roots with state `step-1`, and on the retry says which
/// state it got back.
fn server() -> Server<Router> {
    server_with(Reversed)
}

fn server_with(codec: impl StateCodec + Send + Sync + 'static) -> Server<Router> {
    let router = Router::new().tool(Tool::new("roots", ToolInputSchema::new()), |call| {
        if RoundTrip::of(&call).roots("roots").is_ok() {
            let state = call.request_state.unwrap_or_default();
            return Ok(CallToolResult::text(format!("state {state}")).into());
        }
        let client = &call.meta.io_modelcontextprotocol_client_capabilities;
        let asked = InputRequired::new()
            .list_roots("roots")
            .with_state("step-1")
            .build(client)?;
        Ok(CallToolResultOrInputRequired::from(asked))
    });
    Server::new(Implementation::new("stateful", "1"), router).with_state_codec(codec)
}

fn call(id: i64, state: Option<&str>) -> Value {
    let mut params = json!({"name": "roots", "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"roots": {}}}});
    if let Some(state) = state {
        params["requestState"] = json!(state);
        params["inputResponses"] = json!({"roots": {"roots": []}});
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

fn answer(server: &Server<Router>, message: &Value) -> Value {
    let line = server
        .handle(&mut Session::new(), &message.to_string())
        .pop();
    serde_json::from_str(&line.expect("an answer")).expect("JSON")
}

#[test]
fn the_state_goes_out_sealed_and_comes_back_opened() {
    let server = server();
    let asked = answer(&server, &call(1, None));
    assert_eq!(asked["result"]["resultType"], "input_required");
    assert_eq!(asked["result"]["requestState"], "sealed:1-pets");
    // Sent back as it came: the handler reads it in the clear.
    let done = answer(&server, &call(2, Some("sealed:1-pets")));
    assert_eq!(
        done["result"]["content"][0]["text"], "state step-1",
        "{done}"
    );
}

#[test]
fn a_state_the_client_altered_is_refused_before_the_handler_runs() {
    let server = server();
    let refused = answer(&server, &call(3, Some("step-1")));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["id"], 3);
    // Without the codec, the handler gets what the client sent.
    let plain = Router::new().tool(Tool::new("roots", ToolInputSchema::new()), |call| {
        Ok(CallToolResult::text(call.request_state.unwrap_or_default()))
    });
    let plain = Server::new(Implementation::new("plain", "1"), plain);
    let echoed = answer(&plain, &call(4, Some("step-1")));
    assert_eq!(echoed["result"]["content"][0]["text"], "step-1");
}

#[test]
fn a_state_sealed_before_a_key_rotation_opens_after_it() {
    let before = server_with(Keyed("k1"));
    let asked = answer(&before, &call(1, None));
    let old = asked["result"]["requestState"].as_str().unwrap().to_owned();
    assert_eq!(old, "k1:sealed:1-pets");

    // Rotated: k2 seals, k1 still opens (another replica, or the same server restarted).
    let after = server_with(KeyRing::new(Keyed("k2")).with_older(Keyed("k1")));
    let done = answer(&after, &call(2, Some(&old)));
    assert_eq!(
        done["result"]["content"][0]["text"], "state step-1",
        "{done}"
    );
    let asked = answer(&after, &call(3, None));
    assert_eq!(asked["result"]["requestState"], "k2:sealed:1-pets");

    // k1 retired: what it sealed is refused; what k2 sealed opens.
    let retired = server_with(KeyRing::new(Keyed("k2")));
    let refused = answer(&retired, &call(4, Some(&old)));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let done = answer(&retired, &call(5, Some("k2:sealed:1-pets")));
    assert_eq!(
        done["result"]["content"][0]["text"], "state step-1",
        "{done}"
    );
}
