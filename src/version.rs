//! Protocol versions: which revisions exist, which this build supports, and the lifecycle's
//! negotiation rule.

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

    /// The versions of `wanted` this build supports, in [`ProtocolVersion::SUPPORTED`]'s
    /// order (newest first), whatever the order given: what an engine offers.
    #[cfg(any(feature = "server", feature = "client"))]
    pub(crate) fn supported_among(
        wanted: impl IntoIterator<Item = ProtocolVersion>,
    ) -> alloc::vec::Vec<ProtocolVersion> {
        let wanted: alloc::vec::Vec<ProtocolVersion> = wanted.into_iter().collect();
        let supported = Self::SUPPORTED.iter().filter(|v| wanted.contains(v));
        supported.cloned().collect()
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
