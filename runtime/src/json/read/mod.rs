//! A JSON reader that gives every `Deserialize` implementation what `serde_json` gives it,
//! only faster on long strings.
//!
//! The reader makes, for the same text, the same calls into a type's `Deserialize`
//! implementation that serde_json's deserializer makes (strings borrowed when they have no
//! escapes, numbers as `u64`, `i64` or a correctly rounded `f64`, `RawValue` as its text), so a
//! value it reads is the value serde_json reads. Where it would differ, it does not guess: it
//! stops, and serde_json reads the whole text instead. That is every error (so errors are
//! serde_json's own, with their line and column), and the few requests this reader leaves to
//! serde_json (byte strings, `f32`, 128-bit integers, numbers in member names, and everything
//! when another crate in the build turns on serde_json's `arbitrary_precision`).

mod access;
mod deserializer;
mod explain;
mod reader;
mod scan;
mod stop;

use core::fmt;
pub use explain::{strip_position, Explained};
use reader::Reader;
use serde::de::DeserializeSeed;
use serde::Deserialize;
use serde_json::Error;

/// Reads `text` as a `T`: the value [`serde_json::from_str`] reads, or its error.
///
/// Use it to read a type known in advance: a result whose request is known, a params or
/// content struct. Strings are scanned 16 and 64 bytes at a time instead of 8, and escapes
/// decoded without a jump per kind: in the bench, the 1 MiB text of a `resources/read` result
/// reads about 1.4 times and its 1 MiB blob about 1.9 times as fast as through
/// `serde_json::from_str`. Anything `serde_json::from_str` accepts it accepts, with an equal
/// value. Every entry point of the crate that reads JSON (`Message::parse`, the typed params and
/// results, `convert`, `JsonObject`, the validator) reads through it.
///
/// # Errors
///
/// Exactly the error `serde_json::from_str::<T>(text)` returns: when reading fails here, the
/// text is read again by serde_json, whose error (line, column, category, message) is
/// returned. Reading invalid text therefore costs two reads.
///
/// # Example
///
/// ```
/// # #[cfg(feature = "v2025_06_18")] {
/// use mcp_spec_types::v2025_06_18::ReadResourceResult;
///
/// let text = r#"{"contents":[{"uri":"file:///a.txt","text":"line 1\nline 2"}]}"#;
/// let ours: ReadResourceResult = mcp_spec_types::json::from_str(text)?;
/// let theirs: ReadResourceResult = serde_json::from_str(text)?;
/// assert_eq!(ours, theirs);
///
/// let error = mcp_spec_types::json::from_str::<ReadResourceResult>("{\"contents\": 7}")
///     .unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     serde_json::from_str::<ReadResourceResult>("{\"contents\": 7}")
///         .unwrap_err()
///         .to_string()
/// );
/// # }
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn from_str<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, Error> {
    if let Some(value) = without_fallback(text) {
        return Ok(value);
    }
    // The generated readers record where they failed; only serde_json's read may say.
    crate::runtime::trail::clear();
    count_fallback(serde_json::from_str(text))
}

/// Reads `text` as [`from_str`] does; a failure comes with the JSON path of the value it failed
/// in (`contents[0].uri`, empty at the top), for the crate's errors.
///
/// With `std` the path is the trail the generated readers leave as serde_json's read fails
/// (`crate::runtime::trail`). Without it there is no per-thread trail, and the path is where
/// this crate's reader stopped: the same member or element, short of what a union's arm was
/// reading inside it, and empty when it stopped on input it leaves to serde_json.
pub fn from_str_at<'a, T: Deserialize<'a>>(
    text: &'a str,
) -> Result<T, (Error, alloc::string::String)> {
    #[cfg(feature = "std")]
    {
        crate::runtime::trail::clear();
        from_str(text).map_err(|error| (error, crate::runtime::trail::take()))
    }
    #[cfg(not(feature = "std"))]
    {
        let mut path = None;
        if !super::arbitrary_precision() {
            let mut reader = Reader::new(text);
            let read = T::deserialize(&mut reader).and_then(|value| reader.end().map(|()| value));
            match read {
                Ok(value) => return Ok(value),
                Err(_) => path = reader.stop_path.into_path(),
            }
        }
        count_fallback(serde_json::from_str(text))
            .map_err(|error| (error, path.unwrap_or_default()))
    }
}

/// Reads `text` as a `T`; a failure comes explained: serde_json's message without its position,
/// and the JSON path of the culprit, from a second read by this crate's reader rather than by
/// serde_json, so that serde_json's deserializer is not compiled for `T` (module `explain`).
///
/// For the types this reader reads whole, as every generated type: a type that asks for a
/// byte string, an `f32` or a 128-bit integer (which [`from_str`] leaves to serde_json) fails
/// here even on valid text.
///
/// # Errors
///
/// [`Explained`] when `text` is not JSON, is not a `T`, or has trailing characters.
pub fn from_str_explained<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, Explained> {
    // A constant: serde_json's reading of `T` is compiled in only for the builds that take
    // the path below.
    #[cfg(feature = "std")]
    if !super::ARBITRARY_PRECISION {
        return without_fallback(text).ok_or_else(|| explain::explain::<T>(text));
    }
    from_str_at(text).map_err(|(error, path)| Explained {
        message: strip_position(&alloc::string::ToString::to_string(&error)),
        path,
    })
}

/// Reads `text` as a `T` with this crate's reader alone: serde_json never reads the text.
///
/// For callers who want to fail fast: invalid text costs one read, not two, and the error
/// says only that the read stopped. It also stops on the few requests the reader leaves to
/// serde_json (byte strings, `f32`, 128-bit integers, numbers as member names, and everything
/// when a crate in the build turns on serde_json's `arbitrary_precision` feature); a type
/// that makes such requests reads only through [`from_str`].
///
/// A value it returns is the value [`from_str`] and [`serde_json::from_str`] return.
///
/// # Errors
///
/// [`StrictError`] when the text is not JSON, is not a `T`, has trailing characters, or needs
/// serde_json (see above). For serde_json's error with line and column, read the text again
/// with [`from_str`].
///
/// # Example
///
/// ```
/// # #[cfg(feature = "v2025_06_18")] {
/// use mcp_spec_types::json::{from_str_strict, StrictError};
/// use mcp_spec_types::v2025_06_18::ReadResourceResult;
///
/// let text = r#"{"contents":[{"uri":"file:///a.txt","text":"hello"}]}"#;
/// let read: ReadResourceResult = from_str_strict(text)?;
/// assert_eq!(read, serde_json::from_str(text).unwrap());
/// assert!(from_str_strict::<ReadResourceResult>(r#"{"contents": 7}"#).is_err());
/// # }
/// # Ok::<(), mcp_spec_types::json::StrictError>(())
/// ```
pub fn from_str_strict<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, StrictError> {
    without_fallback(text).ok_or(StrictError { _private: () })
}

/// Reads `bytes` as a `T` with this crate's reader alone, as [`from_str_strict`] reads text.
///
/// # Errors
///
/// [`StrictError`] when the bytes are not UTF-8, or where [`from_str_strict`] fails.
///
/// # Example
///
/// ```
/// let id: mcp_spec_types::RequestId = mcp_spec_types::json::from_slice_strict(b"42")?;
/// assert_eq!(id, mcp_spec_types::RequestId::from(42));
/// # Ok::<(), mcp_spec_types::json::StrictError>(())
/// ```
pub fn from_slice_strict<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, StrictError> {
    core::str::from_utf8(bytes)
        .map_err(|_| StrictError { _private: () })
        .and_then(from_str_strict)
}

/// Why [`from_str_strict`] or [`from_slice_strict`] returned no value: the reader stopped,
/// on invalid input or on a request it leaves to serde_json. It carries no position, because
/// finding one is the second read a strict caller declined; [`from_str`] gives serde_json's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrictError {
    _private: (),
}

impl fmt::Display for StrictError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "the JSON reader stopped: the text is not valid for this type, or needs serde_json",
        )
    }
}

impl core::error::Error for StrictError {}

#[cfg(feature = "std")]
std::thread_local! {
    /// How many reads on this thread fell back to serde_json and succeeded there. A fixed-size
    /// counter: it does not grow with the number of reads.
    static FALLBACKS_ON_VALID_INPUT: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

/// Without `std` there are no thread-locals: one counter for the program, counted with loads
/// and stores only (every target with atomics has them), so two threads counting at once may
/// lose a count. It is a test's probe, not a statistic.
#[cfg(not(feature = "std"))]
static FALLBACKS_ON_VALID_INPUT: core::sync::atomic::AtomicUsize =
    core::sync::atomic::AtomicUsize::new(0);

/// Counts a fallback whose serde_json read succeeded: valid input this reader did not read.
pub fn count_fallback<T>(read: Result<T, Error>) -> Result<T, Error> {
    if read.is_ok() {
        #[cfg(feature = "std")]
        FALLBACKS_ON_VALID_INPUT.with(|count| count.set(count.get().wrapping_add(1)));
        #[cfg(not(feature = "std"))]
        {
            use core::sync::atomic::Ordering::Relaxed;
            let count = FALLBACKS_ON_VALID_INPUT.load(Relaxed);
            FALLBACKS_ON_VALID_INPUT.store(count.wrapping_add(1), Relaxed);
        }
    }
    read
}

/// How many times, on the calling thread, [`from_str`] or [`from_slice`] handed valid input to
/// serde_json (the reader stopped, serde_json then read a value). Tests assert that it does
/// not move while they read valid messages, so a reader bug that only shows as a fallback
/// fails them; reads this reader leaves to serde_json on purpose (see [`from_str_strict`])
/// count too. Without the `std` feature the count is the program's, not the thread's.
#[doc(hidden)]
pub fn fallbacks_on_valid_input() -> u64 {
    #[cfg(feature = "std")]
    return FALLBACKS_ON_VALID_INPUT.with(core::cell::Cell::get);
    #[cfg(not(feature = "std"))]
    return FALLBACKS_ON_VALID_INPUT.load(core::sync::atomic::Ordering::Relaxed) as u64;
}

/// This reader alone: `None` where [`from_str`] would ask serde_json.
fn without_fallback<'a, T: Deserialize<'a>>(text: &'a str) -> Option<T> {
    seed_without_fallback(text, core::marker::PhantomData::<T>)
}

/// This reader alone, driving `seed` over the whole of `text`: `None` where the reader stops
/// (invalid text, trailing characters, or a request it leaves to serde_json). For the crate's
/// own one-pass readers, whose visitors carry state (`Message::parse`'s envelope); the caller
/// decides what a stop costs.
pub fn seed_without_fallback<'a, S: DeserializeSeed<'a>>(
    text: &'a str,
    seed: S,
) -> Option<S::Value> {
    if super::arbitrary_precision() {
        return None;
    }
    let mut reader = Reader::new(text);
    let value = seed.deserialize(&mut reader).ok()?;
    reader.end().ok()?;
    Some(value)
}

/// Reads `bytes` as a `T`: the value [`serde_json::from_slice`] reads, or its error.
///
/// Text that is not UTF-8 is left to serde_json as it is (serde_json skips some such bytes
/// inside values it ignores).
///
/// # Errors
///
/// Exactly the error `serde_json::from_slice::<T>(bytes)` returns (see [`from_str`]).
///
/// # Example
///
/// ```
/// let id: mcp_spec_types::RequestId = mcp_spec_types::json::from_slice(b"42")?;
/// assert_eq!(id, serde_json::from_slice(b"42")?);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn from_slice<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, Error> {
    if let Some(value) = core::str::from_utf8(bytes).ok().and_then(without_fallback) {
        return Ok(value);
    }
    crate::runtime::trail::clear();
    count_fallback(serde_json::from_slice(bytes))
}
