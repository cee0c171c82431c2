//! Messages: one pass from a line of JSON to the typed request or notification of its method.
//!
//! Every read goes through the crate's JSON reader ([`crate::json::from_str`]). When `method`
//! comes before `params`, as every implementation writes it, the params are read straight into
//! the method's type in the same pass as the envelope, and so is an error object; `result` is
//! kept as a raw JSON slice until the request it answers is known. Where the request is known already,
//! [`Reply::parse`] reads a response and its typed result in one pass, and
//! [`Message::parse_answering`] reads any line with the pending requests at hand, typing a
//! response's result as its request's in the same pass. Any other member order,
//! and any failure, is read again in two steps (raw envelope, then params), so that an error
//! names the method and the JSON path of the culprit. No intermediate `serde_json::Value` is
//! built for the payload, and no union arm is tried and abandoned.

use crate::prelude::*;
pub(crate) mod answering;
mod parse;
mod read;
mod reply;
mod write;

use crate::error::{MessageError, MessageErrorKind};
use crate::jsonrpc::{RequestId, RpcError};
use crate::method::{Direction, MethodKind};
use crate::{ErrorCode, ProgressToken};
use serde::de;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

pub use crate::pending::{CallSet, PendingRequest, PendingRequests};
#[doc(hidden)]
pub use answering::answers_read_in_one_pass;
pub use answering::Parsed;
pub use read::{optional_params, read_result, read_task_result, required_params, unknown_method};
pub use reply::{Reply, TypedResult};

include!(concat!(env!("OUT_DIR"), "/all_methods.rs"));

/// The revisions that define `method`, across every revision the crate knows (enabled or not).
pub fn revisions_defining(method: &str) -> &'static [&'static str] {
    ALL_METHODS
        .iter()
        .find(|(name, _)| *name == method)
        .map(|(_, revisions)| *revisions)
        .unwrap_or(&[])
}

/// `method` as it is written in the static method table, when some revision defines it.
pub(crate) fn static_method_name(method: &str) -> Option<&'static str> {
    ALL_METHODS
        .iter()
        .find(|(name, _)| *name == method)
        .map(|(name, _)| *name)
}

/// The requests or the notifications one side sends in one revision, typed by method.
///
/// Generated for every revision: `ClientCall`, `ServerCall` (requests) and `ClientNotify`,
/// `ServerNotify` (notifications). Implemented by generated code only.
pub trait MethodSet: Sized {
    /// The revision the set belongs to (`"2025-06-18"`).
    const REVISION: &'static str;
    /// Who sends these methods.
    const SENDER: Direction;
    /// Requests or notifications.
    const KIND: MethodKind;
    /// Whether the revision allows JSON-RPC batches.
    const BATCHES: bool;

    /// Reads the params of `method` into its typed variant; an unknown method becomes the
    /// `Unknown` variant with its params kept as JSON.
    fn from_parts(method: &str, params: Option<&RawValue>) -> Result<Self, MessageError>;

    /// Whether `method` is one of the set's own methods (not `Unknown`).
    fn lists(method: &str) -> bool;

    /// Reads the params of one of the set's own methods (see [`MethodSet::lists`]) straight
    /// from the deserializer, in the same pass as the envelope.
    fn deserialize_params<'de, D: de::Deserializer<'de>>(
        method: &str,
        params: D,
    ) -> Result<Self, D::Error>;

    /// The method name.
    fn method(&self) -> &str;

    /// Writes the `params` member, when there are params.
    fn serialize_params<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;
}

/// What a peer sends, in one revision: requests `R`, notifications `N`, responses and errors.
///
/// Use the revision's aliases: `ClientMessage` (what a client sends, what a server reads) and
/// `ServerMessage`.
#[derive(Debug, Clone, PartialEq)]
pub enum Message<R, N> {
    /// A request, answered by a response with the same id.
    Request(RequestEnvelope<R>),
    /// A notification.
    Notification(NotificationEnvelope<N>),
    /// A successful response; its result is typed once the request it answers is known.
    Response(ResultResponse),
    /// An error response.
    Error(ErrorResponse),
    /// A JSON-RPC batch (2025-03-26 only).
    Batch(Vec<Message<R, N>>),
}

/// A request with its id.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestEnvelope<R> {
    /// The id the response will carry.
    pub id: RequestId,
    /// The method and its typed params.
    pub call: R,
    /// Envelope members JSON-RPC does not name, kept for the way back out.
    pub extra: Map<String, Value>,
}

/// A notification.
#[derive(Debug, Clone, PartialEq)]
pub struct NotificationEnvelope<N> {
    /// The method and its typed params.
    pub notification: N,
    /// Envelope members JSON-RPC does not name, kept for the way back out.
    pub extra: Map<String, Value>,
}

/// A successful response, with its result as the JSON the peer sent.
#[derive(Debug, Clone)]
pub struct ResultResponse {
    /// The id of the request it answers.
    pub id: RequestId,
    /// The result, unparsed until its type is known: see [`ResultResponse::result_as`].
    pub result: Box<RawValue>,
    /// Envelope members JSON-RPC does not name, kept for the way back out.
    pub extra: Map<String, Value>,
}

impl PartialEq for ResultResponse {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.result.get() == other.result.get() && self.extra == other.extra
    }
}

/// An error response.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorResponse {
    /// The id of the request it answers; `None` (JSON `null`) when the request could not be
    /// read far enough to know it.
    pub id: Option<RequestId>,
    /// What went wrong.
    pub error: RpcError,
    /// Envelope members JSON-RPC does not name, kept for the way back out.
    pub extra: Map<String, Value>,
}

impl<R: MethodSet, N: MethodSet> Message<R, N> {
    /// The method, for requests and notifications.
    pub fn method(&self) -> Option<&str> {
        match self {
            Message::Request(r) => Some(r.call.method()),
            Message::Notification(n) => Some(n.notification.method()),
            _ => None,
        }
    }

    /// Writes the message as JSON text (with [`crate::json::to_string`]: the bytes
    /// `serde_json::to_string` writes, sooner).
    pub fn to_json(&self) -> String {
        // Serializing these types cannot fail: every map key is a string.
        crate::json::to_string(self).unwrap_or_default()
    }
}

impl<R> RequestEnvelope<R> {
    /// A request with `id`.
    pub fn new(id: impl Into<RequestId>, call: R) -> Self {
        RequestEnvelope {
            id: id.into(),
            call,
            extra: Map::new(),
        }
    }
}

impl<R: MethodSet> RequestEnvelope<R> {
    /// Asks for progress notifications: puts `token` at `params._meta.progressToken`, creating
    /// `params` and `_meta` when absent. Fails when the method's params cannot carry it.
    pub fn with_progress_token(
        self,
        token: impl Into<ProgressToken>,
    ) -> Result<Self, MessageError> {
        let method = self.call.method().to_owned();
        let mut params = params_value(&self.call).unwrap_or_else(|| Value::Object(Map::new()));
        let Value::Object(object) = &mut params else {
            return Err(
                MessageError::new(MessageErrorKind::Params, "params is not an object")
                    .with_method(&method),
            );
        };
        let meta = object
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(meta) = meta else {
            return Err(
                MessageError::new(MessageErrorKind::Params, "`_meta` is not an object")
                    .with_method(&method)
                    .with_path("params._meta"),
            );
        };
        let token = match token.into() {
            ProgressToken::Integer(i) => Value::from(i),
            ProgressToken::String(s) => Value::from(s),
        };
        meta.insert("progressToken".into(), token);
        let raw = serde_json::value::to_raw_value(&params)
            .map_err(|e| MessageError::new(MessageErrorKind::Params, e.to_string()))?;
        Ok(RequestEnvelope {
            id: self.id,
            call: R::from_parts(&method, Some(&raw))?,
            extra: self.extra,
        })
    }
}

/// `{"params": ...}` of a call or notification (`{}` when it has none), as the set's own
/// params writer writes it.
pub(crate) struct ParamsOf<'a, R>(pub(crate) &'a R);

impl<R: MethodSet> Serialize for ParamsOf<'_, R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        self.0.serialize_params(&mut map)?;
        map.end()
    }
}

/// The `params` of `call` as JSON (`None` when it has none): written as text by the crate's
/// writer and read back, so that every caller shares the one writer of the set's params a
/// build has already (the one that sends them), rather than compile another into `Value`.
///
/// # Errors
///
/// What writing the params, or reading them back, said.
pub(crate) fn params_of<R: MethodSet>(call: &R) -> Result<Option<Value>, String> {
    let text = crate::json::to_string(&ParamsOf(call)).map_err(|e| e.to_string())?;
    let mut envelope: Map<String, Value> =
        crate::json::from_str(&text).map_err(|e| e.to_string())?;
    Ok(envelope.remove("params"))
}

fn params_value<R: MethodSet>(call: &R) -> Option<Value> {
    params_of(call).ok().flatten()
}

impl<N> NotificationEnvelope<N> {
    /// A notification.
    pub fn new(notification: N) -> Self {
        NotificationEnvelope {
            notification,
            extra: Map::new(),
        }
    }
}

impl ResultResponse {
    /// A response to `id` carrying `result`.
    pub fn new(
        id: impl Into<RequestId>,
        result: &impl Serialize,
    ) -> Result<Self, serde_json::Error> {
        Ok(ResultResponse {
            id: id.into(),
            result: serde_json::value::to_raw_value(result)?,
            extra: Map::new(),
        })
    }
}

impl ErrorResponse {
    /// An error response to `id`.
    pub fn new(id: impl Into<RequestId>, error: RpcError) -> Self {
        ErrorResponse {
            id: Some(id.into()),
            error,
            extra: Map::new(),
        }
    }

    /// The response to a message whose id could not be read (`"id": null`).
    pub fn without_id(error: RpcError) -> Self {
        ErrorResponse {
            id: None,
            error,
            extra: Map::new(),
        }
    }

    /// MCP's -32002 for `uri`, as the resources page of 2024-11-05 to 2025-11-25 shows it
    /// ([`RpcError::resource_not_found`]; for a peer of any revision,
    /// [`ErrorResponse::resource_not_found_for`]).
    pub fn resource_not_found(id: impl Into<RequestId>, uri: impl Into<String>) -> Self {
        ErrorResponse::new(id, RpcError::resource_not_found(uri))
    }

    /// "Resource not found" for `uri`, as `version`'s resources page shows it
    /// ([`RpcError::resource_not_found_for`]: -32602 from 2026-07-28, -32002 before).
    pub fn resource_not_found_for(
        version: &crate::ProtocolVersion,
        id: impl Into<RequestId>,
        uri: impl Into<String>,
    ) -> Self {
        ErrorResponse::new(id, RpcError::resource_not_found_for(version, uri))
    }

    /// The error's code.
    pub fn code(&self) -> ErrorCode {
        self.error.code
    }
}
