//! Exact, fast, spec-faithful Rust types for every revision of the Model Context Protocol.
//!
//! ## Parse a line
//!
//! A line from a peer becomes the typed request of its method in one pass; what was read is
//! written back unchanged:
//!
//! ```
//! # #[cfg(feature = "v2026_07_28")] {
//! use mcp_spec_types::dispatch::Message;
//! use mcp_spec_types::v2026_07_28::{ClientCall, ClientMessage};
//!
//! let line = r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a.txt",
//!   "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
//! let Message::Request(request) = ClientMessage::parse(line).unwrap() else { unreachable!() };
//! let ClientCall::ReadResource(params) = &request.call else { unreachable!() };
//! assert_eq!(params.uri, "file:///a.txt");
//!
//! let again: serde_json::Value = serde_json::to_value(&ClientMessage::parse(line).unwrap()).unwrap();
//! assert_eq!(again, serde_json::from_str::<serde_json::Value>(line).unwrap());
//! # }
//! ```
//!
//! A message that does not fit its type is a [`MessageError`] naming the method and the JSON
//! path of the culprit (`params.contents[0].uri`).
//!
//! ## Answer a request
//!
//! The result type of each method is generated; the response carries the request's id:
//!
//! ```
//! # #[cfg(feature = "v2026_07_28")] {
//! use mcp_spec_types::dispatch::ResultResponse;
//! use mcp_spec_types::v2026_07_28::{CacheScope, ReadResourceResult, TextResourceContents};
//!
//! let result = ReadResourceResult::complete(
//!     [TextResourceContents::new("file:///a.txt", "hello").with_mime_type("text/plain")],
//!     60_000,
//!     CacheScope::Private,
//! );
//! let response = ResultResponse::new(1, &result).unwrap();
//! assert!(mcp_spec_types::json::to_string(&response).unwrap().starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"#));
//! # }
//! ```
//!
//! ## Build any value
//!
//! Every struct of every revision has constructors generated from its schema:
//! - `new(…)` takes the members the schema requires, always in this order: first the members
//!   that name or carry the thing (`uri`, `uriTemplate`, `name`, `text`, `blob`, `data`,
//!   `mimeType`, `resource`, in that order), then the other required members alphabetically by
//!   JSON name, then `ttlMs`, `cacheScope` and `resultType`. A struct that requires nothing has
//!   `new()` and `Default`. Constants (`"type": "text"`, `"method"`) are never arguments: the
//!   type writes them, and its documentation says which;
//! - `complete(…)`, on a result that carries `resultType`: `new` without the result type, which
//!   it sets to `"complete"`;
//! - `with_<member>(value)` for every member, and `with_extra(name, value)` for a member the
//!   schema does not name (a member the type declares is refused when the value is written).
//!
//! A list member takes anything iterable whose items convert (`[TextContent::new("hi")]` for a
//! list of content blocks), and an optional number member any integer or float
//! ([`IntoNumber`]).
//!
//! [`Message::to_json`](dispatch::Message::to_json) and [`json::to_string`] write the bytes
//! `serde_json::to_string` writes, faster; the types are plain `serde::Serialize` for any other
//! format.
//!
//! ## Read an answer
//!
//! The response to a request is typed once the request it answers is known: keep what it
//! expects in [`dispatch::PendingRequests`] (by direction and id, since each side numbers its
//! own requests), or name the request type:
//!
//! ```
//! # #[cfg(feature = "v2025_06_18")] {
//! use mcp_spec_types::dispatch::Message;
//! use mcp_spec_types::v2025_06_18::{ReadResourceRequest, ReadResourceResultContentsItem, ServerMessage};
//!
//! let line = r#"{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"file:///a.txt","text":"hi"}]}}"#;
//! let Message::Response(response) = ServerMessage::parse(line).unwrap() else { unreachable!() };
//! let result = response.result_for::<ReadResourceRequest>().unwrap();
//! assert!(matches!(&result.contents[0], ReadResourceResultContentsItem::TextResourceContents(t) if t.text == "hi"));
//! # }
//! ```
//!
//! ## Revisions
//!
//! Each revision of the specification is a module generated from its official JSON schema,
//! behind a Cargo feature of the same name; any combination compiles together. Every
//! definition of the schema is a type; constants are checked, unions pick their arm by
//! discriminator, the schema's bounds are enforced, unknown members are kept, and integers
//! stay integers.
//!
//! | revision | module | feature |
//! |---|---|---|
//! | 2024-11-05 | [`v2024_11_05`] | `v2024_11_05` |
//! | 2025-03-26 | [`v2025_03_26`] | `v2025_03_26` |
//! | 2025-06-18 | [`v2025_06_18`] | `v2025_06_18` |
//! | 2025-11-25 | [`v2025_11_25`] | `v2025_11_25` |
//! | 2026-07-28 | [`v2026_07_28`] | `v2026_07_28` (default) |
//! | draft | `draft` | `unstable-draft` (changes without notice) |
//! | newest enabled release | `latest` | (an alias that moves with each release) |
//!
//! `all-revisions` enables every released revision. The links above resolve when the
//! revision's feature is enabled (every one is, on docs.rs).
//!
//! The `auth` feature adds `auth`: the OAuth documents, challenges and discovery rules of the
//! specification's authorization pages.
//!
//! The `std` feature (on by default) uses the standard library. Without it the crate is
//! `#![no_std]` with `alloc`, for every revision, with `convert`, `auth` and `validate`; the
//! `docs/no-std.md` says what changes (error paths inside some unions, hashed
//! maps, `json::to_writer`).
#![doc = include_str!("walkthrough.md")]
#![deny(missing_docs)]
// docs.rs builds with `--cfg docsrs` on nightly: feature-gated items then say which feature
// they need. Stable builds never see the attribute.
#![cfg_attr(docsrs, feature(doc_cfg))]
// Every module is written against `core` and `alloc`, in both builds: what only the `std`
// feature compiles names `std` itself, so the `no_std` build cannot depend on it unseen.
#![no_std]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[doc(hidden)]
pub mod __private;

// The hand-written runtime (runtime/, the `mcp-spec-types-runtime` crate), at the paths it
// has always had here: it needs no generated code, so it compiles beside the build script.
pub use mcp_spec_types_runtime::{blob, json, uri, uri_template};
use mcp_spec_types_runtime::{collections, json_object, number, prelude};

pub mod annotations;
pub mod answer;
#[cfg(feature = "auth")]
pub mod auth;
pub mod cache;
#[cfg(feature = "client")]
pub mod client;
mod content;
#[cfg(feature = "convert")]
pub mod convert;
pub mod dispatch;
#[cfg(feature = "v2025_11_25")]
pub mod elicitation;
mod error;
pub mod http_headers;
pub mod input_required;
pub mod jsonrpc;
#[cfg(any(feature = "server", feature = "client"))]
mod located;
mod method;
pub mod negotiation;
mod pending;
pub mod progress;
pub mod revision;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "validate")]
pub mod validate;
mod version;

pub use annotations::AnnotationError;
pub use blob::Base64Error;
pub use error::{MessageError, MessageErrorKind};
pub use json_object::JsonObject;
pub use jsonrpc::{Cursor, ErrorCode, ProgressToken, RequestId, RpcError};
pub use method::{Direction, MethodKind, Notification, Request};
pub use number::IntoNumber;
pub use version::ProtocolVersion;

include!(concat!(env!("OUT_DIR"), "/latest.rs"));

#[cfg(test)]
mod latest_tests {
    /// `latest` follows the enabled features, not the newest revision the crate knows: the
    /// library's own tests build with 2025-06-18 and no newer revision.
    #[cfg(all(
        feature = "v2025_06_18",
        not(any(feature = "v2025_11_25", feature = "v2026_07_28"))
    ))]
    #[test]
    fn latest_is_the_newest_enabled_release() {
        assert_eq!(crate::latest::REVISION, "2025-06-18");
        assert_eq!(
            crate::ProtocolVersion::SUPPORTED_RELEASED
                .first()
                .map(|v| v.as_str()),
            Some("2025-06-18")
        );
    }
}

#[cfg(feature = "unstable-draft")]
pub mod draft;
#[cfg(feature = "__keywords-test")]
#[doc(hidden)]
pub mod keywords_test;
#[cfg(feature = "v2024_11_05")]
pub mod v2024_11_05;
#[cfg(feature = "v2025_03_26")]
pub mod v2025_03_26;
#[cfg(feature = "v2025_06_18")]
pub mod v2025_06_18;
#[cfg(feature = "v2025_11_25")]
pub mod v2025_11_25;
#[cfg(feature = "v2026_07_28")]
pub mod v2026_07_28;

/// The README's Rust examples, compiled and run as doc tests (with every feature they use), so
/// that the first code a user reads is code that works.
#[cfg(all(
    doctest,
    feature = "all-revisions",
    feature = "convert",
    feature = "auth",
    feature = "server",
    feature = "http-server",
    feature = "http-client",
    feature = "redis",
    feature = "oauth"
))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The Rust examples of the pages under `docs/`, compiled and run as the README's are.
#[cfg(all(
    doctest,
    feature = "all-revisions",
    feature = "convert",
    feature = "auth",
    feature = "server"
))]
#[doc = include_str!("../docs/no-std.md")]
#[doc = include_str!("../docs/convert.md")]
#[doc = include_str!("../docs/auth.md")]
pub struct DocsDoctests;
