//! Reading one line: its sender and what its message amounts to, in one read of the line's
//! text when the message is valid.
//!
//! The message's own reader ([`Revision::summarize`](crate::revision::Revision::summarize)) is
//! the one read: the record around it is found from its framing bytes ([`shape`]), and so is,
//! for a message without `dir`, which side's reader to try first. Only a line that does not
//! read as it looks is read again, the precise way (the record in full, then its message), so
//! that its error is the one it always was.

use super::record::unwrap_record;
use super::revision::Face;
use super::shape;
use super::Side;
use crate::error::{MessageError, MessageErrorKind};
use crate::method::Direction;
use crate::revision::Summary;

/// A line, read.
pub(super) struct Read<'a> {
    /// Who sent the message: given by `dir`, or inferred from its method.
    pub sender: Option<Side>,
    /// The message's text (a record's `msg`, or the whole line).
    pub text: &'a str,
    /// What the message amounts to, or why it is invalid.
    pub summary: Result<Summary, MessageError>,
}

/// Reads `line`, a record or a bare message; fails when the line is not JSON or is a record
/// whose `dir` is not `"c2s"` or `"s2c"`.
pub(super) fn read_line<'a>(face: &Face, line: &'a str) -> Result<Read<'a>, MessageError> {
    let guessed = match shape::guess(line) {
        Some((sender, text)) => {
            let (sender_read, summary) = read_message(face, sender, text);
            if summary.is_ok() {
                return Ok(Read {
                    sender: sender_read,
                    text,
                    summary,
                });
            }
            Some((sender, text, sender_read, summary))
        }
        None => None,
    };
    // The line did not read as it looked, or did not look like anything: its framing is read
    // in full (a second read, for the record's own error or a record in another form). When it
    // is what the guess took it for, the guess's reading is its reading.
    let (sender, text) = unwrap_record(line)?;
    let (sender_read, summary) = match guessed {
        Some((guessed_sender, guessed_text, sender_read, summary))
            if guessed_sender == sender && guessed_text == text =>
        {
            (sender_read, summary)
        }
        _ => read_message(face, sender, text),
    };
    Ok(Read {
        sender: sender_read,
        text,
        summary,
    })
}

/// Reads a message `sender` sent; without a sender, infers it.
fn read_message(
    face: &Face,
    sender: Option<Side>,
    text: &str,
) -> (Option<Side>, Result<Summary, MessageError>) {
    match sender {
        Some(side) => (Some(side), (face.summarize)(side.direction(), text)),
        None => read_inferring(face, text),
    }
}

/// Reads a message whose sender is not given: as the client's, and as the server's when the
/// method turns out to be one the server sends. When the method is seen in the first members
/// and only the server sends it, the server's reader reads it first, so that the message is
/// read once.
fn read_inferring(face: &Face, text: &str) -> (Option<Side>, Result<Summary, MessageError>) {
    let mut servers = None;
    if let Some(method) = shape::leading_method(text) {
        if face.sender_of(method) == Some(Side::Server) {
            let summary = (face.summarize)(Direction::ServerToClient, text);
            if summary.is_ok() {
                // The client's reader would have refused it as the server's method.
                return (Some(Side::Server), summary);
            }
            servers = Some(summary);
        }
    }
    match (face.summarize)(Direction::ClientToServer, text) {
        Err(e) if e.kind() == MessageErrorKind::WrongDirection => {
            // The server's reading of the same text, when it was already made above.
            let summary =
                servers.unwrap_or_else(|| (face.summarize)(Direction::ServerToClient, text));
            (Some(Side::Server), summary)
        }
        Err(e) => {
            let sender = e.method().and_then(|m| face.sender_of(m));
            (sender, Err(e))
        }
        Ok(summary) => {
            let sender = match &summary {
                Summary::Batch(items) => items.iter().find_map(|item| caller(face, item)),
                // A response's sender is the peer of its request's: decided when pairing.
                other => caller(face, other),
            };
            (sender, Ok(summary))
        }
    }
}

/// The side that sends a request or notification's method, if only one does.
fn caller(face: &Face, summary: &Summary) -> Option<Side> {
    match summary {
        Summary::Request { request, .. } => face.sender_of(request.method()),
        Summary::Notification { method, .. } => face.sender_of(method),
        _ => None,
    }
}
