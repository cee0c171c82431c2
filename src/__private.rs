//! What `crate::__private` holds: the one door into the runtime (the `mcp-spec-types-runtime`
//! crate, runtime/).
//!
//! The entry points the generated code calls come from the generator's table
//! (codegen/runtime_api.rs), written by the build as the `pub use` lines included here: an
//! entry the runtime lacks fails the build at its import. The items below the table are for the
//! crate's own modules, its tests and its fuzz targets; the generated code never names them.

include!(concat!(env!("OUT_DIR"), "/runtime_entry_points.rs"));

pub use mcp_spec_types_runtime::runtime::{
    count_fallback, from_str_at, from_str_explained, seed_without_fallback, strip_position, trail,
    Bounded, CowStr, Explained,
};
