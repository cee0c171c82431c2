//! The `=?base64?…?=` encoding of header values that are not plain visible ASCII (the
//! transport page, §Value Encoding).

use super::*;

const SENTINEL_PREFIX: &str = "=?base64?";
const SENTINEL_SUFFIX: &str = "?=";

/// Whether `value` has the `=?base64?…?=` form (prefix and suffix not overlapping).
fn is_sentinel(value: &str) -> bool {
    value.len() >= SENTINEL_PREFIX.len() + SENTINEL_SUFFIX.len()
        && value.starts_with(SENTINEL_PREFIX)
        && value.ends_with(SENTINEL_SUFFIX)
}

/// Encodes a value for `Mcp-Name` or an `Mcp-Param-*` header (the transport page,
/// [§Value Encoding](https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#value-encoding)):
/// kept as it is when it is plain printable ASCII (0x20 to 0x7E) with no leading or trailing
/// space, otherwise `=?base64?{base64 of its UTF-8}?=`. A plain value that already looks like
/// that form is encoded too, so that it is not read as an encoded one. A tab is a control
/// character, so it is encoded wherever it is, though HTTP would carry one inside a value.
///
/// ```
/// use mcp_spec_types::http_headers::encode_value;
/// assert_eq!(encode_value("us-west1"), "us-west1");
/// assert_eq!(encode_value("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
/// assert_eq!(encode_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
/// assert_eq!(encode_value("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
/// ```
pub fn encode_value(value: &str) -> Cow<'_, str> {
    let plain = value.bytes().all(|b| (0x20..=0x7e).contains(&b))
        && !value.starts_with(' ')
        && !value.ends_with(' ')
        && !is_sentinel(value);
    if plain {
        Cow::Borrowed(value)
    } else {
        Cow::Owned(format!(
            "{SENTINEL_PREFIX}{}{SENTINEL_SUFFIX}",
            crate::blob::encode(value.as_bytes())
        ))
    }
}

/// Decodes a received `Mcp-Name` or `Mcp-Param-*` value (spaces and tabs around it already
/// removed): the `=?base64?…?=` form becomes the text it encodes, anything else is the value
/// itself. A value with a character a header value may not hold, base64 that is not strict
/// (RFC 4648 standard alphabet with padding, as [`blob::decode`](crate::blob::decode)
/// requires) or bytes that are not UTF-8 are refused.
///
/// ```
/// use mcp_spec_types::http_headers::decode_value;
/// assert_eq!(decode_value("=?base64?SGVsbG8=?=").unwrap(), "Hello");
/// assert_eq!(decode_value("SGVsbG8=").unwrap(), "SGVsbG8=");
/// assert!(decode_value("=?base64?SGVsbG8?=").is_err());
/// ```
pub fn decode_value(value: &str) -> Result<Cow<'_, str>, ValueError> {
    if let Some((offset, character)) = value
        .char_indices()
        .find(|&(_, c)| !(c == '\t' || (' '..='~').contains(&c)))
    {
        return Err(ValueError::InvalidCharacter { offset, character });
    }
    if !is_sentinel(value) {
        return Ok(Cow::Borrowed(value));
    }
    let encoded = &value[SENTINEL_PREFIX.len()..value.len() - SENTINEL_SUFFIX.len()];
    let bytes = crate::blob::decode(encoded).map_err(ValueError::Base64)?;
    String::from_utf8(bytes)
        .map(Cow::Owned)
        .map_err(|_| ValueError::NotUtf8)
}

/// Why a received header value could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValueError {
    /// A character outside visible ASCII, space and tab, at this byte offset.
    InvalidCharacter {
        /// The byte offset of the character.
        offset: usize,
        /// The character.
        character: char,
    },
    /// The `=?base64?…?=` form with text that is not strict base64.
    Base64(crate::blob::Base64Error),
    /// The `=?base64?…?=` form whose bytes are not UTF-8.
    NotUtf8,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::InvalidCharacter { offset, character } => {
                write!(f, "invalid character {character:?} at byte {offset}")
            }
            ValueError::Base64(error) => write!(f, "invalid base64: {error}"),
            ValueError::NotUtf8 => f.write_str("base64 value is not UTF-8"),
        }
    }
}

impl core::error::Error for ValueError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            ValueError::Base64(error) => Some(error),
            _ => None,
        }
    }
}
