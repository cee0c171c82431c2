//! Finding a session's revision from its content.

use super::facts::LineFacts;
use crate::jsonrpc::RequestId;
use crate::version::ProtocolVersion;
use std::borrow::Cow;
use std::fmt;

/// Where [`detect_revision`] found the session's revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DetectionSource {
    /// The `protocolVersion` of the `initialize` result (the negotiated version).
    InitializeResult,
    /// The `protocolVersion` of the `initialize` request (no result was recorded).
    InitializeRequest,
    /// A request's `params._meta["io.modelcontextprotocol/protocolVersion"]`.
    RequestMeta,
    /// The newest version of a `server/discover` result's `supportedVersions` that this build
    /// supports.
    Discover,
    /// Nothing in the session says: the latest released revision this build supports.
    Fallback,
}

impl fmt::Display for DetectionSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DetectionSource::InitializeResult => "the initialize result",
            DetectionSource::InitializeRequest => "the initialize request",
            DetectionSource::RequestMeta => "a request's _meta protocol version",
            DetectionSource::Discover => "the server/discover result",
            DetectionSource::Fallback => "no version in the session: fell back to the latest",
        })
    }
}

/// The revision a session uses, and where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detection {
    /// The revision. For [`DetectionSource::Fallback`] it is always supported by this build
    /// (unless the build supports none); otherwise it is what the session says, supported or
    /// not.
    pub version: ProtocolVersion,
    /// Where it was found.
    pub source: DetectionSource,
}

/// Reads the session's revision without validating anything.
///
/// In order of precedence: the `initialize` result's `protocolVersion` (the negotiated one),
/// the `initialize` request's, the first request's `params._meta` protocol version (stateless
/// revisions such as 2026-07-28 carry it on every request), the newest supported entry of a
/// `server/discover` result's `supportedVersions`; otherwise the latest released revision this
/// build supports ([`DetectionSource::Fallback`]). Lines that cannot be read are skipped.
pub fn detect_revision(input: impl AsRef<[u8]>) -> Detection {
    let mut init_requests: Vec<Option<RequestId>> = Vec::new();
    let mut discover_requests: Vec<Option<RequestId>> = Vec::new();
    let mut init_request_version = None;
    let mut init_result_version = None;
    let mut meta_version = None;
    let mut discover_version = None;
    for line in input.as_ref().split(|b| *b == b'\n') {
        let Ok(text) = std::str::from_utf8(line) else {
            continue;
        };
        if text.trim().is_empty() {
            continue;
        }
        // Read before the revision is known, so not in its types: the envelope facts alone,
        // in one pass (the lines are read again, in the revision's types, once it is found).
        let Ok(facts) = crate::json::from_str::<LineFacts<'_>>(text) else {
            continue;
        };
        for item in facts.items {
            let version = |text: Option<Cow<'_, str>>| text.map(|v| ProtocolVersion::from(&*v));
            match item.method.as_deref() {
                Some("initialize") => {
                    if init_request_version.is_none() {
                        init_request_version = version(item.params_version);
                    }
                    init_requests.push(item.id);
                }
                Some(method) => {
                    if method == "server/discover" {
                        discover_requests.push(item.id);
                    }
                    if meta_version.is_none() {
                        meta_version = version(item.meta_version);
                    }
                }
                None => {
                    let Some(result) = item.result else {
                        continue;
                    };
                    let id = item.id;
                    let answers =
                        |requests: &[Option<RequestId>]| id.is_some() && requests.contains(&id);
                    if init_result_version.is_none() && answers(&init_requests) {
                        init_result_version = version(result.version);
                    }
                    if discover_version.is_none() && answers(&discover_requests) {
                        discover_version = ProtocolVersion::SUPPORTED
                            .iter()
                            .find(|v| result.supported.iter().any(|s| s == v.as_str()))
                            .cloned();
                    }
                }
            }
        }
        // Nothing outranks the negotiated version: the rest of the session cannot change
        // the answer, so it is not read.
        if init_result_version.is_some() {
            break;
        }
    }
    let found = [
        (init_result_version, DetectionSource::InitializeResult),
        (init_request_version, DetectionSource::InitializeRequest),
        (meta_version, DetectionSource::RequestMeta),
        (discover_version, DetectionSource::Discover),
    ];
    for (version, source) in found {
        if let Some(version) = version {
            return Detection { version, source };
        }
    }
    Detection {
        version: fallback_revision(),
        source: DetectionSource::Fallback,
    }
}

/// The latest released revision this build supports (the draft only when nothing else is).
pub(super) fn fallback_revision() -> ProtocolVersion {
    if ProtocolVersion::LATEST.is_supported() {
        return ProtocolVersion::LATEST;
    }
    ProtocolVersion::SUPPORTED_RELEASED
        .first()
        .or(ProtocolVersion::SUPPORTED.first())
        .cloned()
        .unwrap_or(ProtocolVersion::LATEST)
}
