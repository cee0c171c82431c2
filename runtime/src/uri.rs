//! The `uri` format of JSON Schema, as an opt-in check: an absolute URI by RFC 3986's `URI`
//! rule (a scheme, then the hierarchical part, query and fragment), ASCII only.
//!
//! The generated readers leave `format` an annotation, as JSON Schema 2020-12 has it; a caller
//! that wants `"format": "uri"` asserted calls [`check`] on the member.
//!
//! ```
//! use mcp_spec_types::uri::check;
//! assert!(check("https://example.com/a?b#c").is_ok());
//! assert!(check("file:///tmp/a.txt").is_ok());
//! assert!(check("data:image/png;base64,AAAA").is_ok());
//! assert!(check("/relative/path").is_err());
//! assert!(check("https://exa mple.com").is_err());
//! ```

use core::fmt;

/// Why a string is not a URI, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriError {
    /// The byte offset of the first character that breaks the rule.
    pub offset: usize,
    /// What the rule expected there.
    pub expected: &'static str,
}

impl fmt::Display for UriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a URI: expected {} at byte {}",
            self.expected, self.offset
        )
    }
}

impl core::error::Error for UriError {}

fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// Checks `text[start..end]` against `*( allowed / pct-encoded )`.
fn run(
    text: &[u8],
    start: usize,
    end: usize,
    allowed: fn(u8) -> bool,
    expected: &'static str,
) -> Result<(), UriError> {
    let mut i = start;
    while i < end {
        let b = text[i];
        if b == b'%' {
            let hex = |j: usize| j < end && text[j].is_ascii_hexdigit();
            if !(hex(i + 1) && hex(i + 2)) {
                return Err(UriError {
                    offset: i,
                    expected: "a percent sign followed by two hex digits",
                });
            }
            i += 3;
        } else if allowed(b) {
            i += 1;
        } else {
            return Err(UriError {
                offset: i,
                expected,
            });
        }
    }
    Ok(())
}

fn pchar(b: u8) -> bool {
    unreserved(b) || sub_delim(b) || b == b':' || b == b'@'
}

fn path_char(b: u8) -> bool {
    pchar(b) || b == b'/'
}

fn query_char(b: u8) -> bool {
    pchar(b) || b == b'/' || b == b'?'
}

/// Checks that `text` is a URI (RFC 3986, section 3: `URI`).
pub fn check(text: &str) -> Result<(), UriError> {
    let bytes = text.as_bytes();
    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":"
    let colon = bytes
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
        .unwrap_or(bytes.len());
    if colon == 0 || !bytes[0].is_ascii_alphabetic() {
        return Err(UriError {
            offset: 0,
            expected: "a scheme starting with a letter",
        });
    }
    if bytes.get(colon) != Some(&b':') {
        return Err(UriError {
            offset: colon,
            expected: "`:` after the scheme",
        });
    }
    let rest = colon + 1;
    let fragment = bytes[rest..]
        .iter()
        .position(|&b| b == b'#')
        .map(|i| rest + i);
    let before_fragment = fragment.unwrap_or(bytes.len());
    let query = bytes[rest..before_fragment]
        .iter()
        .position(|&b| b == b'?')
        .map(|i| rest + i);
    let path_end = query.unwrap_or(before_fragment);
    if let Some(q) = query {
        run(
            bytes,
            q + 1,
            before_fragment,
            query_char,
            "a query character",
        )?;
    }
    if let Some(f) = fragment {
        run(
            bytes,
            f + 1,
            bytes.len(),
            query_char,
            "a fragment character",
        )?;
    }
    let mut path_start = rest;
    if bytes[rest..path_end].starts_with(b"//") {
        let authority_start = rest + 2;
        let authority_end = bytes[authority_start..path_end]
            .iter()
            .position(|&b| b == b'/')
            .map_or(path_end, |i| authority_start + i);
        authority(bytes, authority_start, authority_end)?;
        path_start = authority_end;
    }
    run(bytes, path_start, path_end, path_char, "a path character")
}

/// `authority = [ userinfo "@" ] host [ ":" port ]`
fn authority(bytes: &[u8], start: usize, end: usize) -> Result<(), UriError> {
    let at = bytes[start..end]
        .iter()
        .rposition(|&b| b == b'@')
        .map(|i| start + i);
    let host_start = match at {
        Some(at) => {
            run(
                bytes,
                start,
                at,
                |b| unreserved(b) || sub_delim(b) || b == b':',
                "a user information character",
            )?;
            at + 1
        }
        None => start,
    };
    if bytes.get(host_start) == Some(&b'[') {
        let close = bytes[host_start..end]
            .iter()
            .position(|&b| b == b']')
            .map(|i| host_start + i)
            .ok_or(UriError {
                offset: host_start,
                expected: "`]` closing an IP literal",
            })?;
        ip_literal(bytes, host_start + 1, close)?;
        return port(bytes, close + 1, end);
    }
    let colon = bytes[host_start..end]
        .iter()
        .position(|&b| b == b':')
        .map_or(end, |i| host_start + i);
    run(
        bytes,
        host_start,
        colon,
        |b| unreserved(b) || sub_delim(b),
        "a host character",
    )?;
    port(bytes, colon, end)
}

/// `[ ":" *DIGIT ]`, from `start` to `end`.
fn port(bytes: &[u8], start: usize, end: usize) -> Result<(), UriError> {
    if start == end {
        return Ok(());
    }
    if bytes[start] != b':' {
        return Err(UriError {
            offset: start,
            expected: "`:` and a port after the host",
        });
    }
    match bytes[start + 1..end]
        .iter()
        .position(|b| !b.is_ascii_digit())
    {
        None => Ok(()),
        Some(i) => Err(UriError {
            offset: start + 1 + i,
            expected: "a port digit",
        }),
    }
}

/// `IPv6address / IPvFuture`, between the brackets.
fn ip_literal(bytes: &[u8], start: usize, end: usize) -> Result<(), UriError> {
    let inner = &bytes[start..end];
    if let Some(future) = inner
        .strip_prefix(b"v")
        .or_else(|| inner.strip_prefix(b"V"))
    {
        let dot = future.iter().position(|&b| b == b'.');
        let valid = dot.is_some_and(|dot| {
            dot > 0
                && future[..dot].iter().all(u8::is_ascii_hexdigit)
                && future.len() > dot + 1
                && future[dot + 1..]
                    .iter()
                    .all(|&b| unreserved(b) || sub_delim(b) || b == b':')
        });
        return if valid {
            Ok(())
        } else {
            Err(UriError {
                offset: start,
                expected: "an IPvFuture literal (`v`, hex digits, `.`, then characters)",
            })
        };
    }
    let text = core::str::from_utf8(inner).unwrap_or_default();
    match text.parse::<core::net::Ipv6Addr>() {
        Ok(_) => Ok(()),
        Err(_) => Err(UriError {
            offset: start,
            expected: "an IPv6 address",
        }),
    }
}
