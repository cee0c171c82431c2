//! What the engine reads of a line before it knows the line's revision: the method, whether
//! it has an id, and the version it names (`initialize`'s `protocolVersion`, or a stateless
//! request's `_meta`). One pass, skipping everything else; the line is then read in full in
//! the revision this picks, which reports whatever is wrong with it.

use crate::prelude::*;
use serde::de::IgnoredAny;
use serde::Deserialize;

/// The members that route a line.
#[derive(Debug, Default, Deserialize)]
pub(in crate::server) struct Peek {
    pub method: Option<String>,
    #[serde(default)]
    id: Option<IgnoredAny>,
    #[serde(default)]
    params: Option<Params>,
}

#[derive(Debug, Default, Deserialize)]
struct Params {
    #[serde(default, rename = "protocolVersion")]
    protocol_version: Option<String>,
    #[serde(default, rename = "_meta")]
    meta: Option<Meta>,
}

#[derive(Debug, Default, Deserialize)]
struct Meta {
    #[serde(default, rename = "io.modelcontextprotocol/protocolVersion")]
    protocol_version: Option<String>,
}

impl Peek {
    /// The routing members of `line`; `None` for a line that is not a JSON object whose
    /// routing members have their types (the full read then says what is wrong), or a batch.
    pub fn of(line: &str) -> Option<Peek> {
        // A struct reads from an array too: only an object is one message.
        if !line.trim_start().starts_with('{') {
            return None;
        }
        crate::json::from_str_strict::<Peek>(line).ok()
    }

    /// Whether the message is a request (it has a non-null id).
    pub fn is_request(&self) -> bool {
        self.id.is_some()
    }

    /// The version `initialize` asks for.
    pub fn initialize_version(&self) -> Option<&str> {
        self.params.as_ref()?.protocol_version.as_deref()
    }

    /// The version a stateless request names in `_meta`.
    pub fn meta_version(&self) -> Option<&str> {
        self.params
            .as_ref()?
            .meta
            .as_ref()?
            .protocol_version
            .as_deref()
    }
}
