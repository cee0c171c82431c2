//! The stateful revisions' lifecycle (`initialize`, `ping`), which the handlers' revision does
//! not have, written once for every revision with `initialize`: each answer is built as JSON and
//! read as that revision's result, so it holds exactly what the revision defines.

use crate::convert::peer::lookup_for_peer;
use crate::convert::{by_definition, ByDefinition, StatelessRequestMeta};
use crate::dispatch::{CallSet, MethodSet, PendingRequest};
use crate::method::method_names as names;
use crate::prelude::*;
use crate::revision::Revision;
use crate::v2026_07_28 as latest;
use crate::{ErrorCode, ProtocolVersion, RpcError};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The params of `call`, as JSON (an empty object when it has none).
pub(in crate::server) fn params<C: MethodSet>(call: &C) -> Map<String, Value> {
    match crate::convert::params_of(call) {
        Ok(Some(Value::Object(params))) => params,
        _ => Map::new(),
    }
}

fn internal(message: impl Into<String>) -> RpcError {
    RpcError::new(ErrorCode::InternalError, message)
}

/// `value`, a definition of the handlers' revision, for a peer of revision `to`: `lookup`
/// converts it (the definition's own, so that the server compiles these conversions alone).
fn for_peer(lookup: ByDefinition, to: &ProtocolVersion, value: Value) -> Result<Value, RpcError> {
    let from = ProtocolVersion::from(latest::REVISION);
    match lookup_for_peer(lookup, &from, to, &value) {
        Some(Ok(converted)) => Ok(converted.value),
        Some(Err(error)) => Err(internal(error.to_string())),
        None => Err(internal(format!(
            "revision {to} has no {}",
            lookup.definition
        ))),
    }
}

/// Reads `result` as revision `V`'s result of `method`.
fn result_of<V: Revision>(
    method: &str,
    result: &Map<String, Value>,
) -> Result<<V::ClientCall as CallSet>::Result, RpcError> {
    let text = crate::json::to_string(result).map_err(|e| internal(e.to_string()))?;
    let raw = RawValue::from_string(text).map_err(|e| internal(e.to_string()))?;
    <V::ClientCall as CallSet>::parse_result(&PendingRequest::without_task(method), &raw)
        .map_err(|e| internal(e.to_string()))
}

/// The empty result (`ping`).
pub(in crate::server) fn empty_result<V: Revision>(
    method: &str,
) -> Result<<V::ClientCall as CallSet>::Result, RpcError> {
    result_of::<V>(method, &Map::new())
}

/// The result of `initialize` in revision `V`: the version, the server's `capabilities` and
/// identity (`info`) converted for the client, and the `instructions`.
pub(in crate::server) fn initialize<V: Revision>(
    capabilities: &latest::ServerCapabilities,
    info: &latest::Implementation,
    instructions: Option<&str>,
) -> Result<<V::ClientCall as CallSet>::Result, RpcError> {
    let to = V::version();
    let written = |e: serde_json::Error| internal(e.to_string());
    let capabilities = serde_json::to_value(capabilities).map_err(written)?;
    let info = serde_json::to_value(info).map_err(written)?;
    let mut result = Map::new();
    result.insert(
        "protocolVersion".into(),
        Value::String(V::VERSION.to_owned()),
    );
    result.insert(
        "capabilities".into(),
        for_peer(by_definition::ServerCapabilities, &to, capabilities)?,
    );
    result.insert(
        "serverInfo".into(),
        for_peer(by_definition::Implementation, &to, info)?,
    );
    if let Some(text) = instructions {
        result.insert("instructions".into(), Value::String(text.to_owned()));
    }
    result_of::<V>(names::INITIALIZE_REQUEST, &result)
}

/// What every request of a session of revision `V` carries into the handler, from its
/// `initialize` params: the handlers' version, and the client's capabilities and `clientInfo`
/// in the handlers' revision (as sent, where that revision has no such definition).
pub(in crate::server) fn request_meta<V: Revision>(
    params: &Map<String, Value>,
) -> StatelessRequestMeta {
    let from = V::version();
    let to = ProtocolVersion::from(latest::REVISION);
    let convert = |lookup: ByDefinition, value: &Value| match (lookup.convert)(
        from.as_str(),
        to.as_str(),
        value,
    ) {
        Some(Ok(converted)) => converted,
        _ => value.clone(),
    };
    let capabilities = params
        .get("capabilities")
        .cloned()
        .unwrap_or_else(|| Value::Object(Map::new()));
    StatelessRequestMeta {
        protocol_version: latest::REVISION.to_owned(),
        client_capabilities: convert(by_definition::ClientCapabilities, &capabilities),
        client_info: params
            .get("clientInfo")
            .map(|info| convert(by_definition::Implementation, info)),
    }
}
