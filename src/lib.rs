//! Exact, fast, spec-faithful Rust types for every revision of the Model Context Protocol.
#![deny(missing_docs)]

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub mod dispatch;
mod error;
pub mod jsonrpc;
mod method;
pub mod uri_template;
mod version;

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
