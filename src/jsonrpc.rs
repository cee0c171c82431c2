//! The JSON-RPC 2.0 envelope, shared by every revision.

use serde::{Deserialize, Serialize};

/// A request id: a string or an integer, kept exactly as the peer sent it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RequestId {
    /// An integer id.
    Integer(i64),
    /// A string id.
    String(String),
}

/// A progress token: a string or an integer chosen by the requester.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ProgressToken {
    /// An integer token.
    Integer(i64),
    /// A string token.
    String(String),
}
