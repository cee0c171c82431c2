//! Why the reader stopped, and the `Deserializer` methods that stop at once: the one thing
//! every part of the reader names, kept apart so that none of them depends on the module that
//! puts them together.

use core::fmt;

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

impl serde::de::Error for Stop {
    #[inline]
    fn custom<T: fmt::Display>(_message: T) -> Self {
        Stop
    }
}
