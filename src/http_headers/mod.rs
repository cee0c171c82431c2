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
use crate::prelude::*;
use crate::version::PROTOCOL_VERSION_META_KEY;
use alloc::borrow::Cow;
use core::fmt;
use serde_json::{Map, Value};

mod encoding;
mod params;

pub use encoding::{decode_value, encode_value, ValueError};
pub use params::{
    InvalidReason, InvalidToolHeader, ParamHeader, ParamType, ParamValueError, ToolHeaders,
    MAX_SAFE_INTEGER, X_MCP_HEADER,
};

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

impl core::error::Error for HeaderMismatch {}
