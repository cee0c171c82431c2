//! Why a call has no result: who refused it, and which bound it passed.

use super::super::ClientError;
use crate::prelude::*;
use crate::{ProtocolVersion, RpcError};
use core::time::Duration;

/// Why a call has no result, saying who refused it: the server ([`CallError::Server`](crate::client::CallError::Server)), this
/// client's own build ([`CallError::NoRevisionInCommon`](crate::client::CallError::NoRevisionInCommon), [`CallError::Client`](crate::client::CallError::Client)), the
/// transport ([`CallError::Transport`](crate::client::CallError::Transport), [`CallError::Bound`](crate::client::CallError::Bound)) or the caller's time
/// ([`CallError::Timeout`](crate::client::CallError::Timeout)).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CallError {
    /// The server answered with this JSON-RPC error (in 2026-07-28's codes where they
    /// differ), or refused to connect with it.
    Server(RpcError),
    /// The client and the server share no revision, so no connection was made: the revisions
    /// this client speaks (those its build enables, narrowed by [`Client::with_versions`](crate::client::Client::with_versions))
    /// and those the server offered. Not the server's refusal: a build with more revisions
    /// (the `http-client` and `stdio-client` features enable every released one) may reach
    /// it.
    NoRevisionInCommon {
        /// The revisions this client speaks, newest first.
        client: Vec<ProtocolVersion>,
        /// The revisions the server offered, as it named them: its `server/discover`
        /// answer's `supportedVersions`, or the one its `initialize` answer chose; empty
        /// when it named none.
        server: Vec<String>,
    },
    /// The engine could not write the request: not connected, or the server's revision
    /// cannot say it.
    Client(ClientError),
    /// The transport failed: the server could not be reached, its process ended, a stream
    /// broke and could not be resumed, or no answer came.
    Transport(String),
    /// The call's answer did not come within its timeout ([`CallOptions::with_timeout`](crate::client::CallOptions::with_timeout), or
    /// the connection's: [`Connection::with_call_timeout`](crate::client::Connection::with_call_timeout), [`HttpOptions::with_call_timeout`](crate::client::HttpOptions::with_call_timeout)
    /// over HTTP): the call was cancelled at the server.
    Timeout(Duration),
    /// The answer is not the call's kind of result (a server that answers `tools/call` with
    /// another method's result, or with `input_required` the engine could not answer).
    Unexpected(String),
    /// The server passed a bound of the connection ([`HttpOptions`](crate::client::HttpOptions)): an answer or an event
    /// too large, a call or a silence too long, too many requests of its own, a redirect to
    /// another origin.
    #[cfg(feature = "http-client")]
    Bound(Bound),
}

/// A bound of a connection over HTTP that the server passed, with the bound's setting
/// ([`HttpOptions`](crate::client::HttpOptions) sets each one).
#[cfg(feature = "http-client")]
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Bound {
    /// An answer read whole (a response that is not an event stream) longer than this many
    /// bytes, by its `Content-Length` or as it came ([`HttpOptions::with_max_answer`](crate::client::HttpOptions::with_max_answer)).
    AnswerSize(usize),
    /// An event whose data, or a line of an event stream, is longer than this many bytes
    /// ([`HttpOptions::with_max_event`](crate::client::HttpOptions::with_max_event)).
    EventSize(usize),
    /// The server could not be connected to within this time
    /// ([`HttpOptions::with_connect_timeout`](crate::client::HttpOptions::with_connect_timeout)).
    ConnectTimeout(core::time::Duration),
    /// The call did not end within this time ([`HttpOptions::with_call_timeout`](crate::client::HttpOptions::with_call_timeout)).
    #[deprecated(note = "a call past its timeout ends with `CallError::Timeout`")]
    CallTimeout(core::time::Duration),
    /// The server sent no message for this long while the call waited
    /// ([`HttpOptions::with_idle_timeout`](crate::client::HttpOptions::with_idle_timeout)): keep-alive comments are no message.
    IdleTimeout(core::time::Duration),
    /// The server asked one call for more answers than this many
    /// ([`HttpOptions::with_max_server_requests`](crate::client::HttpOptions::with_max_server_requests)).
    ServerRequests(usize),
    /// The server redirected a request to this URL, of another origin (scheme, host, port)
    /// than the request's: not followed ([`HttpOptions::with_redirects`](crate::client::HttpOptions::with_redirects)).
    OtherOrigin(String),
}

#[cfg(feature = "http-client")]
impl core::fmt::Display for Bound {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Bound::AnswerSize(max) => write!(
                f,
                "an answer larger than its cap of {max} bytes (HttpOptions::with_max_answer)"
            ),
            Bound::EventSize(max) => write!(
                f,
                "an event larger than its cap of {max} bytes (HttpOptions::with_max_event)"
            ),
            Bound::ConnectTimeout(limit) => write!(
                f,
                "no connection to the server within the connect timeout of {limit:?}"
            ),
            #[allow(deprecated)]
            Bound::CallTimeout(limit) => {
                write!(f, "the call took longer than the call timeout of {limit:?}")
            }
            Bound::IdleTimeout(limit) => write!(
                f,
                "no message from the server within the idle timeout of {limit:?}"
            ),
            Bound::ServerRequests(max) => write!(
                f,
                "the server asked one call for more than its bound of {max} answers \
                 (HttpOptions::with_max_server_requests)"
            ),
            Bound::OtherOrigin(to) => {
                write!(f, "a redirect to another origin, {to}, not followed")
            }
        }
    }
}

impl core::fmt::Display for CallError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CallError::Server(error) => write!(f, "the server answered {error:?}"),
            CallError::NoRevisionInCommon { client, server } => {
                let client: Vec<&str> = client.iter().map(ProtocolVersion::as_str).collect();
                write!(
                    f,
                    "no revision in common: this client speaks {client:?}, the server offered \
                     {server:?}"
                )
            }
            CallError::Client(error) => write!(f, "{error}"),
            CallError::Transport(why) => write!(f, "transport: {why}"),
            CallError::Timeout(limit) => {
                write!(f, "the call took longer than its timeout of {limit:?}")
            }
            CallError::Unexpected(why) => write!(f, "unexpected answer: {why}"),
            #[cfg(feature = "http-client")]
            CallError::Bound(bound) => write!(f, "bound: {bound}"),
        }
    }
}

impl std::error::Error for CallError {}
