//! A sans-IO MCP client (feature `client`): requests written once, against the crate's default
//! revision (2026-07-28), sent to a server of any revision the build enables.
//!
//! The engine ([`Client`]) gives the lines to send and takes the lines the server sends; it
//! does no I/O of its own. It owns what every client must get right:
//! - **connecting**: `server/discover` first; a server that does not answer it as a
//!   stateless server does (an error, or no stateless revision in common) gets `initialize`
//!   at the newest revision both speak, then `notifications/initialized`;
//! - **each request in the server's revision**: the session's version, capabilities and
//!   `clientInfo` in every stateless request's `_meta` (whatever the caller put there), a
//!   stateful server's request without them and without what its revision does not define;
//!   a stateless request refused for its version (-32022) sent again, once, in the newest
//!   version the refusal names;
//! - **pairing**: each response is read as the result of the request it answers, then
//!   converted up to 2026-07-28; a server's `ping` is answered, and the
//!   server's sampling, elicitation and roots requests reach the caller as
//!   [`Event::Request`] in 2026-07-28 terms (when the client declared the capability; -32601
//!   otherwise), answered with [`Client::respond`] in the server's revision;
//! - **input, one way for every revision**: a 2026-07-28 server asks for input by answering
//!   `input_required`; its input requests reach the caller as the same [`Event::Request`]s,
//!   and once all are answered the engine sends the request again with the answers (at most 8
//!   rounds), its final answer under the id the caller first got. A handler of sampling,
//!   elicitation and roots is written once, whichever way the server asks;
//! - **cancelling**: a request its caller gave up is forgotten ([`Client::cancel`]), an
//!   answer that comes late pairs with nothing, and the `notifications/cancelled` that tells
//!   the server is given to send;
//! - **over HTTP**: the headers each line goes with ([`Client::http_headers`]: the stateless
//!   request's mirrored method, name and version, a listed tool's `Mcp-Param-*` headers, a
//!   stateful session's version), and what a request without an answer at the transport
//!   amounts to ([`Client::no_answer`]: a `server/discover` refused with an HTTP error falls
//!   back to `initialize`). The session's id and the event streams are the transport's.
//!
//! ```
//! # #[cfg(feature = "server")] {
//! use mcp_spec_types::client::{Client, Event};
//! use mcp_spec_types::server::{Router, Server, Session};
//! use mcp_spec_types::v2026_07_28::*;
//!
//! let router = Router::new().resource(Resource::new("memo://hi", "hi"), |read| {
//!     Ok(ReadResourceResult::text(read.uri, "Hi!"))
//! });
//! let server = Server::new(Implementation::new("memo", "1"), router);
//! let mut session = Session::new();
//! let mut client = Client::new(Implementation::new("reader", "1"));
//!
//! // Lines go back and forth until the client is connected.
//! let mut line = client.start().expect("a revision to speak");
//! let version = loop {
//!     let answer = server.handle(&mut session, &line).pop().expect("an answer");
//!     match client.receive(&answer).pop() {
//!         Some(Event::Connected(version)) => break version,
//!         Some(Event::Send(next)) => line = next,
//!         other => panic!("{other:?}"),
//!     }
//! };
//! assert_eq!(version.as_str(), "2026-07-28");
//!
//! let read = ReadResourceRequestParams::new("memo://hi", client.meta());
//! let (id, line) = client.request(ClientCall::ReadResource(read)).unwrap();
//! let answer = server.handle(&mut session, &line).pop().expect("an answer");
//! let Some(Event::Answer { id: answered, result }) = client.receive(&answer).pop() else {
//!     panic!("an answer")
//! };
//! assert_eq!(answered, id);
//! assert!(matches!(result, Ok(ClientCallResult::ReadResource(_))));
//! # }
//! ```

use crate::convert::ConversionError;
use crate::input_required::InputResponseError;
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::{MessageError, ProtocolVersion, RequestId, RpcError};
use core::fmt;

#[cfg(any(feature = "http-client", feature = "stdio-client"))]
mod connection;
mod engine;
mod http;
mod input;
mod listed_tools;
#[cfg(feature = "oauth")]
pub mod oauth;
mod peer;
mod reply;
mod structured;

#[cfg(feature = "http-client")]
pub use connection::{Bound, HttpOptions};
#[cfg(any(feature = "http-client", feature = "stdio-client"))]
pub use connection::{CallError, CallOptions, Connection};
pub use engine::Client;
pub use structured::{structured, StructuredError};

/// What a line from the server amounts to for the caller.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
// An event is made and taken apart once per line: boxing the answer would add an allocation
// to every response and save nothing.
#[allow(clippy::large_enum_variant)]
pub enum Event {
    /// A line to send to the server now (`initialize` after a refused `server/discover`,
    /// `notifications/initialized`, the answer to a server's request).
    Send(String),
    /// The client and the server speak this revision: requests may be sent.
    Connected(ProtocolVersion),
    /// The server refused to connect (its error to `initialize`, or to `server/discover` for a
    /// reason that falling back to `initialize` would hide), or answered in a way that cannot
    /// be connected with.
    Refused(RpcError),
    /// The client and the server share no revision: what the client speaks (the revisions its
    /// build enables, narrowed by [`Client::with_versions`]) and what the server offered (its
    /// `server/discover` answer's `supportedVersions`, or the revision its `initialize` answer
    /// chose; empty when it named none: a server of a stateful revision that the client, with
    /// no stateful revision, cannot `initialize`).
    NoRevisionInCommon {
        /// The revisions the client speaks, newest first.
        client: Vec<ProtocolVersion>,
        /// The revisions the server offered, as it named them.
        server: Vec<String>,
    },
    /// The answer to request `id`, in 2026-07-28: its result, or the server's error.
    Answer {
        /// The id [`Client::request`] gave the request.
        id: RequestId,
        /// The result, converted from the server's revision, or the error it sent.
        result: Result<latest::ClientCallResult, RpcError>,
    },
    /// A notification of the server, in 2026-07-28.
    Notification(latest::ServerNotify),
    /// A request of the server (sampling, elicitation, roots), in 2026-07-28, for a
    /// capability the client declared: answer it with [`Client::respond`]. The engine answers
    /// `ping` itself, and refuses with -32601 a request for a capability the client did not
    /// declare. From a 2026-07-28 server these are the input requests of an `input_required`
    /// answer, asked the same way: the engine sends the request again once all are answered.
    Request {
        /// The id the answer carries.
        id: RequestId,
        /// The request, converted from the server's revision.
        call: latest::ServerCall,
    },
    /// A response whose id names no request in flight: nothing to do with it.
    Unpaired(Option<RequestId>),
    /// A line that could not be read, or whose answer the client's revision cannot take.
    Unreadable(String),
}

/// Why a request cannot be sent.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ClientError {
    /// The client is not connected yet (or could not connect).
    NotConnected,
    /// The server's revision cannot express the request.
    Conversion(ConversionError),
    /// The request, once in the server's revision, does not read as that revision's.
    Invalid(MessageError),
    /// No request of the server waits for an answer under this id.
    NotAsked(RequestId),
    /// The result does not answer the input request (another kind of result).
    Input(InputResponseError),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::NotConnected => f.write_str("the client is not connected"),
            ClientError::Conversion(error) => write!(f, "{error}"),
            ClientError::Invalid(error) => write!(f, "{error}"),
            ClientError::Input(error) => write!(f, "{error}"),
            ClientError::NotAsked(id) => write!(f, "no request of the server waits under {id:?}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ClientError {}
