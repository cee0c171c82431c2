//! `reply_to`: one line a client sent, answered as a line-based server answers it (a request
//! with the handler's result or error, an unreadable line with its error response, a batch
//! with the array of its answers, anything else with nothing).

#![cfg(feature = "v2025_03_26")]
use mcp_spec_types::v2025_03_26::{reply_to, ClientCall, ClientCallResult, ListToolsResult, Tool};
use mcp_spec_types::RpcError;
use serde_json::{json, Value};

fn answer(call: ClientCall) -> Result<ClientCallResult, RpcError> {
    match call {
        ClientCall::ListTools(_) => {
            let schema = mcp_spec_types::v2025_03_26::ToolInputSchema::new();
            Ok(ListToolsResult::new([Tool::new("t", schema)]).into())
        }
        ClientCall::Ping(_) => {
            // A declared member put into `extra`: the result cannot be written.
            let tools = ListToolsResult::new(Vec::<Tool>::new()).with_extra("tools", json!([]));
            Ok(tools.into())
        }
        other => Err(RpcError::method_not_found(
            mcp_spec_types::dispatch::MethodSet::method(&other),
        )),
    }
}

fn reply(line: &str) -> Option<Value> {
    reply_to(line, answer).map(|text| serde_json::from_str(&text).expect("a JSON line"))
}

#[test]
fn a_request_gets_its_result_or_its_error() {
    assert_eq!(
        reply(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
        Some(json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "t", "inputSchema": {"type": "object"}}
        ]}}))
    );
    let refused = reply(r#"{"jsonrpc":"2.0","id":"a","method":"prompts/list"}"#);
    assert_eq!(refused.as_ref().map(|r| &r["id"]), Some(&json!("a")));
    assert_eq!(
        refused.map(|r| r["error"]["code"].clone()),
        Some(json!(-32601))
    );
}

#[test]
fn a_result_that_cannot_be_written_is_an_internal_error() {
    let reply = reply(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#).expect("an answer");
    assert_eq!(reply["error"]["code"], -32603, "{reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("`tools`")),
        "{reply}"
    );
}

#[test]
fn notifications_and_responses_get_nothing_and_garbage_gets_an_error() {
    assert_eq!(
        reply(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
        None
    );
    assert_eq!(reply(r#"{"jsonrpc":"2.0","id":3,"result":{}}"#), None);
    let garbage = reply("{").expect("an answer");
    assert_eq!(
        (garbage["id"].clone(), garbage["error"]["code"].clone()),
        (Value::Null, json!(-32700))
    );
}

#[test]
fn a_batch_gets_the_array_of_its_answers() {
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"},
        {"jsonrpc":"2.0","method":"notifications/initialized"},
        {"jsonrpc":"2.0","id":2,"method":"prompts/list"}]"#;
    let answers = reply(batch).expect("an answer");
    let ids: Vec<&Value> = answers
        .as_array()
        .expect("an array")
        .iter()
        .map(|a| &a["id"])
        .collect();
    assert_eq!(ids, [&json!(1), &json!(2)]);
    assert_eq!(
        reply(r#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#),
        None
    );
}
