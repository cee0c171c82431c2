//! Types of the MCP schema revision v2024_11_05.
#![allow(missing_docs, clippy::all)]
include!(concat!(env!("OUT_DIR"), "/v2024_11_05.rs"));
