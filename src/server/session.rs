//! One client's state: the revision `initialize` negotiated, the requests whose answers are
//! still to come, and what the client asked to be told of.

use super::call::Answer;
use crate::convert::StatelessRequestMeta;
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::{ErrorCode, ProtocolVersion, RequestId, RpcError};
use alloc::collections::BTreeSet;

/// One client's state. Over stdio there is one; over HTTP, one for each `Mcp-Session-Id` of a
/// stateful revision, and a fresh one for each request of a stateless revision.
///
/// It remembers the revision `initialize` negotiated (a stateless client's requests each name
/// their own) and the ids of the requests handed out as [`PendingCall`](super::PendingCall)s
/// and not yet finished: an answer to a request the client cancelled is not sent, a request
/// reusing an id still in flight is refused, and at most [`Session::MAX_IN_FLIGHT`] requests
/// are in flight at once, so a client that floods the server is refused, not remembered.
///
/// It also keeps what the client asked to be told of ([`Server::notify`](super::Server::notify)):
/// the resources it subscribed to with `resources/subscribe`, and the `subscriptions/listen`
/// streams it opened, at most [`Session::MAX_SUBSCRIPTIONS`] URIs in all.
#[derive(Debug, Clone)]
pub struct Session {
    pub(super) stateful: Option<Stateful>,
    in_flight: BTreeSet<RequestId>,
    /// The URIs of `resources/subscribe` (stateful revisions).
    pub(super) subscriptions: BTreeSet<String>,
    /// The open `subscriptions/listen` streams (stateless revisions).
    pub(super) listens: Vec<Listen>,
    /// Whether the transport carries a `subscriptions/listen` stream (stdio does; a single
    /// HTTP request-response does not).
    pub(super) streams: bool,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            stateful: None,
            in_flight: BTreeSet::new(),
            subscriptions: BTreeSet::new(),
            listens: Vec::new(),
            streams: true,
        }
    }
}

#[derive(Debug, Clone)]
pub(super) struct Stateful {
    pub version: ProtocolVersion,
    /// What each request of the session carries into the handler, as a stateless request
    /// would carry it in `_meta`: the version, the client's capabilities and `clientInfo`.
    pub meta: StatelessRequestMeta,
    /// Whether the client sent `notifications/initialized`.
    pub initialized: bool,
}

/// A `subscriptions/listen` stream a client opened, with what the server agreed to send on
/// it.
#[derive(Debug, Clone)]
pub(super) struct Listen {
    /// The id of the request that opened it: every notification on it carries it.
    pub id: RequestId,
    pub version: ProtocolVersion,
    pub honoured: latest::SubscriptionFilter,
}

impl Listen {
    /// The resource URIs the stream is subscribed to.
    pub fn uris(&self) -> impl Iterator<Item = &str> {
        let uris = self.honoured.resource_subscriptions.iter().flatten();
        uris.map(String::as_str)
    }
}

impl Session {
    /// How many requests of one session may wait for their answers at once; the next one is
    /// refused with -32603 until one is finished (or cancelled).
    pub const MAX_IN_FLIGHT: usize = 1024;

    /// How many resource URIs one session may subscribe to at once (`resources/subscribe`,
    /// and every open stream's `resourceSubscriptions` together); a subscription past it is
    /// refused with -32603 until one ends.
    pub const MAX_SUBSCRIPTIONS: usize = 1024;

    /// A session before its first message.
    pub fn new() -> Self {
        Session::default()
    }

    /// The revision `initialize` negotiated; `None` before it, and for a stateless client.
    pub fn version(&self) -> Option<&ProtocolVersion> {
        self.stateful.as_ref().map(|s| &s.version)
    }

    /// Whether the client has said, with `notifications/initialized`, that the session is in
    /// use.
    pub fn is_initialized(&self) -> bool {
        self.stateful.as_ref().is_some_and(|s| s.initialized)
    }

    /// How many requests wait for their answers (an open `subscriptions/listen` stream's
    /// among them).
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// How many `subscriptions/listen` streams the client has open.
    pub fn streams(&self) -> usize {
        self.listens.len()
    }

    /// The line to send for a finished call; `None` when the client cancelled the request
    /// meanwhile (or the answer is not this session's).
    pub fn finish(&mut self, answer: Answer) -> Option<String> {
        let (id, line) = answer.into_parts();
        self.in_flight.remove(&id).then_some(line)
    }

    /// Takes request `id` in, or says why not.
    pub(super) fn admit(&mut self, id: &RequestId) -> Result<(), RpcError> {
        if self.in_flight.contains(id) {
            let message = "a request with this id is still in flight";
            return Err(RpcError::new(ErrorCode::InvalidRequest, message));
        }
        if self.in_flight.len() >= Self::MAX_IN_FLIGHT {
            let message = format!(
                "too many requests in flight (at most {})",
                Self::MAX_IN_FLIGHT
            );
            return Err(RpcError::new(ErrorCode::InternalError, message));
        }
        self.in_flight.insert(id.clone());
        Ok(())
    }

    /// The client cancelled request `id`: its answer will not be sent, and the stream it
    /// opened, if it was a `subscriptions/listen`, is closed.
    pub(super) fn cancel(&mut self, id: &RequestId) {
        self.in_flight.remove(id);
        self.listens.retain(|listen| listen.id != *id);
    }

    /// The resource URIs the client is subscribed to, by `resources/subscribe` and by its
    /// open streams.
    pub fn subscriptions(&self) -> impl Iterator<Item = &str> {
        let streams = self.listens.iter().flat_map(|listen| listen.uris());
        self.subscriptions.iter().map(String::as_str).chain(streams)
    }

    /// Room for `more` subscribed URIs, or the error that refuses them.
    pub(super) fn room_for(&self, more: usize) -> Result<(), RpcError> {
        if self.subscriptions().count().saturating_add(more) > Self::MAX_SUBSCRIPTIONS {
            let message = format!(
                "too many resource subscriptions (at most {})",
                Self::MAX_SUBSCRIPTIONS
            );
            return Err(RpcError::new(ErrorCode::InternalError, message));
        }
        Ok(())
    }
}
