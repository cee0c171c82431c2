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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;
    use crate::revision::{self, Revision, Visit};
    use crate::version::ProtocolVersion;
    use core::cell::Cell;
    use serde_json::Value;

    std::thread_local! {
        /// How many times a message was read in its revision's types on this thread.
        static READS: Cell<usize> = const { Cell::new(0) };
    }

    fn counted<R: Revision>(sender: Direction, text: &str) -> Result<Summary, MessageError> {
        READS.with(|reads| reads.set(reads.get() + 1));
        R::summarize(sender, text)
    }

    /// A revision's face whose message reader counts its reads.
    struct CountingFace;

    impl Visit for CountingFace {
        type Output = Face;
        fn visit<R: Revision>(self) -> Face {
            Face {
                method: R::method,
                summarize: counted::<R>,
                check_result: R::check_result,
            }
        }
    }

    /// The recorded sessions, each with its revision.
    const SESSIONS: [(&str, &str); 5] = [
        ("examples/data/sample-session.jsonl", "2026-07-28"),
        (
            "tests/fixtures/traffic/everything-2024-11-05.jsonl",
            "2024-11-05",
        ),
        (
            "tests/fixtures/traffic/everything-2025-03-26.jsonl",
            "2025-03-26",
        ),
        (
            "tests/fixtures/traffic/everything-2025-06-18.jsonl",
            "2025-06-18",
        ),
        (
            "tests/fixtures/traffic/everything-2025-11-25.jsonl",
            "2025-11-25",
        ),
    ];

    /// Every line of every recorded session whose revision this build has, as recorded and
    /// as its bare message, with the face of its revision.
    fn recorded_lines() -> Vec<(Face, String)> {
        let mut lines = Vec::new();
        for (path, version) in SESSIONS {
            let Some(face) = revision::visit(&ProtocolVersion::from(version), CountingFace) else {
                continue;
            };
            let file = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&file).expect("a recorded session");
            for line in text.lines() {
                let record: Value = crate::json::from_str(line).expect("a JSON line");
                let bare = crate::json::to_string(&record["msg"]).expect("a message");
                lines.push((face, line.to_owned()));
                lines.push((face, bare));
            }
        }
        lines
    }

    #[test]
    fn a_valid_line_is_read_once_by_its_revisions_reader() {
        let lines = recorded_lines();
        assert!(lines.len() >= 2 * 33, "at least the sample session is read");
        let mut valid = 0;
        for (face, line) in &lines {
            READS.with(|reads| reads.set(0));
            let read = read_line(face, line).expect("a record or a bare message");
            // A few recorded messages are invalid in their revision (a newer revision's
            // elicitation schema, say): an invalid message may be read again.
            if read.summary.is_err() {
                continue;
            }
            valid += 1;
            assert!(
                shape::guess(line).is_some(),
                "{line}: its framing is recognized"
            );
            assert_eq!(READS.with(Cell::get), 1, "{line}");
        }
        assert!(
            valid * 10 >= lines.len() * 9,
            "{valid} of {} lines",
            lines.len()
        );
    }

    #[test]
    fn a_server_message_without_dir_is_read_once_and_sent_by_the_server() {
        let Some(face) = revision::visit(&ProtocolVersion::from("2025-06-18"), CountingFace) else {
            return;
        };
        for line in [
            r#"{"jsonrpc":"2.0","id":5,"method":"roots/list"}"#,
            r#"{"method":"notifications/message","params":{"level":"info","data":1},"jsonrpc":"2.0"}"#,
        ] {
            READS.with(|reads| reads.set(0));
            let read = read_line(&face, line).expect("a bare message");
            assert!(read.summary.is_ok(), "{line}");
            assert_eq!(read.sender, Some(Side::Server), "{line}");
            assert_eq!(READS.with(Cell::get), 1, "{line}");
        }
        // Where the method comes later, the client's reader reads first and refuses it.
        let late = r#"{"jsonrpc":"2.0","params":{},"id":5,"method":"roots/list"}"#;
        READS.with(|reads| reads.set(0));
        let read = read_line(&face, late).expect("a bare message");
        assert_eq!(read.sender, Some(Side::Server));
        assert!(read.summary.is_ok());
        assert_eq!(READS.with(Cell::get), 2);
    }
}
