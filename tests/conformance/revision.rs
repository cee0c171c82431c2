//! One interface over the revision modules, so each check is written once: parse a message as
//! a client or a server sends it, type a result by its request's method, round-trip a value
//! through the type of a schema definition.

use mcp_spec_types::{Direction, MessageError, MethodKind};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Request,
    Notification,
    Response,
    Error,
    Batch,
}

/// A message as the crate read it, and written back.
#[derive(Debug)]
pub struct Parsed {
    pub kind: Kind,
    pub method: Option<String>,
    /// The request or notification came out as the `Unknown` variant.
    pub unknown: bool,
    /// `serde_json::to_value(&message)`.
    pub back: Value,
    /// The raw `result` of a response.
    pub result: Option<Box<RawValue>>,
}

/// A typed result, written back, and whether it is the `Unknown` variant.
pub type TypedResult = Result<(Value, bool), MessageError>;

pub trait Revision: 'static {
    /// The revision as the specification names it (`2025-06-18`, `draft`).
    const NAME: &'static str;
    fn direction(method: &str) -> Option<Direction>;
    fn method_kind(method: &str) -> Option<MethodKind>;
    /// `ClientMessage::parse`.
    fn parse_client(text: &str) -> Result<Parsed, MessageError>;
    /// `ServerMessage::parse`.
    fn parse_server(text: &str) -> Result<Parsed, MessageError>;
    /// `ClientCallResult::parse`: the result of a request the client sends.
    fn client_call_result(method: &str, raw: &RawValue) -> TypedResult;
    /// `ServerCallResult::parse`: the result of a request the server sends.
    fn server_call_result(method: &str, raw: &RawValue) -> TypedResult;
    /// The value read as the Rust type of schema definition `definition` and written back;
    /// `None` when the definition table has no such definition.
    fn roundtrip(definition: &str, value: Value) -> Option<Result<Value, String>>;
    /// The docs tables of the revision.
    fn tables() -> crate::tables::Tables;
    /// Reads `BlobResourceContents` and decodes its `blob` (`BlobResourceContents::bytes`).
    fn blob_bytes(value: Value) -> Result<Result<Vec<u8>, mcp_spec_types::Base64Error>, String>;
}

/// Reads `value` as `T` (with the JSON path of a failure) and writes it back.
pub fn roundtrip_as<T: DeserializeOwned + Serialize>(value: Value) -> Result<Value, String> {
    let parsed: T = serde_path_to_error::deserialize(value)
        .map_err(|e| format!("at {}: {}", e.path(), e.inner()))?;
    serde_json::to_value(&parsed).map_err(|e| format!("serializing: {e}"))
}

pub fn summarize<R, N>(
    message: mcp_spec_types::dispatch::Message<R, N>,
    unknown_call: fn(&R) -> bool,
    unknown_notify: fn(&N) -> bool,
) -> Parsed
where
    R: mcp_spec_types::dispatch::MethodSet,
    N: mcp_spec_types::dispatch::MethodSet,
{
    use mcp_spec_types::dispatch::Message;
    let back = serde_json::to_value(&message).expect("a message serializes");
    let (kind, method, unknown, result) = match &message {
        Message::Request(r) => (
            Kind::Request,
            Some(r.call.method().to_owned()),
            unknown_call(&r.call),
            None,
        ),
        Message::Notification(n) => (
            Kind::Notification,
            Some(n.notification.method().to_owned()),
            unknown_notify(&n.notification),
            None,
        ),
        Message::Response(r) => (Kind::Response, None, false, Some(r.result.clone())),
        Message::Error(_) => (Kind::Error, None, false, None),
        Message::Batch(_) => (Kind::Batch, None, false, None),
    };
    Parsed {
        kind,
        method,
        unknown,
        back,
        result,
    }
}

macro_rules! revision {
    ($feature:literal, $module:ident, $name:literal, $ty:ident) => {
        #[cfg(feature = $feature)]
        pub struct $ty;

        #[cfg(feature = $feature)]
        impl Revision for $ty {
            const NAME: &'static str = $name;

            fn direction(method: &str) -> Option<Direction> {
                mcp_spec_types::$module::Method::known(method).and_then(|m| m.direction())
            }

            fn method_kind(method: &str) -> Option<MethodKind> {
                mcp_spec_types::$module::Method::known(method).and_then(|m| m.kind())
            }

            fn parse_client(text: &str) -> Result<Parsed, MessageError> {
                use mcp_spec_types::$module::{ClientCall, ClientMessage, ClientNotify};
                ClientMessage::parse(text).map(|m| {
                    summarize(
                        m,
                        |c| matches!(c, ClientCall::Unknown { .. }),
                        |n| matches!(n, ClientNotify::Unknown { .. }),
                    )
                })
            }

            fn parse_server(text: &str) -> Result<Parsed, MessageError> {
                use mcp_spec_types::$module::{ServerCall, ServerMessage, ServerNotify};
                ServerMessage::parse(text).map(|m| {
                    summarize(
                        m,
                        |c| matches!(c, ServerCall::Unknown { .. }),
                        |n| matches!(n, ServerNotify::Unknown { .. }),
                    )
                })
            }

            fn client_call_result(method: &str, raw: &RawValue) -> TypedResult {
                use mcp_spec_types::$module::ClientCallResult;
                ClientCallResult::parse(
                    &mcp_spec_types::dispatch::PendingRequest::without_task(method),
                    raw,
                )
                .map(|r| {
                    let unknown = matches!(r, ClientCallResult::Unknown(_));
                    (
                        serde_json::to_value(&r).expect("a result serializes"),
                        unknown,
                    )
                })
            }

            fn server_call_result(method: &str, raw: &RawValue) -> TypedResult {
                use mcp_spec_types::$module::ServerCallResult;
                ServerCallResult::parse(
                    &mcp_spec_types::dispatch::PendingRequest::without_task(method),
                    raw,
                )
                .map(|r| {
                    let unknown = matches!(r, ServerCallResult::Unknown(_));
                    (
                        serde_json::to_value(&r).expect("a result serializes"),
                        unknown,
                    )
                })
            }

            fn roundtrip(definition: &str, value: Value) -> Option<Result<Value, String>> {
                crate::common::definitions::$module::roundtrip(definition, value)
            }

            fn tables() -> crate::tables::Tables {
                crate::tables::$module::tables()
            }

            fn blob_bytes(
                value: Value,
            ) -> Result<Result<Vec<u8>, mcp_spec_types::Base64Error>, String> {
                serde_json::from_value::<mcp_spec_types::$module::BlobResourceContents>(value)
                    .map(|blob| blob.bytes())
                    .map_err(|e| e.to_string())
            }
        }
    };
}

revision!("v2024_11_05", v2024_11_05, "2024-11-05", V2024_11_05);
revision!("v2025_03_26", v2025_03_26, "2025-03-26", V2025_03_26);
revision!("v2025_06_18", v2025_06_18, "2025-06-18", V2025_06_18);
revision!("v2025_11_25", v2025_11_25, "2025-11-25", V2025_11_25);
revision!("v2026_07_28", v2026_07_28, "2026-07-28", V2026_07_28);
revision!("unstable-draft", draft, "draft", Draft);
