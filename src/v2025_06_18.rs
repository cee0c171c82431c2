//! Types of the MCP schema revision v2025_06_18.
#![allow(missing_docs, clippy::all)]
include!(concat!(env!("OUT_DIR"), "/v2025_06_18.rs"));
