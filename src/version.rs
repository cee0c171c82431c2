//! Protocol versions: which revisions exist, which this build supports, and the lifecycle's
//! negotiation rule.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

include!(concat!(env!("OUT_DIR"), "/versions.rs"));

/// The `_meta` key that carries the protocol version of a request in stateless revisions.
#[cfg(any(
    feature = "validate",
    feature = "convert",
    feature = "v2026_07_28",
    feature = "unstable-draft"
))]
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

    /// The version a server answers to a client's `initialize`: the requested one when this
    /// build supports it, otherwise the newest released revision it supports (the lifecycle
    /// rule: "If the server supports the requested protocol version, it MUST respond with the
    /// same version. Otherwise, the server MUST respond with another protocol version it
    /// supports. This SHOULD be the latest version supported by the server.").
    ///
    /// `None` only when the build supports no revision at all.
    ///
    /// ```
    /// use mcp_spec_types::ProtocolVersion;
    /// # #[cfg(feature = "v2026_07_28")]
    /// assert_eq!(ProtocolVersion::negotiate("1999-01-01"), Some(ProtocolVersion::LATEST));
    /// # #[cfg(feature = "v2025_06_18")]
    /// assert_eq!(ProtocolVersion::negotiate("2025-06-18").unwrap().as_str(), "2025-06-18");
    /// ```
    pub fn negotiate(requested: &str) -> Option<ProtocolVersion> {
        let requested = ProtocolVersion::from(requested);
        if requested.is_supported() {
            return Some(requested);
        }
        Self::SUPPORTED_RELEASED
            .first()
            .or(Self::SUPPORTED.first())
            .cloned()
    }
}

impl From<&str> for ProtocolVersion {
    fn from(version: &str) -> Self {
        ProtocolVersion::known(version).unwrap_or_else(|| ProtocolVersion::Unknown(version.into()))
    }
}

impl std::str::FromStr for ProtocolVersion {
    type Err = std::convert::Infallible;
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
        let version = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(ProtocolVersion::from(&*version))
    }
}

/// The member names above are the schema's, in every bundled schema that has the definitions
/// they belong to.
#[cfg(all(test, feature = "validate"))]
mod tests {
    use super::{PROTOCOL_VERSION_MEMBER, SUPPORTED_VERSIONS_MEMBER};
    use serde_json::Value;

    const SCHEMAS: [&str; 6] = [
        include_str!("../schema/2024-11-05/schema.json"),
        include_str!("../schema/2025-03-26/schema.json"),
        include_str!("../schema/2025-06-18/schema.json"),
        include_str!("../schema/2025-11-25/schema.json"),
        include_str!("../schema/2026-07-28/schema.json"),
        include_str!("../schema/draft/schema.json"),
    ];

    #[test]
    fn member_names_are_the_schemas() {
        let (mut initialize, mut discover) = (0, 0);
        for text in SCHEMAS {
            let schema: Value = crate::json::from_str(text).expect("the bundled schema reads");
            let definitions = schema.get("definitions").or(schema.get("$defs"));
            let definitions = definitions.expect("a schema has definitions");
            if let Some(result) = definitions.get("InitializeResult") {
                assert!(result["properties"].get(PROTOCOL_VERSION_MEMBER).is_some());
                let params = &definitions["InitializeRequest"]["properties"]["params"];
                let params = match params.get("$ref").and_then(Value::as_str) {
                    Some(name) => &definitions[name.rsplit('/').next().unwrap_or_default()],
                    None => params,
                };
                assert!(params["properties"].get(PROTOCOL_VERSION_MEMBER).is_some());
                initialize += 1;
            }
            if let Some(result) = definitions.get("DiscoverResult") {
                assert!(result["properties"]
                    .get(SUPPORTED_VERSIONS_MEMBER)
                    .is_some());
                discover += 1;
            }
        }
        assert_eq!((initialize, discover), (4, 2));
    }
}
