//! Types of the MCP schema revision v2025_03_26.
#![allow(missing_docs, clippy::all)]
include!(concat!(env!("OUT_DIR"), "/v2025_03_26.rs"));
