//! Picking a protocol revision from what the peer offered, in the stateless revisions
//! (2026-07-28 on) as the version-negotiation and transport pages of the specification say.
//!
//! A stateless revision has no `initialize`: every request names its protocol version in
//! `params._meta["io.modelcontextprotocol/protocolVersion"]` (and, over HTTP, the
//! `MCP-Protocol-Version` header), and the server answers it or refuses it with an
//! `UnsupportedProtocolVersionError` listing what it supports. A client learns that list from
//! `server/discover` (`supportedVersions`) or from the error, and picks the newest version both
//! speak; when nothing is shared (or the server does not answer `server/discover`), it falls
//! back to `initialize` and the stateful revisions ([`ProtocolVersion::negotiate`]).
//!
//! Which revisions are stateless is read from the generated method table (a revision is
//! stateless when its schema has no `initialize`), and which ones this build speaks from the
//! generated revision table ([`ProtocolVersion::SUPPORTED`]): no version list is written here.
//!
//! ```
//! # #[cfg(feature = "v2026_07_28")] {
//! use mcp_spec_types::negotiation;
//! use mcp_spec_types::ProtocolVersion;
//!
//! // Server: the version a request names.
//! assert_eq!(negotiation::check_request_version("2026-07-28"), Ok(ProtocolVersion::V2026_07_28));
//! let refused = negotiation::check_request_version("v999.0.0").unwrap_err();
//! assert_eq!(refused.requested, "v999.0.0");
//! assert!(refused.supported.contains(&"2026-07-28".to_string()));
//!
//! // Client: the newest version of a `server/discover` result this build speaks.
//! let offered = ["2026-07-28", "2099-01-01"];
//! assert_eq!(negotiation::choose(&offered), Some(ProtocolVersion::V2026_07_28));
//! assert_eq!(negotiation::choose(&["1999-01-01"]), None);
//! # }
//! ```

use crate::dispatch::revisions_defining;
use crate::prelude::*;
use crate::{ErrorCode, ProtocolVersion, RpcError};
use core::fmt;
use serde_json::{Map, Value};

/// The method whose presence makes a revision stateful.
const HANDSHAKE: &str = "initialize";

// The lifecycle's version rule for `initialize` lives here, beside the rule for the stateless
// revisions, since it needs to know which revisions have `initialize`.
impl ProtocolVersion {
    /// The version a server answers to a client's `initialize`, among the revisions that have
    /// `initialize` (2026-07-28 and later have none: each request carries its version): the
    /// requested one when this build supports it and it has `initialize`, otherwise the newest
    /// released such revision this build supports (the lifecycle rule: "If the server
    /// supports the requested protocol version, it MUST respond with the same version.
    /// Otherwise, the server MUST respond with another protocol version it supports. This
    /// SHOULD be the latest version supported by the server.").
    ///
    /// `None` when the build supports no revision with `initialize` (the default features
    /// enable only 2026-07-28): such a server cannot answer an `initialize` at all.
    ///
    /// ```
    /// use mcp_spec_types::ProtocolVersion;
    /// # #[cfg(all(feature = "v2025_06_18", feature = "v2025_11_25", feature = "v2026_07_28"))] {
    /// assert_eq!(ProtocolVersion::negotiate("2025-06-18").unwrap().as_str(), "2025-06-18");
    /// // An unknown version, or one without `initialize`, gets the newest with it.
    /// assert_eq!(ProtocolVersion::negotiate("1999-01-01"), Some(ProtocolVersion::V2025_11_25));
    /// assert_eq!(ProtocolVersion::negotiate("2026-07-28"), Some(ProtocolVersion::V2025_11_25));
    /// # }
    /// ```
    pub fn negotiate(requested: &str) -> Option<ProtocolVersion> {
        let has_initialize = |v: &&ProtocolVersion| !is_stateless(v);
        let requested = ProtocolVersion::from(requested);
        if requested.is_supported() && has_initialize(&&requested) {
            return Some(requested);
        }
        (Self::SUPPORTED_RELEASED.iter().find(has_initialize))
            .or_else(|| Self::SUPPORTED.iter().find(has_initialize))
            .cloned()
    }
}

/// Whether `version` is a stateless revision the crate knows: one whose schema has no
/// `initialize`, so that each request carries its own version and client capabilities.
/// An unknown version is not known to be stateless.
pub fn is_stateless(version: &ProtocolVersion) -> bool {
    !matches!(version, ProtocolVersion::Unknown(_))
        && !revisions_defining(HANDSHAKE).contains(&version.as_str())
}

/// The released stateless revisions this build supports, newest first: what a server lists
/// in `server/discover`'s `supportedVersions` and in an `UnsupportedProtocolVersionError`.
///
/// Never the draft, even with the `unstable-draft` feature: features are unified across a
/// build, so a dependency that enables it for its own use does not make a server offer a
/// revision that changes without notice. A server offers the draft by naming it
/// (`server::Server::with_versions`, feature `server`).
pub fn stateless_supported() -> Vec<ProtocolVersion> {
    ProtocolVersion::SUPPORTED_RELEASED
        .iter()
        .filter(|v| is_stateless(v))
        .cloned()
        .collect()
}

/// [`stateless_supported`] as the strings the wire carries.
pub fn stateless_supported_strings() -> Vec<String> {
    stateless_supported()
        .iter()
        .map(|v| v.as_str().to_owned())
        .collect()
}

/// The server's per-request check: the revision a stateless request asked for
/// (`_meta["io.modelcontextprotocol/protocolVersion"]`), when it is one of
/// [`stateless_supported`]. A stateful, unknown or draft version is refused with what the
/// server supports.
pub fn check_request_version(requested: &str) -> Result<ProtocolVersion, UnsupportedVersion> {
    let version = ProtocolVersion::from(requested);
    if ProtocolVersion::SUPPORTED_RELEASED.contains(&version) && is_stateless(&version) {
        Ok(version)
    } else {
        Err(UnsupportedVersion {
            requested: requested.to_owned(),
            supported: stateless_supported_strings(),
        })
    }
}

/// The client's choice from the versions a server offered (`server/discover`'s
/// `supportedVersions`, or an `UnsupportedProtocolVersionError`'s `supported`): the newest
/// released revision both speak, stateless or not; the draft only when they share no released
/// one (it is opt-in on both sides and changes without notice, so two builds that both enable
/// it still talk a released revision when they can). `None` when they share none; the caller
/// then falls back to `initialize`.
pub fn choose<S: AsRef<str>>(offered: &[S]) -> Option<ProtocolVersion> {
    let shared = |ours: &&ProtocolVersion| offered.iter().any(|v| v.as_ref() == ours.as_str());
    ProtocolVersion::SUPPORTED_RELEASED
        .iter()
        .find(shared)
        .or_else(|| ProtocolVersion::SUPPORTED.iter().find(shared))
        .cloned()
}

/// What a server says it supports, in the types of any revision that says it: the
/// `supportedVersions` of a `server/discover` result (`DiscoverResult`), or the `supported`
/// list of an `UnsupportedProtocolVersionError`'s data
/// (`UnsupportedProtocolVersionErrorObjectData`). Each revision module that has these
/// definitions implements it for them.
pub trait SupportedVersions {
    /// The versions, as the server listed them.
    fn supported_versions(&self) -> &[String];
}

/// [`choose`] from a `server/discover` result (or an `UnsupportedProtocolVersionError`'s
/// data) of any revision: the newest of its versions this build speaks.
///
/// ```
/// # #[cfg(feature = "v2026_07_28")] {
/// use mcp_spec_types::v2026_07_28::DiscoverResult;
/// use mcp_spec_types::{negotiation, ProtocolVersion};
///
/// let discovered: DiscoverResult = serde_json::from_str(
///     r#"{"supportedVersions":["2099-01-01","2026-07-28"],"capabilities":{},
///         "resultType":"complete","ttlMs":0,"cacheScope":"public"}"#,
/// ).unwrap();
/// assert_eq!(negotiation::choose_discovered(&discovered), Some(ProtocolVersion::V2026_07_28));
/// # }
/// ```
pub fn choose_discovered<S: SupportedVersions + ?Sized>(offer: &S) -> Option<ProtocolVersion> {
    choose(offer.supported_versions())
}

/// A request named a protocol version the server does not serve statelessly: the data of the
/// `UnsupportedProtocolVersionError` (`-32022`, HTTP `400 Bad Request`) that refuses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedVersion {
    /// The version the request named, echoed.
    pub requested: String,
    /// The versions the server supports, newest first.
    pub supported: Vec<String>,
}

impl UnsupportedVersion {
    /// The HTTP status of the refusal (the schema's description of the error: "For HTTP, the
    /// response status code MUST be `400 Bad Request`").
    pub const HTTP_STATUS: u16 = 400;

    /// The JSON-RPC error: code `-32022`, `data` `{requested, supported}`.
    pub fn to_rpc_error(&self) -> RpcError {
        let mut data = Map::new();
        data.insert("requested".into(), Value::String(self.requested.clone()));
        data.insert(
            "supported".into(),
            Value::Array(
                self.supported
                    .iter()
                    .map(|s| Value::String(s.clone()))
                    .collect(),
            ),
        );
        RpcError::from_code(ErrorCode::UnsupportedProtocolVersion).with_data(Value::Object(data))
    }
}

impl fmt::Display for UnsupportedVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unsupported protocol version {} (supported: {})",
            self.requested,
            self.supported.join(", ")
        )
    }
}

impl core::error::Error for UnsupportedVersion {}

/// A revision's [`SupportedVersions`] impls and its `From<&UnsupportedVersion>` for the
/// refusal's data, written once and expanded in every revision module whose schema has
/// `server/discover` and the `UnsupportedProtocolVersionError`.
#[allow(unused_macros)] // Used by the stateless revisions.
macro_rules! discovery_api {
    () => {
        impl $crate::negotiation::SupportedVersions for DiscoverResult {
            fn supported_versions(&self) -> &[::alloc::string::String] {
                &self.supported_versions
            }
        }

        impl $crate::negotiation::SupportedVersions for UnsupportedProtocolVersionErrorObjectData {
            fn supported_versions(&self) -> &[::alloc::string::String] {
                &self.supported
            }
        }

        impl ::core::convert::From<&$crate::negotiation::UnsupportedVersion>
            for UnsupportedProtocolVersionErrorObjectData
        {
            fn from(refusal: &$crate::negotiation::UnsupportedVersion) -> Self {
                UnsupportedProtocolVersionErrorObjectData {
                    requested: refusal.requested.clone(),
                    supported: refusal.supported.clone(),
                    extra: ::serde_json::Map::new(),
                }
            }
        }
    };
}
#[allow(unused_imports)] // Used by the stateless revisions.
pub(crate) use discovery_api;
