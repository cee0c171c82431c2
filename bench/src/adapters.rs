//! One adapter per implementation and workload: how a workload's JSON is parsed into that
//! implementation's typed values, how it is written back, and how the figures the checks
//! compare are read back out of the typed fields.
//!
//! W1–W4 are responses whose `result` type is known from the request (`resources/list`,
//! `resources/read`, `tools/list`). Each implementation reads them the way its users do:
//! - mcp-spec-types: `dispatch::Reply::<R>::parse`, the crate's typed response read (the entry
//!   point a client calls once it knows which request a response answers), with `R` =
//!   `v2025_06_18::{ListResourcesResult, ReadResourceResult, ListToolsResult}`: one pass
//!   through the crate's own reader.
//! - rmcp: its own generic `rmcp::model::JsonRpcResponse<R>` (validates `"jsonrpc":"2.0"`),
//!   with `R` = `rmcp::model::{ListResourcesResult, ReadResourceResult, ListToolsResult}`.
//! - rust-mcp-schema: its `JsonrpcResponse` carries an untyped `Result`, and its
//!   `schema_utils::ServerJsonrpcResponse` parses `result` into a `serde_json::Value` first and
//!   then tries the untagged `ServerResult` union; the bench reads one pass into its own
//!   [`Envelope`] with rust-mcp-schema's `RequestId` and typed result
//!   (`mcp_2025_06_18::{ListResourcesResult, ReadResourceResult, ListToolsResult}`).
//! - sonic-rs (a reader, not a peer): `sonic_rs::from_str` into the same [`Envelope`] holding
//!   mcp-spec-types' own `RequestId` and result types (see [`sonic`]).
//!
//! W5 parses every line as the implementation's top-level message type for the line's
//! sender (see each module's `parse_w5`).

pub mod client;
pub mod sonic;

use crate::stats::{ReadStats, W1Stats, W4Stats};
use crate::workloads::{Label, Sender};
use serde::{Deserialize, Serialize};

/// The JSON-RPC version member, checked on the way in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonRpc2;

impl Serialize for JsonRpc2 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str("2.0")
    }
}

impl<'de> Deserialize<'de> for JsonRpc2 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = JsonRpc2;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"2.0\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<JsonRpc2, E> {
                if v == "2.0" {
                    Ok(JsonRpc2)
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Str(v), &self))
                }
            }
        }
        d.deserialize_str(V)
    }
}

/// A response envelope with a typed result, for crates whose own response type has an
/// untyped result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Envelope<Id, R> {
    pub jsonrpc: JsonRpc2,
    pub id: Id,
    pub result: R,
}

fn de<T: serde::de::DeserializeOwned>(s: &str) -> Result<T, String> {
    serde_json::from_str(s).map_err(|e| e.to_string())
}

/// How the peers write their values: `serde_json::to_string` (neither has a writer of its own).
pub fn serde_write<T: Serialize>(v: &T) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| e.to_string())
}

// =============================================================================================
// mcp-spec-types (this crate)
// =============================================================================================
pub mod project {
    use super::{Label, ReadStats, Sender, Serialize, W1Stats, W4Stats};
    use mcp_spec_types::dispatch::{Message, Reply, TypedResult};
    use mcp_spec_types::v2025_06_18 as mcp;

    pub type W1 = Reply<mcp::ListResourcesResult>;
    pub type Read = Reply<mcp::ReadResourceResult>;
    pub type W4 = Reply<mcp::ListToolsResult>;

    /// The crate's typed response read, `Reply::<R>::parse`: the envelope and the result in
    /// one pass through the crate's reader. An error response is an error here (the workloads
    /// are results).
    fn reply<R: serde::de::DeserializeOwned>(text: &str) -> Result<Reply<R>, String> {
        match Reply::<R>::parse(text).map_err(|e| e.to_string())? {
            Reply::Error(e) => Err(format!("an error response: {e:?}")),
            result => Ok(result),
        }
    }

    /// W1 as a program reads a generated type with serde: `mcp_spec_types::json::from_str`
    /// into the bench's [`Envelope`](super::Envelope) around the generated result (the
    /// envelope rust-mcp-schema's adapter reads with serde_json). Timed by `examples/ratio.rs`.
    pub fn parse_w1_from_str(s: &str) -> Result<FromStrW1, String> {
        mcp_spec_types::json::from_str(s).map_err(|e| e.to_string())
    }
    /// W2/W3 read as [`parse_w1_from_str`] reads W1.
    pub fn parse_read_from_str(s: &str) -> Result<FromStrRead, String> {
        mcp_spec_types::json::from_str(s).map_err(|e| e.to_string())
    }
    /// What [`parse_w1_from_str`] reads.
    pub type FromStrW1 = super::Envelope<mcp_spec_types::RequestId, mcp::ListResourcesResult>;
    /// What [`parse_read_from_str`] reads.
    pub type FromStrRead = super::Envelope<mcp_spec_types::RequestId, mcp::ReadResourceResult>;

    /// The same read in two passes, as before `Reply`: `ServerMessage::parse` (the envelope,
    /// the result kept as checked raw JSON), then `ResultResponse::result_for::<Q>()` (the
    /// result read again as request `Q`'s result type). Timed by `examples/ratio.rs` only.
    fn two_passes<Q: mcp_spec_types::Request>(text: &str) -> Result<Reply<Q::Result>, String> {
        match mcp::ServerMessage::parse(text).map_err(|e| e.to_string())? {
            Message::Response(r) => Ok(Reply::Result(TypedResult {
                result: r.result_for::<Q>().map_err(|e| e.to_string())?,
                id: r.id,
                extra: r.extra,
            })),
            other => Err(format!("not a result response: {:?}", other.method())),
        }
    }

    /// The generic read of a gateway or validator that keeps the requests it saw pending:
    /// `ServerMessage::parse_answering::<ClientCall>` with the workload's request pending under
    /// its id, the result typed as that request's in the same pass as the envelope (the
    /// `ClientCallResult` arm taken out after). Timed by `examples/ratio.rs` only.
    fn generic<Q: mcp_spec_types::Request>(
        text: &str,
        id: i64,
        arm: fn(mcp::ClientCallResult) -> Option<Q::Result>,
    ) -> Result<Reply<Q::Result>, String> {
        use mcp_spec_types::dispatch::{Parsed, PendingRequest, PendingRequests};
        let mut pending = PendingRequests::new();
        let request = PendingRequest::without_task(Q::METHOD);
        let id = mcp_spec_types::RequestId::from(id);
        pending.insert(mcp_spec_types::Direction::ClientToServer, id, request);
        match mcp::ServerMessage::parse_answering::<mcp::ClientCall>(text, &mut pending) {
            Ok(Parsed::Answer {
                id, result, extra, ..
            }) => Ok(Reply::Result(TypedResult {
                result: arm(result).ok_or("another request's result")?,
                id,
                extra,
            })),
            Ok(other) => Err(format!("not an answer: {other:?}")),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The generic read in two passes, as a gateway read before `parse_answering`:
    /// `ServerMessage::parse` (the result kept as checked raw JSON), then
    /// `ClientCallResult::parse` with the request looked up. Timed by `examples/ratio.rs` only.
    fn generic_two_passes<Q: mcp_spec_types::Request>(
        text: &str,
        arm: fn(mcp::ClientCallResult) -> Option<Q::Result>,
    ) -> Result<Reply<Q::Result>, String> {
        use mcp_spec_types::dispatch::PendingRequest;
        match mcp::ServerMessage::parse(text).map_err(|e| e.to_string())? {
            Message::Response(r) => {
                let request = PendingRequest::without_task(Q::METHOD);
                let result =
                    mcp::ClientCallResult::parse(&request, &r.result).map_err(|e| e.to_string())?;
                Ok(Reply::Result(TypedResult {
                    result: arm(result).ok_or("another request's result")?,
                    id: r.id,
                    extra: r.extra,
                }))
            }
            other => Err(format!("not a result response: {:?}", other.method())),
        }
    }

    fn list_resources(result: mcp::ClientCallResult) -> Option<mcp::ListResourcesResult> {
        match result {
            mcp::ClientCallResult::ListResources(r) => Some(r),
            _ => None,
        }
    }

    fn read_resource(result: mcp::ClientCallResult) -> Option<mcp::ReadResourceResult> {
        match result {
            mcp::ClientCallResult::ReadResource(r) => Some(r),
            _ => None,
        }
    }

    fn list_tools(result: mcp::ClientCallResult) -> Option<mcp::ListToolsResult> {
        match result {
            mcp::ClientCallResult::ListTools(r) => Some(r),
            _ => None,
        }
    }

    /// W1 through the generic one-pass read (see [`generic`]; the workload's id is 1).
    pub fn parse_w1_generic(s: &str) -> Result<W1, String> {
        generic::<mcp::ListResourcesRequest>(s, 1, list_resources)
    }
    /// W2 (id 2) and W3 (id 3) through the generic one-pass read.
    pub fn parse_read_generic(s: &str) -> Result<Read, String> {
        // The envelope's head names the workload; the rest is not scanned.
        let head = s.get(..32).unwrap_or(s);
        let id = if head.contains(r#""id":2,"#) { 2 } else { 3 };
        generic::<mcp::ReadResourceRequest>(s, id, read_resource)
    }
    /// W4 (id 4) through the generic one-pass read.
    pub fn parse_w4_generic(s: &str) -> Result<W4, String> {
        generic::<mcp::ListToolsRequest>(s, 4, list_tools)
    }
    /// W1 through the generic two-pass read (see [`generic_two_passes`]).
    pub fn parse_w1_generic_two_passes(s: &str) -> Result<W1, String> {
        generic_two_passes::<mcp::ListResourcesRequest>(s, list_resources)
    }
    /// W2/W3 through the generic two-pass read.
    pub fn parse_read_generic_two_passes(s: &str) -> Result<Read, String> {
        generic_two_passes::<mcp::ReadResourceRequest>(s, read_resource)
    }
    /// W4 through the generic two-pass read.
    pub fn parse_w4_generic_two_passes(s: &str) -> Result<W4, String> {
        generic_two_passes::<mcp::ListToolsRequest>(s, list_tools)
    }

    /// The typed result of a reply the adapters accepted.
    fn result<R>(v: &Reply<R>) -> Option<&R> {
        match v {
            Reply::Result(TypedResult { result, .. }) => Some(result),
            Reply::Error(_) => None,
        }
    }

    /// W1 adapter.
    pub fn parse_w1(s: &str) -> Result<W1, String> {
        reply(s)
    }
    /// W2/W3 adapter.
    pub fn parse_read(s: &str) -> Result<Read, String> {
        reply(s)
    }
    /// W4 adapter.
    pub fn parse_w4(s: &str) -> Result<W4, String> {
        reply(s)
    }
    /// W1 in two passes (see [`two_passes`]).
    pub fn parse_w1_two_passes(s: &str) -> Result<W1, String> {
        two_passes::<mcp::ListResourcesRequest>(s)
    }
    /// W2/W3 in two passes.
    pub fn parse_read_two_passes(s: &str) -> Result<Read, String> {
        two_passes::<mcp::ReadResourceRequest>(s)
    }
    /// W4 in two passes.
    pub fn parse_w4_two_passes(s: &str) -> Result<W4, String> {
        two_passes::<mcp::ListToolsRequest>(s)
    }

    /// This crate's writer, `mcp_spec_types::json::to_string` (serde_json's bytes).
    pub fn write<T: Serialize>(v: &T) -> Result<String, String> {
        mcp_spec_types::json::to_string(v).map_err(|e| e.to_string())
    }

    /// The W5 message type for this crate: what each side sends, typed by method through
    /// the crate's one-pass dispatch (`ClientMessage::parse` / `ServerMessage::parse`).
    /// Requests and notifications get their typed params; a response keeps its result as
    /// checked raw JSON until the request it answers is known (a gateway types it with
    /// `ClientCallResult::parse(&request, ..)` once it looks the id up).
    #[derive(Debug)]
    pub enum W5 {
        Client(mcp::ClientMessage),
        Server(mcp::ServerMessage),
    }

    impl Serialize for W5 {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                W5::Client(m) => m.serialize(s),
                W5::Server(m) => m.serialize(s),
            }
        }
    }

    /// W5 adapter: `from` says which side sent the line.
    pub fn parse_w5_project(line: &str, from: Sender) -> Result<W5, String> {
        match from {
            Sender::Client => mcp::ClientMessage::parse(line).map(W5::Client),
            Sender::Server => mcp::ServerMessage::parse(line).map(W5::Server),
        }
        .map_err(|e| e.to_string())
    }

    fn label<R, N>(m: &mcp_spec_types::dispatch::Message<R, N>) -> Label
    where
        R: mcp_spec_types::dispatch::MethodSet + std::fmt::Debug,
        N: mcp_spec_types::dispatch::MethodSet + std::fmt::Debug,
    {
        use mcp_spec_types::dispatch::Message;
        match m {
            Message::Request(r) if format!("{:?}", r.call).starts_with("Unknown") => {
                Label::Custom(r.call.method().to_owned())
            }
            Message::Request(r) => Label::Request(r.call.method().to_owned()),
            Message::Notification(n) => Label::Notification(n.notification.method().to_owned()),
            // Results are typed once the request is known, not by the envelope.
            Message::Response(_) => Label::Response(None),
            Message::Error(e) => Label::Error(e.error.code.code()),
            Message::Batch(_) => Label::Custom("batch".to_owned()),
        }
    }

    /// How this crate read a W5 message (see [`Label`]).
    pub fn w5_label(m: &W5) -> Label {
        match m {
            W5::Client(m) => label(m),
            W5::Server(m) => label(m),
        }
    }

    pub fn w1_stats(v: &W1) -> W1Stats {
        result(v).map(w1_result_stats).unwrap_or_default()
    }

    /// [`w1_stats`] of the result alone (also read by the sonic-rs row).
    pub fn w1_result_stats(v: &mcp::ListResourcesResult) -> W1Stats {
        let mut s = W1Stats::default();
        for r in &v.resources {
            let a = r.annotations.as_ref();
            s.add(
                &r.uri,
                &r.name,
                r.title.as_deref(),
                r.description.as_deref(),
                r.mime_type.as_deref(),
                r.size.map(|n| n as u64),
                a.and_then(|a| a.audience.as_ref()).map_or(0, Vec::len),
                a.is_some_and(|a| a.priority.is_some()),
                a.is_some_and(|a| a.last_modified.is_some()),
                r.meta
                    .as_ref()
                    .and_then(|m| m.to_map().ok())
                    .map_or(0, |m| m.len()),
            );
        }
        s.next_cursor = v.next_cursor.clone();
        s
    }

    pub fn read_stats(v: &Read) -> ReadStats {
        result(v).map(read_result_stats).unwrap_or_default()
    }

    /// [`read_stats`] of the result alone.
    pub fn read_result_stats(v: &mcp::ReadResourceResult) -> ReadStats {
        let mut s = ReadStats::default();
        for c in &v.contents {
            match c {
                mcp::ReadResourceResultContentsItem::TextResourceContents(t) => {
                    s.add_text(&t.uri, t.mime_type.as_deref(), &t.text)
                }
                mcp::ReadResourceResultContentsItem::BlobResourceContents(b) => {
                    s.add_blob(&b.uri, b.mime_type.as_deref(), &b.blob)
                }
            }
        }
        s
    }

    pub fn w4_stats(v: &W4) -> W4Stats {
        result(v).map(w4_result_stats).unwrap_or_default()
    }

    /// [`w4_stats`] of the result alone.
    pub fn w4_result_stats(v: &mcp::ListToolsResult) -> W4Stats {
        let mut s = W4Stats::default();
        for t in &v.tools {
            let a = t.annotations.as_ref();
            s.add(
                t.description.as_deref(),
                t.input_schema
                    .properties
                    .iter()
                    .flatten()
                    // A property schema that cannot be read counts as an empty one.
                    .map(|(k, v)| (k.as_str(), v.to_map().unwrap_or_default()))
                    .collect::<Vec<_>>()
                    .iter()
                    .map(|(k, v)| (*k, v)),
                t.input_schema.required.as_ref().map_or(0, Vec::len),
                a.is_some(),
                a.and_then(|a| a.read_only_hint),
                a.and_then(|a| a.open_world_hint),
            );
        }
        s
    }
}

// =============================================================================================
// rmcp
// =============================================================================================
pub mod rmcp_impl {
    use super::*;
    use rmcp::model as m;

    pub type W1 = m::JsonRpcResponse<m::ListResourcesResult>;
    pub type Read = m::JsonRpcResponse<m::ReadResourceResult>;
    pub type W4 = m::JsonRpcResponse<m::ListToolsResult>;

    pub fn parse_w1(s: &str) -> Result<W1, String> {
        de(s)
    }
    pub fn parse_read(s: &str) -> Result<Read, String> {
        de(s)
    }
    pub fn parse_w4(s: &str) -> Result<W4, String> {
        de(s)
    }

    /// rmcp's top-level types: `ClientJsonRpcMessage` =
    /// `JsonRpcMessage<ClientRequest, ClientResult, ClientNotification>` and
    /// `ServerJsonRpcMessage` = `JsonRpcMessage<ServerRequest, ServerResult, ServerNotification>`.
    #[derive(Debug, Clone, Serialize)]
    #[serde(untagged)]
    pub enum W5 {
        Client(m::ClientJsonRpcMessage),
        Server(m::ServerJsonRpcMessage),
    }

    pub fn parse_w5(line: &str, from: Sender) -> Result<W5, String> {
        Ok(match from {
            Sender::Client => W5::Client(de(line)?),
            Sender::Server => W5::Server(de(line)?),
        })
    }

    fn custom(method: &str) -> Label {
        Label::Custom(method.to_owned())
    }

    pub fn w5_label(msg: &W5) -> Label {
        use m::JsonRpcMessage as J;
        let n = |s: &str| Label::Notification(s.to_owned());
        let r = |s: &str| Label::Response(Some(s.to_owned()));
        match msg {
            W5::Client(J::Request(q)) => match &q.request {
                m::ClientRequest::CustomRequest(c) => custom(&c.method),
                other => Label::Request(other.method().to_owned()),
            },
            W5::Server(J::Request(q)) => match &q.request {
                m::ServerRequest::PingRequest(_) => Label::Request("ping".into()),
                m::ServerRequest::CustomRequest(c) => custom(&c.method),
                other => Label::Request(
                    format!("{other:?}")
                        .split('(')
                        .next()
                        .unwrap_or("?")
                        .to_owned(),
                ),
            },
            W5::Client(J::Notification(x)) => match &x.notification {
                m::ClientNotification::CancelledNotification(_) => n("notifications/cancelled"),
                m::ClientNotification::ProgressNotification(_) => n("notifications/progress"),
                m::ClientNotification::InitializedNotification(_) => n("notifications/initialized"),
                m::ClientNotification::RootsListChangedNotification(_) => {
                    n("notifications/roots/list_changed")
                }
                m::ClientNotification::CustomNotification(c) => custom(&c.method),
                _ => custom("?"),
            },
            W5::Server(J::Notification(x)) => match &x.notification {
                m::ServerNotification::CancelledNotification(_) => n("notifications/cancelled"),
                m::ServerNotification::ProgressNotification(_) => n("notifications/progress"),
                m::ServerNotification::LoggingMessageNotification(_) => n("notifications/message"),
                m::ServerNotification::ResourceUpdatedNotification(_) => {
                    n("notifications/resources/updated")
                }
                m::ServerNotification::ResourceListChangedNotification(_) => {
                    n("notifications/resources/list_changed")
                }
                m::ServerNotification::ToolListChangedNotification(_) => {
                    n("notifications/tools/list_changed")
                }
                m::ServerNotification::PromptListChangedNotification(_) => {
                    n("notifications/prompts/list_changed")
                }
                m::ServerNotification::CustomNotification(c) => custom(&c.method),
                _ => custom("?"),
            },
            W5::Client(J::Response(x)) => match &x.result {
                m::ClientResult::EmptyResult(_) => r("empty"),
                m::ClientResult::CustomResult(_) => custom("(result)"),
                other => r(&variant_name(other)),
            },
            W5::Server(J::Response(x)) => match &x.result {
                m::ServerResult::InitializeResult(_) => r("initialize"),
                m::ServerResult::CallToolResult(_) => r("tools/call"),
                m::ServerResult::ReadResourceResult(_) => r("resources/read"),
                m::ServerResult::ListResourcesResult(_) => r("resources/list"),
                m::ServerResult::EmptyResult(_) => r("empty"),
                m::ServerResult::CustomResult(_) => custom("(result)"),
                other => r(&variant_name(other)),
            },
            W5::Client(J::Error(e)) | W5::Server(J::Error(e)) => {
                Label::Error(i64::from(e.error.code.0))
            }
        }
    }

    pub fn w1_stats(v: &W1) -> W1Stats {
        let mut s = W1Stats::default();
        for r in &v.result.resources {
            let a = r.annotations.as_ref();
            s.add(
                &r.uri,
                &r.name,
                r.title.as_deref(),
                r.description.as_deref(),
                r.mime_type.as_deref(),
                r.size,
                a.and_then(|a| a.audience.as_ref()).map_or(0, Vec::len),
                a.is_some_and(|a| a.priority.is_some()),
                a.is_some_and(|a| a.last_modified.is_some()),
                r.meta.as_ref().map_or(0, |m| m.len()),
            );
        }
        s.next_cursor = v.result.next_cursor.clone();
        s
    }

    pub fn read_stats(v: &Read) -> ReadStats {
        let mut s = ReadStats::default();
        for c in &v.result.contents {
            match c {
                m::ResourceContents::TextResourceContents {
                    uri,
                    mime_type,
                    text,
                    ..
                } => s.add_text(uri, mime_type.as_deref(), text),
                m::ResourceContents::BlobResourceContents {
                    uri,
                    mime_type,
                    blob,
                    ..
                } => s.add_blob(uri, mime_type.as_deref(), blob),
                _ => s.contents += 1,
            }
        }
        s
    }

    pub fn w4_stats(v: &W4) -> W4Stats {
        let mut s = W4Stats::default();
        for t in &v.result.tools {
            let a = t.annotations.as_ref();
            let schema: &serde_json::Map<String, serde_json::Value> = &t.input_schema;
            s.add(
                t.description.as_deref(),
                schema
                    .get("properties")
                    .and_then(|p| p.as_object())
                    .into_iter()
                    .flatten()
                    .filter_map(|(k, v)| Some((k.as_str(), v.as_object()?))),
                schema
                    .get("required")
                    .and_then(|r| r.as_array())
                    .map_or(0, Vec::len),
                a.is_some(),
                a.and_then(|a| a.read_only_hint),
                a.and_then(|a| a.open_world_hint),
            );
        }
        s
    }
}

fn variant_name(v: &impl std::fmt::Debug) -> String {
    let d = format!("{v:?}");
    d.split(['(', ' ', '{']).next().unwrap_or("?").to_owned()
}

// =============================================================================================
// rust-mcp-schema
// =============================================================================================
pub mod rms {
    use super::*;
    use rust_mcp_schema::mcp_2025_06_18 as s;
    use s::schema_utils as u;

    pub type W1 = Envelope<s::RequestId, s::ListResourcesResult>;
    pub type Read = Envelope<s::RequestId, s::ReadResourceResult>;
    pub type W4 = Envelope<s::RequestId, s::ListToolsResult>;

    pub fn parse_w1(x: &str) -> Result<W1, String> {
        de(x)
    }
    pub fn parse_read(x: &str) -> Result<Read, String> {
        de(x)
    }
    pub fn parse_w4(x: &str) -> Result<W4, String> {
        de(x)
    }

    /// rust-mcp-schema's top-level types (`schema_utils::ClientMessage` / `ServerMessage`).
    #[derive(Debug, Clone, Serialize)]
    #[serde(untagged)]
    pub enum W5 {
        Client(u::ClientMessage),
        Server(u::ServerMessage),
    }

    pub fn parse_w5(line: &str, from: Sender) -> Result<W5, String> {
        Ok(match from {
            Sender::Client => W5::Client(de(line)?),
            Sender::Server => W5::Server(de(line)?),
        })
    }

    pub fn w5_label(msg: &W5) -> Label {
        let r = |x: &str| Label::Response(Some(x.to_owned()));
        let custom = |v: &serde_json::Value| {
            Label::Custom(v["method"].as_str().unwrap_or("(result)").to_owned())
        };
        match msg {
            W5::Client(u::ClientMessage::Request(q)) => match &q.request {
                u::RequestFromClient::ClientRequest(c) => Label::Request(c.method().to_owned()),
                u::RequestFromClient::CustomRequest(v) => custom(v),
            },
            W5::Server(u::ServerMessage::Request(q)) => match &q.request {
                u::RequestFromServer::ServerRequest(c) => Label::Request(c.method().to_owned()),
                u::RequestFromServer::CustomRequest(v) => custom(v),
            },
            W5::Client(u::ClientMessage::Notification(x)) => match &x.notification {
                u::NotificationFromClient::ClientNotification(c) => {
                    Label::Notification(c.method().to_owned())
                }
                u::NotificationFromClient::CustomNotification(v) => custom(v),
            },
            W5::Server(u::ServerMessage::Notification(x)) => match &x.notification {
                u::NotificationFromServer::ServerNotification(c) => {
                    Label::Notification(c.method().to_owned())
                }
                u::NotificationFromServer::CustomNotification(v) => custom(v),
            },
            W5::Client(u::ClientMessage::Response(x)) => match &x.result {
                u::ResultFromClient::ClientResult(s::ClientResult::Result(g)) if is_empty(g) => {
                    r("empty")
                }
                u::ResultFromClient::ClientResult(other) => r(&variant_name(other)),
                u::ResultFromClient::CustomResult(v) => custom(v),
            },
            W5::Server(u::ServerMessage::Response(x)) => match &x.result {
                u::ResultFromServer::ServerResult(sr) => match sr {
                    s::ServerResult::InitializeResult(_) => r("initialize"),
                    s::ServerResult::CallToolResult(_) => r("tools/call"),
                    s::ServerResult::ReadResourceResult(_) => r("resources/read"),
                    s::ServerResult::ListResourcesResult(_) => r("resources/list"),
                    s::ServerResult::Result(g) if is_empty(g) => r("empty"),
                    other => r(&variant_name(other)),
                },
                u::ResultFromServer::CustomResult(v) => custom(v),
            },
            W5::Client(u::ClientMessage::Error(e)) | W5::Server(u::ServerMessage::Error(e)) => {
                Label::Error(e.error.code)
            }
        }
    }

    fn is_empty(g: &s::Result) -> bool {
        g.meta.is_none() && g.extra.as_ref().is_none_or(|e| e.is_empty())
    }

    pub fn w1_stats(v: &W1) -> W1Stats {
        let mut st = W1Stats::default();
        for r in &v.result.resources {
            let a = r.annotations.as_ref();
            st.add(
                &r.uri,
                &r.name,
                r.title.as_deref(),
                r.description.as_deref(),
                r.mime_type.as_deref(),
                r.size.map(|n| n as u64),
                a.map_or(0, |a| a.audience.len()),
                a.is_some_and(|a| a.priority.is_some()),
                a.is_some_and(|a| a.last_modified.is_some()),
                r.meta.as_ref().map_or(0, |m| m.len()),
            );
        }
        st.next_cursor = v.result.next_cursor.clone();
        st
    }

    pub fn read_stats(v: &Read) -> ReadStats {
        let mut st = ReadStats::default();
        for c in &v.result.contents {
            match c {
                s::ReadResourceContent::TextResourceContents(t) => {
                    st.add_text(&t.uri, t.mime_type.as_deref(), &t.text)
                }
                s::ReadResourceContent::BlobResourceContents(b) => {
                    st.add_blob(&b.uri, b.mime_type.as_deref(), &b.blob)
                }
            }
        }
        st
    }

    pub fn w4_stats(v: &W4) -> W4Stats {
        let mut st = W4Stats::default();
        for t in &v.result.tools {
            let a = t.annotations.as_ref();
            st.add(
                t.description.as_deref(),
                t.input_schema
                    .properties
                    .iter()
                    .flatten()
                    .map(|(k, v)| (k.as_str(), v)),
                t.input_schema.required.len(),
                a.is_some(),
                a.and_then(|a| a.read_only_hint),
                a.and_then(|a| a.open_world_hint),
            );
        }
        st
    }
}
