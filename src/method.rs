//! What every revision's methods have in common: who sends them, whether they are answered,
//! and the typed pairing of a method with its params and result.

use serde::de::DeserializeOwned;
use serde::Serialize;

include!(concat!(env!("OUT_DIR"), "/method_names.rs"));

/// Which side of a session sends a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Sent by the client to the server.
    ClientToServer,
    /// Sent by the server to the client.
    ServerToClient,
    /// Sent by either side (`ping`, `notifications/cancelled`, ...).
    Both,
}

impl Direction {
    /// Whether a message of this direction may travel from `sender` to its peer.
    pub fn allows(self, sender: Direction) -> bool {
        self == Direction::Both || self == sender
    }
}

/// Whether a method is a request (answered with a response) or a notification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MethodKind {
    /// Carries an id and is answered.
    Request,
    /// Carries no id and is never answered.
    Notification,
}

/// A request type of some revision, with its method name, params and result types.
///
/// Implemented for every request type the schema defines, in every revision module:
///
/// ```
/// # #[cfg(feature = "v2026_07_28")] {
/// use mcp_spec_types::{v2026_07_28 as mcp, Request};
/// assert_eq!(<mcp::ReadResourceRequest as Request>::METHOD, "resources/read");
/// # }
/// ```
pub trait Request {
    /// The method name on the wire.
    const METHOD: &'static str;
    /// The `params` member's type.
    type Params: Serialize + DeserializeOwned;
    /// The type of a successful response's `result`.
    type Result: Serialize + DeserializeOwned;
}

/// A notification type of some revision, with its method name and params type.
pub trait Notification {
    /// The method name on the wire.
    const METHOD: &'static str;
    /// The `params` member's type (an `Option` where the schema makes params optional).
    type Params: Serialize + DeserializeOwned;
}
