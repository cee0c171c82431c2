//! The table of sessions and its policy: their limits, each client's share, expiry, eviction.

use super::origin::Origins;
use crate::prelude::*;
use crate::server::engine::resume::{self, EventLog};
use crate::server::engine::stream::StreamId;
use crate::server::Session;
use crate::RequestId;
use alloc::collections::{BTreeMap, BTreeSet};
use core::fmt;

/// The sessions of stateful clients, by `Mcp-Session-Id`.
pub struct Sessions {
    pub(in crate::server) sessions: BTreeMap<String, Entry>,
    /// The open `subscriptions/listen` streams of stateless clients, by number: each a session
    /// of its own, which lives as long as its stream.
    pub(in crate::server) listens: BTreeMap<u64, Session>,
    /// The client each open `subscriptions/listen` stream belongs to, by number.
    pub(super) listen_clients: BTreeMap<u64, Box<str>>,
    /// The number of the next stateless `subscriptions/listen` stream.
    pub(super) next_listen: u64,
    /// Streams ended without a last event, for the next response to report.
    pub(in crate::server) ended: Vec<StreamId>,
    /// What each event id starts with: this replica's name (see [`Sessions::with_replica`]).
    pub(in crate::server) event_prefix: String,
    /// With a prefix, the number of the latest event this table gave an id to, whatever its
    /// session: a session this replica adopts again goes on from it, so its ids never repeat.
    pub(in crate::server) events_given: u64,
    pub(super) ids: Box<dyn FnMut() -> String + Send>,
    pub(in crate::server) max: usize,
    /// The most sessions (and stateless streams) one client holds; `None`: a quarter of `max`.
    pub(super) share: Option<usize>,
    pub(super) idle_ms: u64,
    pub(super) origins: Origins,
}

pub(in crate::server) struct Entry {
    pub(in crate::server) session: Session,
    /// The client that opened it (see [`Server::http_receive_from`](crate::server::Server::http_receive_from)).
    pub(in crate::server) client: Box<str>,
    pub(in crate::server) last_used_ms: u64,
    /// Whether the session's own stream (`GET`) is open.
    pub(in crate::server) listening: bool,
    /// The requests whose responses are event streams still open.
    pub(super) streams: BTreeSet<RequestId>,
    /// The latest events sent on the session's streams, for a client resuming one.
    pub(in crate::server) log: EventLog,
    /// With a store: when this replica last read the session's record from the store or
    /// wrote it there (`None`: not since it took the session).
    #[cfg(feature = "http-server")]
    pub(in crate::server) stored_ms: Option<u64>,
}

impl Entry {
    pub(in crate::server) fn new(session: Session, client: &str, now_ms: u64) -> Self {
        Entry {
            session,
            client: client.into(),
            last_used_ms: now_ms,
            listening: false,
            streams: BTreeSet::new(),
            log: EventLog::default(),
            #[cfg(feature = "http-server")]
            stored_ms: None,
        }
    }

    /// Every stream of the session `id` that is open.
    pub(in crate::server) fn all_streams(&self, id: &str) -> impl Iterator<Item = StreamId> + '_ {
        let own = self.listening.then_some(None);
        let requests = self.streams.iter().cloned().map(Some);
        let session = id.to_owned();
        own.into_iter()
            .chain(requests)
            .map(move |request| StreamId {
                session: Some(session.clone()),
                request,
                listen: None,
            })
    }

    /// The request streams whose requests are no longer in flight (cancelled): forgotten, as
    /// streams of session `id`.
    pub(super) fn sweep(&mut self, id: &str) -> Vec<StreamId> {
        if self.streams.is_empty() {
            return Vec::new();
        }
        let (gone, open): (BTreeSet<RequestId>, BTreeSet<RequestId>) =
            core::mem::take(&mut self.streams)
                .into_iter()
                .partition(|request| !self.session.is_in_flight(request));
        self.streams = open;
        let session = id.to_owned();
        let ended = gone.into_iter().map(|request| StreamId {
            session: Some(session.clone()),
            request: Some(request),
            listen: None,
        });
        ended.collect()
    }
}

impl fmt::Debug for Sessions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sessions")
            .field("len", &self.sessions.len())
            .field("max", &self.max)
            .field("idle_ms", &self.idle_ms)
            .finish_non_exhaustive()
    }
}

impl Sessions {
    /// How many sessions exist at once, by default.
    pub const DEFAULT_MAX: usize = 1024;
    /// How long a session may stay idle, by default: 30 minutes.
    pub const DEFAULT_IDLE_MS: u64 = 30 * 60 * 1000;
    /// How many of its latest events a session keeps for a client that resumes a stream with
    /// `Last-Event-ID`, whatever stream they went on.
    pub const EVENTS_KEPT: usize = resume::EVENTS_KEPT;
    /// How many bytes of its latest events' messages a session keeps for a client that
    /// resumes, at most: the oldest go first past it; an event larger than it alone is sent
    /// but not kept, and the events before it are dropped, so that a resume from one of them
    /// opens the stream afresh, as from an id older than those kept.
    pub const EVENT_BYTES_KEPT: usize = resume::EVENT_BYTES_KEPT;

    /// No sessions yet. `ids` makes each new session's id: the specification asks for ids
    /// that are globally unique and cryptographically secure (a random UUID, say), made of
    /// visible ASCII characters. An id already in use is never given out twice: the next one
    /// is asked for (sixteen times at most, then the `initialize` is refused with 500); an
    /// empty id says the source has none to give, and is asked for again in the same way.
    pub fn new(ids: impl FnMut() -> String + Send + 'static) -> Self {
        Sessions {
            sessions: BTreeMap::new(),
            listens: BTreeMap::new(),
            listen_clients: BTreeMap::new(),
            next_listen: 0,
            ended: Vec::new(),
            event_prefix: String::new(),
            events_given: 0,
            ids: Box::new(ids),
            max: Self::DEFAULT_MAX,
            share: None,
            idle_ms: Self::DEFAULT_IDLE_MS,
            origins: Origins::default(),
        }
    }

    /// Takes requests from web pages of `origins` too (`scheme://host[:port]`, as a browser
    /// writes `Origin`), besides the loopback interface's (`localhost`, `127.0.0.1`, `[::1]`,
    /// any scheme and port: the only ones taken by default). A request whose `Origin` is
    /// neither gets 403, so that a page the user visits cannot reach the server through DNS
    /// rebinding; a request without `Origin` (what clients other than browsers send) is
    /// always taken.
    #[must_use]
    pub fn with_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.origins = Origins::Listed(origins.into_iter().map(Into::into).collect());
        self
    }

    /// Takes requests whatever their `Origin`: for a server whose gateway checks it.
    #[must_use]
    pub fn with_any_origin(mut self) -> Self {
        self.origins = Origins::Any;
        self
    }

    /// Sets the most sessions at once (at least one) and how long one may stay idle.
    #[must_use]
    pub fn with_limits(mut self, max: usize, idle_ms: u64) -> Self {
        self.max = max.max(1);
        self.idle_ms = idle_ms;
        self
    }

    /// Whether a request whose `Origin` is `origin` is taken (see [`Sessions::with_origins`]).
    pub fn allows_origin(&self, origin: &str) -> bool {
        self.origins.allow(Some(origin))
    }

    /// Sets the most sessions one client holds at once (at least one; a quarter of
    /// [`Sessions::max`] by default), and the most stateless `subscriptions/listen` streams it
    /// holds open. A client past its share makes room among its own sessions (its idlest ends,
    /// whatever it is doing), never among another client's: see [`Server::http_receive_from`](crate::server::Server::http_receive_from).
    #[must_use]
    pub fn with_client_share(mut self, sessions: usize) -> Self {
        self.share = Some(sessions.max(1));
        self
    }

    /// The most sessions one client holds at once.
    pub fn client_share(&self) -> usize {
        self.share.unwrap_or(self.max / 4).clamp(1, self.max)
    }

    /// The client that opened session `id` (see [`Server::http_receive_from`](crate::server::Server::http_receive_from)).
    pub fn client_of(&self, id: &str) -> Option<&str> {
        self.sessions.get(id).map(|entry| &*entry.client)
    }

    /// The most sessions at once.
    pub fn max(&self) -> usize {
        self.max
    }

    /// How long a session may stay idle, in milliseconds.
    pub fn idle_ms(&self) -> u64 {
        self.idle_ms
    }

    /// How many sessions exist.
    pub fn len(&self) -> usize {
        self.sessions.len()
    }

    /// How many `subscriptions/listen` streams of stateless clients are open (at most
    /// [`Sessions::max`]; the next is refused with 503 until one closes).
    pub fn listening(&self) -> usize {
        self.listens.len()
    }

    /// Whether there is no session.
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }

    /// Drops every session idle for longer than the limit at `now_ms`: whose client sent no
    /// request for that long, even if its own stream is still open (a stream held open sends
    /// nothing that shows a client is there); how many it dropped.
    pub fn expire(&mut self, now_ms: u64) -> usize {
        let before = self.sessions.len();
        let idle_ms = self.idle_ms;
        let ended = &mut self.ended;
        self.sessions.retain(|id, entry| {
            let kept = now_ms.saturating_sub(entry.last_used_ms) <= idle_ms;
            if !kept {
                ended.extend(entry.all_streams(id));
            }
            kept
        });
        before - self.sessions.len()
    }

    /// Makes room for a new session of `client`, fairly: a client at its share
    /// ([`Sessions::client_share`]) gives up its own idlest session, whatever it is doing; in
    /// a table full of several clients' sessions, the client holding the most gives up its
    /// idlest (one with no stream open and no request in flight, if it has one). So no one
    /// client, however many sessions it opens or streams it holds, makes another's
    /// `initialize` fail or its session disappear. Whether there is room.
    ///
    /// The cost falls on the session idle the longest of the client that holds the most,
    /// whose client gets 404 and, as the transport asks of it, opens a new one.
    pub(in crate::server) fn make_room(&mut self, client: &str) -> bool {
        if client.is_empty() {
            // Clients the caller cannot tell apart: no share to keep, the idlest of all goes.
            return self.sessions.len() < self.max || self.evict_idle();
        }
        let own = self.sessions.values().filter(|e| &*e.client == client);
        if own.count() >= self.client_share() {
            return self.evict_idlest_of(client);
        }
        if self.sessions.len() < self.max {
            return true;
        }
        let mut held: BTreeMap<&str, usize> = BTreeMap::new();
        for entry in self.sessions.values() {
            *held.entry(&entry.client).or_default() += 1;
        }
        let heaviest = held.into_iter().max_by_key(|(_, count)| *count);
        let Some(heaviest) = heaviest.map(|(client, _)| client.to_owned()) else {
            return false;
        };
        self.evict_idlest_of(&heaviest)
    }

    /// Drops the session used least recently among those that are idle (no stream open, no
    /// request in flight), as [`Sessions::expire`] would once its time is up. Whether one
    /// was dropped.
    pub(in crate::server) fn evict_idle(&mut self) -> bool {
        let idlest = self
            .sessions
            .iter()
            .filter(|(_, entry)| {
                !entry.listening && entry.streams.is_empty() && entry.session.in_flight() == 0
            })
            .min_by_key(|(_, entry)| entry.last_used_ms)
            .map(|(id, _)| id.clone());
        idlest.is_some_and(|id| self.sessions.remove(&id).is_some())
    }

    /// Ends the session of `client` used least recently, preferring one that is idle (no
    /// stream open, no request in flight); its streams end. Whether one was ended.
    pub(super) fn evict_idlest_of(&mut self, client: &str) -> bool {
        let own = self.sessions.iter().filter(|(_, e)| &*e.client == client);
        let idlest = own
            .min_by_key(|(_, entry)| {
                let busy =
                    entry.listening || !entry.streams.is_empty() || entry.session.in_flight() > 0;
                (busy, entry.last_used_ms)
            })
            .map(|(id, _)| id.clone());
        let Some(id) = idlest else {
            return false;
        };
        if let Some(entry) = self.sessions.remove(&id) {
            self.ended.extend(entry.all_streams(&id));
        }
        true
    }

    /// Request `request` of session `id` whose caller gave up on it before its answer (its
    /// client hung up, and the task answering it was dropped): no longer in flight, as if the
    /// client had cancelled it, so that its id is free again and it counts against no bound.
    #[cfg(feature = "http-server")]
    pub(in crate::server) fn abandon(&mut self, id: &str, request: &RequestId) {
        if let Some(entry) = self.sessions.get_mut(id) {
            entry.session.cancel(request);
        }
    }

    /// The caller closed `stream`'s connection at `now_ms`: a session's own stream may be
    /// opened again, and the session is idle from then on; a stateless client's
    /// `subscriptions/listen` ends (its only way to end over HTTP); a request's stream needs nothing
    /// (its events still come, for the caller to drop: a closed connection does not cancel
    /// the request).
    pub fn close(&mut self, stream: &StreamId, now_ms: u64) {
        if let Some(number) = stream.listen {
            // The client's way to end a stateless `subscriptions/listen`.
            self.listens.remove(&number);
            self.listen_clients.remove(&number);
            return;
        }
        if stream.request.is_none() {
            let entry = stream.session().and_then(|id| self.sessions.get_mut(id));
            if let Some(entry) = entry {
                entry.listening = false;
                entry.last_used_ms = now_ms;
            }
        }
    }

    /// A new session's id; `None` when the source gives only ids in use (a source that
    /// repeats itself would otherwise hold the server in a loop).
    pub(super) fn fresh_id(&mut self) -> Option<String> {
        // An empty id is the source's way to say it has none (its randomness failed).
        (0..16)
            .map(|_| (self.ids)())
            .find(|id| !id.is_empty() && !self.sessions.contains_key(id))
    }
}
