//! The client's messages in the server's revision, written once for every revision: a request
//! converted down for the server, a line read in the server's revision, an answer converted
//! up to 2026-07-28.

use super::ClientError;
use crate::convert::{self, meta_keys, StatelessResult};
use crate::dispatch::{CallSet, ErrorResponse, Message, MethodSet, PendingRequest, ResultResponse};
use crate::method::method_names as names;
use crate::pending::request_line;
use crate::prelude::*;
use crate::revision::{ClientMessage, Revision, ServerMessage, Visit};
use crate::v2026_07_28 as latest;
use crate::{RequestId, RpcError};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The `_meta` keys a stateless request carries and a stateful one does not.
const STATELESS_META: [&str; 4] = [
    meta_keys::PROTOCOL_VERSION,
    meta_keys::CLIENT_CAPABILITIES,
    meta_keys::CLIENT_INFO,
    meta_keys::LOG_LEVEL,
];

/// The params of `call`, as JSON (`None` when it has none).
fn params<C: MethodSet>(call: &C) -> Option<Map<String, Value>> {
    match convert::params_of(call) {
        Ok(Some(Value::Object(params))) => Some(params),
        _ => None,
    }
}

/// A request of the client, as a line of the server's revision.
pub(super) struct RequestLine<'a> {
    pub id: RequestId,
    pub method: &'a str,
    /// The params in 2026-07-28 terms (for `initialize`, already the server's).
    pub params: Option<Map<String, Value>>,
    /// The stateless `_meta` keys to set, or `None` to take them out (a stateful server).
    pub meta: Option<&'a Map<String, Value>>,
}

impl RequestLine<'_> {
    /// `call` with its params as the client engine sends them.
    pub fn of<'a>(
        id: RequestId,
        call: &'a latest::ClientCall,
        meta: Option<&'a Map<String, Value>>,
    ) -> RequestLine<'a> {
        RequestLine {
            id,
            method: call.method(),
            params: params(call),
            meta,
        }
    }
}

impl Visit for RequestLine<'_> {
    type Output = Result<(String, PendingRequest), ClientError>;

    fn visit<V: Revision>(self) -> Self::Output {
        let mut params = self.params.unwrap_or_default();
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(meta) = meta {
            match self.meta {
                Some(keys) => meta.extend(keys.iter().map(|(k, v)| (k.clone(), v.clone()))),
                None => STATELESS_META
                    .iter()
                    .for_each(|key| drop(meta.remove(*key))),
            }
        }
        if params
            .get("_meta")
            .and_then(Value::as_object)
            .is_some_and(Map::is_empty)
        {
            params.remove("_meta");
        }
        let raw = match params.is_empty() && self.meta.is_none() {
            true => None,
            false => Some(serde_json::value::to_raw_value(&params).map_err(|e| {
                let kind = crate::error::MessageErrorKind::Params;
                ClientError::Invalid(crate::MessageError::new(kind, e.to_string()))
            })?),
        };
        let call = <V::ClientCall as MethodSet>::from_parts(self.method, raw.as_deref())
            .map_err(ClientError::Invalid)?;
        // Without what the server's revision does not define.
        let call = convert::convert_call_for_peer::<V::ClientCall, V::ClientCall>(&call)
            .map_err(ClientError::Conversion)?
            .value;
        Ok(request_line::<_, V::ClientNotify>(self.id, call))
    }
}

/// What a line of the server amounts to, read in its revision.
pub(super) enum Read {
    Result(RequestId, Box<RawValue>),
    Error(Option<RequestId>, RpcError),
    Notification(latest::ServerNotify),
    /// The server's `ping`.
    Ping(RequestId),
    /// Another request of the server: in 2026-07-28 terms, with what its answer must be, or
    /// why it cannot be put in those terms.
    Request(
        RequestId,
        Result<(Box<latest::ServerCall>, PendingRequest), String>,
    ),
    Unreadable(String),
    /// A line to send the server: the error answering a request that could not be read.
    Reply(String),
}

/// Reads a line of the server in its revision.
pub(super) struct ReadLine<'a>(pub &'a str);

impl Visit for ReadLine<'_> {
    type Output = Vec<Read>;

    fn visit<V: Revision>(self) -> Vec<Read> {
        match ServerMessage::<V>::parse(self.0) {
            Ok(message) => read::<V>(message),
            Err(error) => {
                let mut read = vec![Read::Unreadable(error.to_string())];
                // A request of the server is answered even when it cannot be read: with the
                // error JSON-RPC names (-32602 for its params), under its id. Nothing else is:
                // answering a response would start a loop.
                let is_request = crate::json::from_str::<Map<String, Value>>(self.0)
                    .is_ok_and(|m| m.contains_key("method") && m.contains_key("id"));
                let refusal = is_request
                    .then(|| crate::answer::error_response(self.0, &error))
                    .flatten();
                if let Some(refusal) = refusal {
                    let message: ClientMessage<V> = Message::Error(refusal);
                    read.push(Read::Reply(message.to_json()));
                }
                read
            }
        }
    }
}

fn read<V: Revision>(message: ServerMessage<V>) -> Vec<Read> {
    match message {
        Message::Response(response) => vec![Read::Result(response.id, response.result)],
        Message::Error(response) => vec![Read::Error(response.id, response.error)],
        Message::Notification(envelope) => {
            let converted =
                convert::convert_call::<_, latest::ServerNotify>(&envelope.notification);
            vec![match converted {
                Ok(notification) => Read::Notification(notification),
                Err(error) => Read::Unreadable(error.to_string()),
            }]
        }
        Message::Request(request) if request.call.method() == names::PING_REQUEST => {
            vec![Read::Ping(request.id)]
        }
        Message::Request(request) => {
            // Answered with the request's own result, a task or not: a receiver that does not
            // run a request as a task processes it normally (2025-11-25, Tasks).
            let pending = PendingRequest::without_task(request.call.method());
            let converted = convert::convert_call::<_, latest::ServerCall>(&request.call);
            let call = converted.map(|call| (Box::new(call), pending));
            vec![Read::Request(request.id, call.map_err(|e| e.to_string()))]
        }
        Message::Batch(items) => items.into_iter().flat_map(read::<V>).collect(),
    }
}

/// The result of a request of the server's revision, read and converted up to 2026-07-28.
pub(super) struct Answer<'a> {
    pub request: &'a PendingRequest,
    pub result: &'a RawValue,
}

impl Visit for Answer<'_> {
    type Output = Result<latest::ClientCallResult, String>;

    fn visit<V: Revision>(self) -> Self::Output {
        let parse = |raw: &RawValue| <V::ClientCall as CallSet>::parse_result(self.request, raw);
        let result = match parse(self.result) {
            Ok(result) => result,
            // The schema requires `resultType`, and the specification has a client read a
            // result without it as `complete` (2026-07-28, basic/index): read so only when the
            // result as sent does not read, so a result that has it costs nothing more.
            Err(error) => match completed(V::VERSION, self.result) {
                Some(completed) => parse(&completed).map_err(|_| error.to_string())?,
                None => return Err(error.to_string()),
            },
        };
        // A stateful revision's result has no cache hints: the answer says nothing of them.
        let fill = StatelessResult::uncached();
        convert::convert_result_with::<V::ClientCall, latest::ClientCall>(
            &result,
            self.request,
            &fill,
        )
        .map_err(|e| e.to_string())
    }
}

/// What the client answers a server's request with.
pub(super) enum Answered {
    /// `ping`'s empty result.
    Empty,
    /// A result in 2026-07-28 terms, for the request it answers.
    Result(PendingRequest, Box<latest::ServerCallResult>),
}

/// A JSON-RPC response line of revision `V` to the server's request `id`.
pub(super) struct Respond {
    pub id: RequestId,
    pub result: Result<Answered, RpcError>,
}

impl Visit for Respond {
    type Output = Result<String, ClientError>;

    fn visit<V: Revision>(self) -> Self::Output {
        let id = self.id;
        let response = match self.result {
            Ok(Answered::Empty) => ResultResponse::new(id.clone(), &Map::new()),
            Ok(Answered::Result(request, result)) => {
                // Without what the server's revision does not define.
                let result = convert::convert_result_for_peer::<latest::ServerCall, V::ServerCall>(
                    &result, &request,
                )
                .map_err(ClientError::Conversion)?;
                ResultResponse::new(id.clone(), &result.value)
            }
            Err(error) => {
                let message: ClientMessage<V> = Message::Error(ErrorResponse::new(id, error));
                return Ok(message.to_json());
            }
        };
        let message: ClientMessage<V> = match response {
            Ok(response) => Message::Response(response),
            Err(e) => Message::Error(ErrorResponse::new(
                id,
                RpcError::new(crate::ErrorCode::InternalError, e.to_string()),
            )),
        };
        Ok(message.to_json())
    }
}

/// `result` with `"resultType": "complete"`, when it is an object of a stateless revision's
/// without one.
fn completed(version: &str, result: &RawValue) -> Option<Box<RawValue>> {
    if !crate::negotiation::is_stateless(&crate::ProtocolVersion::from(version)) {
        return None;
    }
    let mut members = crate::json::from_str::<Map<String, Value>>(result.get()).ok()?;
    if members.contains_key(crate::cache::RESULT_TYPE) {
        return None;
    }
    members.insert(
        crate::cache::RESULT_TYPE.into(),
        crate::cache::RESULT_TYPE_COMPLETE.into(),
    );
    serde_json::value::to_raw_value(&members).ok()
}
