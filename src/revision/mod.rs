//! One face for every revision: its method table, the reading of its messages, and its place
//! in negotiation, as one type per revision module (`v2025_06_18::Revision`, …).
//!
//! Code that serves or checks several revisions is written once, generic over
//! [`Revision`], and reached from a version chosen at run time through [`visit`]:
//!
//! ```
//! # #[cfg(all(feature = "v2025_06_18", feature = "v2026_07_28"))] {
//! use mcp_spec_types::dispatch::Message;
//! use mcp_spec_types::revision::{self, ClientMessage, Revision, Visit};
//! use mcp_spec_types::ProtocolVersion;
//!
//! /// How many requests a line holds, read in the line's own revision.
//! struct CountRequests<'a>(&'a str);
//!
//! impl Visit for CountRequests<'_> {
//!     type Output = Result<usize, mcp_spec_types::MessageError>;
//!     fn visit<R: Revision>(self) -> Self::Output {
//!         Ok(match ClientMessage::<R>::parse(self.0)? {
//!             Message::Request(_) => 1,
//!             Message::Batch(items) => items
//!                 .iter()
//!                 .filter(|item| matches!(item, Message::Request(_)))
//!                 .count(),
//!             _ => 0,
//!         })
//!     }
//! }
//!
//! let line = r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#;
//! let version = ProtocolVersion::from("2025-06-18");
//! assert_eq!(revision::visit(&version, CountRequests(line)), Some(Ok(1)));
//! // A revision this build does not have is `None`, never a guess.
//! assert_eq!(revision::visit(&ProtocolVersion::from("1999-01-01"), CountRequests(line)), None);
//! # }
//! ```

use crate::prelude::*;
mod by_version;

pub use by_version::visit;

use crate::dispatch::{CallSet, Message, MethodSet, PendingRequest};
use crate::error::MessageError;
use crate::method::{Direction, MethodKind};
use crate::version::ProtocolVersion;
use serde_json::value::RawValue;

/// One revision of the specification: the types of its messages, its method table and its
/// place in negotiation. Each revision module has one implementation, `Revision` (for example
/// [`v2025_06_18::Revision`](crate::v2025_06_18::Revision)); every fact it gives is read from
/// the module's generated code, none is written by hand.
///
/// The associated functions have no receiver: the implementations are unit types, named as
/// type parameters (`R: Revision`), never held.
pub trait Revision: 'static {
    /// What the client sends as requests.
    type ClientCall: CallSet;
    /// What the client sends as notifications.
    type ClientNotify: MethodSet;
    /// What the server sends as requests.
    type ServerCall: CallSet;
    /// What the server sends as notifications.
    type ServerNotify: MethodSet;

    /// The revision's version string, `"2025-06-18"` (`"draft"` for the working copy).
    const VERSION: &'static str;

    /// The revision as a [`ProtocolVersion`].
    fn version() -> ProtocolVersion {
        ProtocolVersion::from(Self::VERSION)
    }

    /// Who sends `method` and whether it is a request or a notification; `None` for a method
    /// the revision does not define.
    fn method(name: &str) -> Option<(Option<Direction>, Option<MethodKind>)>;

    /// The names of every method the revision defines, in the order of their names.
    fn methods() -> Vec<&'static str>;

    /// Whether the revision has no `initialize`: every request stands alone and carries its
    /// protocol version (2026-07-28 on).
    fn is_stateless() -> bool {
        Self::method("initialize").is_none()
    }

    /// Whether the revision is the specification's working copy, which negotiation offers
    /// only after every released revision (see [`negotiation::choose`](crate::negotiation)).
    fn is_draft() -> bool {
        Self::VERSION == "draft"
    }

    /// Whether the revision allows JSON-RPC batches (2025-03-26 only).
    fn has_batches() -> bool {
        <Self::ClientCall as MethodSet>::BATCHES
    }

    /// Reads a line `sender` wrote, in this revision's types, and says what it amounts to.
    ///
    /// # Errors
    ///
    /// The [`MessageError`] of the revision's reader: where and what.
    fn summarize(sender: Direction, text: &str) -> Result<Summary, MessageError> {
        match sender {
            Direction::ServerToClient => ServerMessage::<Self>::parse(text).map(Summary::of),
            _ => ClientMessage::<Self>::parse(text).map(Summary::of),
        }
    }

    /// Checks `result`, the result of `request`, which `requester` sent, against this
    /// revision's result type for it.
    ///
    /// # Errors
    ///
    /// The [`MessageError`] of the result's reader.
    fn check_result(
        requester: Direction,
        request: &PendingRequest,
        result: &RawValue,
    ) -> Result<(), MessageError> {
        match requester {
            Direction::ServerToClient => {
                <Self::ServerCall as CallSet>::parse_result(request, result).map(drop)
            }
            _ => <Self::ClientCall as CallSet>::parse_result(request, result).map(drop),
        }
    }
}

/// A message the client of revision `R` sends.
pub type ClientMessage<R> = Message<<R as Revision>::ClientCall, <R as Revision>::ClientNotify>;

/// A message the server of revision `R` sends.
pub type ServerMessage<R> = Message<<R as Revision>::ServerCall, <R as Revision>::ServerNotify>;

/// What one line amounts to, whatever its revision: the part of a message that pairs a
/// response with its request.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Summary {
    /// A request: its id, and what its response is read against.
    Request {
        /// The request's id.
        id: crate::RequestId,
        /// Its method and whether it asked for a task.
        request: PendingRequest,
    },
    /// A notification.
    Notification {
        /// Its method.
        method: String,
        /// The request a `notifications/cancelled` cancels.
        cancels: Option<crate::RequestId>,
    },
    /// A result, not yet typed: its type follows from its request.
    Response {
        /// The id of the request it answers.
        id: crate::RequestId,
        /// The result, as sent.
        result: Box<RawValue>,
    },
    /// An error response.
    Error {
        /// The id of the request it answers; `None` when the request's id could not be read.
        id: Option<crate::RequestId>,
    },
    /// A batch (2025-03-26), its items in order.
    Batch(Vec<Summary>),
}

impl Summary {
    /// What `message` amounts to.
    pub fn of<R: CallSet, N: MethodSet>(message: Message<R, N>) -> Summary {
        match message {
            Message::Request(r) => Summary::Request {
                id: r.id,
                request: PendingRequest::of(&r.call),
            },
            Message::Notification(n) => {
                let method = n.notification.method().to_owned();
                let cancels = if method == "notifications/cancelled" {
                    cancelled_request(&n.notification)
                } else {
                    None
                };
                Summary::Notification { method, cancels }
            }
            Message::Response(r) => Summary::Response {
                id: r.id,
                result: r.result,
            },
            Message::Error(e) => Summary::Error { id: e.id },
            Message::Batch(items) => Summary::Batch(items.into_iter().map(Summary::of).collect()),
        }
    }
}

/// The `requestId` of a `notifications/cancelled`, read back through its params.
fn cancelled_request<N: MethodSet>(notification: &N) -> Option<crate::RequestId> {
    let params = crate::dispatch::params_of(notification).ok()??;
    serde::Deserialize::deserialize(params.get("requestId")?).ok()
}

/// Work written once, generic over the revision, for [`visit`] to run in the revision a
/// version names.
pub trait Visit {
    /// What the work gives.
    type Output;
    /// Runs the work in revision `R`.
    fn visit<R: Revision>(self) -> Self::Output;
}

/// Declares a revision module's `Revision`, from the module's generated method sets and method
/// table (invoked once in each revision module).
macro_rules! revision_face {
    () => {
        /// This revision as one type: its message sets, method table and place in negotiation
        /// (see [`crate::revision`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct Revision;

        impl crate::revision::Revision for Revision {
            type ClientCall = ClientCall;
            type ClientNotify = ClientNotify;
            type ServerCall = ServerCall;
            type ServerNotify = ServerNotify;

            const VERSION: &'static str = <ClientCall as crate::dispatch::MethodSet>::REVISION;

            fn method(name: &str) -> Option<(Option<crate::Direction>, Option<crate::MethodKind>)> {
                Method::known(name).map(|m| (m.direction(), m.kind()))
            }

            fn methods() -> $crate::prelude::Vec<&'static str> {
                Method::ALL.iter().map(Method::as_str).collect()
            }
        }

        /// Answers one line a client of this revision sent: a request with `handler`'s
        /// result or error, an unreadable message with its error response, anything else
        /// with nothing (see [`crate::answer::reply_to`]).
        pub fn reply_to<T: ::serde::Serialize>(
            line: &str,
            handler: impl FnMut(ClientCall) -> ::core::result::Result<T, crate::RpcError>,
        ) -> ::core::option::Option<::alloc::string::String> {
            crate::answer::reply_to::<ClientCall, ClientNotify, T>(line, handler)
        }
    };
}
pub(crate) use revision_face;
