//! The sans-IO engine: the [`Server`] and its [`Session`]s, the lifecycle, calls and their
//! answers, `input_required` rounds, what changed and who is told, event streams and their
//! resumption. It knows no transport and no router: what answers is a [`Handler`].

pub(crate) mod call;
mod change;
mod context;
mod handler;
mod incoming;
pub(crate) mod later;
pub(crate) mod lifecycle;
mod logging;
pub(crate) mod notification;
mod notify;
pub(crate) mod peek;
#[cfg(feature = "std")]
pub(crate) mod reports;
pub(crate) mod resume;
pub(crate) mod rounds;
mod server;
pub(crate) mod session;
pub(crate) mod stream;

pub use call::{Answer, PendingCall, Responder};
pub use change::Change;
pub use context::Context;
pub use handler::{CallFuture, Handler};
pub use incoming::{Batch, Incoming};
pub use server::Server;
pub use session::Session;
pub use stream::{StreamEvent, StreamId};
