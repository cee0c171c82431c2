//! Character classes and percent-encoding.

use crate::prelude::*;
pub(super) fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

pub(super) fn is_reserved(b: u8) -> bool {
    matches!(
        b,
        b':' | b'/'
            | b'?'
            | b'#'
            | b'['
            | b']'
            | b'@'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
    )
}

pub(super) fn is_pct_triplet(bytes: &[u8], i: usize) -> bool {
    bytes.get(i) == Some(&b'%')
        && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
        && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
}

pub(super) fn push_pct(out: &mut String, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('%');
    out.push(char::from(HEX[usize::from(byte >> 4)]));
    out.push(char::from(HEX[usize::from(byte & 0x0F)]));
}

/// Appends `s` percent-encoded: everything outside the unreserved set (plus
/// the reserved set and existing triplets when `allow_reserved`) is encoded
/// byte by byte as UTF-8.
pub(super) fn encode_into(out: &mut String, s: &str, allow_reserved: bool) {
    let bytes = s.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if is_unreserved(b) || (allow_reserved && is_reserved(b)) {
            out.push(char::from(b));
            i += 1;
        } else if allow_reserved && is_pct_triplet(bytes, i) {
            out.push_str(s.get(i..i + 3).unwrap_or_default());
            i += 3;
        } else {
            push_pct(out, b);
            i += 1;
        }
    }
}

/// The first `max_chars` characters of `s`. With `allow_reserved` a valid
/// percent-encoded triplet counts as one character, so it is never cut.
pub(super) fn prefix(s: &str, max_chars: usize, allow_reserved: bool) -> &str {
    let bytes = s.as_bytes();
    let mut end = 0;
    let mut count = 0;
    while count < max_chars && end < bytes.len() {
        end += if allow_reserved && is_pct_triplet(bytes, end) {
            3
        } else {
            s.get(end..)
                .and_then(|rest| rest.chars().next())
                .map_or(1, char::len_utf8)
        };
        count += 1;
    }
    s.get(..end).unwrap_or(s)
}

pub(super) fn hex_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0,
    }
}

pub(super) fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if is_pct_triplet(bytes, i) {
            let hi = bytes.get(i + 1).copied().map_or(0, hex_value);
            let lo = bytes.get(i + 2).copied().map_or(0, hex_value);
            out.push(hi << 4 | lo);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}
