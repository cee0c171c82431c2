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
