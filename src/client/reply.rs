//! The answer to one of the client's requests, read in one pass when the server speaks the
//! client's own revision: the envelope's `id` names the request, so its `result` is typed as
//! that request's answer while it is read, with no raw copy to read again and nothing to
//! convert.

use crate::collections::HashMap;
use crate::dispatch::{CallSet, PendingRequest};
use crate::v2026_07_28 as latest;
use crate::RequestId;
use core::fmt;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

/// `line` read as a plain result response to a request in `in_flight`: its id and typed
/// result. `None` for anything else, and for anything the one pass cannot settle (the
/// `result` before the `id`, a member twice, a result that is not its request's), which the
/// engine's general path then reads and explains.
pub(super) fn read(
    line: &str,
    in_flight: &HashMap<RequestId, PendingRequest>,
) -> Option<(RequestId, latest::ClientCallResult)> {
    crate::__private::seed_without_fallback(line, Envelope { in_flight }).flatten()
}

struct Envelope<'a> {
    in_flight: &'a HashMap<RequestId, PendingRequest>,
}

impl<'de> DeserializeSeed<'de> for Envelope<'_> {
    type Value = Option<(RequestId, latest::ClientCallResult)>;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Envelope<'_> {
    type Value = Option<(RequestId, latest::ClientCallResult)>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC response object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut jsonrpc: Option<&'de RawValue> = None;
        let mut id: Option<RequestId> = None;
        let mut result = None;
        let mut plain = true;
        while let Some(key) = map.next_key_seed(crate::__private::CowStr)? {
            match &*key {
                "jsonrpc" if jsonrpc.is_none() => jsonrpc = Some(map.next_value()?),
                "id" if id.is_none() && result.is_none() => {
                    let raw: &'de RawValue = map.next_value()?;
                    id = crate::json::from_str_strict(raw.get()).ok();
                    plain &= id.is_some();
                }
                "result" if result.is_none() => {
                    let request = id.as_ref().and_then(|id| self.in_flight.get(id));
                    match request {
                        Some(request) if !request.is_task_augmented() => {
                            let seed = ResultOf(request.method());
                            result = Some(map.next_value_seed(seed)?);
                        }
                        _ => {
                            plain = false;
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                // Not the plain response this pass reads: a second member of the envelope,
                // a request's or an error response's.
                "jsonrpc" | "id" | "result" | "method" | "params" | "error" => {
                    plain = false;
                    map.next_value::<IgnoredAny>()?;
                }
                // Members JSON-RPC does not name: the engine's answer does not carry them.
                _ => drop(map.next_value::<IgnoredAny>()?),
            }
        }
        let is_2_0 = jsonrpc.is_some_and(|v| v.get() == "\"2.0\"");
        Ok(match (id, result) {
            (Some(id), Some(result)) if plain && is_2_0 => Some((id, result)),
            _ => None,
        })
    }
}

/// The result of a request of this method, typed as it is read.
struct ResultOf<'a>(&'a str);

impl<'de> DeserializeSeed<'de> for ResultOf<'_> {
    type Value = latest::ClientCallResult;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        <latest::ClientCall as CallSet>::deserialize_result(self.0, deserializer)
    }
}
