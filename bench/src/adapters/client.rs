//! The crate's sans-IO client engine (`mcp_spec_types::client::Client`) reading W1–W4 as the
//! answer to its own request, as a client built on the engine reads it: connected to a server
//! of 2026-07-28, the engine's own revision, with the request in flight.
//!
//! The workloads are 2025-06-18 responses; a 2026-07-28 server writes the same result with
//! the three members that revision requires of it (`resultType`, `ttlMs`, `cacheScope`), about
//! 60 bytes more, which the engine reads here. Two lines per workload:
//! - the envelope's members in the order servers write them (`jsonrpc`, `id`, `result`): the
//!   engine knows the request from the id before it reaches the result, and types the result
//!   in the same pass;
//! - the result before the id: the engine cannot know the result's type while reading it, so
//!   it reads the line through its general path (the envelope with the result kept raw, the
//!   result read in the server's revision, then converted to 2026-07-28), which every
//!   response took before the one-pass read.
//!
//! Each pass answers a copy of the connected engine (its state: two short strings, the
//! capabilities, one request in flight), so that every pass answers a request in flight.

use mcp_spec_types::client::{Client, Event};
use mcp_spec_types::v2026_07_28 as latest;
use serde_json::{json, Value};

/// An engine with one request in flight, and its answer as a 2026-07-28 server writes it.
#[derive(Debug, Clone)]
pub struct Answering {
    client: Client,
    line: String,
}

/// The request each workload answers.
#[derive(Debug, Clone, Copy)]
pub enum Asked {
    /// `resources/list` (W1).
    ListResources,
    /// `resources/read` (W2, W3).
    ReadResource,
    /// `tools/list` (W4).
    ListTools,
}

impl Answering {
    /// An engine connected in 2026-07-28 that sent `asked`, and `doc`'s result as its answer:
    /// the id before the result when `id_first`, else after it.
    pub fn new(doc: &str, asked: Asked, id_first: bool) -> Result<Self, String> {
        let mut client = Client::new(latest::Implementation::new("bench", "1"));
        let discover = client.start().ok_or("the client speaks no revision")?;
        let discover: Value = serde_json::from_str(&discover).map_err(|e| e.to_string())?;
        let discovered = json!({
            "jsonrpc": "2.0",
            "id": discover["id"],
            "result": {
                "supportedVersions": ["2026-07-28"],
                "capabilities": {"resources": {}, "tools": {}},
                "resultType": "complete", "ttlMs": 0, "cacheScope": "private"
            }
        });
        match client.receive(&discovered.to_string()).as_slice() {
            [Event::Connected(v)] if v.as_str() == "2026-07-28" => {}
            other => return Err(format!("not connected: {other:?}")),
        }
        let meta = client.meta();
        let call = match asked {
            Asked::ListResources => {
                latest::ClientCall::ListResources(latest::PaginatedRequestParams::new(meta))
            }
            Asked::ReadResource => latest::ClientCall::ReadResource(
                latest::ReadResourceRequestParams::new("file:///bench", meta),
            ),
            Asked::ListTools => {
                latest::ClientCall::ListTools(latest::PaginatedRequestParams::new(meta))
            }
        };
        let (id, _) = client.request(call).map_err(|e| e.to_string())?;
        let mut response: Value = serde_json::from_str(doc).map_err(|e| e.to_string())?;
        let Some(result) = response["result"].as_object_mut() else {
            return Err("the workload is not a result response".to_owned());
        };
        result.insert("resultType".into(), "complete".into());
        result.insert("ttlMs".into(), 0.into());
        result.insert("cacheScope".into(), "private".into());
        let result = Value::Object(result.clone());
        let id = serde_json::to_string(&id).map_err(|e| e.to_string())?;
        let line = match id_first {
            true => format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#),
            false => format!(r#"{{"result":{result},"jsonrpc":"2.0","id":{id}}}"#),
        };
        Ok(Answering { client, line })
    }

    /// The line the engine reads.
    pub fn line(&self) -> &str {
        &self.line
    }

    /// Whether the engine's answer is the result it read, member for member.
    pub fn check(&self) -> Result<(), String> {
        let answered = self.receive()?;
        let answered = serde_json::to_value(&answered).map_err(|e| e.to_string())?;
        let sent: Value = serde_json::from_str(&self.line).map_err(|e| e.to_string())?;
        match answered == sent["result"] {
            true => Ok(()),
            false => Err("the engine's answer is not the result it read".to_owned()),
        }
    }

    /// What the engine makes of the answer: the result of its request, typed in 2026-07-28.
    pub fn receive(&self) -> Result<latest::ClientCallResult, String> {
        let mut client = self.client.clone();
        match client.receive(&self.line).pop() {
            Some(Event::Answer { result, .. }) => result.map_err(|e| format!("{e:?}")),
            other => Err(format!("not an answer: {other:?}")),
        }
    }
}
