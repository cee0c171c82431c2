//! What the client answers when the server asks, in 2026-07-28's terms whichever way the
//! server asked (a stateful session's request, or an input request of an `input_required`
//! result): elicitation accepted with the requested schema's defaults (SEP-1034), sampling
//! with a fixed text, roots with none.

use mcp_spec_types::v2026_07_28::{
    ElicitRequestParams, ListRootsResult, Root, ServerCall, ServerCallResult,
};
use mcp_spec_types::RpcError;
use serde_json::{json, Map, Value};

/// The answer to one request of the server.
pub fn answer(call: &ServerCall) -> Result<ServerCallResult, RpcError> {
    match call {
        ServerCall::Elicit(params) => {
            let content = match params {
                ElicitRequestParams::FormParams(form) => {
                    let schema = serde_json::to_value(&form.requested_schema)
                        .map_err(|e| RpcError::invalid_params(e.to_string()))?;
                    defaults(&schema)
                }
                ElicitRequestParams::UrlParams(_) => Map::new(),
            };
            let result = json!({ "action": "accept", "content": content });
            Ok(ServerCallResult::Elicit(read(result)?))
        }
        ServerCall::CreateMessage(_) => {
            let result = json!({
                "role": "assistant",
                "content": { "type": "text", "text": "This is a test response from the client" },
                "model": "conformance-client-model",
                "stopReason": "endTurn"
            });
            Ok(ServerCallResult::CreateMessage(read(result)?))
        }
        ServerCall::ListRoots(_) => Ok(ServerCallResult::ListRoots(ListRootsResult::new(Vec::<
            Root,
        >::new(
        )))),
        other => Err(RpcError::method_not_found(
            mcp_spec_types::dispatch::MethodSet::method(other),
        )),
    }
}

fn read<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, RpcError> {
    serde_json::from_value(value).map_err(|e| RpcError::invalid_params(e.to_string()))
}

/// The `default` of each property of a requested schema that has one.
fn defaults(schema: &Value) -> Map<String, Value> {
    let properties = schema.get("properties").and_then(Value::as_object);
    properties
        .into_iter()
        .flatten()
        .filter_map(|(name, field)| Some((name.clone(), field.get("default")?.clone())))
        .collect()
}
