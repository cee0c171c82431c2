//! Types of the MCP schema revision v2025_11_25.
#![allow(missing_docs, clippy::all)]
include!(concat!(env!("OUT_DIR"), "/v2025_11_25.rs"));
