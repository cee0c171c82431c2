//! Validating recorded MCP sessions, one JSON Lines record at a time.
//!
//! A session is a sequence of lines, each either a bare JSON-RPC message or a record
//! `{"dir": "c2s" | "s2c", "msg": <message>}` that says which side sent it. Every message is
//! parsed with the revision's typed dispatch (so a method sent by the wrong side, a method of
//! another revision and params that do not fit their type are all caught, with the JSON path of
//! the culprit), and every response is paired with its request by id and direction, so its
//! `result` is checked as that request's result type (a `resources/read` response as
//! `ReadResourceResult`, and so on).
//!
//! Without `dir`, the direction of a request or notification is inferred from its method (a
//! method only the client sends travels client to server, and so on), and a response's
//! direction is the opposite of the request it answers.
//!
//! [`SessionValidator`] is fed one line at a time and reports on each; [`validate_session`]
//! validates a whole input, detecting the revision first with [`detect_revision`] when none is
//! given. Nothing here panics on any input: a line that is not JSON, not UTF-8 or not a
//! message is an invalid message, reported like any other.
//!
//! Warnings ([`Warning`]: a response whose request never appeared, a request never answered, a
//! reused id, a method no revision defines) never make a session invalid. The `mcp-validate`
//! command (`cargo run --release --features cli --bin mcp-validate -- <file>`) prints each invalid message
//! ([`Invalid`]'s `Display`) and then the [`Summary`] line on standard output, the warnings on
//! standard error, and exits with [`Report::exit_code`] (2 for usage or input errors).
//!
//! ```
//! # #[cfg(feature = "v2026_07_28")] {
//! use mcp_spec_types::validate::validate_session;
//! let session = r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":7}}}"#;
//! let report = validate_session(session, None).unwrap();
//! assert_eq!(report.summary.to_string(), "checked 1 messages: 0 valid, 1 invalid");
//! assert!(report.invalid[0].to_string().starts_with("line 1: resources/read: at params."));
//! assert_eq!(report.exit_code(), 1);
//! # }
//! ```

use crate::dispatch::{CallSet, Message, MethodSet, PendingRequest};
use crate::error::{MessageError, MessageErrorKind};
use crate::jsonrpc::RequestId;
use crate::method::{Direction, MethodKind};
use crate::version::ProtocolVersion;
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

pub use crate::version::PROTOCOL_VERSION_META_KEY;

/// Which side of a session sent a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The client (`"dir": "c2s"`).
    Client,
    /// The server (`"dir": "s2c"`).
    Server,
}

impl Side {
    /// The peer of this side.
    pub fn peer(self) -> Side {
        match self {
            Side::Client => Side::Server,
            Side::Server => Side::Client,
        }
    }

    /// The direction of a message this side sends.
    pub fn direction(self) -> Direction {
        match self {
            Side::Client => Direction::ClientToServer,
            Side::Server => Direction::ServerToClient,
        }
    }

    /// The `dir` value of a session record sent by this side (`"c2s"` or `"s2c"`).
    pub fn as_dir(self) -> &'static str {
        match self {
            Side::Client => "c2s",
            Side::Server => "s2c",
        }
    }

    /// Reads a `dir` value.
    pub fn from_dir(dir: &str) -> Option<Side> {
        match dir {
            "c2s" => Some(Side::Client),
            "s2c" => Some(Side::Server),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Client => "client",
            Side::Server => "server",
        })
    }
}

/// The validator could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValidateError {
    /// The revision is not one this build has types for: unknown, or its feature is disabled.
    UnsupportedRevision(ProtocolVersion),
}

impl fmt::Display for ValidateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValidateError::UnsupportedRevision(version) => {
                let supported: Vec<&str> = ProtocolVersion::SUPPORTED
                    .iter()
                    .map(ProtocolVersion::as_str)
                    .collect();
                let hint = match version {
                    ProtocolVersion::Unknown(_) => {
                        "it is not a revision this crate knows".to_owned()
                    }
                    ProtocolVersion::Draft => {
                        "this build does not include it (enable the `unstable-draft` feature)"
                            .to_owned()
                    }
                    known => format!(
                        "this build does not include it (enable the `v{}` feature)",
                        known.as_str().replace('-', "_")
                    ),
                };
                write!(
                    f,
                    "revision {version} cannot be validated: {hint}; this build supports {}",
                    if supported.is_empty() {
                        "no revision".to_owned()
                    } else {
                        supported.join(", ")
                    }
                )
            }
        }
    }
}

impl std::error::Error for ValidateError {}

/// An invalid message: its line, what it was, and why it does not fit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// The line number, from 1.
    pub line: usize,
    /// The method of the message, `response to <method>` for a response, or a short
    /// description in parentheses when neither is known (`(not JSON)`).
    pub label: String,
    /// What is wrong, with the JSON path of the culprit ([`MessageError::path`]).
    pub error: MessageError,
}

impl fmt::Display for Invalid {
    /// `line <n>: <label>: at <path>: <message>` (the `at <path>: ` part only when there is a
    /// path).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}: ", self.line, self.label)?;
        if !self.error.path().is_empty() {
            write!(f, "at {}: ", self.error.path())?;
        }
        f.write_str(self.error.message())
    }
}

/// What a [`Warning`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    /// A response whose request never appeared (its result cannot be typed).
    UnpairedResponse,
    /// A request never answered by the end of the session (cancelled requests excepted).
    Unanswered,
    /// A request id reused by the same side while the first request with it was unanswered.
    DuplicateId,
    /// A method that no revision defines: kept as data, since the protocol allows custom
    /// methods, but worth knowing about.
    UnknownMethod,
}

/// Something worth knowing that does not make a message invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The line the warning is about.
    pub line: usize,
    /// What the warning is about.
    pub kind: WarningKind,
    /// The warning, in words.
    pub message: String,
}

impl fmt::Display for Warning {
    /// `warning: line <n>: <message>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "warning: line {}: {}", self.line, self.message)
    }
}

/// How a line fared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineStatus {
    /// A valid message.
    Valid {
        /// The method, or `response to <method>` for a response.
        label: String,
        /// The side that sent it, when known (given by `dir`, inferred from the method, or
        /// from the request a response answers).
        sender: Option<Side>,
    },
    /// An invalid message.
    Invalid(Invalid),
}

/// The result of checking one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineReport {
    /// The line number, from 1.
    pub line: usize,
    /// Whether the line's message is valid.
    pub status: LineStatus,
    /// Warnings about the line (a response without a request, a reused id, ...).
    pub warnings: Vec<Warning>,
}

impl LineReport {
    /// Whether the line is an invalid message.
    pub fn is_invalid(&self) -> bool {
        matches!(self.status, LineStatus::Invalid(_))
    }
}

/// How many messages were checked, and how many were valid.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Lines checked: every line, a blank one counting as an invalid message.
    pub checked: usize,
    /// Valid messages.
    pub valid: usize,
    /// Invalid messages.
    pub invalid: usize,
}

impl fmt::Display for Summary {
    /// `checked <N> messages: <V> valid, <I> invalid`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "checked {} messages: {} valid, {} invalid",
            self.checked, self.valid, self.invalid
        )
    }
}

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
        let Ok(value) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        let message = match value.get("msg") {
            Some(msg) if value.get("jsonrpc").is_none() => msg,
            _ => &value,
        };
        let items: Vec<&Value> = match message {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        };
        for item in items {
            let id = item
                .get("id")
                .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
            let method = item.get("method").and_then(Value::as_str);
            let version_at = |pointer: &str| {
                item.pointer(pointer)
                    .and_then(Value::as_str)
                    .map(ProtocolVersion::from)
            };
            match method {
                Some("initialize") => {
                    if init_request_version.is_none() {
                        init_request_version = version_at("/params/protocolVersion");
                    }
                    init_requests.push(id);
                }
                Some(method) => {
                    if method == "server/discover" {
                        discover_requests.push(id);
                    }
                    if meta_version.is_none() {
                        meta_version = item
                            .get("params")
                            .and_then(|p| p.get("_meta"))
                            .and_then(|m| m.get(PROTOCOL_VERSION_META_KEY))
                            .and_then(Value::as_str)
                            .map(ProtocolVersion::from);
                    }
                }
                None => {
                    let Some(result) = item.get("result") else {
                        continue;
                    };
                    let answers =
                        |requests: &[Option<RequestId>]| id.is_some() && requests.contains(&id);
                    if init_result_version.is_none() && answers(&init_requests) {
                        init_result_version = result
                            .get("protocolVersion")
                            .and_then(Value::as_str)
                            .map(ProtocolVersion::from);
                    }
                    if discover_version.is_none() && answers(&discover_requests) {
                        let offered: Vec<&str> = result
                            .get("supportedVersions")
                            .and_then(Value::as_array)
                            .map(|v| v.iter().filter_map(Value::as_str).collect())
                            .unwrap_or_default();
                        discover_version = ProtocolVersion::SUPPORTED
                            .iter()
                            .find(|v| offered.contains(&v.as_str()))
                            .cloned();
                    }
                }
            }
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
fn fallback_revision() -> ProtocolVersion {
    if ProtocolVersion::LATEST.is_supported() {
        return ProtocolVersion::LATEST;
    }
    ProtocolVersion::SUPPORTED_RELEASED
        .first()
        .or(ProtocolVersion::SUPPORTED.first())
        .cloned()
        .unwrap_or(ProtocolVersion::LATEST)
}

/// Everything [`validate_session`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The revision the session was validated against.
    pub revision: ProtocolVersion,
    /// How the revision was found, when it was not given.
    pub detection: Option<Detection>,
    /// The invalid messages, in order.
    pub invalid: Vec<Invalid>,
    /// The warnings, in order of their lines (unanswered requests at their request's line).
    pub warnings: Vec<Warning>,
    /// The counts.
    pub summary: Summary,
}

impl Report {
    /// Whether every message is valid (warnings do not count).
    pub fn is_valid(&self) -> bool {
        self.summary.invalid == 0
    }

    /// The exit status of a validator run: 0 when every message is valid, 1 otherwise.
    /// (Usage and input errors, 2, happen before there is a report.)
    pub fn exit_code(&self) -> i32 {
        if self.is_valid() {
            0
        } else {
            1
        }
    }
}

/// Validates a whole session: detects the revision when `revision` is `None`
/// ([`detect_revision`]), checks every line, then reports requests never answered.
///
/// Fails only when the revision (given or detected) is not supported by this build.
pub fn validate_session(
    input: impl AsRef<[u8]>,
    revision: Option<ProtocolVersion>,
) -> Result<Report, ValidateError> {
    let input = input.as_ref();
    let (revision, detection) = match revision {
        Some(revision) => (revision, None),
        None => {
            let detection = detect_revision(input);
            (detection.version.clone(), Some(detection))
        }
    };
    let mut validator = SessionValidator::new(revision.clone())?;
    let mut invalid = Vec::new();
    let mut warnings = Vec::new();
    // A final newline ends the last line rather than starting an empty one.
    let input = input.strip_suffix(b"\n").unwrap_or(input);
    if !input.is_empty() {
        for line in input.split(|b| *b == b'\n') {
            let report = validator.check_bytes(line);
            warnings.extend(report.warnings);
            if let LineStatus::Invalid(bad) = report.status {
                invalid.push(bad);
            }
        }
    }
    let (summary, unanswered) = validator.finish();
    warnings.extend(unanswered);
    warnings.sort_by_key(|w| w.line);
    Ok(Report {
        revision,
        detection,
        invalid,
        warnings,
        summary,
    })
}

/// A request waiting for its response.
#[derive(Debug, Clone)]
struct Pending {
    request: PendingRequest,
    line: usize,
}

/// Who sent a pending request: a side, or unknown (a method both sides send, without `dir`).
type Requester = Option<Side>;

/// Checks a session one line at a time, remembering requests so that responses are typed by
/// the request they answer.
///
/// ```
/// # #[cfg(feature = "v2025_06_18")] {
/// use mcp_spec_types::validate::{LineStatus, SessionValidator};
/// use mcp_spec_types::ProtocolVersion;
/// let mut v = SessionValidator::new(ProtocolVersion::from("2025-06-18")).unwrap();
/// v.check_line(r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a"}}"#);
/// let report = v.check_line(r#"{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"file:///a"}]}}"#);
/// let LineStatus::Invalid(bad) = report.status else { panic!() };
/// assert_eq!(bad.label, "response to resources/read");
/// assert!(bad.error.path().starts_with("result.contents[0]"));
/// # }
/// ```
pub struct SessionValidator {
    revision: ProtocolVersion,
    module: &'static dyn Revision,
    line: usize,
    summary: Summary,
    pending: HashMap<(Requester, RequestId), Pending>,
}

impl fmt::Debug for SessionValidator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionValidator")
            .field("revision", &self.revision)
            .field("line", &self.line)
            .field("summary", &self.summary)
            .field("pending", &self.pending.len())
            .finish()
    }
}

/// What a parsed message amounts to, whatever its revision.
enum Parsed {
    Request {
        id: RequestId,
        request: PendingRequest,
    },
    Notification {
        method: String,
        cancels: Option<RequestId>,
    },
    Response {
        id: RequestId,
        result: Box<RawValue>,
    },
    Error {
        id: Option<RequestId>,
    },
    Batch(Vec<Parsed>),
}

impl SessionValidator {
    /// A validator for `revision`; fails when this build has no types for it.
    pub fn new(revision: ProtocolVersion) -> Result<Self, ValidateError> {
        let module =
            module_for(&revision).ok_or(ValidateError::UnsupportedRevision(revision.clone()))?;
        Ok(SessionValidator {
            revision,
            module,
            line: 0,
            summary: Summary::default(),
            pending: HashMap::new(),
        })
    }

    /// The revision messages are checked against.
    pub fn revision(&self) -> &ProtocolVersion {
        &self.revision
    }

    /// The counts so far.
    pub fn summary(&self) -> Summary {
        self.summary
    }

    /// How many requests are waiting for their response.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// Checks the next line, given as bytes (a line that is not UTF-8 is an invalid message).
    /// A trailing `\r` is ignored.
    pub fn check_bytes(&mut self, line: &[u8]) -> LineReport {
        match std::str::from_utf8(line) {
            Ok(text) => self.check_line(text),
            Err(e) => {
                self.line += 1;
                let error = MessageError::new(
                    MessageErrorKind::Json,
                    format!("the line is not UTF-8: {e}"),
                );
                self.invalid(String::from("(not UTF-8)"), error, Vec::new())
            }
        }
    }

    /// Checks the next line: a bare JSON-RPC message or a `{"dir": ..., "msg": ...}` record.
    /// A trailing `\r` is ignored. A blank line is invalid: JSON Lines has none, and neither
    /// has MCP's stdio transport ("messages are delimited by newlines").
    pub fn check_line(&mut self, line: &str) -> LineReport {
        self.line += 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            let error = MessageError::new(
                MessageErrorKind::Json,
                "a blank line: JSON Lines has one message on every line",
            );
            return self.invalid("(blank line)".to_owned(), error, Vec::new());
        }
        let (sender, text) = match unwrap_record(line) {
            Ok(parts) => parts,
            Err(error) => {
                let label = if error.kind() == MessageErrorKind::Json {
                    "(not JSON)"
                } else {
                    "(record)"
                };
                return self.invalid(label.to_owned(), error, Vec::new());
            }
        };
        let mut warnings = Vec::new();
        let (sender, parsed) = match sender {
            Some(side) => (Some(side), self.module.parse(side, text)),
            None => self.parse_inferring(text),
        };
        let parsed = match parsed {
            Ok(parsed) => parsed,
            Err(error) => {
                let label = self.label_for_error(&error, text);
                return self.invalid(label, error, warnings);
            }
        };
        let (label, sender) = match self.absorb(sender, parsed, &mut warnings) {
            Ok(absorbed) => absorbed,
            Err((label, error)) => return self.invalid(label, error, warnings),
        };
        self.summary.checked += 1;
        self.summary.valid += 1;
        LineReport {
            line: self.line,
            status: LineStatus::Valid { label, sender },
            warnings,
        }
    }

    /// Ends the session: the counts, and a warning for every request never answered, in the
    /// order of their lines.
    pub fn finish(self) -> (Summary, Vec<Warning>) {
        let mut unanswered: Vec<(Requester, RequestId, Pending)> = self
            .pending
            .into_iter()
            .map(|((side, id), pending)| (side, id, pending))
            .collect();
        unanswered.sort_by(|a, b| a.2.line.cmp(&b.2.line).then_with(|| a.1.cmp(&b.1)));
        let warnings = unanswered
            .into_iter()
            .map(|(side, id, pending)| Warning {
                line: pending.line,
                kind: WarningKind::Unanswered,
                message: format!(
                    "request {} (id {id}{}) was never answered",
                    pending.request.method(),
                    side.map(|s| format!(", sent by the {s}"))
                        .unwrap_or_default()
                ),
            })
            .collect();
        (self.summary, warnings)
    }

    fn invalid(
        &mut self,
        label: String,
        error: MessageError,
        warnings: Vec<Warning>,
    ) -> LineReport {
        self.summary.checked += 1;
        self.summary.invalid += 1;
        LineReport {
            line: self.line,
            status: LineStatus::Invalid(Invalid {
                line: self.line,
                label,
                error,
            }),
            warnings,
        }
    }

    /// Parses a message whose sender is not given: as the client's, and as the server's when
    /// the method turns out to be one the server sends.
    fn parse_inferring(&self, text: &str) -> (Option<Side>, Result<Parsed, MessageError>) {
        match self.module.parse(Side::Client, text) {
            Err(e) if e.kind() == MessageErrorKind::WrongDirection => {
                (Some(Side::Server), self.module.parse(Side::Server, text))
            }
            Err(e) => {
                let sender = e.method().and_then(|m| self.sender_of(m));
                (sender, Err(e))
            }
            Ok(parsed) => {
                let sender = match &parsed {
                    Parsed::Request { request, .. } => self.sender_of(request.method()),
                    Parsed::Notification { method, .. } => self.sender_of(method),
                    Parsed::Batch(items) => items.iter().find_map(|item| match item {
                        Parsed::Request { request, .. } => self.sender_of(request.method()),
                        Parsed::Notification { method, .. } => self.sender_of(method),
                        _ => None,
                    }),
                    // A response's sender is the peer of its request's: decided when pairing.
                    _ => None,
                };
                (sender, Ok(parsed))
            }
        }
    }

    /// The one side that sends `method` in this revision, if only one does.
    fn sender_of(&self, method: &str) -> Option<Side> {
        match self.module.method(method) {
            Some((Some(Direction::ClientToServer), _)) => Some(Side::Client),
            Some((Some(Direction::ServerToClient), _)) => Some(Side::Server),
            _ => None,
        }
    }

    fn label_for_error(&self, error: &MessageError, text: &str) -> String {
        if let Some(method) = error.method() {
            return method.to_owned();
        }
        if error.kind() == MessageErrorKind::Json {
            return "(not JSON)".to_owned();
        }
        // Envelope errors come before the method is read: look for one, or for the request a
        // response answers.
        let Ok(Value::Object(object)) = serde_json::from_str::<Value>(text) else {
            return "(message)".to_owned();
        };
        if let Some(method) = object.get("method").and_then(Value::as_str) {
            return method.to_owned();
        }
        if object.contains_key("result") || object.contains_key("error") {
            let id = object
                .get("id")
                .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
            if let Some(id) = id {
                for requester in [Some(Side::Client), Some(Side::Server), None] {
                    if let Some(p) = self.pending.get(&(requester, id.clone())) {
                        return format!("response to {}", p.request.method());
                    }
                }
            }
            return "(response)".to_owned();
        }
        "(message)".to_owned()
    }

    /// Records a parsed message: tracks requests, pairs and types responses. Returns the label
    /// and the sender (as given, inferred from the method, or the peer of the request a
    /// response answers), or the label and error when a response's result does not fit.
    fn absorb(
        &mut self,
        sender: Option<Side>,
        parsed: Parsed,
        warnings: &mut Vec<Warning>,
    ) -> Result<(String, Option<Side>), (String, MessageError)> {
        match parsed {
            Parsed::Request { id, request } => {
                let method = request.method().to_owned();
                let requester = sender.or_else(|| self.sender_of(&method));
                if revisions_unknown(&method) {
                    warnings.push(self.unknown_method_warning(&method));
                }
                let entry = Pending {
                    request,
                    line: self.line,
                };
                if let Some(old) = self.pending.insert((requester, id.clone()), entry) {
                    warnings.push(Warning {
                        line: self.line,
                        kind: WarningKind::DuplicateId,
                        message: format!(
                            "request id {id} reused while request {} (line {}) is unanswered",
                            old.request.method(),
                            old.line
                        ),
                    });
                }
                Ok((method, requester))
            }
            Parsed::Notification { method, cancels } => {
                if revisions_unknown(&method) {
                    warnings.push(self.unknown_method_warning(&method));
                }
                let notifier = sender.or_else(|| self.sender_of(&method));
                if let Some(id) = cancels {
                    // The cancelled request may go unanswered; the canceller is its requester.
                    let candidates: Vec<Requester> = match notifier {
                        Some(side) => vec![Some(side), None],
                        None => vec![Some(Side::Client), Some(Side::Server), None],
                    };
                    for requester in candidates {
                        if self.pending.remove(&(requester, id.clone())).is_some() {
                            break;
                        }
                    }
                }
                Ok((method, notifier))
            }
            Parsed::Response { id, result } => {
                let candidates = self.requesters_for(sender, &id);
                if candidates.is_empty() {
                    warnings.push(self.unpaired_warning(&id));
                    return Ok((format!("response to unknown request {id}"), sender));
                }
                // Several candidates only without `dir`, when both sides have a request with
                // this id pending: the first whose result type fits is the one answered.
                let mut first_error = None;
                for requester in &candidates {
                    let Some(pending) = self.pending.get(&(*requester, id.clone())) else {
                        continue;
                    };
                    let request = pending.request.clone();
                    let method = request.method().to_owned();
                    let requester_side = requester.or(sender.map(Side::peer));
                    let responder = sender.or(requester_side.map(Side::peer));
                    match self.module.check_result(
                        requester_side.unwrap_or(Side::Client),
                        &request,
                        &result,
                    ) {
                        Ok(()) => {
                            self.pending.remove(&(*requester, id));
                            return Ok((format!("response to {method}"), responder));
                        }
                        Err(e) => {
                            if first_error.is_none() {
                                first_error = Some((*requester, method, e));
                            }
                        }
                    }
                }
                match first_error {
                    Some((requester, method, error)) => {
                        self.pending.remove(&(requester, id));
                        Err((format!("response to {method}"), error))
                    }
                    None => Ok((format!("response to unknown request {id}"), sender)),
                }
            }
            Parsed::Error { id } => {
                let Some(id) = id else {
                    // An error about a message whose id could not be read answers nothing.
                    return Ok(("error response".to_owned(), sender));
                };
                let candidates = self.requesters_for(sender, &id);
                match candidates.first() {
                    Some(requester) => {
                        let pending = self.pending.remove(&(*requester, id));
                        let method = pending
                            .map(|p| p.request.method().to_owned())
                            .unwrap_or_default();
                        let responder = sender.or(requester.map(Side::peer));
                        Ok((format!("error response to {method}"), responder))
                    }
                    None => {
                        warnings.push(self.unpaired_warning(&id));
                        Ok((format!("error response to unknown request {id}"), sender))
                    }
                }
            }
            Parsed::Batch(items) => {
                // Every item is recorded, even after an invalid one; the first error is the
                // batch's.
                let mut first_error = None;
                let mut batch_sender = sender;
                for (index, item) in items.into_iter().enumerate() {
                    match self.absorb(batch_sender, item, warnings) {
                        Ok((_, item_sender)) => batch_sender = batch_sender.or(item_sender),
                        Err((label, error)) => {
                            if first_error.is_none() {
                                first_error = Some((label, error.under(&format!("[{index}]"))));
                            }
                        }
                    }
                }
                match first_error {
                    Some(error) => Err(error),
                    None => Ok(("batch".to_owned(), batch_sender)),
                }
            }
        }
    }

    /// The pending requests a response from `responder` with `id` may answer, most likely
    /// first.
    fn requesters_for(&self, responder: Option<Side>, id: &RequestId) -> Vec<Requester> {
        let order: &[Requester] = match responder {
            Some(Side::Server) => &[Some(Side::Client), None],
            Some(Side::Client) => &[Some(Side::Server), None],
            None => &[Some(Side::Client), Some(Side::Server), None],
        };
        order
            .iter()
            .copied()
            .filter(|requester| self.pending.contains_key(&(*requester, id.clone())))
            .collect()
    }

    fn unpaired_warning(&self, id: &RequestId) -> Warning {
        Warning {
            line: self.line,
            kind: WarningKind::UnpairedResponse,
            message: format!(
                "response to request id {id}, which never appeared (or was already answered): its result cannot be typed"
            ),
        }
    }

    fn unknown_method_warning(&self, method: &str) -> Warning {
        Warning {
            line: self.line,
            kind: WarningKind::UnknownMethod,
            message: format!(
                "method {method:?} is not defined by any MCP revision; its params are not checked"
            ),
        }
    }
}

/// Whether no revision the crate knows defines `method`.
fn revisions_unknown(method: &str) -> bool {
    crate::dispatch::revisions_defining(method).is_empty()
}

/// Splits a session record into its sender and message text; a bare message has no sender.
fn unwrap_record(line: &str) -> Result<(Option<Side>, &str), MessageError> {
    let trimmed = line.trim_start();
    if !trimmed.starts_with('{') {
        // Not an object: a batch, or not a message at all (parsing will say which). Check that
        // it is JSON first, so the error reads as such.
        serde_json::from_str::<&RawValue>(line).map_err(json_error)?;
        return Ok((None, line));
    }
    let members: BTreeMap<String, &RawValue> = serde_json::from_str(line).map_err(json_error)?;
    if members.contains_key("jsonrpc") || !members.contains_key("msg") {
        return Ok((None, line));
    }
    let record_error = |message: String, path: &str| {
        MessageError::new(MessageErrorKind::Envelope, message).with_path(path)
    };
    let msg = members.get("msg").map(|m| m.get()).unwrap_or("null");
    let sender = match members.get("dir") {
        None => None,
        Some(dir) => {
            let dir: Value = serde_json::from_str(dir.get()).unwrap_or(Value::Null);
            match dir.as_str().and_then(Side::from_dir) {
                Some(side) => Some(side),
                None => {
                    return Err(record_error(
                        format!("`dir` must be \"c2s\" or \"s2c\", found {dir}"),
                        "dir",
                    ))
                }
            }
        }
    };
    Ok((sender, msg))
}

fn json_error(error: serde_json::Error) -> MessageError {
    let kind = if error.is_data() {
        MessageErrorKind::Envelope
    } else {
        MessageErrorKind::Json
    };
    MessageError::new(kind, error.to_string())
}

/// One revision's typed dispatch, behind a revision-independent face.
trait Revision: Sync {
    /// Who sends `method` and what kind it is; `None` when the revision does not define it.
    fn method(&self, name: &str) -> Option<(Option<Direction>, Option<MethodKind>)>;
    /// Parses a message `sender` sent.
    fn parse(&self, sender: Side, text: &str) -> Result<Parsed, MessageError>;
    /// Checks the result of `request`, which `requester` sent.
    fn check_result(
        &self,
        requester: Side,
        request: &PendingRequest,
        result: &RawValue,
    ) -> Result<(), MessageError>;
}

fn summarize<R: CallSet, N: MethodSet>(message: Message<R, N>) -> Parsed {
    match message {
        Message::Request(r) => Parsed::Request {
            id: r.id,
            request: PendingRequest::of(&r.call),
        },
        Message::Notification(n) => {
            let method = n.notification.method().to_owned();
            let cancels = if method == "notifications/cancelled" {
                cancelled_request(&n.notification)
            } else {
                None
            };
            Parsed::Notification { method, cancels }
        }
        Message::Response(r) => Parsed::Response {
            id: r.id,
            result: r.result,
        },
        Message::Error(e) => Parsed::Error { id: e.id },
        Message::Batch(items) => Parsed::Batch(items.into_iter().map(summarize).collect()),
    }
}

/// The `requestId` of a `notifications/cancelled`, read back through its params.
fn cancelled_request<N: MethodSet>(notification: &N) -> Option<RequestId> {
    use serde::ser::{SerializeMap, Serializer};
    let mut map = serde_json::value::Serializer.serialize_map(None).ok()?;
    notification.serialize_params(&mut map).ok()?;
    let params = map.end().ok()?;
    let id = params.get("params")?.get("requestId")?.clone();
    serde_json::from_value(id).ok()
}

macro_rules! revision_module {
    ($feature:literal, $module:ident, $unit:ident) => {
        #[cfg(feature = $feature)]
        struct $unit;

        #[cfg(feature = $feature)]
        impl Revision for $unit {
            fn method(&self, name: &str) -> Option<(Option<Direction>, Option<MethodKind>)> {
                crate::$module::Method::known(name).map(|m| (m.direction(), m.kind()))
            }

            fn parse(&self, sender: Side, text: &str) -> Result<Parsed, MessageError> {
                match sender {
                    Side::Client => crate::$module::ClientMessage::parse(text).map(summarize),
                    Side::Server => crate::$module::ServerMessage::parse(text).map(summarize),
                }
            }

            fn check_result(
                &self,
                requester: Side,
                request: &PendingRequest,
                result: &RawValue,
            ) -> Result<(), MessageError> {
                match requester {
                    Side::Client => {
                        crate::$module::ClientCallResult::parse(request, result).map(drop)
                    }
                    Side::Server => {
                        crate::$module::ServerCallResult::parse(request, result).map(drop)
                    }
                }
            }
        }
    };
}

revision_module!("v2024_11_05", v2024_11_05, Rev2024_11_05);
revision_module!("v2025_03_26", v2025_03_26, Rev2025_03_26);
revision_module!("v2025_06_18", v2025_06_18, Rev2025_06_18);
revision_module!("v2025_11_25", v2025_11_25, Rev2025_11_25);
revision_module!("v2026_07_28", v2026_07_28, Rev2026_07_28);
revision_module!("unstable-draft", draft, RevDraft);

/// The typed dispatch of `version`, when this build has it.
fn module_for(version: &ProtocolVersion) -> Option<&'static dyn Revision> {
    match version {
        #[cfg(feature = "v2024_11_05")]
        ProtocolVersion::V2024_11_05 => Some(&Rev2024_11_05),
        #[cfg(feature = "v2025_03_26")]
        ProtocolVersion::V2025_03_26 => Some(&Rev2025_03_26),
        #[cfg(feature = "v2025_06_18")]
        ProtocolVersion::V2025_06_18 => Some(&Rev2025_06_18),
        #[cfg(feature = "v2025_11_25")]
        ProtocolVersion::V2025_11_25 => Some(&Rev2025_11_25),
        #[cfg(feature = "v2026_07_28")]
        ProtocolVersion::V2026_07_28 => Some(&Rev2026_07_28),
        #[cfg(feature = "unstable-draft")]
        ProtocolVersion::Draft => Some(&RevDraft),
        _ => None,
    }
}
