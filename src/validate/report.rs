//! What validation reports: each line's status, the invalid messages, the warnings, the counts.

use super::detect::Detection;
use super::Side;
use crate::error::MessageError;
use crate::prelude::*;
use crate::version::ProtocolVersion;
use core::fmt;

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

/// Everything [`validate_session`](super::validate_session) found.
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
