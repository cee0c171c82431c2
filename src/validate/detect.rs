//! Finding a session's revision from its content.

use super::facts::LineFacts;
use crate::jsonrpc::RequestId;
use crate::prelude::*;
use crate::version::ProtocolVersion;
use alloc::borrow::Cow;
use core::fmt;

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
    let mut detector = Detector::default();
    for line in input.as_ref().split(|b| *b == b'\n') {
        detector.read_line(line);
        // Nothing outranks the negotiated version: the rest of the session cannot change
        // the answer, so it is not read.
        if detector.is_settled() {
            break;
        }
    }
    detector.detection()
}

/// What the lines read so far say of the session's revision, one line at a time.
#[derive(Debug, Default)]
pub(super) struct Detector {
    init_requests: Vec<Option<RequestId>>,
    discover_requests: Vec<Option<RequestId>>,
    init_request_version: Option<ProtocolVersion>,
    init_result_version: Option<ProtocolVersion>,
    meta_version: Option<ProtocolVersion>,
    discover_version: Option<ProtocolVersion>,
}

impl Detector {
    /// Reads one line's envelope facts (a line that is not UTF-8 or not JSON says nothing).
    pub(super) fn read_line(&mut self, line: &[u8]) {
        let Ok(text) = core::str::from_utf8(line) else {
            return;
        };
        if text.trim().is_empty() {
            return;
        }
        // Read before the revision is known, so not in its types: the envelope facts alone.
        let Ok(facts) = crate::json::from_str::<LineFacts<'_>>(text) else {
            return;
        };
        let version = |text: Option<Cow<'_, str>>| text.map(|v| ProtocolVersion::from(&*v));
        for item in facts.items {
            match item.method.as_deref() {
                Some("initialize") => {
                    if self.init_request_version.is_none() {
                        self.init_request_version = version(item.params_version);
                    }
                    self.init_requests.push(item.id);
                }
                Some(method) => {
                    if method == "server/discover" {
                        self.discover_requests.push(item.id);
                    }
                    if self.meta_version.is_none() {
                        self.meta_version = version(item.meta_version);
                    }
                }
                None => {
                    let Some(result) = item.result else {
                        continue;
                    };
                    let id = item.id;
                    let answers =
                        |requests: &[Option<RequestId>]| id.is_some() && requests.contains(&id);
                    if self.init_result_version.is_none() && answers(&self.init_requests) {
                        self.init_result_version = version(result.version);
                    }
                    if self.discover_version.is_none() && answers(&self.discover_requests) {
                        self.discover_version = ProtocolVersion::SUPPORTED
                            .iter()
                            .find(|v| result.supported.iter().any(|s| s == v.as_str()))
                            .cloned();
                    }
                }
            }
        }
    }

    /// Whether the negotiated version is known: no further line can change the answer.
    pub(super) fn is_settled(&self) -> bool {
        self.init_result_version.is_some()
    }

    /// The answer, unless a later line names `initialize`: a request's `_meta` protocol
    /// version, found before any `initialize`. Only an `initialize` request (and then its
    /// result) outranks it, so while none comes the answer stays this one.
    pub(super) fn unless_initialize(&self) -> Option<&ProtocolVersion> {
        self.meta_version
            .as_ref()
            .filter(|_| self.init_requests.is_empty())
    }

    /// The answer, from the lines read.
    pub(super) fn detection(self) -> Detection {
        let found = [
            (self.init_result_version, DetectionSource::InitializeResult),
            (
                self.init_request_version,
                DetectionSource::InitializeRequest,
            ),
            (self.meta_version, DetectionSource::RequestMeta),
            (self.discover_version, DetectionSource::Discover),
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
}

/// Whether a line names `initialize` (in any of its messages), read as [`Detector`] reads it.
pub(super) fn names_initialize(line: &[u8]) -> bool {
    let mut detector = Detector::default();
    detector.read_line(line);
    !detector.init_requests.is_empty()
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
