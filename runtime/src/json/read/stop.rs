//! Why the reader stopped, and the `Deserializer` methods that stop at once: the one thing
//! every part of the reader names, kept apart so that none of them depends on the module that
//! puts them together.

use crate::prelude::*;
use core::fmt;
#[cfg(feature = "std")]
use std::cell::{Cell, RefCell};

/// `Deserializer` methods for requests the reader leaves to serde_json: each stops.
macro_rules! stop {
    ($($method:ident)*) => {
        $(
            fn $method<V: serde::de::Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Stop> {
                super::stop::ReadsThrough::left_to_serde_json(&self);
                Err(Stop)
            }
        )*
    };
}
pub(super) use stop;

/// What holds the reader in a `Deserializer` (the reader itself, a member name), so that a
/// request left to serde_json can say so: the place it stopped is then not where the text is
/// wrong, and names no path (see `Reader::stop_path`).
pub(super) trait ReadsThrough {
    /// Marks the read as stopped on valid input that serde_json reads.
    fn left_to_serde_json(&self);
}

/// Why the reader stopped: nothing more, since serde_json then reads the text and says why.
#[derive(Debug)]
pub(crate) struct Stop;

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the reader stopped; serde_json reads the text instead")
    }
}

impl core::error::Error for Stop {}

/// The error a visitor makes: nothing, unless the reader is reading a failed text again to
/// explain it; then its message, made by serde_json's own `de::Error` implementation, so that
/// it reads as serde_json's (`invalid type: null, ...`, not serde's `unit value`).
impl serde::de::Error for Stop {
    #[inline]
    fn custom<T: fmt::Display>(message: T) -> Self {
        record(|| alloc::string::ToString::to_string(&message));
        Stop
    }

    #[cold]
    fn invalid_type(unexpected: serde::de::Unexpected, expected: &dyn serde::de::Expected) -> Self {
        record(|| {
            alloc::string::ToString::to_string(
                &<serde_json::Error as serde::de::Error>::invalid_type(unexpected, expected),
            )
        });
        Stop
    }

    #[cold]
    fn invalid_value(
        unexpected: serde::de::Unexpected,
        expected: &dyn serde::de::Expected,
    ) -> Self {
        record(|| {
            alloc::string::ToString::to_string(
                &<serde_json::Error as serde::de::Error>::invalid_value(unexpected, expected),
            )
        });
        Stop
    }
}

#[cfg(feature = "std")]
std::thread_local! {
    /// Whether the reader on this thread is reading a failed text again to explain it.
    static EXPLAINING: Cell<bool> = const { Cell::new(false) };
    /// The last error message made while explaining: the one that travels out (an error a
    /// visitor made and swallowed is replaced by the next one).
    static MESSAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `read` with the reader's stops explained: returns what it returned and the words of
/// the last stop (see `explain`).
#[cfg(feature = "std")]
pub(super) fn explaining<T>(read: impl FnOnce() -> T) -> (T, Option<String>) {
    MESSAGE.with(|slot| slot.borrow_mut().take());
    EXPLAINING.with(|on| on.set(true));
    let value = read();
    EXPLAINING.with(|on| on.set(false));
    (value, MESSAGE.with(|slot| slot.borrow_mut().take()))
}

/// Keeps the message `make` writes, when the reader is explaining a failure; otherwise does
/// nothing (the first read of every text, and every read that succeeds).
#[inline]
pub(super) fn record(make: impl FnOnce() -> String) {
    #[cfg(feature = "std")]
    if EXPLAINING.with(Cell::get) {
        let message = make();
        MESSAGE.with(|slot| *slot.borrow_mut() = Some(message));
    }
    #[cfg(not(feature = "std"))]
    let _ = make;
}

/// The stop at a value serde_json refuses with `message` (one of its own error codes' texts).
#[cold]
pub(super) fn stop_with(message: &'static str) -> Stop {
    record(|| String::from(message));
    Stop
}

/// Whether the reader is explaining a failure (the cold paths that describe a token ask).
#[inline]
pub(super) fn is_explaining() -> bool {
    #[cfg(feature = "std")]
    return EXPLAINING.with(Cell::get);
    #[cfg(not(feature = "std"))]
    return false;
}
