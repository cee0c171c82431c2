//! The crate's integration tests, one module a file, compiled as one test binary.
//!
//! Each test binary links the whole library and instantiates its generic readers and writers
//! for the types it touches; as separate binaries the files paid that, and the link, some forty
//! times over. The files stay one concept each; what several of them share is declared here
//! once. Kept as binaries of their own (Cargo.toml's `[[test]]` list): the files that install a
//! global allocator to count (`memory`, `bounded_state`), the ones that compile a file of the
//! crate's or the suite's that names its own `crate::` items (`auth`, `e2e`), and the folders
//! with modules of their own.

#[macro_use]
mod common;
#[path = "e2e/support.rs"]
mod support;
// The build's marking pass, for `bounds` and `keywords`: `codegen/bounds.rs` names
// `crate::schema_walk`, as it does in the build script.
#[path = "../codegen/bounds.rs"]
#[allow(dead_code)]
mod build_bounds;
#[path = "../codegen/schema_walk.rs"]
#[allow(dead_code)]
mod schema_walk;

mod adversarial;
mod bounds;
mod client;
mod client_bounds;
mod client_calls;
mod client_connection;
mod client_http;
mod codegen_checks;
mod construction;
mod convert;
mod convert_for_peer;
mod definitions;
mod dispatch;
mod faithful;
mod http_safety;
mod http_service;
mod input_required;
mod input_required_server;
mod json_object;
mod json_object_index;
mod json_reader;
mod json_schema;
mod json_strict;
mod json_writer;
mod jsonrpc;
mod keywords;
mod manifest;
mod module_graph;
mod no_std_features;
mod other_format;
mod parse_answering;
mod pending_lookup;
mod reads_through_crate_reader;
mod regressions;
mod replicas;
mod replicas_held;
mod replicas_redis;
mod reply;
mod resource_server;
mod resources;
mod revision_changes;
mod sdk_old;
mod sdk_python;
mod server;
mod server_async;
mod server_changes;
mod server_extension;
mod server_http;
mod server_notify;
mod server_reports;
mod server_rounds;
mod server_state;
mod server_typed;
mod stateless_helpers;
mod uri_format;
mod uri_template;
mod validate;
mod validate_envelope;
mod validate_reads;
mod wiring;
