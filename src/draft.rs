//! Types of the MCP schema revision draft.
#![allow(missing_docs, clippy::all)]
include!(concat!(env!("OUT_DIR"), "/draft.rs"));
