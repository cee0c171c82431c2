//! Reads for the crate's own callers, which show a failure as serde_json's message and the
//! JSON path of the culprit (a message's `params.uri: invalid type: ...`), never as a line
//! and column.
//!
//! `from_str` gets serde_json's error by letting serde_json read a failed
//! text again, which compiles serde_json's deserializer into every type read that way: a tenth
//! of an application's release build, for a path it only takes on invalid input. Here the
//! crate's reader reads the text a second time instead, the same code as the first read, with
//! its stops explained:
//! - an error a type's `Deserialize` implementation makes (`missing field`, `unknown variant`,
//!   `invalid type` from a visitor, a union's own message) is made by serde_json's
//!   `de::Error` implementation, so its text is serde_json's;
//! - a token of the wrong kind is described as serde_json describes it (its `peek_invalid_type`:
//!   ``invalid type: integer `7`, expected a string``);
//! - the values serde_json refuses only when it reads them into a value (a number beyond
//!   `f64`, a lone surrogate in an escape, nesting beyond 128) get serde_json's words for them;
//! - text that is not JSON gets serde_json's own error, from skipping the text
//!   (`IgnoredAny`: one reading for every type).
//!
//! The path is the trail the generated readers leave as the second read fails (as they leave
//! it when serde_json reads the text again). Only with `std`: the words wait in per-thread
//! state while the error travels out. Without it, and when a crate in the build turns on
//! serde_json's `arbitrary_precision` (then this reader reads nothing), serde_json reads the
//! text again, as `from_str_at` does.

use crate::prelude::*;
#[cfg(feature = "std")]
use serde::de::Deserialize;

/// A failed read, explained: serde_json's message without its position, and the JSON path of
/// the value it failed in (`contents[0].uri`, empty at the top).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explained {
    /// What was wrong, in serde_json's words.
    pub message: String,
    /// Where: the JSON path of the culprit.
    pub path: String,
}

/// The second read of a failed `text`, with its stops explained. Only the read itself is
/// `T`'s: the rest is compiled once ([`explain_read`]).
#[cfg(feature = "std")]
pub(super) fn explain<'a, T: Deserialize<'a>>(text: &'a str) -> Explained {
    explain_read(text, &mut |reader| T::deserialize(reader).map(drop))
}

/// [`explain`] with `T`'s read as `read`.
#[cfg(feature = "std")]
fn explain_read<'a>(
    text: &'a str,
    read: &mut dyn FnMut(&mut super::reader::Reader<'a>) -> Result<(), super::stop::Stop>,
) -> Explained {
    crate::runtime::trail::clear();
    // The same reading as the first: it fails at the same place, now with words.
    let mut again = Ok(());
    let recorded = super::stop::explaining(&mut || {
        let mut reader = super::reader::Reader::new(text);
        again = read(&mut reader).and_then(|()| reader.end());
    });
    let path = crate::runtime::trail::take();
    let message = match (again, recorded) {
        (Err(_), Some(message)) => message,
        _ => match serde_json::from_str::<serde::de::IgnoredAny>(text) {
            Err(error) => strip_position(&error.to_string()),
            // Valid JSON the reader leaves to serde_json (byte strings, `f32`, 128-bit
            // integers): no MCP type asks for one, and the crate reads only MCP types here.
            Ok(_) => String::from("the JSON reader does not read this type"),
        },
    };
    Explained { message, path }
}

/// serde_json appends "at line 1 column 80" to its messages; the path says more.
pub fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(cut) if message[cut..].contains(" column ") => message[..cut].to_string(),
        _ => message.to_string(),
    }
}
