//! Protocol versions: which revisions exist, which this build supports, and the lifecycle's
//! negotiation rule.

#[cfg(test)]
use crate::prelude::*;
use core::fmt;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

include!(concat!(env!("OUT_DIR"), "/versions.rs"));

/// The `_meta` key that carries the protocol version of a request in stateless revisions.
pub const PROTOCOL_VERSION_META_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The member of `initialize`'s params and result that names the protocol version.
#[cfg(feature = "validate")]
pub(crate) const PROTOCOL_VERSION_MEMBER: &str = "protocolVersion";

/// The member of `server/discover`'s result that lists the versions a server supports.
#[cfg(feature = "validate")]
pub(crate) const SUPPORTED_VERSIONS_MEMBER: &str = "supportedVersions";

impl ProtocolVersion {
    /// Whether this build has the revision's types (its feature is enabled).
    pub fn is_supported(&self) -> bool {
        Self::SUPPORTED.contains(self)
    }
}

impl From<&str> for ProtocolVersion {
    fn from(version: &str) -> Self {
        ProtocolVersion::known(version).unwrap_or_else(|| ProtocolVersion::Unknown(version.into()))
    }
}

impl core::str::FromStr for ProtocolVersion {
    type Err = core::convert::Infallible;
    fn from_str(version: &str) -> Result<Self, Self::Err> {
        Ok(ProtocolVersion::from(version))
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ProtocolVersion {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ProtocolVersion {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let version = alloc::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(ProtocolVersion::from(&*version))
    }
}

/// Each bundled schema's definitions, by revision (every revision the crate knows), for the
/// tests that hold the names the crate types by hand to the schema.
#[cfg(test)]
pub(crate) fn bundled_definitions() -> Vec<(ProtocolVersion, serde_json::Value)> {
    let root = env!("CARGO_MANIFEST_DIR");
    ProtocolVersion::KNOWN
        .iter()
        .map(|revision| {
            let path = format!("{root}/schema/{}/schema.json", revision.as_str());
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let mut schema: serde_json::Value =
                crate::json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
            // Older schemas keep their definitions under `definitions`, newer under `$defs`.
            let definitions = match schema.get_mut("$defs") {
                Some(definitions) => definitions.take(),
                None => schema["definitions"].take(),
            };
            assert!(definitions.is_object(), "{path} has definitions");
            (revision.clone(), definitions)
        })
        .collect()
}

/// The member names above are the schema's, in every bundled schema.
#[cfg(all(test, feature = "validate"))]
mod tests {
    use super::{bundled_definitions, PROTOCOL_VERSION_MEMBER, SUPPORTED_VERSIONS_MEMBER};
    use serde_json::Value;

    /// A stateful revision names its version in `initialize`, a stateless one lists its
    /// versions in `server/discover`'s result; every revision is one of the two.
    #[test]
    fn member_names_are_the_schemas() {
        for (revision, definitions) in bundled_definitions() {
            if let Some(result) = definitions.get("InitializeResult") {
                assert!(result["properties"].get(PROTOCOL_VERSION_MEMBER).is_some());
                let params = &definitions["InitializeRequest"]["properties"]["params"];
                let params = match params.get("$ref").and_then(Value::as_str) {
                    Some(name) => &definitions[name.rsplit('/').next().unwrap_or_default()],
                    None => params,
                };
                assert!(
                    params["properties"].get(PROTOCOL_VERSION_MEMBER).is_some(),
                    "{revision}"
                );
            } else {
                let result = &definitions["DiscoverResult"]["properties"];
                assert!(
                    result.get(SUPPORTED_VERSIONS_MEMBER).is_some(),
                    "{revision}"
                );
            }
        }
    }
}
