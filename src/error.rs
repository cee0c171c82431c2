//! The error of parsing a message: what went wrong, for which method, and where.

use crate::prelude::*;
use core::fmt;

/// What kind of problem a [`MessageError`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MessageErrorKind {
    /// The input is not JSON (or not UTF-8).
    Json,
    /// The JSON is not a JSON-RPC 2.0 message (`jsonrpc` missing or not `"2.0"`, no `method`,
    /// `result` or `error`, an `id` that is neither string nor integer, ...).
    Envelope,
    /// A batch, where the revision has no batches.
    BatchNotAllowed,
    /// The method exists in this revision but the other side sends it.
    WrongDirection,
    /// The method exists in this revision, but as a request where a notification came, or the
    /// other way round.
    WrongKind,
    /// The method is not in this revision but is in another one.
    WrongRevision,
    /// The params do not fit the method's params type.
    Params,
    /// A result does not fit the result type of the request it answers.
    Result,
    /// An error response's `error` member is not a JSON-RPC error object.
    ErrorObject,
}

/// Why a message could not be parsed: the method (when known), the JSON path of the culprit
/// (`params.contents[0].uri`), and what was expected there.
///
/// ```
/// # #[cfg(feature = "v2026_07_28")] {
/// use mcp_spec_types::v2026_07_28::ClientMessage;
/// let err = ClientMessage::parse(r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":7}}"#)
///     .unwrap_err();
/// assert_eq!(err.method(), Some("resources/read"));
/// assert_eq!(err.path(), "params.uri");
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageError {
    kind: MessageErrorKind,
    method: Option<String>,
    path: String,
    message: String,
}

impl MessageError {
    pub(crate) fn new(kind: MessageErrorKind, message: impl Into<String>) -> Self {
        MessageError {
            kind,
            method: None,
            path: String::new(),
            message: message.into(),
        }
    }

    pub(crate) fn with_method(mut self, method: &str) -> Self {
        self.method = Some(method.to_owned());
        self
    }

    pub(crate) fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Prefixes the path with the member it sits under (`params`, `result`, `[3]`).
    pub(crate) fn under(mut self, member: &str) -> Self {
        self.path = join_path(member, &self.path);
        self
    }

    /// Builds the error for a failed read of the member `member`, explained inside it.
    pub(crate) fn from_explained(
        kind: MessageErrorKind,
        member: &str,
        explained: crate::__private::Explained,
    ) -> Self {
        MessageError::new(kind, explained.message).with_path(join_path(member, &explained.path))
    }

    /// What kind of problem this is.
    pub fn kind(&self) -> MessageErrorKind {
        self.kind
    }

    /// The message's method, when it was read before the failure.
    pub fn method(&self) -> Option<&str> {
        self.method.as_deref()
    }

    /// The JSON path of the offending value (`params.contents[0].uri`); empty for the message
    /// itself. Inside a member that holds free-form JSON (`arguments`, `_meta`, `data`) the
    /// path names that member: any JSON is valid there, so only a malformed or too deeply
    /// nested document fails inside it. Without the `std` feature the path is where the crate's
    /// reader stopped, which inside a union whose arms are tried on a buffered value ends at
    /// the union (`result` for `tools/call`'s result in 2026-07-28).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was wrong, in words.
    pub fn message(&self) -> &str {
        &self.message
    }
}

fn join_path(member: &str, rest: &str) -> String {
    match (member.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_owned(),
        (false, true) => member.to_owned(),
        (false, false) if rest.starts_with('[') => format!("{member}{rest}"),
        (false, false) => format!("{member}.{rest}"),
    }
}

/// serde_json appends "at line 1 column 80" to its messages; the path says more (the
/// runtime's, which the explained reads use too).
pub(crate) use crate::__private::strip_position;

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(method) = &self.method {
            write!(f, "{method}: ")?;
        }
        if !self.path.is_empty() {
            write!(f, "at {}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

impl core::error::Error for MessageError {}
