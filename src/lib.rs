//! Exact, fast, spec-faithful Rust types for every revision of the Model Context Protocol.
//!
//! Each revision of the specification is a module generated from its official JSON schema
//! and a Cargo feature: [`v2024_11_05`], [`v2025_03_26`], [`v2025_06_18`], [`v2025_11_25`],
//! [`v2026_07_28`] (the default, latest released) and `draft` (feature `unstable-draft`).
//! Every definition of the schema is a type; constants are checked, unions pick their arm by
//! discriminator, unknown members are kept, and integers stay integers.
//!
//! A line from a peer becomes the typed request of its method in one pass:
//!
//! ```
//! # #[cfg(feature = "v2026_07_28")] {
//! use mcp_spec_types::dispatch::Message;
//! use mcp_spec_types::v2026_07_28::{ClientCall, ClientMessage};
//!
//! let line = r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a.txt",
//!   "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
//! let Message::Request(request) = ClientMessage::parse(line).unwrap() else { unreachable!() };
//! let ClientCall::ReadResource(params) = request.call else { unreachable!() };
//! assert_eq!(params.uri, "file:///a.txt");
//!
//! // What was read is written back unchanged.
//! let again: serde_json::Value = serde_json::to_value(&ClientMessage::parse(line).unwrap()).unwrap();
//! assert_eq!(again, serde_json::from_str::<serde_json::Value>(line).unwrap());
//! # }
//! ```
//!
//! [`Message::to_json`](dispatch::Message::to_json) and [`json::to_string`] write the bytes
//! `serde_json::to_string` writes, faster; the types are plain `serde::Serialize` for any other
//! format. A message that does not fit its type is a [`MessageError`] naming the method and
//! the JSON path of the culprit (`params.contents[0].uri`).
//!
//! The response to a request is typed once the request it answers is known:
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
#![doc = include_str!("walkthrough.md")]
#![deny(missing_docs)]

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub mod annotations;
pub mod blob;
mod content;
pub mod dispatch;
mod error;
pub mod json;
pub mod jsonrpc;
mod method;
mod pending;
pub mod uri_template;
pub mod validate;
mod version;

pub use annotations::AnnotationError;
pub use blob::Base64Error;
pub use error::{MessageError, MessageErrorKind};
pub use jsonrpc::{Cursor, ErrorCode, ProgressToken, RequestId, RpcError};
pub use method::{Direction, MethodKind, Notification, Request};
pub use version::ProtocolVersion;

#[cfg(feature = "unstable-draft")]
pub mod draft;
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
