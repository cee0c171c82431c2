//! Why the reader stopped, and the `Deserializer` methods that stop at once: the one thing
//! every part of the reader names, kept apart so that none of them depends on the module that
//! puts them together.

use std::fmt;

/// `Deserializer` methods for requests the reader leaves to serde_json: each stops.
macro_rules! stop {
    ($($method:ident)*) => {
        $(
            fn $method<V: serde::de::Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Stop> {
                Err(Stop)
            }
        )*
    };
}
pub(super) use stop;

/// Why the reader stopped: nothing more, since serde_json then reads the text and says why.
#[derive(Debug)]
pub(crate) struct Stop;

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the reader stopped; serde_json reads the text instead")
    }
}

impl std::error::Error for Stop {}

impl serde::de::Error for Stop {
    #[inline]
    fn custom<T: fmt::Display>(_message: T) -> Self {
        Stop
    }
}
