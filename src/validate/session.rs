//! The line-by-line validator: parses each message, tracks requests, pairs responses.

use super::facts::MessageFacts;
use super::read::{read_line, Read};
use super::report::{Invalid, LineReport, LineStatus, Summary, Warning, WarningKind};
use super::revision::{face, Face};
use super::{Side, ValidateError};
use crate::collections::HashMap;
use crate::dispatch::PendingRequest;
use crate::error::{MessageError, MessageErrorKind};
use crate::jsonrpc::RequestId;
use crate::method::MethodKind;
use crate::prelude::*;
use crate::revision::Summary as Parsed;
use crate::version::ProtocolVersion;
use alloc::borrow::Cow;
use core::fmt;
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::value::RawValue;

/// A request waiting for its response.
#[derive(Debug, Clone)]
pub(super) struct Pending {
    request: PendingRequest,
    line: usize,
}

/// Who sent a pending request: a side, or unknown (a method both sides send, without `dir`).
pub(super) type Requester = Option<Side>;

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
    face: Face,
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

impl SessionValidator {
    /// A validator for `revision`; fails when this build has no types for it.
    pub fn new(revision: ProtocolVersion) -> Result<Self, ValidateError> {
        let face = face(&revision).ok_or(ValidateError::UnsupportedRevision(revision.clone()))?;
        Ok(SessionValidator {
            revision,
            face,
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
        self.check_bytes_seeing(line, &mut |_| {})
    }

    /// [`check_bytes`](Self::check_bytes), showing `seen` what a valid line's message amounts
    /// to before it is recorded.
    pub(super) fn check_bytes_seeing(
        &mut self,
        line: &[u8],
        seen: &mut dyn FnMut(&Parsed),
    ) -> LineReport {
        match core::str::from_utf8(line) {
            Ok(text) => self.check_seeing(text, seen),
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
        self.check_seeing(line, &mut |_| {})
    }

    fn check_seeing(&mut self, line: &str, seen: &mut dyn FnMut(&Parsed)) -> LineReport {
        self.line += 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            let error = MessageError::new(
                MessageErrorKind::Json,
                "a blank line: JSON Lines has one message on every line",
            );
            return self.invalid("(blank line)".to_owned(), error, Vec::new());
        }
        let Read {
            sender,
            text,
            summary: parsed,
        } = match read_line(&self.face, line) {
            Ok(read) => read,
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
        let parsed = match parsed {
            Ok(parsed) => parsed,
            Err(error) => {
                let label = self.label_for_error(&error, text);
                self.track_envelope(sender, text, &mut warnings);
                return self.invalid(label, error, warnings);
            }
        };
        seen(&parsed);
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

    fn label_for_error(&self, error: &MessageError, text: &str) -> String {
        if let Some(method) = error.method() {
            return method.to_owned();
        }
        if error.kind() == MessageErrorKind::Json {
            return "(not JSON)".to_owned();
        }
        // Envelope errors come before the method is read: look for one, or for the request a
        // response answers. A second read of the text, on invalid messages only: the reader
        // that failed gave no facts.
        let facts = match crate::json::from_str::<MessageFacts<'_>>(text) {
            Ok(facts) if facts.is_object => facts,
            _ => return "(message)".to_owned(),
        };
        if let Some(method) = facts.method {
            return method.into_owned();
        }
        if facts.result.is_some() || facts.has_error {
            if let Some(id) = facts.id {
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

    /// Records a request whose message did not parse (its params invalid, say) by its envelope
    /// alone: its id, method and direction, and whether its params ask for a task. Its answer
    /// is then still typed and checked, where it would otherwise be an unpaired response.
    fn track_envelope(&mut self, sender: Option<Side>, text: &str, warnings: &mut Vec<Warning>) {
        let Ok(envelope) = crate::json::from_str::<Envelope<'_>>(text) else {
            return;
        };
        let (Some(id), Some(method)) = (envelope.id, envelope.method) else {
            return;
        };
        if !matches!(
            (self.face.method)(&method),
            Some((_, Some(MethodKind::Request)))
        ) {
            return;
        }
        let requester = sender.or_else(|| self.face.sender_of(&method));
        // Only revisions with tasks read `params.task`; elsewhere it is an unknown member.
        let task_augmented = (self.face.method)("tasks/get").is_some()
            && envelope.params.is_some_and(|params| {
                crate::json::from_str::<TaskProbe>(params.get())
                    .is_ok_and(|probe| probe.task.is_some())
            });
        let request = PendingRequest::new(&method, task_augmented);
        self.track(requester, id, request, warnings);
    }

    /// Keeps a request until its answer comes, warning when its id is already waiting.
    fn track(
        &mut self,
        requester: Option<Side>,
        id: RequestId,
        request: PendingRequest,
        warnings: &mut Vec<Warning>,
    ) {
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
                let requester = sender.or_else(|| self.face.sender_of(&method));
                if revisions_unknown(&method) {
                    warnings.push(self.unknown_method_warning(&method));
                }
                self.track(requester, id, request, warnings);
                Ok((method, requester))
            }
            Parsed::Notification { method, cancels } => {
                if revisions_unknown(&method) {
                    warnings.push(self.unknown_method_warning(&method));
                }
                let notifier = sender.or_else(|| self.face.sender_of(&method));
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
                    match (self.face.check_result)(
                        requester_side.unwrap_or(Side::Client).direction(),
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

/// The JSON-RPC envelope of a message whose params did not read: enough to pair its answer.
#[derive(Deserialize)]
struct Envelope<'a> {
    id: Option<RequestId>,
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow)]
    params: Option<&'a RawValue>,
}

/// Whether params ask for a task: only the presence of `task` matters here.
#[derive(Deserialize)]
struct TaskProbe {
    task: Option<IgnoredAny>,
}

/// Whether no revision the crate knows defines `method`.
pub(super) fn revisions_unknown(method: &str) -> bool {
    crate::dispatch::revisions_defining(method).is_empty()
}
