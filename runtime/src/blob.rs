//! Base64 for binary payloads: `blob` of resource contents and `data` of image and audio content.
//!
//! The specification sends binary data as base64 text with the standard alphabet and padding
//! (RFC 4648 section 4; the schema marks these members `"format": "byte"`). This module encodes
//! exactly that, and decodes strictly: the text must be what [`encode`] would have produced for
//! some bytes, so a value either decodes to the bytes it stands for or is rejected with a
//! [`Base64Error`] saying where and what is wrong. Nothing is skipped or repaired: whitespace,
//! line breaks, the URL-safe alphabet (`-`, `_`), missing or misplaced padding and non-zero
//! trailing bits are all errors. Decoding never panics, whatever the input.
//!
//! Parsing a message does not decode: a `blob` or `data` member is kept as the text the peer
//! sent (the specification's own examples carry placeholders such as `"base64-encoded-data"`),
//! and becomes an error only when read as bytes.
//!
//! ```
//! use mcp_spec_types::blob::{self, Base64Error};
//!
//! assert_eq!(blob::encode(b"hello"), "aGVsbG8=");
//! assert_eq!(blob::decode("aGVsbG8=")?, b"hello");
//! assert_eq!(
//!     blob::decode("aGVsbG8"),
//!     Err(Base64Error::InvalidLength { length: 7 })
//! );
//! assert_eq!(
//!     blob::check("base64-encoded-data"),
//!     Err(Base64Error::InvalidCharacter { offset: 6, character: '-' })
//! );
//! # Ok::<(), Base64Error>(())
//! ```

use crate::prelude::*;
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use core::fmt;

/// Why a text is not strict, padded, standard-alphabet base64.
///
/// Offsets are byte offsets into the text that was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Base64Error {
    /// A character outside the standard alphabet (`A`–`Z`, `a`–`z`, `0`–`9`, `+`, `/`) and not
    /// padding: whitespace, line breaks, the URL-safe `-` and `_`, or anything else.
    InvalidCharacter {
        /// Where the character starts.
        offset: usize,
        /// The character.
        character: char,
    },
    /// A `=` that is not part of the one or two padding characters at the very end.
    MisplacedPadding {
        /// Where the `=` is.
        offset: usize,
    },
    /// The length is not a multiple of four: padding is missing, or the text is truncated.
    InvalidLength {
        /// The length of the text, in bytes.
        length: usize,
    },
    /// The last character before the padding carries bits that no byte sequence produces (for
    /// example `"QR=="` instead of `"QQ=="`): the text is not the canonical encoding of any
    /// bytes, so decoding would silently drop information.
    NonZeroTrailingBits {
        /// Where the character is.
        offset: usize,
        /// The character.
        character: char,
    },
}

impl Base64Error {
    /// The byte offset the error points at (the length of the text for
    /// [`Base64Error::InvalidLength`]).
    pub fn offset(&self) -> usize {
        match *self {
            Base64Error::InvalidCharacter { offset, .. }
            | Base64Error::MisplacedPadding { offset }
            | Base64Error::NonZeroTrailingBits { offset, .. } => offset,
            Base64Error::InvalidLength { length } => length,
        }
    }
}

impl fmt::Display for Base64Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Base64Error::InvalidCharacter { offset, character } => {
                let what = if character.is_whitespace() {
                    " (whitespace is not allowed)"
                } else if character == '-' || character == '_' {
                    " (that is the URL-safe alphabet; the standard one uses `+` and `/`)"
                } else {
                    ""
                };
                write!(
                    f,
                    "invalid base64: character {character:?} at offset {offset} is not in the standard alphabet{what}"
                )
            }
            Base64Error::MisplacedPadding { offset } => write!(
                f,
                "invalid base64: padding `=` at offset {offset} is not at the end (at most two `=` may end the text)"
            ),
            Base64Error::InvalidLength { length } => write!(
                f,
                "invalid base64: length {length} is not a multiple of 4 (missing padding or truncated data)"
            ),
            Base64Error::NonZeroTrailingBits { offset, character } => write!(
                f,
                "invalid base64: character {character:?} at offset {offset} has non-zero trailing bits (not a canonical encoding)"
            ),
        }
    }
}

impl core::error::Error for Base64Error {}

/// Encodes `bytes` as base64 with the standard alphabet and padding, as the specification
/// requires for `blob` and `data`.
///
/// ```
/// assert_eq!(mcp_spec_types::blob::encode(&[0xff, 0xfe]), "//4=");
/// ```
pub fn encode(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Decodes strict base64 (standard alphabet, with padding, nothing else).
///
/// Fails with the first problem found, scanning from the start; see [`Base64Error`].
///
/// ```
/// use mcp_spec_types::blob::{decode, Base64Error};
/// assert_eq!(decode("//4="), Ok(vec![0xff, 0xfe]));
/// assert_eq!(decode("//4=\n"), Err(Base64Error::InvalidCharacter { offset: 4, character: '\n' }));
/// ```
pub fn decode(text: &str) -> Result<Vec<u8>, Base64Error> {
    check(text)?;
    // `check` accepts exactly the canonical padded encodings, which the engine decodes; an
    // engine error would still come back as an error, never as a panic or wrong bytes.
    STANDARD.decode(text).map_err(|e| from_engine(text, e))
}

/// Checks that `text` is strict base64 without decoding it (no allocation).
///
/// ```
/// use mcp_spec_types::blob::{check, Base64Error};
/// assert_eq!(check(""), Ok(()));
/// assert_eq!(check("QQ=="), Ok(()));
/// assert_eq!(check("QR=="), Err(Base64Error::NonZeroTrailingBits { offset: 1, character: 'R' }));
/// assert_eq!(check("Q==="), Err(Base64Error::MisplacedPadding { offset: 1 }));
/// ```
pub fn check(text: &str) -> Result<(), Base64Error> {
    let bytes = text.as_bytes();
    let length = bytes.len();
    for (offset, &byte) in bytes.iter().enumerate() {
        if sextet(byte).is_some() {
            continue;
        }
        if byte != b'=' {
            return Err(Base64Error::InvalidCharacter {
                offset,
                character: char_at(text, offset),
            });
        }
        // Padding: must be the last one or two characters, all `=`. What follows a `=` is
        // either a foreign character (reported as such) or data (the `=` is misplaced).
        let rest = &bytes[offset..];
        if let Some(after) = rest.iter().position(|&b| b != b'=') {
            let at = offset + after;
            if sextet(bytes[at]).is_none() {
                return Err(Base64Error::InvalidCharacter {
                    offset: at,
                    character: char_at(text, at),
                });
            }
            return Err(Base64Error::MisplacedPadding { offset });
        }
        if rest.len() > 2 {
            return Err(Base64Error::MisplacedPadding { offset });
        }
        break;
    }
    if length % 4 != 0 {
        return Err(Base64Error::InvalidLength { length });
    }
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    // One `=`: the last data character carries 2 unused bits; two `=`: 4 unused bits.
    let unused_mask = match padding {
        1 => 0b0000_0011,
        2 => 0b0000_1111,
        _ => return Ok(()),
    };
    let offset = length - padding - 1;
    match sextet(bytes[offset]) {
        Some(value) if value & unused_mask != 0 => Err(Base64Error::NonZeroTrailingBits {
            offset,
            character: char::from(bytes[offset]),
        }),
        _ => Ok(()),
    }
}

/// The 6-bit value of a standard-alphabet character.
fn sextet(byte: u8) -> Option<u8> {
    match byte {
        b'A'..=b'Z' => Some(byte - b'A'),
        b'a'..=b'z' => Some(byte - b'a' + 26),
        b'0'..=b'9' => Some(byte - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// The character starting at `offset` (offsets reported here are always character boundaries,
/// since every byte before them is ASCII).
fn char_at(text: &str, offset: usize) -> char {
    text.get(offset..)
        .and_then(|rest| rest.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}

fn from_engine(text: &str, error: base64::DecodeError) -> Base64Error {
    match error {
        base64::DecodeError::InvalidByte(offset, _)
            if text.as_bytes().get(offset) == Some(&b'=') =>
        {
            Base64Error::MisplacedPadding { offset }
        }
        base64::DecodeError::InvalidByte(offset, _) => Base64Error::InvalidCharacter {
            offset,
            character: char_at(text, offset),
        },
        base64::DecodeError::InvalidLastSymbol(offset, _) => Base64Error::NonZeroTrailingBits {
            offset,
            character: char_at(text, offset),
        },
        base64::DecodeError::InvalidLength(_) | base64::DecodeError::InvalidPadding => {
            Base64Error::InvalidLength { length: text.len() }
        }
    }
}
