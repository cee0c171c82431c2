//! What `crate::__private` holds: the one door into the runtime
//! (src/runtime/).
//!
//! The entry points the generated code calls come from the generator's table
//! (codegen/runtime_api.rs), written by the build as the `pub use` lines included here: an
//! entry the runtime lacks fails the build at its import. The items below the table are for the
//! crate's own modules, its tests and its fuzz targets; the generated code never names them.

include!(concat!(env!("OUT_DIR"), "/runtime_entry_points.rs"));

pub use super::trail;
pub use super::Bounded;
pub(crate) use super::CowStr;

/// The crate's JSON reader alone, without serde_json behind it: `None` where
/// [`crate::json::from_str`] would let serde_json read the text. For tests and fuzzing, which
/// compare the two; [`crate::json::from_str_strict`] is the public form, and what they should
/// call instead (then this goes).
pub fn read_without_fallback<'a, T: serde::Deserialize<'a>>(text: &'a str) -> Option<T> {
    crate::json::without_fallback(text)
}
