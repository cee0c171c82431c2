//! A JSON reader and a JSON writer that give exactly what `serde_json` gives, only faster.
//!
//! [`from_str`] and [`from_slice`] read any [`Deserialize`](serde::Deserialize) type to the
//! value [`serde_json::from_str`] and [`serde_json::from_slice`] read, or return their error
//! (see [`from_str`] for how). [`from_str_strict`] and [`from_slice_strict`] read with this
//! reader alone and never ask serde_json: one read, and a [`StrictError`] without a position.
//!
//! [`to_string`], [`to_vec`] and [`to_writer`] write any [`Serialize`] value as compact JSON.
//! Their output is **byte for byte** the output of [`serde_json::to_string`],
//! [`serde_json::to_vec`] and [`serde_json::to_writer`]: same escapes, same number text (numbers
//! are written by the formatters serde_json 1.0.147 and later writes them with, `itoa` and
//! `zmij`, the same crates in the build), `null` for a non-finite float,
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
//! a [`Display`](std::fmt::Display) implementation that fails on its own while written through
//! [`Serializer::collect_str`](serde::ser::Serializer::collect_str) is an error here, where
//! `serde_json` panics.

use crate::prelude::*;
mod errors;
mod map_key;
mod numbers;
mod raw_value;
pub(crate) mod read;
mod serializer;
mod strings;
mod tokens;

pub use read::{
    fallbacks_on_valid_input, from_slice, from_slice_strict, from_str, from_str_strict, StrictError,
};
use serde::Serialize;
use serde_json::Error;
use serializer::Serializer;
#[cfg(feature = "std")]
use std::io;
#[cfg(feature = "std")]
pub(crate) use tokens::ARBITRARY_PRECISION;
pub(crate) use tokens::{arbitrary_precision, RAW_VALUE_TOKEN};

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
#[cfg(feature = "std")]
pub fn to_writer<W: io::Write, T: ?Sized + Serialize>(
    mut writer: W,
    value: &T,
) -> Result<(), Error> {
    let text = to_string(value)?;
    writer.write_all(text.as_bytes()).map_err(Error::io)
}

/// The first guess at the size of the output, as `serde_json` makes it.
const INITIAL_CAPACITY: usize = 128;
