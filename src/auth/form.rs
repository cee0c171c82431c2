//! `application/x-www-form-urlencoded`, the encoding of OAuth request bodies and of the
//! authorization response's query (RFC 6749 Appendix B, which defers to the HTML/WHATWG URL
//! rules: bytes outside `A-Z a-z 0-9 * - . _` percent-encoded, space as `+`).

use crate::prelude::*;
/// Encodes `pairs` as `name=value&…`.
///
/// ```
/// use mcp_spec_types::auth::form;
/// assert_eq!(
///     form::encode([("grant_type", "authorization_code"), ("redirect_uri", "http://localhost:3000/cb?a=1 2")]),
///     "grant_type=authorization_code&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcb%3Fa%3D1+2",
/// );
/// ```
pub fn encode<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut out = String::new();
    for (i, (name, value)) in pairs.into_iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        encode_into(&mut out, name);
        out.push('=');
        encode_into(&mut out, value);
    }
    out
}

/// Encodes one name or value.
pub fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    encode_into(&mut out, text);
    out
}

fn encode_into(out: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(char::from(b))
            }
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
        }
    }
}

/// Decodes `name=value&…` into its pairs, in order. As the WHATWG parser does, a `%` not
/// followed by two hex digits is kept as it is, a pair without `=` has an empty value, empty
/// pairs are skipped, and bytes that are not UTF-8 become U+FFFD.
///
/// ```
/// use mcp_spec_types::auth::form;
/// assert_eq!(
///     form::parse("code=Splx%2FlOBeZQQYbYS6WxSbIA&state=xyz+1&flag"),
///     [("code".into(), "Splx/lOBeZQQYbYS6WxSbIA".into()), ("state".into(), "xyz 1".into()), ("flag".into(), String::new())],
/// );
/// ```
pub fn parse(text: &str) -> Vec<(String, String)> {
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(name), decode(value))
        })
        .collect()
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match (
                bytes.get(i + 1).and_then(|&h| hex(h)),
                bytes.get(i + 2).and_then(|&l| hex(l)),
            ) {
                (Some(high), Some(low)) => {
                    out.push(high << 4 | low);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    char::from(b)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}
