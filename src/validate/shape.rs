//! What a line looks like from its framing bytes, before it is read: a record and where its
//! message is, or a bare message; and which method a message names first.
//!
//! Nothing here reads JSON: it matches the few bytes around a message (`{"dir":"c2s","msg":`
//! and the closing `}`, or a message's first members) so that the message's own reader is the
//! only one to read the line. A guess is only acted on once that reader has accepted what it
//! was given, and that acceptance proves the guess: a text the reader takes is exactly one JSON
//! message, so the bytes around it can only be the record (or the bare line) they look like.
//! A line whose shape is not recognized, or whose guess does not read, is read the precise way
//! ([`unwrap_record`](super::record::unwrap_record), then the message), with the same outcome.

// tests/validate.rs compiles this file by itself to test the guesses (a wrong one never shows
// in a line's outcome): it uses nothing of the crate but `Side`.
use super::Side;

/// JSON's own white space.
const WHITE_SPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// The sender and message text a line looks like it holds: a record's (`dir`, if any, and
/// `msg`), or the line itself when it looks like a bare message or a batch. `None` when the
/// framing says nothing that can be relied on.
pub(super) fn guess(line: &str) -> Option<(Option<Side>, &str)> {
    let mut scan = Scan(line.trim_start_matches(WHITE_SPACE));
    if scan.0.starts_with('[') {
        return Some((None, line));
    }
    scan.byte(b'{')?;
    match scan.string()? {
        "dir" => {
            scan.byte(b':')?;
            let side = Side::from_dir(scan.string()?)?;
            scan.byte(b',')?;
            scan.name("msg")?;
            let msg = scan.rest().strip_suffix('}')?;
            Some((Some(side), msg.trim_matches(WHITE_SPACE)))
        }
        "msg" => {
            scan.byte(b':')?;
            let body = scan.rest().strip_suffix('}')?;
            Some(match trailing_dir(body) {
                Some((msg, side)) => (Some(side), msg),
                None => (None, body.trim_matches(WHITE_SPACE)),
            })
        }
        "jsonrpc" | "id" | "method" | "params" | "result" | "error" => Some((None, line)),
        _ => None,
    }
}

/// `<msg> , "dir" : "c2s"` (or `"s2c"`), split at the comma.
fn trailing_dir(body: &str) -> Option<(&str, Side)> {
    let rest = body.trim_end_matches(WHITE_SPACE);
    let (rest, side) = if let Some(rest) = rest.strip_suffix("\"c2s\"") {
        (rest, Side::Client)
    } else {
        (rest.strip_suffix("\"s2c\"")?, Side::Server)
    };
    let rest = rest.trim_end_matches(WHITE_SPACE).strip_suffix(':')?;
    let rest = rest.trim_end_matches(WHITE_SPACE).strip_suffix("\"dir\"")?;
    let msg = rest.trim_end_matches(WHITE_SPACE).strip_suffix(',')?;
    Some((msg.trim_matches(WHITE_SPACE), side))
}

/// The method a message names, when its first members are `jsonrpc`, `id` and then `method`
/// (in any order, each written plainly: `"2.0"`, an integer or a string without escapes).
/// Further on, or in any other form, it is not looked for.
pub(super) fn leading_method(text: &str) -> Option<&str> {
    let mut scan = Scan(text.trim_start_matches(WHITE_SPACE));
    scan.byte(b'{')?;
    for _ in 0..3 {
        let name = scan.string()?;
        scan.byte(b':')?;
        match name {
            "method" => return scan.string(),
            "jsonrpc" if scan.string()? == "2.0" => {}
            "id" => scan.id()?,
            _ => return None,
        }
        scan.byte(b',')?;
    }
    None
}

/// The bytes still to match, white space skipped before each token.
struct Scan<'a>(&'a str);

impl<'a> Scan<'a> {
    /// The single byte `expected`.
    fn byte(&mut self, expected: u8) -> Option<()> {
        let rest = self.0.trim_start_matches(WHITE_SPACE);
        self.0 = rest.strip_prefix(char::from(expected))?;
        Some(())
    }

    /// A string without escapes or control characters, its text.
    fn string(&mut self) -> Option<&'a str> {
        let rest = self.0.trim_start_matches(WHITE_SPACE).strip_prefix('"')?;
        let end = rest.find('"')?;
        let text = &rest[..end];
        if text.bytes().any(|b| b == b'\\' || b < 0x20) {
            return None;
        }
        self.0 = &rest[end + 1..];
        Some(text)
    }

    /// The member name `name` and its colon.
    fn name(&mut self, name: &str) -> Option<()> {
        (self.string()? == name).then_some(())?;
        self.byte(b':')
    }

    /// A request id written plainly: a string without escapes, or digits after an optional
    /// minus sign.
    fn id(&mut self) -> Option<()> {
        let rest = self.0.trim_start_matches(WHITE_SPACE);
        if rest.starts_with('"') {
            return self.string().map(drop);
        }
        let digits = rest.strip_prefix('-').unwrap_or(rest);
        let end = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        if end == 0 {
            return None;
        }
        self.0 = &digits[end..];
        Some(())
    }

    /// Everything left, without the white space at its end.
    fn rest(&self) -> &'a str {
        self.0.trim_end_matches(WHITE_SPACE)
    }
}
