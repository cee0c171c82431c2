//! The HTTP headers each line goes with over Streamable HTTP: the body's facts mirrored where
//! the server's revision asks for them, and the `Mcp-Param-*` headers of the tools the server
//! listed.

use super::Client;
use crate::collections::HashMap;
use crate::http_headers::{self, ToolHeaders};
use crate::method::method_names as names;
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::version::PROTOCOL_VERSION_META_KEY;
use crate::ProtocolVersion;
use serde_json::{Map, Value};

/// The first revision with the `MCP-Protocol-Version` header (2025-06-18); the revisions
/// before it do not define it.
const FIRST_WITH_VERSION_HEADER: &str = "2025-06-18";

/// The `x-mcp-header` annotations of the tools the server listed, by tool name.
#[derive(Debug, Clone, Default)]
pub(super) struct ListedTools {
    headers: HashMap<String, ToolHeaders>,
}

impl ListedTools {
    /// At most this many tools' annotations are kept: a server listing more cannot grow the
    /// client without bound (a tool past it is called without its `Mcp-Param-*` headers).
    pub const MAX: usize = 4096;

    /// Takes note of the annotations of `tools`, as a `tools/list` page gives them. A tool
    /// whose annotations break the transport's rules is left without any: a client does not
    /// call it (see [`Client::http_headers`]).
    pub fn learn(&mut self, tools: &[latest::Tool]) {
        for tool in tools {
            // Most tools have no annotation: a look for the keyword, which allocates nothing,
            // spares them the full reading (which writes a JSON pointer per property).
            if !annotates(&tool.input_schema.extra) {
                self.headers.remove(&tool.name);
                continue;
            }
            match ToolHeaders::from_schema_members(&tool.input_schema.extra) {
                Ok(headers) if !headers.is_empty() => {
                    if self.headers.len() < Self::MAX || self.headers.contains_key(&tool.name) {
                        self.headers.insert(tool.name.clone(), headers);
                    }
                }
                _ => {
                    self.headers.remove(&tool.name);
                }
            }
        }
    }

    pub fn clear(&mut self) {
        self.headers.clear();
    }

    fn of(&self, tool: &str) -> Option<&ToolHeaders> {
        self.headers.get(tool)
    }
}

/// Whether a schema object with `members` has an `x-mcp-header` annotation anywhere in it.
fn annotates(members: &Map<String, Value>) -> bool {
    members
        .iter()
        .any(|(key, value)| key == http_headers::X_MCP_HEADER || mentions(value))
}

fn mentions(value: &Value) -> bool {
    match value {
        Value::Object(members) => annotates(members),
        Value::Array(items) => items.iter().any(mentions),
        _ => false,
    }
}

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
    /// ([`ToolHeaders::from_input_schema`]'s error) must not be called: the client leaves it
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
