//! The runtime of the generated serde impls. Not part of the public API: the generated code and
//! `mcp-spec-types`' own modules reach it as `mcp_spec_types::__private` (its
//! src/__private.rs), whose names may change in any release.
//!
//! The generated code stays small because the logic lives here once, one concern per module:
//! - `members`: member lookup (a name to the index of a declared member, without
//!   allocating), member reads into their slots, duplicates, unknown members kept in `extra`;
//! - `consts`: the members the schema fixes with `const`;
//! - `visitors`: the serde visitors of object types, tagged unions and keyed unions;
//! - `arms`: arm selection for the unions no discriminator tells apart;
//! - `bounds`: the numeric and count bounds (`minimum`, `maxLength`, `maxItems`, ...);
//! - `keywords`: the other validation keywords (`pattern`, `multipleOf`, ...);
//! - `schema`: the official JSON Schema of each type, for the `schemars` feature;
//! - `tasks`: whether a request asks to run as a task;
//! - `trail`: the JSON path of a failed read, as the error travels out.

mod arms;
mod bounds;
mod constructors;
mod consts;
mod keywords;
mod lazy;
mod members;
#[cfg(feature = "schemars")]
mod schema;
mod tasks;
pub mod trail;
mod visitors;

pub use crate::json::read::{
    count_fallback, from_str_at, from_str_explained, seed_without_fallback, strip_position,
    Explained,
};
pub use arms::{from_buffered, select_arm, unreachable_arm, ArmShape, Kind};
pub use bounds::{read_bounded_array_member, read_bounded_member, Bounded, Bounds};
pub use constructors::Constructed;
pub use consts::{read_const, read_optional_const, require_const, serialize_const, ConstValue};
#[cfg(feature = "pattern")]
pub use keywords::Pattern;
pub use keywords::{
    check_object, read_checked_array_member, read_checked_map_member, read_checked_member,
    Keywords, Literal, ObjectKeywords,
};
pub use members::{
    declared_in_extra, put_extra, read_array_member, read_extra, read_map_member, read_member,
    read_object_array_member, required, Member, MemberSeed,
};
#[cfg(feature = "schemars")]
pub use schema::official_schema;
pub use tasks::AsksForTask;
pub use visitors::CowStr;
pub use visitors::{
    Keyed, KeyedVisitor, Object, ObjectVisitor, StringEnum, StringEnumVisitor, Tagged,
    TaggedVisitor,
};
