//! Types of the MCP schema revision v2026_07_28.
#![allow(missing_docs, clippy::all)]
include!(concat!(env!("OUT_DIR"), "/v2026_07_28.rs"));
