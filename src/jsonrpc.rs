//! The JSON-RPC 2.0 envelope, shared by every revision: ids, progress tokens, error codes and
//! error objects.

use crate::prelude::*;
use crate::version::ProtocolVersion;
use core::fmt;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

/// A request id: a string or an integer, kept exactly as the peer sent it.
///
/// One type for every revision. When a revision's schema bounds it (a `maxLength`, a
/// `pattern`), the bound is checked where that revision's types read it as a member, so it
/// never reaches a revision that does not state it.
///
/// ```
/// use mcp_spec_types::RequestId;
/// let id: RequestId = serde_json::from_str("7").unwrap();
/// assert_eq!(id, RequestId::from(7));
/// assert_eq!(serde_json::to_string(&RequestId::from("a")).unwrap(), r#""a""#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RequestId {
    /// An integer id.
    Integer(i64),
    /// A string id.
    String(String),
}

/// A progress token: a string or an integer chosen by the requester, echoed in
/// `notifications/progress`.
///
/// One type for every revision. When a revision's schema bounds it (a `maxLength`, a
/// `pattern`), the bound is checked where that revision's types read it as a member, so it
/// never reaches a revision that does not state it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProgressToken {
    /// An integer token.
    Integer(i64),
    /// A string token.
    String(String),
}

macro_rules! string_or_integer {
    ($ty:ident, $what:literal) => {
        impl From<i64> for $ty {
            fn from(value: i64) -> Self {
                $ty::Integer(value)
            }
        }
        impl From<&str> for $ty {
            fn from(value: &str) -> Self {
                $ty::String(value.to_owned())
            }
        }
        impl From<String> for $ty {
            fn from(value: String) -> Self {
                $ty::String(value)
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $ty::Integer(i) => write!(f, "{i}"),
                    $ty::String(s) => write!(f, "{s:?}"),
                }
            }
        }
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    $ty::Integer(i) => serializer.serialize_i64(*i),
                    $ty::String(s) => serializer.serialize_str(s),
                }
            }
        }
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str($what)
                    }
                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$ty, E> {
                        Ok($ty::Integer(v))
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$ty, E> {
                        i64::try_from(v).map($ty::Integer).map_err(|_| {
                            E::invalid_value(
                                de::Unexpected::Unsigned(v),
                                &"an integer that fits in 64 signed bits",
                            )
                        })
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$ty, E> {
                        Ok($ty::String(v.to_owned()))
                    }
                    fn visit_string<E: de::Error>(self, v: String) -> Result<$ty, E> {
                        Ok($ty::String(v))
                    }
                }
                deserializer.deserialize_any(V)
            }
        }
    };
}

string_or_integer!(RequestId, "a string or integer request id");
string_or_integer!(ProgressToken, "a string or integer progress token");

/// An opaque pagination cursor, as sent in `nextCursor` and `params.cursor`.
///
/// One type for every revision. When a revision's schema bounds it (a `maxLength`, a
/// `pattern`), the bound is checked where that revision's types read it as a member, so it
/// never reaches a revision that does not state it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Cursor(pub String);

impl Cursor {
    /// The cursor's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A cursor reads as its text: `params.cursor.as_deref()` is an `Option<&str>`.
impl core::ops::Deref for Cursor {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Cursor {
    fn from(value: &str) -> Self {
        Cursor(value.to_owned())
    }
}

impl From<String> for Cursor {
    fn from(value: String) -> Self {
        Cursor(value)
    }
}

impl From<Cursor> for String {
    fn from(value: Cursor) -> Self {
        value.0
    }
}

macro_rules! error_codes {
    ($( $(#[$doc:meta])* $name:ident = $code:literal, $message:literal; )*) => {
        /// A JSON-RPC error code: the standard ones, MCP's, and any other integer.
        ///
        /// ```
        /// use mcp_spec_types::ErrorCode;
        /// assert_eq!(ErrorCode::from(-32002), ErrorCode::ResourceNotFound);
        /// assert_eq!(ErrorCode::ResourceNotFound.code(), -32002);
        /// assert_eq!(ErrorCode::from(-1), ErrorCode::Other(-1));
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $( $(#[$doc])* $name, )*
            /// Any other code; never one of the named codes (conversions normalize).
            Other(i64),
        }

        impl ErrorCode {
            /// Every named code.
            pub const NAMED: &'static [ErrorCode] = &[$(ErrorCode::$name),*];

            /// The integer on the wire.
            pub fn code(self) -> i64 {
                match self {
                    $( ErrorCode::$name => $code, )*
                    ErrorCode::Other(code) => code,
                }
            }

            /// The message the specifications use for this code, if it is a named one.
            pub fn default_message(self) -> Option<&'static str> {
                match self {
                    $( ErrorCode::$name => Some($message), )*
                    ErrorCode::Other(_) => None,
                }
            }
        }

        impl From<i64> for ErrorCode {
            fn from(code: i64) -> Self {
                match code {
                    $( $code => ErrorCode::$name, )*
                    other => ErrorCode::Other(other),
                }
            }
        }
    };
}

error_codes! {
    /// -32700: the message is not valid JSON.
    ParseError = -32700, "Parse error";
    /// -32600: the JSON is not a valid request object.
    InvalidRequest = -32600, "Invalid Request";
    /// -32601: the method does not exist or is not available.
    MethodNotFound = -32601, "Method not found";
    /// -32602: invalid method parameters.
    InvalidParams = -32602, "Invalid params";
    /// -32603: internal JSON-RPC error.
    InternalError = -32603, "Internal error";
    /// -32001: authentication required (the name the seed OCaml library uses).
    AuthenticationRequired = -32001, "Authentication required";
    /// -32002: the resource does not exist (MCP resources).
    ResourceNotFound = -32002, "Resource not found";
    /// -32020: HTTP headers disagree with the request body (2026-07-28).
    HeaderMismatch = -32020, "Header mismatch";
    /// -32021: the request needs a client capability the client did not declare (2026-07-28).
    MissingRequiredClientCapability = -32021, "Missing required client capability";
    /// -32022: the server does not support the requested protocol version (2026-07-28).
    UnsupportedProtocolVersion = -32022, "Unsupported protocol version";
    /// -32042: the request needs a URL-mode elicitation first (2025-11-25).
    UrlElicitationRequired = -32042, "URL elicitation required";
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.default_message() {
            Some(message) => write!(f, "{} ({message})", self.code()),
            None => write!(f, "{}", self.code()),
        }
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i64(self.code())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        i64::deserialize(deserializer).map(ErrorCode::from)
    }
}

/// The `error` member of a JSON-RPC error response.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// What went wrong.
    pub code: ErrorCode,
    /// A short description.
    pub message: String,
    /// Details defined by the sender.
    pub data: Option<Value>,
    /// Members JSON-RPC does not name, kept so that what was read is written back unchanged.
    pub extra: Map<String, Value>,
}

impl RpcError {
    /// An error with `code` and `message`.
    pub fn new(code: impl Into<ErrorCode>, message: impl Into<String>) -> Self {
        RpcError {
            code: code.into(),
            message: message.into(),
            data: None,
            extra: Map::new(),
        }
    }

    /// An error with a named code's usual message.
    pub fn from_code(code: ErrorCode) -> Self {
        let message = code.default_message().unwrap_or("Error");
        RpcError::new(code, message)
    }

    /// Sets `data`.
    #[must_use]
    pub fn with_data(mut self, data: impl Into<Value>) -> Self {
        self.data = Some(data.into());
        self
    }

    /// MCP's "resource not found" as the resources page of 2024-11-05 to 2025-11-25 shows it:
    /// `{"code": -32002, "message": "Resource not found", "data": {"uri": ...}}`.
    ///
    /// From 2026-07-28 the code is -32602 and -32002 is reserved, never reused (SEP-2164): a
    /// server answering more than one revision builds it with
    /// [`RpcError::resource_not_found_for`].
    pub fn resource_not_found(uri: impl Into<String>) -> Self {
        Self::resource_not_found_with(ErrorCode::ResourceNotFound, uri.into())
    }

    /// MCP's "resource not found" for a peer of `version`, as that revision's resources page
    /// shows it: -32002 up to 2025-11-25; from 2026-07-28, -32602 (Invalid params), with the
    /// same message and `data.uri`. A version the crate does not know is placed by its date.
    ///
    /// ```
    /// use mcp_spec_types::{ErrorCode, ProtocolVersion, RpcError};
    /// let old = RpcError::resource_not_found_for(&ProtocolVersion::V2025_11_25, "file:///a");
    /// assert_eq!(old.code, ErrorCode::ResourceNotFound);
    /// let new = RpcError::resource_not_found_for(&ProtocolVersion::V2026_07_28, "file:///a");
    /// assert_eq!(new.code, ErrorCode::InvalidParams);
    /// assert_eq!(new.message, "Resource not found");
    /// ```
    pub fn resource_not_found_for(version: &ProtocolVersion, uri: impl Into<String>) -> Self {
        // The revision whose resources page replaced -32002 (SEP-2164).
        let replaced_in = ProtocolVersion::V2026_07_28;
        let replaced = match version {
            ProtocolVersion::Unknown(date) => date.as_str() >= replaced_in.as_str(),
            known => *known >= replaced_in,
        };
        let code = if replaced {
            ErrorCode::InvalidParams
        } else {
            ErrorCode::ResourceNotFound
        };
        Self::resource_not_found_with(code, uri.into())
    }

    fn resource_not_found_with(code: ErrorCode, uri: String) -> Self {
        let mut data = Map::new();
        data.insert("uri".into(), Value::String(uri));
        let message = ErrorCode::ResourceNotFound
            .default_message()
            .unwrap_or("Resource not found");
        RpcError::new(code, message).with_data(Value::Object(data))
    }

    /// -32601 for `method`, with the method in `data`.
    pub fn method_not_found(method: &str) -> Self {
        let mut data = Map::new();
        data.insert("method".into(), Value::String(method.to_owned()));
        RpcError::from_code(ErrorCode::MethodNotFound).with_data(Value::Object(data))
    }

    /// -32602 with a message saying what is wrong.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        RpcError::new(ErrorCode::InvalidParams, message)
    }
}

impl Serialize for RpcError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("code", &self.code)?;
        map.serialize_entry("message", &self.message)?;
        if let Some(data) = &self.data {
            map.serialize_entry("data", data)?;
        }
        for (k, v) in &self.extra {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for RpcError {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RpcError;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON-RPC error object")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<RpcError, A::Error> {
                let mut code = None;
                let mut message = None;
                let mut data = None;
                let mut extra = Map::new();
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "code" => crate::__private::read_member(&mut code, &mut map, "code")?,
                        "message" => {
                            crate::__private::read_member(&mut message, &mut map, "message")?
                        }
                        "data" => crate::__private::read_member(&mut data, &mut map, "data")?,
                        _ => {
                            let value = map.next_value()?;
                            extra.insert(key, value);
                        }
                    }
                }
                Ok(RpcError {
                    code: crate::__private::required(code, "code")?,
                    message: crate::__private::required(message, "message")?,
                    data,
                    extra,
                })
            }
        }
        deserializer.deserialize_map(V)
    }
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.code(), self.message)
    }
}

impl core::error::Error for RpcError {}

#[cfg(feature = "schemars")]
mod json_schema {
    use alloc::borrow::Cow;
    use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

    macro_rules! schema {
        ($ty:ty, $name:literal, $schema:tt) => {
            impl JsonSchema for $ty {
                fn schema_name() -> Cow<'static, str> {
                    Cow::Borrowed($name)
                }
                fn schema_id() -> Cow<'static, str> {
                    Cow::Borrowed(concat!("mcp_spec_types::", $name))
                }
                fn json_schema(_: &mut SchemaGenerator) -> Schema {
                    json_schema!($schema)
                }
            }
        };
    }

    schema!(super::RequestId, "RequestId", {"type": ["string", "integer"]});
    schema!(super::ProgressToken, "ProgressToken", {"type": ["string", "integer"]});
    schema!(super::Cursor, "Cursor", {"type": "string"});
}
