//! The `x-mcp-header` annotations of the tools a server listed, for the `Mcp-Param-*` headers
//! of the calls to them over Streamable HTTP.

use crate::collections::HashMap;
use crate::http_headers::{self, ToolHeaders};
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use serde_json::{Map, Value};

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

    pub(super) fn of(&self, tool: &str) -> Option<&ToolHeaders> {
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
