//! The event streams the engine writes on over HTTP (server-sent events): which stream a
//! message goes on, and the message as an event.

use crate::prelude::*;
use crate::RequestId;
use serde::{Deserialize, Serialize};

#[cfg(doc)]
use super::Context;

/// An event stream: the answer to a request of a session, or the stream a session's client
/// opened with `GET`; or the answer to a stateless request, when the handler reported on it
/// before answering (see [`Context`]).
///
/// Written as JSON (for a store that keeps events, see [`Sessions::remember`](crate::server::Sessions::remember)) with the
/// members `session`, `request` and `listen`, each left out when it has none.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct StreamId {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::server) session: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::server) request: Option<RequestId>,
    /// A stateless `subscriptions/listen` stream's number: its request's id need not be
    /// unique among clients, and the stream outlives its request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(in crate::server) listen: Option<u64>,
}

impl StreamId {
    /// The session's id (`Mcp-Session-Id`); `None` for a stateless request's stream: one
    /// that its response opens and ends, or a `subscriptions/listen` stream (which the engine
    /// numbers, its request's id being the client's alone).
    pub fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }

    /// The request this stream answers; `None` for the session's own stream (`GET`).
    pub fn request(&self) -> Option<&RequestId> {
        self.request.as_ref()
    }
}

/// One message for an open event stream.
///
/// Written as JSON (for a store that keeps events) with its fields' names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamEvent {
    /// The event's id (SSE `id`), on a session's streams: unique in the session, it is what
    /// the client names in `Last-Event-ID` to resume the stream after it (see
    /// [`Sessions::EVENTS_KEPT`](crate::server::Sessions::EVENTS_KEPT)). `None` on a stateless request's stream, which is not
    /// resumed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// How long a client should wait before it reconnects, in milliseconds (SSE `retry`), on
    /// the event that opens a stream the server may close before its answer (see
    /// [`Sessions::open_stream`](crate::server::Sessions::open_stream)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry: Option<u64>,
    /// The stream it goes on.
    pub stream: StreamId,
    /// The JSON-RPC message, on one line; empty on the event that opens a resumable stream
    /// (its id is what the client resumes after).
    pub message: String,
    /// Whether the stream ends after it: the final answer of the request it answers.
    pub last: bool,
}

impl StreamEvent {
    /// The event as server-sent events write it: `id: <id>` and `retry: <ms>` when it has
    /// them, `data: <message>`, and a blank line.
    pub fn to_sse(&self) -> String {
        let mut sse = String::with_capacity(self.message.len() + 32);
        if let Some(id) = &self.id {
            sse.push_str("id: ");
            sse.push_str(id);
            sse.push('\n');
        }
        if let Some(retry) = self.retry {
            sse.push_str("retry: ");
            sse.push_str(&retry.to_string());
            sse.push('\n');
        }
        sse.push_str("data: ");
        sse.push_str(&self.message);
        sse.push_str("\n\n");
        sse
    }
}
