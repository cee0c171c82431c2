//! sonic-rs as a reader and writer of mcp-spec-types' own types: `sonic_rs::from_str` into the
//! same one-pass [`Envelope`] with the crate's `RequestId` and generated result types, and
//! `sonic_rs::to_string` back. It measures the JSON reader and writer, not the types, so it is
//! a row of its own and not a peer.
//!
//! W5 has no sonic-rs adapter: this crate's messages are read by `Message::parse` only (there
//! is no serde `Deserialize` for a message for another reader to drive).

use super::{project, Envelope};
use crate::stats::{ReadStats, W1Stats, W4Stats};
use mcp_spec_types::v2025_06_18 as mcp;
use serde::Serialize;

pub type W1 = Envelope<mcp_spec_types::RequestId, mcp::ListResourcesResult>;
pub type Read = Envelope<mcp_spec_types::RequestId, mcp::ReadResourceResult>;
pub type W4 = Envelope<mcp_spec_types::RequestId, mcp::ListToolsResult>;

fn de<T: serde::de::DeserializeOwned>(s: &str) -> Result<T, String> {
    sonic_rs::from_str(s).map_err(|e| e.to_string())
}

/// W1 adapter.
pub fn parse_w1(s: &str) -> Result<W1, String> {
    de(s)
}
/// W2/W3 adapter.
pub fn parse_read(s: &str) -> Result<Read, String> {
    de(s)
}
/// W4 adapter.
pub fn parse_w4(s: &str) -> Result<W4, String> {
    de(s)
}

/// sonic-rs's writer.
pub fn write<T: Serialize>(v: &T) -> Result<String, String> {
    sonic_rs::to_string(v).map_err(|e| e.to_string())
}

pub fn w1_stats(v: &W1) -> W1Stats {
    project::w1_result_stats(&v.result)
}

pub fn read_stats(v: &Read) -> ReadStats {
    project::read_result_stats(&v.result)
}

pub fn w4_stats(v: &W4) -> W4Stats {
    project::w4_result_stats(&v.result)
}
