//! A JSON writer that produces exactly what `serde_json` produces, only faster.
//!
//! [`to_string`], [`to_vec`] and [`to_writer`] write any [`Serialize`] value as compact JSON.
//! Their output is **byte for byte** the output of [`serde_json::to_string`],
//! [`serde_json::to_vec`] and [`serde_json::to_writer`]: same escapes, same number text (numbers
//! are written by [`serde_json::ser::CompactFormatter`] itself), `null` for a non-finite float,
//! the same map keys (integers, floats and booleans written as quoted strings), a
//! [`serde_json::value::RawValue`] written verbatim, and the same [`serde_json::Error`] when a
//! value cannot be written (a map key that is not a string, a non-finite float key, an error
//! raised by the value's own `Serialize` implementation).
//!
//! It exists for speed. `serde_json` decides whether each byte of a string must be escaped one
//! byte at a time, which is most of the time spent writing this crate's messages (text content,
//! descriptions, URIs). This writer tests eight bytes at once, as one `u64` (a byte must be
//! escaped when it is below `0x20`, `"` or `\`), and copies each run of bytes that need no
//! escape in one piece. The longer the runs of text without an escape, the larger the gain;
//! values made of many small strings and numbers are written about as fast as by `serde_json`.
//!
//! serde_json's private structs are handled as serde_json handles them: a `RawValue`'s text is
//! written as it is, and so is a `Number`'s when another crate in the build turns on serde_json's
//! `arbitrary_precision` feature (the writer asks serde_json whether it is on).
//!
//! ```
//! use serde_json::json;
//!
//! let value = json!({"text": "line 1\nline 2 \"quoted\" \u{1F600}", "n": [1, -2, 3.5]});
//! assert_eq!(
//!     mcp_spec_types::json::to_string(&value)?,
//!     serde_json::to_string(&value)?
//! );
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! Two differences remain, both when writing fails: [`to_writer`] writes nothing when the value
//! cannot be serialized (`serde_json` leaves what it wrote before the error in the writer), and
//! a [`Display`](fmt::Display) implementation that fails on its own while written through
//! [`Serializer::collect_str`](ser::Serializer::collect_str) is an error here, where
//! `serde_json` panics.

use serde::ser::{self, Error as _, Impossible, Serialize};
use serde_json::ser::{CompactFormatter, Formatter};
use serde_json::Error;
use std::fmt;
use std::io;

/// Writes `value` as compact JSON text, exactly as [`serde_json::to_string`] does.
///
/// # Errors
///
/// The error `serde_json::to_string` gives: when `T`'s `Serialize` implementation fails, or a
/// map has a key that JSON cannot hold as a string.
///
/// # Example
///
/// ```
/// use std::collections::BTreeMap;
///
/// let mut map = BTreeMap::new();
/// map.insert(7, "tab\there");
/// map.insert(-1, "quote\" and backslash\\");
/// let text = mcp_spec_types::json::to_string(&map)?;
/// assert_eq!(text, serde_json::to_string(&map)?);
/// assert_eq!(text, r#"{"-1":"quote\" and backslash\\","7":"tab\there"}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn to_string<T: ?Sized + Serialize>(value: &T) -> Result<String, Error> {
    let mut serializer = Serializer {
        out: String::with_capacity(INITIAL_CAPACITY),
    };
    value.serialize(&mut serializer)?;
    Ok(serializer.out)
}

/// Writes `value` as compact JSON bytes, exactly as [`serde_json::to_vec`] does.
///
/// # Errors
///
/// The error `serde_json::to_vec` gives (see [`to_string`]).
///
/// # Example
///
/// ```
/// let value = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"ok": true}});
/// assert_eq!(
///     mcp_spec_types::json::to_vec(&value)?,
///     serde_json::to_vec(&value)?
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>, Error> {
    to_string(value).map(String::into_bytes)
}

/// Writes `value` as compact JSON into `writer`: the bytes [`serde_json::to_writer`] writes.
///
/// The text is built in memory, then handed to `writer` with one `write_all`; nothing is written
/// when `value` cannot be serialized. The writer is not flushed.
///
/// # Errors
///
/// The error `serde_json::to_writer` gives (see [`to_string`]), or the writer's I/O error,
/// wrapped by [`serde_json::Error::io`].
///
/// # Example
///
/// ```
/// let value = vec![Some("a\u{0}b"), None];
/// let mut ours = Vec::new();
/// mcp_spec_types::json::to_writer(&mut ours, &value)?;
/// let mut theirs = Vec::new();
/// serde_json::to_writer(&mut theirs, &value)?;
/// assert_eq!(ours, theirs);
/// assert_eq!(ours, br#"["a\u0000b",null]"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn to_writer<W: io::Write, T: ?Sized + Serialize>(
    mut writer: W,
    value: &T,
) -> Result<(), Error> {
    let text = to_string(value)?;
    writer.write_all(text.as_bytes()).map_err(Error::io)
}

/// The first guess at the size of the output, as `serde_json` makes it.
const INITIAL_CAPACITY: usize = 128;

/// The struct name (and field name) `serde_json::value::RawValue` serializes as.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// The struct name (and field name) `serde_json::Number` serializes as when serde_json's
/// `arbitrary_precision` feature is on (this crate does not turn it on, but another crate in the
/// same build may).
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Whether the serde_json being linked has `arbitrary_precision`: then it writes the string
/// under [`NUMBER_TOKEN`] as a bare number, and so must this writer. Asked of serde_json itself,
/// once, when a struct with that name is first written.
fn arbitrary_precision() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        struct Probe;
        impl Serialize for Probe {
            fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use ser::SerializeStruct;
                let mut fields = serializer.serialize_struct(NUMBER_TOKEN, 1)?;
                fields.serialize_field(NUMBER_TOKEN, "1")?;
                fields.end()
            }
        }
        matches!(serde_json::to_vec(&Probe).as_deref(), Ok(b"1"))
    })
}

/// The serializer: the text written so far.
///
/// It writes into a `String` (not a `Vec<u8>`): every piece it appends is a `&str` cut at an
/// ASCII byte, so the output is UTF-8 by construction, without `unsafe` and without checking
/// the whole output again at the end.
struct Serializer {
    out: String,
}

// ---------------------------------------------------------------------------------------------
// Strings.

/// `0x01` in every byte.
const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// `0x80` in every byte.
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
/// `0x20` in every byte.
const SPACES: u64 = u64::from_le_bytes([0x20; 8]);
/// `"` in every byte.
const QUOTES: u64 = u64::from_le_bytes([b'"'; 8]);
/// `\` in every byte.
const BACKSLASHES: u64 = u64::from_le_bytes([b'\\'; 8]);

/// The bytes of `word` (read little-endian) that must be escaped: bit 7 of a byte is set in the
/// result when the byte is below `0x20`, `"` or `\`.
///
/// `x - 0x20` borrows (sets bit 7, with bit 7 of `x` clear) exactly when the byte `x` is below
/// `0x20`; comparing with `"` and `\` is the same test for zero on `word ^ pattern`. A borrow can
/// only mark a byte *above* a byte that really matches, so the lowest set bit is always exact:
/// `trailing_zeros() / 8` is the index of the first byte to escape.
#[inline(always)]
fn escape_mask(word: u64) -> u64 {
    let below_space = word.wrapping_sub(SPACES) & !word;
    let quote = word ^ QUOTES;
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = word ^ BACKSLASHES;
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (below_space | quote | backslash) & HIGHS
}

/// The index of the first byte to escape among 16 (`None` when `block` is not 16 bytes long):
/// two words tested, one branch.
#[inline(always)]
fn first_escape_in_16(block: &[u8]) -> Option<usize> {
    let pair = u128::from_le_bytes(<[u8; 16]>::try_from(block).ok()?);
    let low = escape_mask(pair as u64);
    let high = escape_mask((pair >> 64) as u64);
    if low | high == 0 {
        return None;
    }
    let index = if low != 0 {
        low.trailing_zeros() / 8
    } else {
        8 + high.trailing_zeros() / 8
    };
    Some(index as usize)
}

/// The index of the first byte of `bytes` at or after `from` that must be escaped.
#[inline]
fn find_escape(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let mut offset = from;
    // 16 bytes per step (two words, one branch), then 8, then the tail.
    let mut pairs = rest.chunks_exact(16);
    for pair in &mut pairs {
        if let Some(index) = first_escape_in_16(pair) {
            return Some(offset + index);
        }
        offset += 16;
    }
    let mut chunks = pairs.remainder().chunks_exact(8);
    for chunk in &mut chunks {
        if let Ok(chunk) = <[u8; 8]>::try_from(chunk) {
            let mask = escape_mask(u64::from_le_bytes(chunk));
            if mask != 0 {
                return Some(offset + (mask.trailing_zeros() / 8) as usize);
            }
        }
        offset += 8;
    }
    let tail = chunks.remainder();
    if tail.is_empty() {
        return None;
    }
    // 1 to 7 bytes are left. When the string has 8 bytes or more, read its last 8 and shift out
    // the bytes already seen (not masking them: a byte already seen that must be escaped could
    // mark the next one); otherwise assemble the word from overlapping smaller reads. Either way
    // the top is filled with spaces, which never need an escape, and nothing is copied to the
    // stack (a copy followed by a wide load stalls).
    let word = match last_word(bytes) {
        Some(last) => last >> (8 * (8 - tail.len())),
        None => short_word(tail),
    } | (SPACES << (8 * tail.len()));
    let mask = escape_mask(word);
    if mask == 0 {
        None
    } else {
        Some(offset + (mask.trailing_zeros() / 8) as usize)
    }
}

/// The last 8 bytes of `bytes` as a little-endian word, if it has 8.
#[inline(always)]
fn last_word(bytes: &[u8]) -> Option<u64> {
    let start = bytes.len().checked_sub(8)?;
    let last = <[u8; 8]>::try_from(bytes.get(start..)?).ok()?;
    Some(u64::from_le_bytes(last))
}

/// The bytes of `short` (at most 7) as a little-endian word, zero above them: two reads that
/// overlap (the shared bytes are equal, so or-ing them is harmless).
#[inline(always)]
fn short_word(short: &[u8]) -> u64 {
    let len = short.len();
    let read4 = |at: usize| {
        short
            .get(at..at + 4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map_or(0, |b| u64::from(u32::from_le_bytes(b)))
    };
    let read2 = |at: usize| {
        short
            .get(at..at + 2)
            .and_then(|b| <[u8; 2]>::try_from(b).ok())
            .map_or(0, |b| u64::from(u16::from_le_bytes(b)))
    };
    if len >= 4 {
        read4(0) | (read4(len - 4) << (8 * (len - 4)))
    } else if len >= 2 {
        read2(0) | (read2(len - 2) << (8 * (len - 2)))
    } else {
        short.first().map_or(0, |&b| u64::from(b))
    }
}

/// The character after the backslash of each byte's short escape, as `serde_json` writes it
/// (`\"`, `\\`, `\b`, `\t`, `\n`, `\f`, `\r`); 0 for the bytes written as `\u00XX`. A table
/// rather than a `match`: the compiler turns the `match` into a jump table, whose indirect
/// jump is mispredicted at nearly every escape of escape-dense text.
const SHORT_ESCAPES: [u8; 0x5D] = {
    let mut table = [0u8; 0x5D];
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0A] = b'n';
    table[0x0C] = b'f';
    table[0x0D] = b'r';
    table
};

/// Appends the escape sequence of a byte that [`escape_mask`] marks, as `serde_json` writes
/// it: `\"`, `\\`, the five short escapes `\b` `\t` `\n` `\f` `\r`, and `\u00XX` with
/// lowercase hexadecimal digits for the other bytes below `0x20`.
///
/// One character at a time: every piece has a length known here, so no `memcpy` call is made.
#[inline]
fn push_escape(out: &mut String, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = SHORT_ESCAPES.get(usize::from(byte)).copied().unwrap_or(0);
    if short != 0 {
        out.push('\\');
        out.push(char::from(short));
    } else {
        out.push_str("\\u00");
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 0xF)]));
    }
}

/// Appends the contents of a JSON string (without the quotes) for `value`.
#[inline]
fn write_escaped_contents(out: &mut String, value: &str) {
    match find_escape(value.as_bytes(), 0) {
        None => out.push_str(value),
        Some(first) => write_escaped_from(out, value, first),
    }
}

/// Appends the contents of a JSON string for `value`, whose first byte to escape is `first`.
///
/// Text with many escapes is written 16 bytes at a time: the whole block is copied (a copy
/// of fixed length, where `memcpy` of each run between escapes mispredicts its branch on the
/// length at nearly every escape), then cut back to the bytes before the first escape.
fn write_escaped_from(out: &mut String, value: &str, first: usize) {
    let bytes = value.as_bytes();
    if let Some(run) = value.get(..first) {
        out.push_str(run);
    }
    if let Some(&byte) = bytes.get(first) {
        push_escape(out, byte);
    }
    let mut start = first + 1;
    loop {
        // `get` is `None` near the end, and when the block would split a character.
        if let Some(block) = value.get(start..start + 16) {
            out.push_str(block);
            let Some(clean) = first_escape_in_16(block.as_bytes()) else {
                start += 16;
                continue;
            };
            // The escape is ASCII, so the cut falls on a character boundary.
            out.truncate(out.len() - (16 - clean));
            if let Some(&byte) = bytes.get(start + clean) {
                push_escape(out, byte);
            }
            start += clean + 1;
            continue;
        }
        // The exact path: one run and one escape (or the end).
        match next_escape(bytes, start) {
            Some(index) => {
                if let Some(run) = value.get(start..index) {
                    out.push_str(run);
                }
                if let Some(&byte) = bytes.get(index) {
                    push_escape(out, byte);
                }
                start = index + 1;
            }
            None => {
                if let Some(run) = value.get(start..) {
                    out.push_str(run);
                }
                return;
            }
        }
    }
}

/// [`find_escape`] for text dense with escapes: the word right after the last escape is tested
/// here, without the setup of a full scan, since the next escape is often close.
#[inline(always)]
fn next_escape(bytes: &[u8], from: usize) -> Option<usize> {
    let word = bytes
        .get(from..from + 8)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map(u64::from_le_bytes);
    match word {
        Some(word) => {
            let mask = escape_mask(word);
            if mask != 0 {
                Some(from + (mask.trailing_zeros() / 8) as usize)
            } else {
                find_escape(bytes, from + 8)
            }
        }
        None => find_escape(bytes, from),
    }
}

/// Appends `value` as a JSON string, quotes included.
#[inline]
fn write_escaped_str(out: &mut String, value: &str) {
    out.reserve(value.len() + 2);
    out.push('"');
    write_escaped_contents(out, value);
    out.push('"');
}

/// Escapes what a `Display` implementation writes, piece by piece.
struct EscapingWriter<'a>(&'a mut String);

impl fmt::Write for EscapingWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        write_escaped_contents(self.0, s);
        Ok(())
    }
}

/// The error for a `Display` implementation that failed by itself (`serde_json` panics).
fn display_error() -> Error {
    Error::custom("a Display implementation returned an error unexpectedly")
}

// ---------------------------------------------------------------------------------------------
// Numbers: written by serde_json's own formatter, so the text is the same.

/// Lets `CompactFormatter` (which writes to an `io::Write`) append to the output `String`.
struct NumberWriter<'a>(&'a mut String);

impl io::Write for NumberWriter<'_> {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Number text is ASCII; a short check keeps the output UTF-8 without `unsafe`.
        let text = std::str::from_utf8(buf)
            .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error))?;
        self.0.push_str(text);
        Ok(buf.len())
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.write(buf).map(drop)
    }

    #[inline]
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs one `CompactFormatter` method on the output.
macro_rules! format_number {
    ($out:expr, $method:ident, $value:expr) => {
        CompactFormatter
            .$method(&mut NumberWriter($out), $value)
            .map_err(Error::io)
    };
}

// ---------------------------------------------------------------------------------------------
// Errors: taken from serde_json itself, so that their code, category and text are the same.

/// serde_json's `key must be a string`, for a map key JSON cannot write as a string.
fn key_must_be_a_string() -> Error {
    struct UnitKey;
    impl Serialize for UnitKey {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use ser::SerializeMap;
            let mut map = serializer.serialize_map(Some(1))?;
            map.serialize_entry(&(), &())?;
            map.end()
        }
    }
    match serde_json::to_writer(io::sink(), &UnitKey) {
        Err(error) => error,
        Ok(()) => Error::custom("key must be a string"),
    }
}

/// serde_json's `float key must be finite`, for a NaN or infinite map key.
fn float_key_must_be_finite() -> Error {
    struct NanKey;
    impl Serialize for NanKey {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use ser::SerializeMap;
            let mut map = serializer.serialize_map(Some(1))?;
            map.serialize_entry(&f64::NAN, &())?;
            map.end()
        }
    }
    match serde_json::to_writer(io::sink(), &NanKey) {
        Err(error) => error,
        Ok(()) => Error::custom("float key must be finite (got NaN or +/-inf)"),
    }
}

/// serde_json's error for a raw value struct with a field other than the raw value token.
fn invalid_raw_value() -> Error {
    struct WrongField;
    impl Serialize for WrongField {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use ser::SerializeStruct;
            let mut fields = serializer.serialize_struct(RAW_VALUE_TOKEN, 1)?;
            fields.serialize_field("", "null")?;
            fields.end()
        }
    }
    match serde_json::to_writer(io::sink(), &WrongField) {
        Err(error) => error,
        Ok(()) => Error::custom("expected value"),
    }
}

/// serde_json's error for a raw value token holding something other than a string.
fn expected_raw_value() -> Error {
    Error::custom("expected RawValue")
}

/// serde_json's `invalid number`, for a number token struct (`arbitrary_precision`) with
/// another field or holding something other than a string.
fn invalid_number() -> Error {
    struct WrongField;
    impl Serialize for WrongField {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use ser::SerializeStruct;
            let mut fields = serializer.serialize_struct(NUMBER_TOKEN, 1)?;
            fields.serialize_field("", "1")?;
            fields.end()
        }
    }
    match serde_json::to_writer(io::sink(), &WrongField) {
        Err(error) => error,
        Ok(()) => Error::custom("invalid number"),
    }
}

// ---------------------------------------------------------------------------------------------
// The serializer.

impl<'a> ser::Serializer for &'a mut Serializer {
    type Ok = ();
    type Error = Error;

    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = StructCompound<'a>;
    type SerializeStructVariant = Compound<'a>;

    #[inline]
    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        self.out.push_str(if value { "true" } else { "false" });
        Ok(())
    }

    #[inline]
    fn serialize_i8(self, value: i8) -> Result<(), Error> {
        format_number!(&mut self.out, write_i8, value)
    }

    #[inline]
    fn serialize_i16(self, value: i16) -> Result<(), Error> {
        format_number!(&mut self.out, write_i16, value)
    }

    #[inline]
    fn serialize_i32(self, value: i32) -> Result<(), Error> {
        format_number!(&mut self.out, write_i32, value)
    }

    #[inline]
    fn serialize_i64(self, value: i64) -> Result<(), Error> {
        format_number!(&mut self.out, write_i64, value)
    }

    fn serialize_i128(self, value: i128) -> Result<(), Error> {
        format_number!(&mut self.out, write_i128, value)
    }

    #[inline]
    fn serialize_u8(self, value: u8) -> Result<(), Error> {
        format_number!(&mut self.out, write_u8, value)
    }

    #[inline]
    fn serialize_u16(self, value: u16) -> Result<(), Error> {
        format_number!(&mut self.out, write_u16, value)
    }

    #[inline]
    fn serialize_u32(self, value: u32) -> Result<(), Error> {
        format_number!(&mut self.out, write_u32, value)
    }

    #[inline]
    fn serialize_u64(self, value: u64) -> Result<(), Error> {
        format_number!(&mut self.out, write_u64, value)
    }

    fn serialize_u128(self, value: u128) -> Result<(), Error> {
        format_number!(&mut self.out, write_u128, value)
    }

    #[inline]
    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        if value.is_finite() {
            format_number!(&mut self.out, write_f32, value)
        } else {
            self.serialize_unit()
        }
    }

    #[inline]
    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        if value.is_finite() {
            format_number!(&mut self.out, write_f64, value)
        } else {
            self.serialize_unit()
        }
    }

    #[inline]
    fn serialize_char(self, value: char) -> Result<(), Error> {
        self.serialize_str(value.encode_utf8(&mut [0; 4]))
    }

    #[inline]
    fn serialize_str(self, value: &str) -> Result<(), Error> {
        write_escaped_str(&mut self.out, value);
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), Error> {
        self.out.push('[');
        for (index, byte) in value.iter().enumerate() {
            if index != 0 {
                self.out.push(',');
            }
            format_number!(&mut self.out, write_u8, *byte)?;
        }
        self.out.push(']');
        Ok(())
    }

    #[inline]
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.push_str("null");
        Ok(())
    }

    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.out.push('{');
        write_escaped_str(&mut self.out, variant);
        self.out.push(':');
        value.serialize(&mut *self)?;
        self.out.push('}');
        Ok(())
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a>, Error> {
        self.out.push('[');
        let state = if len == Some(0) {
            self.out.push(']');
            State::Empty
        } else {
            State::First
        };
        Ok(Compound { ser: self, state })
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    #[inline]
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.out.push('{');
        write_escaped_str(&mut self.out, variant);
        self.out.push(':');
        self.serialize_seq(Some(len))
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a>, Error> {
        self.out.push('{');
        let state = if len == Some(0) {
            self.out.push('}');
            State::Empty
        } else {
            State::First
        };
        Ok(Compound { ser: self, state })
    }

    #[inline]
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<StructCompound<'a>, Error> {
        match name {
            RAW_VALUE_TOKEN => Ok(StructCompound::Verbatim {
                ser: self,
                token: RAW_VALUE_TOKEN,
                error: invalid_raw_value,
                emitter_error: expected_raw_value,
            }),
            NUMBER_TOKEN if arbitrary_precision() => Ok(StructCompound::Verbatim {
                ser: self,
                token: NUMBER_TOKEN,
                error: invalid_number,
                emitter_error: invalid_number,
            }),
            _ => self.serialize_map(Some(len)).map(StructCompound::Map),
        }
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.out.push('{');
        write_escaped_str(&mut self.out, variant);
        self.out.push(':');
        self.serialize_map(Some(len))
    }

    fn collect_str<T: ?Sized + fmt::Display>(self, value: &T) -> Result<(), Error> {
        use fmt::Write;
        self.out.push('"');
        write!(EscapingWriter(&mut self.out), "{value}").map_err(|_| display_error())?;
        self.out.push('"');
        Ok(())
    }
}

/// Where a sequence or map is: `Empty` when its length was given as 0 and it is already closed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Empty,
    First,
    Rest,
}

/// An array or an object being written (also the array or object of a tuple or struct variant).
struct Compound<'a> {
    ser: &'a mut Serializer,
    state: State,
}

impl Compound<'_> {
    /// The `,` before every element or key but the first.
    #[inline]
    fn separator(&mut self) {
        if self.state != State::First {
            self.ser.out.push(',');
        }
        self.state = State::Rest;
    }

    /// The closing `]` or `}`, unless it was written at once for an announced length of 0.
    #[inline]
    fn close(&mut self, closing: char) {
        if self.state != State::Empty {
            self.ser.out.push(closing);
        }
    }

    /// A struct field: its name is a `&str`, written as the map key serializer writes a string.
    #[inline]
    fn field<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<(), Error> {
        self.separator();
        write_escaped_str(&mut self.ser.out, key);
        self.ser.out.push(':');
        value.serialize(&mut *self.ser)
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.separator();
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn end(mut self) -> Result<(), Error> {
        self.close(']');
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    #[inline]
    fn end(mut self) -> Result<(), Error> {
        self.close(']');
        self.ser.out.push('}');
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        self.separator();
        key.serialize(MapKeySerializer { ser: self.ser })
    }

    #[inline]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.ser.out.push(':');
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn end(mut self) -> Result<(), Error> {
        self.close('}');
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }

    #[inline]
    fn end(mut self) -> Result<(), Error> {
        self.close('}');
        self.ser.out.push('}');
        Ok(())
    }
}

/// A struct being written: an object, or one of serde_json's private structs whose only field
/// holds JSON text to write as it is (a `RawValue`, or a `Number` under `arbitrary_precision`).
enum StructCompound<'a> {
    Map(Compound<'a>),
    Verbatim {
        ser: &'a mut Serializer,
        /// The one field name accepted.
        token: &'static str,
        /// The error for any other field.
        error: fn() -> Error,
        /// The error for a field value that is not a string.
        emitter_error: fn() -> Error,
    },
}

impl ser::SerializeStruct for StructCompound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        match self {
            StructCompound::Map(map) => map.field(key, value),
            StructCompound::Verbatim {
                ser,
                token,
                error,
                emitter_error,
            } => {
                if key == *token {
                    value.serialize(VerbatimEmitter {
                        ser,
                        error: *emitter_error,
                    })
                } else {
                    Err(error())
                }
            }
        }
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        match self {
            StructCompound::Map(map) => ser::SerializeMap::end(map),
            StructCompound::Verbatim { .. } => Ok(()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Map keys, as serde_json's `MapKeySerializer` writes them.

/// Writes a map key: a string, or a number or boolean in quotes; anything else is an error.
struct MapKeySerializer<'a> {
    ser: &'a mut Serializer,
}

/// Writes a key that is a number or a boolean: its text, in quotes.
macro_rules! quoted_key {
    ($self:ident, $method:ident, $value:expr) => {{
        $self.ser.out.push('"');
        format_number!(&mut $self.ser.out, $method, $value)?;
        $self.ser.out.push('"');
        Ok(())
    }};
}

impl ser::Serializer for MapKeySerializer<'_> {
    type Ok = ();
    type Error = Error;

    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    #[inline]
    fn serialize_str(self, value: &str) -> Result<(), Error> {
        write_escaped_str(&mut self.ser.out, value);
        Ok(())
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        quoted_key!(self, write_bool, value)
    }

    fn serialize_i8(self, value: i8) -> Result<(), Error> {
        quoted_key!(self, write_i8, value)
    }

    fn serialize_i16(self, value: i16) -> Result<(), Error> {
        quoted_key!(self, write_i16, value)
    }

    fn serialize_i32(self, value: i32) -> Result<(), Error> {
        quoted_key!(self, write_i32, value)
    }

    fn serialize_i64(self, value: i64) -> Result<(), Error> {
        quoted_key!(self, write_i64, value)
    }

    fn serialize_i128(self, value: i128) -> Result<(), Error> {
        quoted_key!(self, write_i128, value)
    }

    fn serialize_u8(self, value: u8) -> Result<(), Error> {
        quoted_key!(self, write_u8, value)
    }

    fn serialize_u16(self, value: u16) -> Result<(), Error> {
        quoted_key!(self, write_u16, value)
    }

    fn serialize_u32(self, value: u32) -> Result<(), Error> {
        quoted_key!(self, write_u32, value)
    }

    fn serialize_u64(self, value: u64) -> Result<(), Error> {
        quoted_key!(self, write_u64, value)
    }

    fn serialize_u128(self, value: u128) -> Result<(), Error> {
        quoted_key!(self, write_u128, value)
    }

    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        if !value.is_finite() {
            return Err(float_key_must_be_finite());
        }
        quoted_key!(self, write_f32, value)
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        if !value.is_finite() {
            return Err(float_key_must_be_finite());
        }
        quoted_key!(self, write_f64, value)
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        self.serialize_str(value.encode_utf8(&mut [0; 4]))
    }

    fn serialize_bytes(self, _value: &[u8]) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_none(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    /// `Some(key)` is written as `key` (as serde_json does).
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_must_be_a_string())
    }

    fn collect_str<T: ?Sized + fmt::Display>(self, value: &T) -> Result<(), Error> {
        ser::Serializer::collect_str(self.ser, value)
    }
}

// ---------------------------------------------------------------------------------------------
// RawValue (and Number under `arbitrary_precision`): the string under serde_json's token is
// JSON text, written as it is.

/// Writes the string it is given verbatim; anything but a string is `error`.
struct VerbatimEmitter<'a> {
    ser: &'a mut Serializer,
    error: fn() -> Error,
}

impl ser::Serializer for VerbatimEmitter<'_> {
    type Ok = ();
    type Error = Error;

    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    #[inline]
    fn serialize_str(self, value: &str) -> Result<(), Error> {
        self.ser.out.push_str(value);
        Ok(())
    }

    fn collect_str<T: ?Sized + fmt::Display>(self, value: &T) -> Result<(), Error> {
        // serde_json formats the whole value first (`to_string`), then writes it.
        use fmt::Write;
        let mut text = String::new();
        write!(text, "{value}").map_err(|_| display_error())?;
        self.serialize_str(&text)
    }

    fn serialize_bool(self, _value: bool) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_i8(self, _value: i8) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_i16(self, _value: i16) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_i32(self, _value: i32) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_i64(self, _value: i64) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_i128(self, _value: i128) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_u8(self, _value: u8) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_u16(self, _value: u16) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_u32(self, _value: u32) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_u64(self, _value: u64) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_u128(self, _value: u128) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_f32(self, _value: f32) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_f64(self, _value: f64) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_char(self, _value: char) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_bytes(self, _value: &[u8]) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_none(self) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _value: &T) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_unit(self) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
    ) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err((self.error)())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err((self.error)())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err((self.error)())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err((self.error)())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err((self.error)())
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err((self.error)())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err((self.error)())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SWAR scan agrees with a byte-by-byte scan for every byte at every position of a
    /// string of 1 to 17 bytes, starting the scan at every offset.
    #[test]
    fn find_escape_matches_bytewise_scan() {
        let needs_escape = |b: u8| b < 0x20 || b == b'"' || b == b'\\';
        for byte in 0..=u8::MAX {
            for len in 1..=17 {
                for position in 0..len {
                    for fill in [b'a', 0xC3, 0x7F, 0xFF, 0x21, 0x23, 0x5D, 0x1F, 0x00] {
                        let mut bytes = vec![fill; len];
                        bytes[position] = byte;
                        for from in 0..=len {
                            let expected = bytes[from..]
                                .iter()
                                .position(|&b| needs_escape(b))
                                .map(|index| from + index);
                            assert_eq!(
                                find_escape(&bytes, from),
                                expected,
                                "{bytes:?} from {from} (byte {byte:#x} at {position})"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Every byte below `0x20`, `"` and `\` is escaped as serde_json escapes it.
    #[test]
    fn push_escape_matches_serde_json() {
        for byte in (0..0x20).chain([b'"', b'\\']) {
            let mut ours = String::new();
            push_escape(&mut ours, byte);
            let theirs = serde_json::to_string(&char::from(byte).to_string()).unwrap_or_default();
            assert_eq!(format!("\"{ours}\""), theirs);
        }
    }
}
