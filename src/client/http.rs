//! The HTTP headers each line goes with over Streamable HTTP: the body's facts mirrored where
//! the server's revision asks for them, and the `Mcp-Param-*` headers of the tools the server
//! listed.

use super::Client;
use crate::http_headers;
use crate::method::method_names as names;
use crate::prelude::*;
use crate::version::PROTOCOL_VERSION_META_KEY;
use crate::ProtocolVersion;
use serde_json::{Map, Value};

/// The first revision with the `MCP-Protocol-Version` header (2025-06-18); the revisions
/// before it do not define it.
const FIRST_WITH_VERSION_HEADER: &str = "2025-06-18";

impl Client {
    /// The HTTP headers to POST `line` with over Streamable HTTP, `line` being one this client
    /// gave ([`Client::start`], [`Client::request`], [`Client::respond`] or an
    /// [`Event::Send`](super::Event::Send)), besides the session's `Mcp-Session-Id`, which is
    /// the transport's:
    /// - always `Content-Type` and `Accept` (JSON and an event stream);
    /// - a request of a stateless revision (2026-07-28 on): `MCP-Protocol-Version`,
    ///   `Mcp-Method` and, where the method has one, `Mcp-Name`, as the body says them; for a
    ///   `tools/call`, the `Mcp-Param-*` headers the tool's `x-mcp-header` annotations ask
    ///   for, as the server's last `tools/list` gave them (an argument the header cannot carry
    ///   leaves them out: the server then refuses the call with `HeaderMismatch`);
    /// - any other line to a server of 2025-06-18 or 2025-11-25 once connected: the
    ///   negotiated `MCP-Protocol-Version` (the revisions before it have no such header).
    ///
    /// A tool whose annotations break the transport's rules
    /// ([`ToolHeaders::from_input_schema`](crate::http_headers::ToolHeaders::from_input_schema)'s error) must not be called: the client leaves it
    /// out of what it offers, and this gives it no `Mcp-Param-*` header.
    pub fn http_headers(&self, line: &str) -> Vec<(String, String)> {
        let message = crate::json::from_str::<Map<String, Value>>(line).unwrap_or_default();
        let method = message.get("method").and_then(Value::as_str);
        let params = message.get("params");
        let stateless_version = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(PROTOCOL_VERSION_META_KEY))
            .and_then(Value::as_str);
        if let (Some(method), Some(version), true) =
            (method, stateless_version, message.contains_key("id"))
        {
            let mut headers = http_headers::request_headers(version, method, params);
            if method == names::CALL_TOOL_REQUEST {
                headers.extend(self.param_headers(params));
            }
            return headers;
        }
        let mut headers = vec![
            (
                http_headers::CONTENT_TYPE.to_string(),
                http_headers::CONTENT_TYPE_JSON.to_string(),
            ),
            (
                http_headers::ACCEPT.to_string(),
                http_headers::ACCEPT_VALUE.to_string(),
            ),
        ];
        if let Some(version) = self.version().filter(|v| has_version_header(v)) {
            headers.push((
                http_headers::MCP_PROTOCOL_VERSION.to_string(),
                version.as_str().to_string(),
            ));
        }
        headers
    }

    /// The `Mcp-Param-*` headers of a `tools/call` with `params`.
    fn param_headers(&self, params: Option<&Value>) -> Vec<(String, String)> {
        let tool = params.and_then(|p| p.get("name")).and_then(Value::as_str);
        let Some(headers) = tool.and_then(|tool| self.tools.of(tool)) else {
            return Vec::new();
        };
        let arguments = params.and_then(|p| p.get("arguments"));
        headers.headers(arguments).unwrap_or_default()
    }
}

/// Whether a stateful session in `version` sends `MCP-Protocol-Version` (dates compare as
/// text).
fn has_version_header(version: &ProtocolVersion) -> bool {
    version.as_str() >= FIRST_WITH_VERSION_HEADER
}
