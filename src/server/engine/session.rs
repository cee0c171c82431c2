//! One client's state: the revision `initialize` negotiated, the requests whose answers are
//! still to come, and what the client asked to be told of.

use super::call::{self, Answer};
use super::context::Cancelled;
use super::rounds::{AskLine, Round};
use crate::convert::StatelessRequestMeta;
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::{ErrorCode, ProtocolVersion, RequestId, RpcError};
use alloc::collections::{BTreeMap, BTreeSet};

/// One client's state. Over stdio there is one; over HTTP, one for each `Mcp-Session-Id` of a
/// stateful revision, and a fresh one for each request of a stateless revision.
///
/// It remembers the revision `initialize` negotiated (a stateless client's requests each name
/// their own) and the ids of the requests handed out as [`PendingCall`](crate::server::PendingCall)s
/// and not yet finished: an answer to a request the client cancelled is not sent, a request
/// reusing an id still in flight is refused, and at most [`Session::MAX_IN_FLIGHT`] requests
/// are in flight at once, so a client that floods the server is refused, not remembered.
///
/// It also keeps what the client asked to be told of ([`Server::notify`](crate::server::Server::notify)):
/// the resources it subscribed to with `resources/subscribe`, and the `subscriptions/listen`
/// streams it opened, at most [`Session::MAX_SUBSCRIPTIONS`] URIs in all.
#[derive(Debug, Clone)]
pub struct Session {
    pub(in crate::server) stateful: Option<Stateful>,
    /// The requests in flight, each with the flag its handler's context reads to know that
    /// the client cancelled it.
    in_flight: BTreeMap<RequestId, Cancelled>,
    /// The URIs of `resources/subscribe` (stateful revisions).
    pub(in crate::server) subscriptions: BTreeSet<String>,
    /// The open `subscriptions/listen` streams (stateless revisions).
    pub(in crate::server) listens: Vec<Listen>,
    /// Whether the transport carries a `subscriptions/listen` stream (stdio does; a single
    /// HTTP request-response does not).
    pub(in crate::server) streams: bool,
    /// The requests whose handlers asked a stateful client for input, waiting for its answers.
    pub(in crate::server) rounds: Vec<Round>,
    /// The id of the server's last request to the client.
    asked: i64,
    /// The least severe log level the client asked to hear (`logging/setLevel`).
    pub(in crate::server) log_level: Option<latest::LoggingLevel>,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            stateful: None,
            in_flight: BTreeMap::new(),
            subscriptions: BTreeSet::new(),
            listens: Vec::new(),
            streams: true,
            rounds: Vec::new(),
            asked: 0,
            log_level: None,
        }
    }
}

#[derive(Debug, Clone)]
pub(in crate::server) struct Stateful {
    pub version: ProtocolVersion,
    /// What each request of the session carries into the handler, as a stateless request
    /// would carry it in `_meta` (the version, the client's capabilities and `clientInfo`): the
    /// JSON of that `_meta` object, written once for every call of the session, and smaller
    /// than the same keys as JSON trees.
    pub meta_text: Box<str>,
    /// Whether the client sent `notifications/initialized`.
    pub initialized: bool,
}

impl Stateful {
    pub fn new(version: ProtocolVersion, meta: &StatelessRequestMeta, initialized: bool) -> Self {
        // The keys always write (JSON values); an empty object only if they somehow did not.
        let meta_text = meta.meta_text().unwrap_or_else(|| "{}".to_owned());
        Stateful {
            version,
            meta_text: meta_text.into_boxed_str(),
            initialized,
        }
    }

    /// The keys each request of the session carries, read back from their JSON.
    pub fn meta(&self) -> Option<StatelessRequestMeta> {
        StatelessRequestMeta::from_meta_text(&self.meta_text)
    }
}

/// A `subscriptions/listen` stream a client opened, with what the server agreed to send on
/// it.
#[derive(Debug, Clone)]
pub(in crate::server) struct Listen {
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

    /// The least severe log level the client asked to hear with `logging/setLevel` (stateful
    /// revisions); `None` before it asks, when no log message may be sent.
    pub fn log_level(&self) -> Option<latest::LoggingLevel> {
        self.log_level
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

    /// How many of the client's requests wait for its answers to their handlers' input
    /// requests (a stateful client asked for what an `input_required` answer asks; see
    /// [`Session::finish`]). Each is also in flight.
    pub fn waiting_for_input(&self) -> usize {
        self.rounds.len()
    }

    /// Whether request `id` waits for its answer.
    pub(in crate::server) fn is_in_flight(&self, id: &RequestId) -> bool {
        self.in_flight.contains_key(id)
    }

    /// The request whose round asked the client the server's request `asked`.
    pub(in crate::server) fn asked_for(&self, asked: &RequestId) -> Option<&RequestId> {
        let round = self.rounds.iter().find(|round| round.asking.0 == *asked)?;
        Some(&round.id)
    }

    /// The line to send for a finished call; `None` when the client cancelled the request
    /// meanwhile (or the answer is not this session's).
    ///
    /// A stateful client's call whose handler answered `input_required` is not finished: the
    /// line asks the client the first input request, in its revision; the answers come back
    /// through [`Server::receive`](crate::server::Server::receive), which asks the next one, then
    /// hands the call out again with them all. At most `8` rounds a request, and not where no
    /// stream can carry the asking (a stateless request over HTTP: the request gets -32603).
    pub fn finish(&mut self, answer: Answer) -> Option<String> {
        let (id, line, relay) = answer.into_parts();
        if !self.in_flight.contains_key(&id) {
            return None;
        }
        let Some(relay) = relay else {
            self.in_flight.remove(&id);
            return Some(line);
        };
        let round = match (self.streams, Round::new(id.clone(), *relay)) {
            (true, Ok(round)) => round,
            (false, _) => {
                let message =
                    "input_required cannot be relayed to this client: no stream to ask on";
                return Some(self.fail(id, RpcError::new(ErrorCode::InternalError, message)));
            }
            (_, Err(error)) => return Some(self.fail(id, error)),
        };
        Some(self.ask_next(round))
    }

    /// Asks the client the round's next input request: the line to send (or, when it cannot
    /// be asked, the error answering the round's request).
    pub(in crate::server) fn ask_next(&mut self, mut round: Round) -> String {
        let Some((key, request)) = round.to_ask.pop() else {
            let message = "nothing left to ask";
            return self.fail(round.id, RpcError::new(ErrorCode::InternalError, message));
        };
        self.asked += 1;
        let id = RequestId::from(self.asked);
        let Some(version) = self.version().cloned() else {
            let message = "input_required reaches a stateful client only";
            return self.fail(round.id, RpcError::new(ErrorCode::InternalError, message));
        };
        let ask = AskLine {
            id: id.clone(),
            request: &request,
        };
        let asked = crate::revision::visit(&version, ask).unwrap_or_else(|| {
            Err(format!(
                "revision {} is not in this build",
                version.as_str()
            ))
        });
        match asked {
            Ok((line, pending)) => {
                round.asking = (id, key, pending);
                self.rounds.push(round);
                line
            }
            Err(why) => {
                let message = format!("the handler asked for input the client cannot give: {why}");
                self.fail(round.id, RpcError::new(ErrorCode::InternalError, message))
            }
        }
    }

    /// Answers request `id` with `error` (in the session's revision's codes): the line.
    pub(in crate::server) fn fail(&mut self, id: RequestId, error: RpcError) -> String {
        self.in_flight.remove(&id);
        self.rounds.retain(|round| round.id != id);
        call::error_line(Some(id), error)
    }

    /// Takes request `id` in, or says why not: the flag that says the client cancelled it.
    pub(in crate::server) fn admit(&mut self, id: &RequestId) -> Result<Cancelled, RpcError> {
        if self.in_flight.contains_key(id) {
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
        let cancelled = Cancelled::default();
        self.in_flight.insert(id.clone(), cancelled.clone());
        Ok(cancelled)
    }

    /// The client cancelled request `id`: its answer will not be sent, and the stream it
    /// opened, if it was a `subscriptions/listen`, is closed.
    pub(in crate::server) fn cancel(&mut self, id: &RequestId) {
        if let Some(cancelled) = self.in_flight.remove(id) {
            cancelled.set();
        }
        self.listens.retain(|listen| listen.id != *id);
        self.rounds.retain(|round| round.id != *id);
    }

    /// The resource URIs the client is subscribed to, by `resources/subscribe` and by its
    /// open streams.
    pub fn subscriptions(&self) -> impl Iterator<Item = &str> {
        let streams = self.listens.iter().flat_map(|listen| listen.uris());
        self.subscriptions.iter().map(String::as_str).chain(streams)
    }

    /// Room for `more` subscribed URIs, or the error that refuses them.
    pub(in crate::server) fn room_for(&self, more: usize) -> Result<(), RpcError> {
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
