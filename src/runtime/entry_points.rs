//! What `crate::__private` holds: the runtime's entry points, the one door into [`super`] for
//! the generated code, the crate's other modules, its tests and its fuzz targets.

pub use super::*;

/// The crate's JSON reader alone, without serde_json behind it: `None` where
/// [`crate::json::from_str`] would let serde_json read the text. For tests and fuzzing, which
/// compare the two; [`crate::json::from_str_strict`] is the public form.
pub fn read_without_fallback<'a, T: serde::Deserialize<'a>>(text: &'a str) -> Option<T> {
    crate::json::from_str_strict(text).ok()
}
