//! Why the reader stopped, and the `Deserializer` methods that stop at once: the one thing
//! every part of the reader names, kept apart so that none of them depends on the module that
//! puts them together.

#[cfg(feature = "std")]
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
/// it reads as serde_json's (`invalid type: null, ...`, not serde's `unit value`). What is
/// generic here is a coercion to `dyn`: the rest is compiled once, not per visitor.
impl serde::de::Error for Stop {
    #[inline]
    fn custom<T: fmt::Display>(message: T) -> Self {
        record(&message);
        Stop
    }

    #[cold]
    fn invalid_type(unexpected: serde::de::Unexpected, expected: &dyn serde::de::Expected) -> Self {
        record_invalid(false, unexpected, expected);
        Stop
    }

    #[cold]
    fn invalid_value(
        unexpected: serde::de::Unexpected,
        expected: &dyn serde::de::Expected,
    ) -> Self {
        record_invalid(true, unexpected, expected);
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

/// Runs `read` with the reader's stops explained, and returns the words of the last stop
/// (see `explain`). What was kept before is put back after, also when `read` panics or reads
/// another failed text inside (a type's reader may call the crate's reads itself).
#[cfg(feature = "std")]
pub(super) fn explaining(read: &mut dyn FnMut()) -> Option<String> {
    /// Puts back the state `explaining` found.
    struct Restore {
        was_explaining: bool,
        message: Option<String>,
    }
    impl Drop for Restore {
        fn drop(&mut self) {
            EXPLAINING.with(|on| on.set(self.was_explaining));
            let message = self.message.take();
            MESSAGE.with(|slot| *slot.borrow_mut() = message);
        }
    }
    let _restore = Restore {
        was_explaining: EXPLAINING.with(|on| on.replace(true)),
        message: MESSAGE.with(|slot| slot.borrow_mut().take()),
    };
    read();
    MESSAGE.with(|slot| slot.borrow_mut().take())
}

/// Keeps `message`, when the reader is explaining a failure; otherwise does nothing (the
/// first read of every text, and every read that succeeds).
#[cold]
fn record(message: &dyn fmt::Display) {
    #[cfg(feature = "std")]
    if EXPLAINING.with(Cell::get) {
        let message = alloc::string::ToString::to_string(message);
        MESSAGE.with(|slot| *slot.borrow_mut() = Some(message));
    }
    #[cfg(not(feature = "std"))]
    let _ = message;
}

/// Keeps serde_json's `invalid value` (or `invalid type`) message, when explaining.
#[cold]
fn record_invalid(
    value: bool,
    unexpected: serde::de::Unexpected,
    expected: &dyn serde::de::Expected,
) {
    if is_explaining() {
        use serde::de::Error;
        record(&if value {
            serde_json::Error::invalid_value(unexpected, expected)
        } else {
            serde_json::Error::invalid_type(unexpected, expected)
        });
    }
}

/// The stop at a value serde_json refuses with `message` (one of its own error codes' texts).
#[cold]
pub(super) fn stop_with(message: &'static str) -> Stop {
    record(&message);
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
