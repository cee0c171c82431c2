//! The example server's multi round-trip tools (examples/conformance-server/input_required.rs),
//! driven with the requests the suite's `input-required-result-*` scenarios send, checked as
//! those scenarios check them.
//!
//! Provenance: @modelcontextprotocol/conformance 0.2.0-alpha.11 sources,
//! src/scenarios/server/input-required-result.ts (the requests and checks) and
//! src/connection/stateless.ts (`withRequestMeta`: the `_meta` added to every request, with
//! `DEFAULT_CLIENT_CAPABILITIES`; keys of the scenario's own `_meta` win).
#![cfg(feature = "v2026_07_28")]

#[path = "../examples/conformance-server/input_required.rs"]
mod input_required;

use mcp_spec_types::v2026_07_28::{ClientCapabilities, InputRequiredResult, Tool};
use mcp_spec_types::{ErrorCode, RpcError};
use serde_json::{json, Map, Value};

/// Sends `params` as the suite does: `_meta` with the protocol version, client info and the
/// default capabilities, overridden by the scenario's own `_meta` keys.
fn send(method: &str, params: Value) -> Option<Result<Value, RpcError>> {
    let Value::Object(mut params) = params else {
        panic!("params must be an object")
    };
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "conformance-test-client", "version": "1.0.0"},
        "io.modelcontextprotocol/clientCapabilities":
            {"sampling": {}, "elicitation": {}, "roots": {"listChanged": true}},
    });
    if let Some(Value::Object(own)) = params.remove("_meta") {
        for (key, value) in own {
            meta[key] = value;
        }
    }
    let capabilities: ClientCapabilities =
        serde_json::from_value(meta["io.modelcontextprotocol/clientCapabilities"].clone())
            .expect("capabilities");
    params.insert("_meta".into(), meta);
    input_required::answer(method, &params, &capabilities).map(|answer| answer.map(Value::Object))
}

fn call(method: &str, params: Value) -> Result<Value, RpcError> {
    send(method, params).expect("the module answers this request")
}

fn tool(name: &str, extra: Value) -> Result<Value, RpcError> {
    let mut params = json!({"name": name, "arguments": {}});
    if let Value::Object(extra) = extra {
        params.as_object_mut().unwrap().extend(extra);
    }
    call("tools/call", params)
}

fn is_input_required(result: &Value) -> bool {
    result["resultType"] == "input_required"
}

/// Complete: `resultType` absent or not `input_required` (the scenarios' `isCompleteResult`);
/// this server always says `complete`.
fn is_complete(result: &Value) -> bool {
    result["resultType"] == "complete"
}

/// Every input_required answer must also read as the schema's type.
fn typed(result: &Value) -> InputRequiredResult {
    serde_json::from_value(result.clone()).expect("an InputRequiredResult")
}

fn first_key(result: &Value) -> String {
    result["inputRequests"]
        .as_object()
        .and_then(|requests| requests.keys().next().cloned())
        .expect("a key")
}

fn elicit(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn sampled(text: &str) -> Value {
    json!({"role": "assistant", "content": {"type": "text", "text": text},
           "model": "test-model", "stopReason": "endTurn"})
}

fn roots() -> Value {
    json!({"roots": [{"uri": "file:///test/root", "name": "Test Root"}]})
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().expect("text content")
}

#[test]
fn basic_elicitation_and_result_type() {
    let r1 = tool("test_input_required_result_elicitation", json!({})).unwrap();
    assert!(is_input_required(&r1), "{r1}");
    assert_eq!(
        r1["inputRequests"]["user_name"]["method"],
        "elicitation/create"
    );
    assert_eq!(
        r1["inputRequests"]["user_name"]["params"]["requestedSchema"]["required"],
        json!(["name"])
    );
    typed(&r1);
    let r2 = tool(
        "test_input_required_result_elicitation",
        json!({"inputResponses": {"user_name": elicit(json!({"name": "Alice"}))}}),
    )
    .unwrap();
    assert!(is_complete(&r2), "{r2}");
    assert_eq!(text(&r2), "Hello, Alice!");
}

#[test]
fn basic_sampling() {
    let r1 = tool("test_input_required_result_sampling", json!({})).unwrap();
    let key = first_key(&r1);
    assert_eq!(
        r1["inputRequests"][&key]["method"],
        "sampling/createMessage"
    );
    assert_eq!(r1["inputRequests"][&key]["params"]["maxTokens"], 100);
    let r2 = tool(
        "test_input_required_result_sampling",
        json!({"inputResponses": {key: sampled("The capital of France is Paris.")}}),
    )
    .unwrap();
    assert!(is_complete(&r2), "{r2}");
    assert!(text(&r2).contains("Paris"));
}

#[test]
fn basic_list_roots() {
    let r1 = tool("test_input_required_result_list_roots", json!({})).unwrap();
    let key = first_key(&r1);
    assert_eq!(
        r1["inputRequests"][&key],
        json!({"method": "roots/list", "params": {}})
    );
    let r2 = tool(
        "test_input_required_result_list_roots",
        json!({"inputResponses": {key: roots()}}),
    )
    .unwrap();
    assert_eq!(text(&r2), "Found 1 root(s)");
}

#[test]
fn request_state_round_trips() {
    let r1 = tool("test_input_required_result_request_state", json!({})).unwrap();
    assert!(is_input_required(&r1));
    let state = r1["requestState"].as_str().expect("a string requestState");
    let key = first_key(&r1);
    let r2 = tool(
        "test_input_required_result_request_state",
        json!({"inputResponses": {key: elicit(json!({"ok": true}))}, "requestState": state}),
    )
    .unwrap();
    assert!(is_complete(&r2), "{r2}");
    assert!(text(&r2).contains("state-ok"));
    assert!(text(&r2).contains("confirmed: true"));
}

#[test]
fn multiple_input_requests() {
    let r1 = tool("test_input_required_result_multiple_inputs", json!({})).unwrap();
    assert!(r1["requestState"].is_string());
    let requests = r1["inputRequests"].as_object().unwrap();
    let mut methods: Vec<_> = requests
        .values()
        .map(|r| r["method"].as_str().unwrap())
        .collect();
    methods.sort_unstable();
    assert_eq!(
        methods,
        ["elicitation/create", "roots/list", "sampling/createMessage"]
    );
    let mut responses = Map::new();
    for (key, request) in requests {
        let response = match request["method"].as_str().unwrap() {
            "elicitation/create" => elicit(json!({"name": "Alice"})),
            "sampling/createMessage" => sampled("Hello there!"),
            _ => roots(),
        };
        responses.insert(key.clone(), response);
    }
    // Only part of the answers: the server asks again for the rest, and only for the rest.
    let mut partial = responses.clone();
    partial.remove("greeting");
    let again = tool(
        "test_input_required_result_multiple_inputs",
        json!({"inputResponses": partial, "requestState": r1["requestState"]}),
    )
    .unwrap();
    assert!(is_input_required(&again));
    assert_eq!(again["inputRequests"].as_object().unwrap().len(), 1);
    assert_eq!(
        again["inputRequests"]["greeting"]["method"],
        "sampling/createMessage"
    );
    let r2 = tool(
        "test_input_required_result_multiple_inputs",
        json!({"inputResponses": responses, "requestState": r1["requestState"]}),
    )
    .unwrap();
    assert!(is_complete(&r2), "{r2}");
    assert_eq!(text(&r2), "Name: Alice; Greeting: Hello there!; Roots: 1");
}

#[test]
fn multi_round() {
    let name = "test_input_required_result_multi_round";
    let r1 = tool(name, json!({})).unwrap();
    assert!(is_input_required(&r1) && r1["requestState"].is_string());
    let r2 = tool(
        name,
        json!({"inputResponses": {first_key(&r1): elicit(json!({"name": "Alice"}))},
               "requestState": r1["requestState"]}),
    )
    .unwrap();
    assert!(is_input_required(&r2), "{r2}");
    assert_ne!(r2["requestState"], r1["requestState"]);
    assert_eq!(first_key(&r2), "step2");
    let r3 = tool(
        name,
        json!({"inputResponses": {first_key(&r2): elicit(json!({"color": "blue"}))},
               "requestState": r2["requestState"]}),
    )
    .unwrap();
    assert!(is_complete(&r3), "{r3}");
    assert_eq!(text(&r3), "Multi-round complete for Alice who likes blue");
}

#[test]
fn missing_input_response_is_asked_again() {
    let r1 = tool(
        "test_input_required_result_elicitation",
        json!({"inputResponses": {"wrong_key": elicit(json!({"data": "wrong"}))}}),
    )
    .unwrap();
    assert!(is_input_required(&r1), "{r1}");
    assert_eq!(first_key(&r1), "user_name");
}

#[test]
fn prompt_asks_then_completes() {
    let r1 = call(
        "prompts/get",
        json!({"name": "test_input_required_result_prompt"}),
    )
    .unwrap();
    assert!(is_input_required(&r1));
    let key = first_key(&r1);
    let r2 = call(
        "prompts/get",
        json!({"name": "test_input_required_result_prompt",
               "inputResponses": {key: elicit(json!({"context": "test context"}))}}),
    )
    .unwrap();
    assert!(is_complete(&r2), "{r2}");
    assert_eq!(
        r2["messages"][0]["content"]["text"],
        "Prompt with context: test context"
    );
}

#[test]
fn other_requests_are_not_answered_here() {
    // The unsupported-methods scenario sends tools/list and prompts/list: never input_required.
    assert!(send("tools/list", json!({})).is_none());
    assert!(send("prompts/list", json!({})).is_none());
    assert!(send("tools/call", json!({"name": "test_simple_text"})).is_none());
    assert!(send("prompts/get", json!({"name": "test_simple_prompt"})).is_none());
    assert!(send(
        "resources/read",
        json!({"name": "test_input_required_result_prompt"})
    )
    .is_none());
}

#[test]
fn tampered_state_is_refused() {
    let name = "test_input_required_result_tampered_state";
    let r1 = tool(name, json!({})).unwrap();
    let state = r1["requestState"].as_str().unwrap();
    let key = first_key(&r1);
    let tampered = format!("{state}-TAMPERED");
    let error = tool(
        name,
        json!({"inputResponses": {&key: elicit(json!({"ok": true}))}, "requestState": tampered}),
    )
    .unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidParams);
    // The untampered state is accepted.
    let r2 = tool(
        name,
        json!({"inputResponses": {&key: elicit(json!({"ok": true}))}, "requestState": state}),
    )
    .unwrap();
    assert!(text(&r2).starts_with("integrity-ok"));
    // State issued for one tool is not accepted by another.
    let error = tool(
        "test_input_required_result_request_state",
        json!({"inputResponses": {&key: elicit(json!({"ok": true}))}, "requestState": state}),
    )
    .unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidParams);
    assert!(error.message.contains("issued for"), "{}", error.message);
}

#[test]
fn capabilities_are_respected() {
    let name = "test_input_required_result_capabilities";
    let r1 = tool(
        name,
        json!({"_meta": {"io.modelcontextprotocol/clientCapabilities": {"sampling": {}}}}),
    )
    .unwrap();
    assert!(is_input_required(&r1), "{r1}");
    let methods: Vec<_> = r1["inputRequests"]
        .as_object()
        .unwrap()
        .values()
        .map(|r| r["method"].clone())
        .collect();
    assert_eq!(methods, [json!("sampling/createMessage")]);
    let r2 = tool(
        name,
        json!({"_meta": {"io.modelcontextprotocol/clientCapabilities": {"sampling": {}}},
               "inputResponses": {first_key(&r1): sampled("ok")}}),
    )
    .unwrap();
    assert_eq!(text(&r2), "capabilities-ok: received sample_input");
    // Declaring nothing: nothing to ask.
    let r3 = tool(
        name,
        json!({"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}),
    )
    .unwrap();
    assert_eq!(text(&r3), "No supported capabilities declared");
    // A tool that needs elicitation is refused with -32021 when the client lacks it.
    let error = tool(
        "test_input_required_result_elicitation",
        json!({"_meta": {"io.modelcontextprotocol/clientCapabilities": {"sampling": {}}}}),
    )
    .unwrap_err();
    assert_eq!(error.code, ErrorCode::MissingRequiredClientCapability);
    assert_eq!(
        error.data,
        Some(json!({"requiredCapabilities": {"elicitation": {"form": {}}}}))
    );
}

#[test]
fn extra_input_responses_are_ignored() {
    let result = tool(
        "test_input_required_result_elicitation",
        json!({"inputResponses": {
            "user_name": elicit(json!({"name": "Alice"})),
            "unknown_extra_key": {"action": "accept", "content": {"foo": "bar"}},
            "another_unexpected": {"action": "accept", "content": {"baz": 123}},
        }}),
    )
    .unwrap();
    assert!(is_complete(&result), "{result}");
}

#[test]
fn malformed_input_responses_are_errors() {
    for responses in [json!({"user_name": 12345}), Value::Null] {
        let error = tool(
            "test_input_required_result_elicitation",
            json!({ "inputResponses": responses }),
        )
        .unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidParams);
        assert!(
            error.message.starts_with("inputResponses"),
            "{}",
            error.message
        );
    }
    // A response of the wrong kind under a known key.
    let error = tool(
        "test_input_required_result_elicitation",
        json!({"inputResponses": {"user_name": roots()}}),
    )
    .unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidParams);
    assert_eq!(error.data, Some(json!({"key": "user_name"})));
}

#[test]
fn listed_tools_and_prompt_are_the_answered_ones() {
    let tools: Vec<Tool> = input_required::tools();
    assert_eq!(tools.len(), 8);
    for tool in &tools {
        let listed = serde_json::to_value(tool).unwrap();
        assert_eq!(listed["inputSchema"]["type"], "object");
        assert!(send("tools/call", json!({"name": tool.name})).is_some());
    }
    let prompts = input_required::prompts();
    assert_eq!(prompts.len(), 1);
    assert!(send("prompts/get", json!({"name": prompts[0].name})).is_some());
}
