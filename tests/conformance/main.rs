//! Conformance suite: the crate against the specification's own examples, with the official
//! JSON schema as the oracle.
//!
//! - `docs`: every JSON block of every spec page (vendored in `tests/fixtures/spec/<rev>/docs`),
//!   JSON-RPC messages through the crate's dispatch (`ClientMessage`/`ServerMessage`,
//!   `ClientCallResult`/`ServerCallResult`), bare objects through the type an explicit table
//!   names; every block is checked or skipped with a written reason.
//! - `schema_examples`: every upstream schema example (2026-07-28 and draft) as the type its
//!   folder names.
//! - `generated`: proptest values built from the schema for the resource types, the envelope
//!   and the content blocks of every revision.
//! - `negative`: payloads that break the schema are rejected with a typed error pointing at the
//!   culprit, and the validator agrees.
//!
//! Every value read or written is also validated against the matching definition of
//! `schema/<rev>/schema.json` with the `jsonschema` crate. Each revision prints one summary line
//! (`conformance <rev>: docs ... ; schema-examples ...`) with `println!` (shown with
//! `cargo test --test conformance -- --nocapture`) and, since libtest captures `println!` and
//! `eprintln!` alike, also straight to the stderr handle, which a plain `cargo test` shows.
//!
//! The known crate defects (`tables.rs`: `result_overrides`, `defects`; `negative.rs`:
//! `NEGATIVE_DEFECTS`) document what the suite found wrong in the crate and is not fixed yet,
//! each failing once it stops reproducing; `defects.rs` pins the defects it found that are fixed;
//! `disagreements.rs` says where the crate and the schema part ways.

// The shared definition table (schema definition -> Rust type, per revision) and instance
// generator, used read-only.
#[path = "../common/mod.rs"]
#[allow(unused_macros)]
mod common;

mod defects;
mod disagreements;
mod docs;
mod fixtures;
mod generated;
#[cfg(feature = "validate")]
mod judge;
mod negative;
mod oracle;
mod revision;
mod schema_examples;
mod summary;
mod tables;
#[cfg(feature = "validate")]
mod traffic;
