//! The hand-written runtime of [`mcp-spec-types`](https://docs.rs/mcp-spec-types): its JSON
//! reader and writer, [`JsonObject`], the URI templates, base64 blobs, the URI check, and the
//! helpers its generated serde code calls. Use it through `mcp-spec-types`, which re-exports
//! every public item here at the same path (`mcp_spec_types::json`, `mcp_spec_types::uri_template`,
//! ...); the hidden modules are for that crate alone and change in any release.
//!
//! It is a crate of its own because it needs no generated code: a build compiles it beside
//! `mcp-spec-types`' build script, which generates the types from the official schemas, instead
//! of after it.
#![no_std]
#![deny(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod blob;
#[doc(hidden)]
pub mod collections;
pub mod json;
#[doc(hidden)]
pub mod json_object;
#[doc(hidden)]
pub mod number;
#[doc(hidden)]
pub mod prelude;
#[doc(hidden)]
pub mod runtime;
pub mod uri;
pub mod uri_template;

pub use blob::Base64Error;
pub use json_object::JsonObject;
pub use number::IntoNumber;
