//! A response whose request is known, read in one pass with its result typed.

use super::{ErrorResponse, Message, MethodSet, ResultResponse};
use crate::error::{MessageError, MessageErrorKind};
use crate::jsonrpc::RequestId;
use crate::method::{Direction, MethodKind};
use crate::prelude::*;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The answer to one request whose result type is known: its typed result, or an error.
///
/// [`Reply::parse`] reads the envelope and the result in one pass, through the crate's reader,
/// where `Message::parse` keeps a result raw until [`ResultResponse::result_of`] reads it again.
/// Use it where a line is known to be the response (a client awaiting the answer to its own
/// request on an HTTP response body); use `Message::parse` where the line may be anything.
///
/// ```
/// # #[cfg(feature = "v2025_06_18")] {
/// use mcp_spec_types::dispatch::Reply;
/// use mcp_spec_types::v2025_06_18::ListResourcesResult;
///
/// let text = r#"{"jsonrpc":"2.0","id":7,"result":{"resources":[{"uri":"file:///a","name":"a"}]}}"#;
/// let Reply::Result(response) = Reply::<ListResourcesResult>::parse(text)? else {
///     panic!("a result")
/// };
/// assert_eq!(response.id, 7.into());
/// assert_eq!(response.result.resources[0].name, "a");
/// # }
/// # Ok::<(), mcp_spec_types::MessageError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Reply<T> {
    /// A successful response, its result read as `T`.
    Result(TypedResult<T>),
    /// An error response.
    Error(ErrorResponse),
}

/// A successful response with its result read as `T`.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedResult<T> {
    /// The id of the request it answers.
    pub id: RequestId,
    /// The result.
    pub result: T,
    /// Envelope members JSON-RPC does not name, kept for the way back out.
    pub extra: Map<String, Value>,
}

impl<T: DeserializeOwned> Reply<T> {
    /// Reads one response from JSON text, its result as `T`.
    ///
    /// # Errors
    ///
    /// What [`Message::parse`] and [`ResultResponse::result_as`] return for the same text: a
    /// JSON error, an envelope error (a request or notification is an envelope error here, as
    /// is a batch), or a result error with the JSON path of the member that is not a `T`.
    pub fn parse(text: &str) -> Result<Self, MessageError> {
        let seed = ReplySeed::<T>(PhantomData);
        if let Some(Some(reply)) = crate::__private::seed_without_fallback(text, seed) {
            return Ok(reply);
        }
        // Anything but a plain response (an error response, `jsonrpc` written with escapes,
        // a request) and every failure: the envelope first, then the result, as `Message`
        // reads them, for the same error.
        if text
            .trim_start_matches([' ', '\t', '\n', '\r'])
            .starts_with('[')
        {
            return Err(MessageError::new(
                MessageErrorKind::Envelope,
                "a batch is not one response",
            ));
        }
        match Message::<NotAResponse, NotAResponse>::parse(text)? {
            Message::Response(response) => Ok(Reply::Result(TypedResult {
                result: response.result_as()?,
                id: response.id,
                extra: response.extra,
            })),
            Message::Error(error) => Ok(Reply::Error(error)),
            // `NotAResponse` has no value: requests, notifications and batches fail above.
            Message::Request(_) | Message::Notification(_) | Message::Batch(_) => Err(
                MessageError::new(MessageErrorKind::Envelope, "not a response"),
            ),
        }
    }

    /// Reads one response from bytes, which must be UTF-8 (see [`Reply::parse`]).
    ///
    /// # Errors
    ///
    /// As [`Reply::parse`], and a JSON error for bytes that are not UTF-8.
    pub fn parse_slice(bytes: &[u8]) -> Result<Self, MessageError> {
        Self::parse(super::parse::utf8(bytes)?)
    }
}

impl<T: Serialize> Reply<T> {
    /// Writes the response as JSON text (the bytes `serde_json::to_string` writes).
    ///
    /// # Errors
    ///
    /// The error of `T`'s own `Serialize` implementation, if it fails.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        crate::json::to_string(self)
    }
}

impl<T: Serialize> Serialize for Reply<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Reply::Result(response) => {
                let mut map = serializer.serialize_map(None)?;
                map.serialize_entry("jsonrpc", "2.0")?;
                map.serialize_entry("id", &response.id)?;
                map.serialize_entry("result", &response.result)?;
                for (key, value) in &response.extra {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
            Reply::Error(error) => error.serialize(serializer),
        }
    }
}

impl<T> From<TypedResult<T>> for Reply<T> {
    fn from(response: TypedResult<T>) -> Self {
        Reply::Result(response)
    }
}

impl<T: Serialize> TryFrom<TypedResult<T>> for ResultResponse {
    type Error = serde_json::Error;
    /// The same response with its result as raw JSON, as `Message` holds it.
    fn try_from(response: TypedResult<T>) -> Result<Self, serde_json::Error> {
        let mut raw = ResultResponse::new(response.id, &response.result)?;
        raw.extra = response.extra;
        Ok(raw)
    }
}

/// The one-pass reading: `None` for anything but a plain result response, which the two-step
/// path then reads (and explains, when it is not a response at all).
struct ReplySeed<T>(PhantomData<T>);

impl<'de, T: DeserializeOwned> de::DeserializeSeed<'de> for ReplySeed<T> {
    type Value = Option<Reply<T>>;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, T: DeserializeOwned> Visitor<'de> for ReplySeed<T> {
    type Value = Option<Reply<T>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC response object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut jsonrpc: Option<&RawValue> = None;
        let mut id: Option<&RawValue> = None;
        let mut result: Option<T> = None;
        let mut extra = Map::new();
        let mut plain = true;
        while let Some(key) = map.next_key_seed(crate::__private::CowStr)? {
            use crate::__private::read_member as read;
            match &*key {
                "jsonrpc" => read(&mut jsonrpc, &mut map, "jsonrpc")?,
                "id" => read(&mut id, &mut map, "id")?,
                "result" => read(&mut result, &mut map, "result")?,
                // Not a plain result response: the two-step path reads and judges it.
                "method" | "params" | "error" => {
                    plain = false;
                    map.next_value::<de::IgnoredAny>()?;
                }
                _ => {
                    let value = map.next_value()?;
                    extra.insert(key.into_owned(), value);
                }
            }
        }
        let (Some(jsonrpc), Some(id), Some(result), true) = (jsonrpc, id, result, plain) else {
            return Ok(None);
        };
        if jsonrpc.get() != "\"2.0\"" {
            return Ok(None);
        }
        let Ok(id) = crate::json::from_str_strict::<RequestId>(id.get()) else {
            return Ok(None);
        };
        Ok(Some(Reply::Result(TypedResult { id, result, extra })))
    }
}

/// No method at all: read as requests or notifications, every message that has a method is
/// refused, so `Message::<NotAResponse, NotAResponse>` reads exactly the responses.
#[derive(Debug)]
enum NotAResponse {}

impl MethodSet for NotAResponse {
    const REVISION: &'static str = "any";
    // Neither side sends a request or notification a reply may be: the values are never read,
    // since `from_parts` refuses every method first.
    const SENDER: Direction = Direction::ClientToServer;
    const KIND: MethodKind = MethodKind::Request;
    const BATCHES: bool = false;

    fn from_parts(method: &str, _params: Option<&RawValue>) -> Result<Self, MessageError> {
        Err(MessageError::new(
            MessageErrorKind::Envelope,
            format!("expected a response, found a message with method {method}"),
        )
        .with_method(method))
    }

    fn lists(_method: &str) -> bool {
        false
    }

    fn deserialize_params<'de, D: de::Deserializer<'de>>(
        method: &str,
        _params: D,
    ) -> Result<Self, D::Error> {
        Err(de::Error::custom(format_args!(
            "expected a response, found a message with method {method}"
        )))
    }

    fn method(&self) -> &str {
        match *self {}
    }

    fn serialize_params<M: SerializeMap>(&self, _map: &mut M) -> Result<(), M::Error> {
        match *self {}
    }
}
