//! The HTTP headers of the Streamable HTTP transport, and the rules that tie them to the body.
//!
//! From 2026-07-28 on, a client mirrors parts of each JSON-RPC request into HTTP headers so that
//! load balancers and gateways can route without parsing the body (the transport page,
//! [§Request Metadata](https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata),
//! from SEP-2243). A server that reads the body must reject a request whose headers disagree
//! with it, with `400 Bad Request` and the JSON-RPC error `-32020` (`HeaderMismatch`), since a
//! component routing on the header and one executing the body would otherwise act on two
//! different requests.
//!
//! - [`request_headers`] is the header set a client sends with a request;
//! - [`check`] is the server's comparison of the standard headers with the body;
//! - [`ToolHeaders`] reads a tool's `x-mcp-header` annotations: the `Mcp-Param-{Name}` headers
//!   a client adds to a `tools/call` ([`ToolHeaders::headers`]) and a server checks
//!   ([`ToolHeaders::check`]). A tool whose annotations break the spec's constraints is
//!   refused ([`InvalidToolHeader`]); a client leaves such a tool out of its `tools/list`;
//! - [`encode_value`] and [`decode_value`] are the `=?base64?…?=` value encoding.
//!
//! Nothing here depends on an HTTP library: received headers are read through a lookup
//! function, `impl Fn(&str) -> Option<&str>`, that finds a header by name case-insensitively
//! (as `http::HeaderMap::get` does); [`lookup`] makes one from a list of pairs. Leading and
//! trailing spaces and tabs of a received value are not part of it (RFC 9110 §5.5).
//!
//! ```
//! use mcp_spec_types::http_headers::{self, MCP_NAME};
//! use serde_json::json;
//!
//! let params = json!({
//!     "name": "get_weather",
//!     "_meta": { "io.modelcontextprotocol/protocolVersion": "2026-07-28" }
//! });
//! let sent = http_headers::request_headers("2026-07-28", "tools/call", Some(&params));
//! assert!(sent.contains(&(MCP_NAME.to_string(), "get_weather".to_string())));
//!
//! // The server compares what arrived with the body it parsed.
//! assert_eq!(http_headers::check("tools/call", Some(&params), http_headers::lookup(&sent)), Ok(()));
//!
//! let forged = [("mcp-method", "tools/call"), ("mcp-name", "delete_everything"),
//!               ("mcp-protocol-version", "2026-07-28")];
//! let error = http_headers::check("tools/call", Some(&params), http_headers::lookup(&forged)).unwrap_err();
//! assert_eq!(error.header(), MCP_NAME);
//! assert_eq!(error.to_rpc_error().code, mcp_spec_types::ErrorCode::HeaderMismatch);
//! ```

use crate::jsonrpc::{ErrorCode, RpcError};
use crate::version::PROTOCOL_VERSION_META_KEY;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// `MCP-Protocol-Version`: the protocol version of the request. From 2026-07-28 it must equal
/// `params._meta["io.modelcontextprotocol/protocolVersion"]`; in 2025-06-18 and 2025-11-25 it
/// carries the version negotiated by `initialize`.
pub const MCP_PROTOCOL_VERSION: &str = "MCP-Protocol-Version";
/// `Mcp-Method`: the request's `method`, on every request (2026-07-28).
pub const MCP_METHOD: &str = "Mcp-Method";
/// `Mcp-Name`: the name or URI the request acts on; see [`NameSource`] (2026-07-28).
pub const MCP_NAME: &str = "Mcp-Name";
/// The prefix of the headers a tool's `x-mcp-header` annotations ask for:
/// `Mcp-Param-{x-mcp-header value}` (2026-07-28).
pub const MCP_PARAM_PREFIX: &str = "Mcp-Param-";
/// `Mcp-Session-Id`: the session of the stateful revisions (2025-03-26 to 2025-11-25); a
/// 2026-07-28 server ignores it.
pub const MCP_SESSION_ID: &str = "Mcp-Session-Id";
/// `Last-Event-ID`: where a client resumes an SSE stream in the stateful revisions; a
/// 2026-07-28 server ignores it (its streams are not resumable).
pub const LAST_EVENT_ID: &str = "Last-Event-ID";
/// `Accept`: a client lists both [`ACCEPT_VALUE`] types on every POST.
pub const ACCEPT: &str = "Accept";
/// The `Accept` value of every POST: the server may answer with JSON or an SSE stream.
pub const ACCEPT_VALUE: &str = "application/json, text/event-stream";
/// `Content-Type`: a POST's body is one JSON-RPC message.
pub const CONTENT_TYPE: &str = "Content-Type";
/// The `Content-Type` of a POST's body.
pub const CONTENT_TYPE_JSON: &str = "application/json";
/// The HTTP status of a `HeaderMismatch` rejection.
pub const HEADER_MISMATCH_STATUS: u16 = 400;

/// The body member that `Mcp-Name` mirrors, which depends on the method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NameSource {
    /// `params.name`: `tools/call`, `prompts/get`.
    Name,
    /// `params.uri`: `resources/read`.
    Uri,
    /// `params.taskId`: `tasks/get`, `tasks/update`, `tasks/cancel` (the tasks extension,
    /// SEP-2663, extends the rule to them).
    TaskId,
}

impl NameSource {
    /// The source of `Mcp-Name` for `method`; `None` when the method sends no `Mcp-Name`.
    ///
    /// ```
    /// use mcp_spec_types::http_headers::NameSource;
    /// assert_eq!(NameSource::for_method("resources/read"), Some(NameSource::Uri));
    /// assert_eq!(NameSource::for_method("tools/list"), None);
    /// ```
    pub fn for_method(method: &str) -> Option<NameSource> {
        match method {
            "tools/call" | "prompts/get" => Some(NameSource::Name),
            "resources/read" => Some(NameSource::Uri),
            "tasks/get" | "tasks/update" | "tasks/cancel" => Some(NameSource::TaskId),
            _ => None,
        }
    }

    /// The member of `params` it reads: `name`, `uri` or `taskId`.
    pub fn member(self) -> &'static str {
        match self {
            NameSource::Name => "name",
            NameSource::Uri => "uri",
            NameSource::TaskId => "taskId",
        }
    }
}

/// The body value `Mcp-Name` mirrors for a request (`params` is the request's `params`), not
/// yet encoded; `None` when the method has no such value or the body lacks it.
pub fn mcp_name<'a>(method: &str, params: Option<&'a Value>) -> Option<&'a str> {
    let source = NameSource::for_method(method)?;
    params?.get(source.member())?.as_str()
}

/// The headers a client sends with a request of `method` with `params` under
/// `protocol_version`: `Content-Type`, `Accept`, `MCP-Protocol-Version`, `Mcp-Method` and,
/// when the method has one, `Mcp-Name` (encoded with [`encode_value`] when it is not a plain
/// header value). A `tools/call` also needs its tool's `Mcp-Param-*` headers:
/// [`ToolHeaders::headers`].
///
/// `protocol_version` should be the one in `params._meta` from 2026-07-28 on; the revisions
/// before ignore `Mcp-Method` and `Mcp-Name`, so the set suits them too.
pub fn request_headers(
    protocol_version: &str,
    method: &str,
    params: Option<&Value>,
) -> Vec<(String, String)> {
    let mut headers = vec![
        (CONTENT_TYPE.to_string(), CONTENT_TYPE_JSON.to_string()),
        (ACCEPT.to_string(), ACCEPT_VALUE.to_string()),
        (
            MCP_PROTOCOL_VERSION.to_string(),
            protocol_version.to_string(),
        ),
        (MCP_METHOD.to_string(), method.to_string()),
    ];
    if let Some(name) = mcp_name(method, params) {
        headers.push((MCP_NAME.to_string(), encode_value(name).into_owned()));
    }
    headers
}

/// A case-insensitive lookup in a list of `(name, value)` pairs, for [`check`] and
/// [`ToolHeaders::check`]. The first pair with the name wins.
pub fn lookup<'h, K: AsRef<str>, V: AsRef<str>>(
    pairs: &'h [(K, V)],
) -> impl Fn(&str) -> Option<&'h str> + 'h {
    move |name| {
        pairs
            .iter()
            .find(|(key, _)| key.as_ref().eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_ref())
    }
}

/// Checks the standard headers of a received request against its body: `method` and `params`
/// are the body's, `headers` finds a received header by name, case-insensitively.
///
/// - `Mcp-Method` must be present and equal `method` (values are case-sensitive);
/// - `Mcp-Name` must be present and equal the [`NameSource`] value, after
///   [decoding](decode_value), when the body has that value, and absent when it has none;
/// - `MCP-Protocol-Version` must be present and equal `params._meta`'s protocol version when
///   the body carries one. A body without one is not a header problem but a malformed request
///   (`-32602 Invalid params` in 2026-07-28), which this check leaves to the caller.
///
/// These headers are defined from 2026-07-28 on: a request of a stateful revision is not
/// checked with them. The first disagreement found is returned;
/// [`HeaderMismatch::to_rpc_error`] is the `-32020` error to answer with, under HTTP status
/// [`HEADER_MISMATCH_STATUS`]. A `tools/call` must also pass its tool's
/// [`ToolHeaders::check`].
pub fn check<'h>(
    method: &str,
    params: Option<&Value>,
    headers: impl Fn(&str) -> Option<&'h str>,
) -> Result<(), HeaderMismatch> {
    let body_version = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(PROTOCOL_VERSION_META_KEY))
        .and_then(Value::as_str);
    if let Some(version) = body_version {
        compare_plain(MCP_PROTOCOL_VERSION, version, headers(MCP_PROTOCOL_VERSION))?;
    }
    compare_plain(MCP_METHOD, method, headers(MCP_METHOD))?;
    let expected = mcp_name(method, params);
    let found = headers(MCP_NAME);
    compare_encoded(MCP_NAME, expected.map(Value::from).as_ref(), found)
}

/// A header that must carry `expected` verbatim (no value encoding applies to it).
fn compare_plain(header: &str, expected: &str, found: Option<&str>) -> Result<(), HeaderMismatch> {
    let Some(found) = found else {
        return Err(HeaderMismatch::new(
            header,
            Mismatch::Missing {
                expected: expected.to_string(),
            },
        ));
    };
    let found = trim_ows(found);
    if found == expected {
        Ok(())
    } else {
        Err(HeaderMismatch::new(
            header,
            Mismatch::Differs {
                expected: expected.to_string(),
                found: found.to_string(),
            },
        ))
    }
}

/// A header that may use the value encoding (`Mcp-Name`, `Mcp-Param-*`), against the body
/// value it mirrors (`None` or `null`: the body has none, so the header must be absent).
fn compare_encoded(
    header: &str,
    expected: Option<&Value>,
    found: Option<&str>,
) -> Result<(), HeaderMismatch> {
    let expected = expected.filter(|v| !v.is_null());
    let (expected, found) = match (expected, found) {
        (None, None) => return Ok(()),
        (Some(expected), None) => {
            return Err(HeaderMismatch::new(
                header,
                Mismatch::Missing {
                    expected: display_body_value(expected),
                },
            ))
        }
        (None, Some(found)) => {
            return Err(HeaderMismatch::new(
                header,
                Mismatch::Unexpected {
                    found: trim_ows(found).to_string(),
                },
            ))
        }
        (Some(expected), Some(found)) => (expected, trim_ows(found)),
    };
    let decoded = decode_value(found).map_err(|reason| {
        HeaderMismatch::new(
            header,
            Mismatch::Malformed {
                found: found.to_string(),
                reason,
            },
        )
    })?;
    if header_matches(&decoded, expected) {
        Ok(())
    } else {
        Err(HeaderMismatch::new(
            header,
            Mismatch::Differs {
                expected: display_body_value(expected),
                found: decoded.into_owned(),
            },
        ))
    }
}

/// Whether a decoded header value stands for the body value: strings compare exactly,
/// booleans as `true`/`false`, numbers numerically (the spec: `42.0` and `42` are equal).
fn header_matches(decoded: &str, body: &Value) -> bool {
    match body {
        Value::String(text) => decoded == text,
        Value::Bool(flag) => decoded == if *flag { "true" } else { "false" },
        Value::Number(number) => {
            if let (Ok(header), Some(body)) = (decoded.parse::<i64>(), number.as_i64()) {
                return header == body;
            }
            match (decoded.parse::<f64>(), number.as_f64()) {
                (Ok(header), Some(body)) => header.is_finite() && header == body,
                _ => false,
            }
        }
        _ => false,
    }
}

/// How a body value is named in an error message.
fn display_body_value(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// A received value without the optional whitespace HTTP allows around it.
fn trim_ows(value: &str) -> &str {
    value.trim_matches([' ', '\t'])
}

const SENTINEL_PREFIX: &str = "=?base64?";
const SENTINEL_SUFFIX: &str = "?=";

/// Whether `value` has the `=?base64?…?=` form (prefix and suffix not overlapping).
fn is_sentinel(value: &str) -> bool {
    value.len() >= SENTINEL_PREFIX.len() + SENTINEL_SUFFIX.len()
        && value.starts_with(SENTINEL_PREFIX)
        && value.ends_with(SENTINEL_SUFFIX)
}

/// Encodes a value for `Mcp-Name` or an `Mcp-Param-*` header (the transport page,
/// [§Value Encoding](https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#value-encoding)):
/// kept as it is when it is plain printable ASCII (0x20 to 0x7E) with no leading or trailing
/// space, otherwise `=?base64?{base64 of its UTF-8}?=`. A plain value that already looks like
/// that form is encoded too, so that it is not read as an encoded one. A tab is a control
/// character, so it is encoded wherever it is, though HTTP would carry one inside a value.
///
/// ```
/// use mcp_spec_types::http_headers::encode_value;
/// assert_eq!(encode_value("us-west1"), "us-west1");
/// assert_eq!(encode_value("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
/// assert_eq!(encode_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
/// assert_eq!(encode_value("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
/// ```
pub fn encode_value(value: &str) -> Cow<'_, str> {
    let plain = value.bytes().all(|b| (0x20..=0x7e).contains(&b))
        && !value.starts_with(' ')
        && !value.ends_with(' ')
        && !is_sentinel(value);
    if plain {
        Cow::Borrowed(value)
    } else {
        Cow::Owned(format!(
            "{SENTINEL_PREFIX}{}{SENTINEL_SUFFIX}",
            crate::blob::encode(value.as_bytes())
        ))
    }
}

/// Decodes a received `Mcp-Name` or `Mcp-Param-*` value (spaces and tabs around it already
/// removed): the `=?base64?…?=` form becomes the text it encodes, anything else is the value
/// itself. A value with a character a header value may not hold, base64 that is not strict
/// (RFC 4648 standard alphabet with padding, as [`blob::decode`](crate::blob::decode)
/// requires) or bytes that are not UTF-8 are refused.
///
/// ```
/// use mcp_spec_types::http_headers::decode_value;
/// assert_eq!(decode_value("=?base64?SGVsbG8=?=").unwrap(), "Hello");
/// assert_eq!(decode_value("SGVsbG8=").unwrap(), "SGVsbG8=");
/// assert!(decode_value("=?base64?SGVsbG8?=").is_err());
/// ```
pub fn decode_value(value: &str) -> Result<Cow<'_, str>, ValueError> {
    if let Some((offset, character)) = value
        .char_indices()
        .find(|&(_, c)| !(c == '\t' || (' '..='~').contains(&c)))
    {
        return Err(ValueError::InvalidCharacter { offset, character });
    }
    if !is_sentinel(value) {
        return Ok(Cow::Borrowed(value));
    }
    let encoded = &value[SENTINEL_PREFIX.len()..value.len() - SENTINEL_SUFFIX.len()];
    let bytes = crate::blob::decode(encoded).map_err(ValueError::Base64)?;
    String::from_utf8(bytes)
        .map(Cow::Owned)
        .map_err(|_| ValueError::NotUtf8)
}

/// Why a received header value could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValueError {
    /// A character outside visible ASCII, space and tab, at this byte offset.
    InvalidCharacter {
        /// The byte offset of the character.
        offset: usize,
        /// The character.
        character: char,
    },
    /// The `=?base64?…?=` form with text that is not strict base64.
    Base64(crate::blob::Base64Error),
    /// The `=?base64?…?=` form whose bytes are not UTF-8.
    NotUtf8,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::InvalidCharacter { offset, character } => {
                write!(f, "invalid character {character:?} at byte {offset}")
            }
            ValueError::Base64(error) => write!(f, "invalid base64: {error}"),
            ValueError::NotUtf8 => f.write_str("base64 value is not UTF-8"),
        }
    }
}

impl std::error::Error for ValueError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ValueError::Base64(error) => Some(error),
            _ => None,
        }
    }
}

/// A request whose headers disagree with its body: answered with `400 Bad Request` and the
/// JSON-RPC error `-32020` ([`ErrorCode::HeaderMismatch`]; the schema's `HeaderMismatchError`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderMismatch {
    header: String,
    mismatch: Mismatch,
}

/// What is wrong with the header a [`HeaderMismatch`] names.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mismatch {
    /// The body has a value the header must mirror, and the header is absent.
    Missing {
        /// The body's value.
        expected: String,
    },
    /// The header is present, and the body has no value for it.
    Unexpected {
        /// The header's value.
        found: String,
    },
    /// The header (decoded) and the body differ.
    Differs {
        /// The body's value.
        expected: String,
        /// The header's value, decoded.
        found: String,
    },
    /// The header's value could not be read.
    Malformed {
        /// The header's value as received.
        found: String,
        /// Why.
        reason: ValueError,
    },
}

impl HeaderMismatch {
    fn new(header: &str, mismatch: Mismatch) -> Self {
        HeaderMismatch {
            header: header.to_string(),
            mismatch,
        }
    }

    /// The header, as this module spells it (`Mcp-Name`, `Mcp-Param-Region`).
    pub fn header(&self) -> &str {
        &self.header
    }

    /// What is wrong with it.
    pub fn mismatch(&self) -> &Mismatch {
        &self.mismatch
    }

    /// The JSON-RPC error to answer with: code `-32020`, this error's text as the message.
    pub fn to_rpc_error(&self) -> RpcError {
        RpcError::new(ErrorCode::HeaderMismatch, self.to_string())
    }
}

impl fmt::Display for HeaderMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let header = &self.header;
        match &self.mismatch {
            Mismatch::Missing { expected } => write!(
                f,
                "Header mismatch: {header} header is missing (body value '{expected}')"
            ),
            Mismatch::Unexpected { found } => write!(
                f,
                "Header mismatch: {header} header value '{found}' has no body value"
            ),
            Mismatch::Differs { expected, found } => write!(
                f,
                "Header mismatch: {header} header value '{found}' does not match body value '{expected}'"
            ),
            Mismatch::Malformed { found, reason } => write!(
                f,
                "Header mismatch: {header} header value '{found}' is malformed: {reason}"
            ),
        }
    }
}

impl std::error::Error for HeaderMismatch {}

/// The annotation a tool's input schema puts on a property to have it mirrored in a header.
pub const X_MCP_HEADER: &str = "x-mcp-header";

/// The type of an annotated parameter: the spec allows only these three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParamType {
    /// `"type": "string"`: sent as it is.
    String,
    /// `"type": "integer"`: sent in decimal; values must be within ±(2^53 − 1).
    Integer,
    /// `"type": "boolean"`: sent as `true` or `false`.
    Boolean,
}

/// One `x-mcp-header` annotation of a tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    /// The annotation's value, `{Name}` of `Mcp-Param-{Name}`.
    pub name: String,
    /// The property names from the input schema's root to the annotated property.
    pub path: Vec<String>,
    /// The property's type.
    pub param_type: ParamType,
}

impl ParamHeader {
    /// The header's name: `Mcp-Param-{name}`.
    pub fn header_name(&self) -> String {
        format!("{MCP_PARAM_PREFIX}{}", self.name)
    }

    /// The argument value at [`path`](Self::path) in a call's `arguments`; `None` when absent
    /// or `null` (the header is then omitted).
    pub fn value<'a>(&self, arguments: Option<&'a Value>) -> Option<&'a Value> {
        let mut value = arguments?;
        for key in &self.path {
            value = value.get(key)?;
        }
        (!value.is_null()).then_some(value)
    }
}

/// The largest integer an annotated integer parameter may carry (2^53 − 1): the spec bounds
/// them to the range JavaScript numbers hold exactly.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// The `x-mcp-header` annotations of one tool's `inputSchema`, checked against the spec's
/// constraints (the transport page,
/// [§Custom Headers from Tool Parameters](https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#custom-headers-from-tool-parameters),
/// and the tools page, [§x-mcp-header](https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header)).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolHeaders {
    params: Vec<ParamHeader>,
}

/// A tool definition whose `x-mcp-header` annotations break the spec's constraints. A client
/// on Streamable HTTP must leave the tool out of what `tools/list` gives its user (and should
/// log this error with the tool's name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidToolHeader {
    /// Where the annotation is, as a JSON pointer into the input schema
    /// (`/properties/region`).
    pub pointer: String,
    /// What is wrong with it.
    pub reason: InvalidReason,
}

/// Which constraint an `x-mcp-header` annotation breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidReason {
    /// The annotation is not a string.
    NotAString,
    /// The annotation is the empty string.
    Empty,
    /// The annotation has a character an HTTP field name may not hold (RFC 9110 §5.1 `tchar`):
    /// a space, a colon, a control character, a non-ASCII character...
    InvalidCharacter(char),
    /// Another annotation has the same name, compared case-insensitively.
    Duplicate(String),
    /// The property's `type` is not `string`, `integer` or `boolean` (`number`, `object`,
    /// `array`, `null`, several of them, or none), each possibly with `"null"` beside it: the
    /// value found.
    NotPrimitive(Value),
    /// The annotation is not on a property reached from the root through `properties` alone
    /// (it is under `items`, `oneOf`, `$ref`'d definitions, or on the root itself).
    NotStaticallyReachable,
}

impl fmt::Display for InvalidToolHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x-mcp-header at {}: ", self.pointer)?;
        match &self.reason {
            InvalidReason::NotAString => f.write_str("not a string"),
            InvalidReason::Empty => f.write_str("empty"),
            InvalidReason::InvalidCharacter(c) => {
                write!(f, "{c:?} is not allowed in a header name")
            }
            InvalidReason::Duplicate(name) => {
                write!(
                    f,
                    "{name:?} is used by another parameter (case-insensitively)"
                )
            }
            InvalidReason::NotPrimitive(ty) => {
                write!(f, "type {ty} is not one of string, integer, boolean")
            }
            InvalidReason::NotStaticallyReachable => {
                f.write_str("not on a property reached through `properties` alone")
            }
        }
    }
}

impl std::error::Error for InvalidToolHeader {}

/// Why an argument cannot be sent in its `Mcp-Param-*` header.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamValueError {
    /// The header (`Mcp-Param-Region`).
    pub header: String,
    /// The argument, which does not have the parameter's type or is an integer out of the
    /// safe range.
    pub value: Value,
    /// The parameter's declared type.
    pub param_type: ParamType,
}

impl fmt::Display for ParamValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: argument {} is not a {:?} a header can carry",
            self.header, self.value, self.param_type
        )
    }
}

impl std::error::Error for ParamValueError {}

/// Schema keywords whose value is one subschema.
const SUBSCHEMA: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];
/// Schema keywords whose value is an array of subschemas.
const SUBSCHEMA_ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Schema keywords whose value maps names to subschemas (`properties` is handled apart).
const SUBSCHEMA_MAPS: &[&str] = &[
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
];

impl ToolHeaders {
    /// Reads and checks the annotations of a tool's `inputSchema`. Annotated properties may be
    /// nested (`properties` of `properties`), as the spec allows; every other place an
    /// annotation can hide in a schema (`items`, `oneOf`, `$defs`...) makes the tool invalid.
    ///
    /// ```
    /// use mcp_spec_types::http_headers::{InvalidReason, ToolHeaders};
    /// use serde_json::json;
    ///
    /// let headers = ToolHeaders::from_input_schema(&json!({
    ///     "type": "object",
    ///     "properties": { "region": { "type": "string", "x-mcp-header": "Region" } }
    /// })).unwrap();
    /// assert_eq!(headers.params()[0].header_name(), "Mcp-Param-Region");
    ///
    /// let invalid = ToolHeaders::from_input_schema(&json!({
    ///     "type": "object",
    ///     "properties": { "region": { "type": "string", "x-mcp-header": "My Region" } }
    /// })).unwrap_err();
    /// assert_eq!(invalid.reason, InvalidReason::InvalidCharacter(' '));
    /// ```
    pub fn from_input_schema(schema: &Value) -> Result<ToolHeaders, InvalidToolHeader> {
        let mut headers = ToolHeaders::default();
        let mut path = Vec::new();
        headers.walk(schema, "", Some(&mut path))?;
        Ok(headers)
    }

    /// The annotations, in the order `serde_json` keeps the property names.
    pub fn params(&self) -> &[ParamHeader] {
        &self.params
    }

    /// Whether the tool has no annotation.
    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
    }

    /// `reachable` is the property path when the schema at `pointer` is reached from the root
    /// through `properties` alone.
    fn walk(
        &mut self,
        schema: &Value,
        pointer: &str,
        reachable: Option<&mut Vec<String>>,
    ) -> Result<(), InvalidToolHeader> {
        let Value::Object(schema) = schema else {
            return Ok(());
        };
        let invalid = |reason| InvalidToolHeader {
            pointer: pointer.to_string(),
            reason,
        };
        let mut reachable = reachable;
        if let Some(annotation) = schema.get(X_MCP_HEADER) {
            match reachable.as_deref() {
                Some(path) if !path.is_empty() => {
                    let param = annotation_of(annotation, schema, path).map_err(invalid)?;
                    if let Some(other) = self
                        .params
                        .iter()
                        .find(|p| p.name.eq_ignore_ascii_case(&param.name))
                    {
                        return Err(invalid(InvalidReason::Duplicate(other.name.clone())));
                    }
                    self.params.push(param);
                }
                _ => return Err(invalid(InvalidReason::NotStaticallyReachable)),
            }
        }
        if let Some(Value::Object(properties)) = schema.get("properties") {
            for (name, property) in properties {
                let pointer = format!("{pointer}/properties/{}", escape_pointer(name));
                match reachable.as_deref_mut() {
                    Some(path) => {
                        path.push(name.clone());
                        let result = self.walk(property, &pointer, Some(path));
                        path.pop();
                        result?;
                    }
                    None => self.walk(property, &pointer, None)?,
                }
            }
        }
        for (keyword, value) in schema {
            let pointer = |suffix: &str| format!("{pointer}/{}{suffix}", escape_pointer(keyword));
            let keyword = keyword.as_str();
            if SUBSCHEMA.contains(&keyword) && value.is_object() {
                self.walk(value, &pointer(""), None)?;
            }
            if SUBSCHEMA_ARRAYS.contains(&keyword) {
                if let Value::Array(items) = value {
                    for (i, item) in items.iter().enumerate() {
                        self.walk(item, &pointer(&format!("/{i}")), None)?;
                    }
                }
            }
            if SUBSCHEMA_MAPS.contains(&keyword) {
                if let Value::Object(map) = value {
                    for (name, item) in map {
                        self.walk(item, &pointer(&format!("/{}", escape_pointer(name))), None)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The `Mcp-Param-*` headers of a call with these `arguments`, values encoded with
    /// [`encode_value`]; an argument that is absent or `null` sends no header.
    ///
    /// ```
    /// use mcp_spec_types::http_headers::ToolHeaders;
    /// use serde_json::json;
    ///
    /// let tool = ToolHeaders::from_input_schema(&json!({ "type": "object", "properties": {
    ///     "region": { "type": "string", "x-mcp-header": "Region" },
    ///     "priority": { "type": "integer", "x-mcp-header": "Priority" },
    ///     "verbose": { "type": "boolean", "x-mcp-header": "Verbose" } } })).unwrap();
    /// let headers = tool.headers(Some(&json!({ "region": "Hello, 世界", "priority": 42, "verbose": null }))).unwrap();
    /// assert_eq!(headers, [
    ///     ("Mcp-Param-Priority".to_string(), "42".to_string()),
    ///     ("Mcp-Param-Region".to_string(), "=?base64?SGVsbG8sIOS4lueVjA==?=".to_string()),
    /// ]);
    /// ```
    pub fn headers(
        &self,
        arguments: Option<&Value>,
    ) -> Result<Vec<(String, String)>, ParamValueError> {
        let mut headers = Vec::new();
        for param in &self.params {
            let Some(value) = param.value(arguments) else {
                continue;
            };
            let text = match (param.param_type, value) {
                (ParamType::String, Value::String(text)) => encode_value(text).into_owned(),
                (ParamType::Boolean, Value::Bool(flag)) => flag.to_string(),
                (ParamType::Integer, Value::Number(number)) => match safe_integer(number) {
                    Some(integer) => integer.to_string(),
                    None => return Err(param_value_error(param, value)),
                },
                _ => return Err(param_value_error(param, value)),
            };
            headers.push((param.header_name(), text));
        }
        Ok(headers)
    }

    /// Checks the received `Mcp-Param-*` headers of a `tools/call` against its `arguments`:
    /// each annotated argument that is present and not `null` needs its header, equal to it
    /// once [decoded](decode_value) (integers compare numerically); an argument that is absent
    /// or `null` must have no header. Headers of names the tool does not annotate are not
    /// looked at (the spec has them forwarded and ignored).
    pub fn check<'h>(
        &self,
        arguments: Option<&Value>,
        headers: impl Fn(&str) -> Option<&'h str>,
    ) -> Result<(), HeaderMismatch> {
        for param in &self.params {
            let header = param.header_name();
            compare_encoded(&header, param.value(arguments), headers(&header))?;
        }
        Ok(())
    }
}

fn param_value_error(param: &ParamHeader, value: &Value) -> ParamValueError {
    ParamValueError {
        header: param.header_name(),
        value: value.clone(),
        param_type: param.param_type,
    }
}

/// An integer within ±(2^53 − 1), written either way JSON allows (`42` or `42.0`).
fn safe_integer(number: &serde_json::Number) -> Option<i64> {
    let integer = match number.as_i64() {
        Some(integer) => integer,
        None => {
            let float = number.as_f64()?;
            if float.fract() != 0.0 || float.abs() > MAX_SAFE_INTEGER as f64 {
                return None;
            }
            float as i64
        }
    };
    (integer.abs() <= MAX_SAFE_INTEGER).then_some(integer)
}

/// One annotation on a property at `path`, checked by itself (uniqueness is the caller's).
fn annotation_of(
    annotation: &Value,
    property: &Map<String, Value>,
    path: &[String],
) -> Result<ParamHeader, InvalidReason> {
    let Value::String(name) = annotation else {
        return Err(InvalidReason::NotAString);
    };
    if name.is_empty() {
        return Err(InvalidReason::Empty);
    }
    if let Some(c) = name.chars().find(|&c| !is_tchar(c)) {
        return Err(InvalidReason::InvalidCharacter(c));
    }
    let ty = property.get("type");
    let not_primitive = || InvalidReason::NotPrimitive(ty.cloned().unwrap_or(Value::Null));
    let primitive = |name: &str| match name {
        "string" => Some(ParamType::String),
        "integer" => Some(ParamType::Integer),
        "boolean" => Some(ParamType::Boolean),
        _ => None,
    };
    let param_type = match ty {
        Some(Value::String(name)) => primitive(name).ok_or_else(not_primitive)?,
        // A nullable parameter (`["string", "null"]`) is still one of the three: its `null`
        // is the "value is null" case, whose header is omitted.
        Some(Value::Array(names)) => {
            let mut types = names.iter().filter(|n| n.as_str() != Some("null"));
            match (
                types.next().and_then(Value::as_str).and_then(primitive),
                types.next(),
            ) {
                (Some(param_type), None) => param_type,
                _ => return Err(not_primitive()),
            }
        }
        _ => return Err(not_primitive()),
    };
    Ok(ParamHeader {
        name: name.clone(),
        path: path.to_vec(),
        param_type,
    })
}

/// RFC 9110 §5.6.2 `tchar`: the characters of an HTTP token such as a field name.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// A name as a JSON pointer segment (RFC 6901).
fn escape_pointer(name: &str) -> Cow<'_, str> {
    if name.contains(['~', '/']) {
        Cow::Owned(name.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn meta_params(extra: Value) -> Value {
        let mut params = json!({ "_meta": { PROTOCOL_VERSION_META_KEY: "2026-07-28" } });
        if let (Value::Object(params), Value::Object(extra)) = (&mut params, extra) {
            params.extend(extra);
        }
        params
    }

    fn headers_of(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn name_source_follows_the_method() {
        let params = json!({ "name": "n", "uri": "file:///u", "taskId": "t" });
        assert_eq!(mcp_name("tools/call", Some(&params)), Some("n"));
        assert_eq!(mcp_name("prompts/get", Some(&params)), Some("n"));
        assert_eq!(mcp_name("resources/read", Some(&params)), Some("file:///u"));
        for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
            assert_eq!(mcp_name(method, Some(&params)), Some("t"));
        }
        assert_eq!(mcp_name("tools/list", Some(&params)), None);
        assert_eq!(mcp_name("resources/templates/list", Some(&params)), None);
        assert_eq!(mcp_name("tools/call", None), None);
    }

    #[test]
    fn request_headers_are_the_standard_set() {
        let params = meta_params(json!({ "uri": "file:///a b" }));
        let sent = request_headers("2026-07-28", "resources/read", Some(&params));
        assert_eq!(
            sent,
            headers_of(&[
                ("Content-Type", "application/json"),
                ("Accept", "application/json, text/event-stream"),
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "resources/read"),
                ("Mcp-Name", "file:///a b"),
            ])
        );
        let list = request_headers("2026-07-28", "tools/list", Some(&meta_params(json!({}))));
        assert!(!list.iter().any(|(k, _)| k == MCP_NAME));
        // A name outside the safe set travels encoded, and the check decodes it back.
        let params = meta_params(json!({ "name": "météo" }));
        let sent = request_headers("2026-07-28", "tools/call", Some(&params));
        assert_eq!(lookup(&sent)(MCP_NAME), Some("=?base64?bcOpdMOpbw==?="));
        assert_eq!(check("tools/call", Some(&params), lookup(&sent)), Ok(()));
    }

    #[test]
    fn check_accepts_any_name_case_and_whitespace_around_values() {
        let params = meta_params(json!({ "name": "my-hyphenated-tool" }));
        let received = [
            ("mcp-protocol-version", "2026-07-28"),
            ("MCP-METHOD", "  tools/call\t"),
            ("mCp-NaMe", " my-hyphenated-tool "),
        ];
        assert_eq!(
            check("tools/call", Some(&params), lookup(&received)),
            Ok(())
        );
    }

    #[test]
    fn check_rejects_each_disagreement() {
        let params = meta_params(json!({ "name": "greet" }));
        let good = [
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "greet"),
        ];
        let with = |name: &str, value: Option<&str>| -> Result<(), HeaderMismatch> {
            let mut pairs: Vec<(&str, &str)> =
                good.iter().copied().filter(|(k, _)| *k != name).collect();
            if let Some(value) = value {
                pairs.push((name, value));
            }
            check("tools/call", Some(&params), lookup(&pairs))
        };
        assert_eq!(with("Mcp-Name", Some("greet")), Ok(()));

        let error = with("Mcp-Method", Some("TOOLS/CALL")).unwrap_err();
        assert_eq!(error.header(), MCP_METHOD);
        assert_eq!(
            error.mismatch(),
            &Mismatch::Differs {
                expected: "tools/call".into(),
                found: "TOOLS/CALL".into()
            }
        );
        assert!(matches!(
            with("Mcp-Method", None).unwrap_err().mismatch(),
            Mismatch::Missing { .. }
        ));
        let error = with("Mcp-Name", Some("wrong_tool_name")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "Header mismatch: Mcp-Name header value 'wrong_tool_name' does not match body value 'greet'"
        );
        let rpc = error.to_rpc_error();
        assert_eq!(rpc.code.code(), -32020);
        assert_eq!(rpc.message, error.to_string());
        assert_eq!(with("Mcp-Name", None).unwrap_err().header(), MCP_NAME);
        let error = with("MCP-Protocol-Version", Some("2025-11-25")).unwrap_err();
        assert_eq!(error.header(), MCP_PROTOCOL_VERSION);
        assert_eq!(
            with("MCP-Protocol-Version", None).unwrap_err().header(),
            MCP_PROTOCOL_VERSION
        );
        // A bad base64 Mcp-Name is malformed, not silently taken literally.
        assert!(matches!(
            with("Mcp-Name", Some("=?base64?Z3JlZXQ?="))
                .unwrap_err()
                .mismatch(),
            Mismatch::Malformed { .. }
        ));
        assert_eq!(with("Mcp-Name", Some("=?base64?Z3JlZXQ=?=")), Ok(()));
    }

    #[test]
    fn check_wants_no_name_where_the_body_has_none() {
        let params = meta_params(json!({}));
        let received = [
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
            ("Mcp-Name", "anything"),
        ];
        let error = check("tools/list", Some(&params), lookup(&received)).unwrap_err();
        assert_eq!(
            error.mismatch(),
            &Mismatch::Unexpected {
                found: "anything".into()
            }
        );
    }

    #[test]
    fn check_leaves_a_body_without_version_to_the_caller() {
        // No protocol version in `_meta`: an invalid-params problem, not a header one.
        let params = json!({ "_meta": {} });
        let received = [
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ];
        assert_eq!(
            check("tools/list", Some(&params), lookup(&received)),
            Ok(())
        );
        let received = [("Mcp-Method", "tools/list")];
        assert_eq!(check("tools/list", None, lookup(&received)), Ok(()));
    }

    #[test]
    fn encoding_follows_the_spec_table() {
        assert_eq!(encode_value("us-west1"), "us-west1");
        assert_eq!(encode_value("us west 1"), "us west 1");
        assert_eq!(encode_value(""), "");
        assert_eq!(encode_value("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(encode_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode_value(" us-west1"), "=?base64?IHVzLXdlc3Qx?=");
        assert_eq!(encode_value("us-west1 "), "=?base64?dXMtd2VzdDEg?=");
        assert_eq!(encode_value("\tindented"), "=?base64?CWluZGVudGVk?=");
        assert_eq!(
            encode_value("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
        // Too short for prefix and suffix both: a plain value.
        assert_eq!(encode_value("=?base64?="), "=?base64?=");
        for value in [
            "Hello, 世界",
            "line1\r\nline2",
            " x",
            "=?base64?x?=",
            "a\tb",
        ] {
            assert_eq!(decode_value(&encode_value(value)).unwrap(), value);
        }
    }

    #[test]
    fn decoding_is_strict() {
        assert_eq!(decode_value("=?base64?SGVsbG8=?=").unwrap(), "Hello");
        assert!(matches!(
            decode_value("=?base64?SGVsbG8?="),
            Err(ValueError::Base64(_))
        ));
        assert!(matches!(
            decode_value("=?base64?SGVs!!!bG8=?="),
            Err(ValueError::Base64(_))
        ));
        assert_eq!(decode_value("=?base64?/w==?="), Err(ValueError::NotUtf8));
        assert_eq!(
            decode_value("a\u{1}b"),
            Err(ValueError::InvalidCharacter {
                offset: 1,
                character: '\u{1}'
            })
        );
        assert!(decode_value("é").is_err());
        // Without the whole sentinel the value is literal.
        assert_eq!(
            decode_value("=?base64?SGVsbG8=").unwrap(),
            "=?base64?SGVsbG8="
        );
        assert_eq!(decode_value("SGVsbG8=?=").unwrap(), "SGVsbG8=?=");
    }

    fn custom_tool() -> ToolHeaders {
        ToolHeaders::from_input_schema(&json!({
            "type": "object",
            "properties": {
                "region": { "type": "string", "x-mcp-header": "Region" },
                "priority": { "type": "integer", "x-mcp-header": "Priority" },
                "verbose": { "type": "boolean", "x-mcp-header": "Verbose" },
                "method_val": { "type": "string", "x-mcp-header": "Method" },
                "float_val": { "type": "number" },
                "query": { "type": "string" },
                "target": { "type": "object", "properties": {
                    "zone": { "type": "string", "x-mcp-header": "Zone" }
                } }
            }
        }))
        .unwrap()
    }

    #[test]
    fn custom_headers_mirror_annotated_arguments_only() {
        let tool = custom_tool();
        assert_eq!(tool.params().len(), 5);
        let zone = tool.params().iter().find(|p| p.name == "Zone").unwrap();
        assert_eq!(zone.path, ["target", "zone"]);
        let arguments = json!({
            "region": "us-west1", "priority": 42, "verbose": false, "method_val": "test-method",
            "float_val": 2.5, "query": "SELECT * FROM users", "target": { "zone": "b" }
        });
        let sent = tool.headers(Some(&arguments)).unwrap();
        assert_eq!(
            sent,
            headers_of(&[
                ("Mcp-Param-Method", "test-method"),
                ("Mcp-Param-Priority", "42"),
                ("Mcp-Param-Region", "us-west1"),
                ("Mcp-Param-Zone", "b"),
                ("Mcp-Param-Verbose", "false"),
            ])
        );
        assert_eq!(tool.check(Some(&arguments), lookup(&sent)), Ok(()));

        let sparse = json!({ "region": "us-east1", "verbose": null });
        let sent = tool.headers(Some(&sparse)).unwrap();
        assert_eq!(sent, headers_of(&[("Mcp-Param-Region", "us-east1")]));
        assert_eq!(tool.check(Some(&sparse), lookup(&sent)), Ok(()));
    }

    #[test]
    fn custom_headers_refuse_values_a_header_cannot_carry() {
        let tool = custom_tool();
        for arguments in [
            json!({ "priority": 1.5 }),
            json!({ "priority": 9007199254740992i64 }),
            json!({ "priority": "42" }),
            json!({ "verbose": "yes" }),
            json!({ "region": 7 }),
        ] {
            assert!(tool.headers(Some(&arguments)).is_err(), "{arguments}");
        }
        assert_eq!(
            tool.headers(Some(&json!({ "priority": -9007199254740991i64 })))
                .unwrap(),
            headers_of(&[("Mcp-Param-Priority", "-9007199254740991")])
        );
        assert_eq!(
            tool.headers(Some(&json!({ "priority": 42.0 }))).unwrap(),
            headers_of(&[("Mcp-Param-Priority", "42")])
        );
    }

    #[test]
    fn custom_header_check_compares_decoded_and_numeric() {
        let tool = custom_tool();
        let arguments = json!({ "region": "Hello", "priority": 42 });
        let ok = |pairs: &[(&str, &str)]| tool.check(Some(&arguments), lookup(pairs));
        assert_eq!(
            ok(&[
                ("Mcp-Param-Region", "=?base64?SGVsbG8=?="),
                ("Mcp-Param-Priority", "42.0")
            ]),
            Ok(())
        );
        let error = ok(&[("Mcp-Param-Priority", "42")]).unwrap_err();
        assert_eq!(error.header(), "Mcp-Param-Region");
        assert!(matches!(error.mismatch(), Mismatch::Missing { .. }));
        let error = ok(&[
            ("Mcp-Param-Region", "=?base64?SGVsbG8?="),
            ("Mcp-Param-Priority", "42"),
        ])
        .unwrap_err();
        assert!(matches!(error.mismatch(), Mismatch::Malformed { .. }));
        let error = ok(&[("Mcp-Param-Region", "Hello"), ("Mcp-Param-Priority", "43")]).unwrap_err();
        assert_eq!(error.header(), "Mcp-Param-Priority");
        let error = ok(&[
            ("Mcp-Param-Region", "Hello"),
            ("Mcp-Param-Priority", "42"),
            ("Mcp-Param-Verbose", "true"),
        ])
        .unwrap_err();
        assert!(matches!(error.mismatch(), Mismatch::Unexpected { .. }));
        // A header the tool does not annotate is not the server's business.
        assert_eq!(
            ok(&[
                ("Mcp-Param-Region", "Hello"),
                ("Mcp-Param-Priority", "42"),
                ("Mcp-Param-Other", "x"),
            ]),
            Ok(())
        );
    }

    #[test]
    fn invalid_annotations_name_their_constraint() {
        let reason = |property: Value| {
            ToolHeaders::from_input_schema(
                &json!({ "type": "object", "properties": { "p": property } }),
            )
            .unwrap_err()
            .reason
        };
        assert_eq!(
            reason(json!({ "type": "string", "x-mcp-header": "" })),
            InvalidReason::Empty
        );
        assert_eq!(
            reason(json!({ "type": "string", "x-mcp-header": 1 })),
            InvalidReason::NotAString
        );
        for (name, bad) in [
            ("My Region", ' '),
            ("Region:Primary", ':'),
            ("Région", 'é'),
            ("Region\t1", '\t'),
        ] {
            assert_eq!(
                reason(json!({ "type": "string", "x-mcp-header": name })),
                InvalidReason::InvalidCharacter(bad)
            );
        }
        for ty in [
            json!("object"),
            json!("array"),
            json!("null"),
            json!("number"),
            json!(["string", "integer"]),
            json!(["null"]),
            json!([]),
        ] {
            assert_eq!(
                reason(json!({ "type": ty, "x-mcp-header": "P" })),
                InvalidReason::NotPrimitive(ty.clone())
            );
        }
        let nullable = ToolHeaders::from_input_schema(&json!({ "type": "object", "properties": {
            "p": { "type": ["null", "integer"], "x-mcp-header": "P" } } }))
        .unwrap();
        assert_eq!(nullable.params()[0].param_type, ParamType::Integer);
        assert_eq!(nullable.headers(Some(&json!({ "p": null }))), Ok(vec![]));
        assert_eq!(
            reason(json!({ "x-mcp-header": "P" })),
            InvalidReason::NotPrimitive(Value::Null)
        );

        let duplicate = |a: &str, b: &str| {
            ToolHeaders::from_input_schema(&json!({ "type": "object", "properties": {
                "field1": { "type": "string", "x-mcp-header": a },
                "field2": { "type": "string", "x-mcp-header": b } } }))
        };
        assert_eq!(
            duplicate("Region", "Region").unwrap_err().reason,
            InvalidReason::Duplicate("Region".into())
        );
        let error = duplicate("MyField", "myfield").unwrap_err();
        assert_eq!(error.pointer, "/properties/field2");
        assert_eq!(error.reason, InvalidReason::Duplicate("MyField".into()));
    }

    #[test]
    fn annotations_off_the_properties_chain_are_invalid() {
        let schemas = [
            json!({ "type": "object", "x-mcp-header": "Root" }),
            json!({ "type": "object", "properties": { "list": { "type": "array",
                "items": { "type": "string", "x-mcp-header": "Item" } } } }),
            json!({ "type": "object", "properties": { "choice": {
                "oneOf": [ { "type": "string", "x-mcp-header": "Choice" } ] } } }),
            json!({ "type": "object", "$defs": { "r": { "type": "string", "x-mcp-header": "R" } },
                "properties": { "r": { "$ref": "#/$defs/r" } } }),
            json!({ "type": "object", "if": { "properties": {
                "a": { "type": "string", "x-mcp-header": "A" } } } }),
        ];
        let pointers = [
            "",
            "/properties/list/items",
            "/properties/choice/oneOf/0",
            "/$defs/r",
            "/if/properties/a",
        ];
        for (schema, pointer) in schemas.iter().zip(pointers) {
            let error = ToolHeaders::from_input_schema(schema).unwrap_err();
            assert_eq!(
                error.reason,
                InvalidReason::NotStaticallyReachable,
                "{schema}"
            );
            assert_eq!(error.pointer, pointer);
        }
        // Values that merely look like annotations (a default, an example) are data.
        let tool = ToolHeaders::from_input_schema(&json!({ "type": "object", "properties": {
            "o": { "type": "object", "default": { "x-mcp-header": "NotOne" } } } }))
        .unwrap();
        assert!(tool.is_empty());
    }
}
