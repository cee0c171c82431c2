//! Where the replicas of one server keep what they share (feature `http-server`): see
//! [`Store`].

mod memory;
#[cfg(feature = "redis")]
mod redis;

pub use memory::MemoryStore;
#[cfg(feature = "redis")]
pub use redis::{RedisStore, BUS_QUIET};

use super::{Broadcast, SessionRecord};
use crate::prelude::*;
use crate::server::engine::StreamEvent;
use core::fmt;
use core::future::Future;
use core::pin::Pin;
use tokio::sync::mpsc;

/// What a [`Store`]'s operation gives: a future that may be sent to another thread.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Where the replicas of one server keep what they share, so that a client may be served by
/// any of them ([`StreamableHttp::with_store`](crate::server::StreamableHttp::with_store)):
/// - the sessions of stateful revisions ([`SessionRecord`]), each kept `idle_ms` after its
///   last use (the engine's [`Sessions::idle_ms`](crate::server::Sessions::idle_ms));
/// - the events sent on each session's request streams, for a client that resumes a stream
///   on another replica (the latest [`Sessions::EVENTS_KEPT`](crate::server::Sessions::EVENTS_KEPT),
///   within [`Sessions::EVENT_BYTES_KEPT`](crate::server::Sessions::EVENT_BYTES_KEPT), kept as long as
///   their session; what its own stream carries is the broadcasts below);
/// - a bus, on which each replica tells the others what changed ([`Broadcast`]), each
///   broadcast numbered in one order for all replicas and kept (the latest
///   [`BROADCASTS_KEPT`], within [`BROADCAST_BYTES_KEPT`]), so that a replica that missed
///   some (its subscription broke, or went silent) catches up, and a client resuming its
///   session's stream is replayed the changes made while no stream of its session was open
///   anywhere;
/// - how many sessions each client holds over all replicas ([`Store::claim`]).
///
/// What a store must guarantee: a broadcast is kept before any replica hears it, and the
/// replicas hear broadcasts in the order of their numbers (numbering, keeping and publishing
/// are one step); a number is never given twice. Whoever can write the store can end any
/// session and tell its client anything: keep it private to the replicas.
///
/// The sealing keys of `input_required` state are not kept here: every replica is given the
/// same [`KeyRing`](crate::input_required::KeyRing).
///
/// Each operation fails with a [`StoreError`] rather than wait without end: the service
/// bounds each by [`StreamableHttp::with_store_timeout`](crate::server::StreamableHttp::with_store_timeout)
/// all the same, and answers a request whose state it cannot read or write with 503.
pub trait Store: Send + Sync + 'static {
    /// Session `session`'s record (`None`: no such session, or it expired), its expiry
    /// pushed back to `idle_ms` from now.
    fn load<'a>(&'a self, session: &'a str, idle_ms: u64)
        -> StoreFuture<'a, Option<SessionRecord>>;

    /// Keeps `record` as session `session`'s, for `idle_ms`.
    fn save<'a>(
        &'a self,
        session: &'a str,
        record: &'a SessionRecord,
        idle_ms: u64,
    ) -> StoreFuture<'a, ()>;

    /// Forgets session `session` and its events.
    fn remove<'a>(&'a self, session: &'a str) -> StoreFuture<'a, ()>;

    /// Adds `events` (in order, after those kept) to session `session`'s, keeping the latest
    /// [`Sessions::EVENTS_KEPT`](crate::server::Sessions::EVENTS_KEPT), for as long as the session.
    fn append<'a>(
        &'a self,
        session: &'a str,
        events: &'a [StreamEvent],
        idle_ms: u64,
    ) -> StoreFuture<'a, ()>;

    /// The events kept for session `session`, oldest first.
    fn events<'a>(&'a self, session: &'a str) -> StoreFuture<'a, Vec<StreamEvent>>;

    /// Pushes the expiry of each of `sessions` (and their events) back to `idle_ms` from now:
    /// sessions whose streams are open are in use.
    fn touch<'a>(&'a self, sessions: &'a [String], idle_ms: u64) -> StoreFuture<'a, ()>;

    /// Keeps `broadcast` as the next of the broadcasts (the latest [`BROADCASTS_KEPT`] are
    /// kept, no more than [`BROADCAST_BYTES_KEPT`] bytes of them as [`Logged::to_line`]
    /// writes them, the oldest dropped first), and
    /// tells every replica (this one too): its number, greater than that of every broadcast
    /// kept before it. Keeping and telling are one step: the replicas hear broadcasts in the
    /// order of their numbers, and a broadcast is kept before any replica hears it.
    fn publish<'a>(&'a self, broadcast: &'a Broadcast) -> StoreFuture<'a, u64>;

    /// The broadcasts kept whose numbers are greater than `after`, in order, and the number
    /// of the latest one published (`0`: none yet). A number missing between `after` and the
    /// first given was published, then dropped to keep within [`BROADCASTS_KEPT`] and
    /// [`BROADCAST_BYTES_KEPT`].
    fn published_after<'a>(&'a self, after: u64) -> StoreFuture<'a, Published>;

    /// Counts session `session` (just opened, its record saved) as one of client `client`'s
    /// (see [`StreamableHttp::with_client_key`](super::StreamableHttp::with_client_key)),
    /// over all replicas: the client's sessions past `share`, oldest first, which the caller
    /// ends, so that the client holds at most `share` across the replicas, as it does in one
    /// table. A session that ended or expired no longer counts.
    ///
    /// By default nothing is counted (none is given back): each replica then keeps a client
    /// to its share of its own table alone. [`MemoryStore`] and `RedisStore` count.
    fn claim<'a>(
        &'a self,
        client: &'a str,
        session: &'a str,
        share: usize,
        idle_ms: u64,
    ) -> StoreFuture<'a, Vec<String>> {
        let _ = (client, session, share, idle_ms);
        Box::pin(core::future::ready(Ok(Vec::new())))
    }

    /// What the replicas publish from now on, this one's too, in order. A broadcast that
    /// finds the receiver full is dropped; a bus that breaks, or goes silent, is joined again
    /// by the store: what a replica misses meanwhile it reads with
    /// [`Store::published_after`] (the numbers it hears tell it what it missed).
    fn subscribe(&self) -> mpsc::Receiver<Logged>;
}

/// How many of the latest broadcasts a [`Store`] keeps, for a replica catching up on what its
/// bus missed and for a client resuming its session's stream.
pub const BROADCASTS_KEPT: usize = 4096;

/// How many bytes of the latest broadcasts (as [`Logged::to_line`] writes them) a [`Store`]
/// keeps, at most: a session's record is in each broadcast that saves it, and a client that
/// changes its record again and again must not fill the store, nor make a resumption read
/// more than this.
pub const BROADCAST_BYTES_KEPT: usize = 8 << 20;

/// A broadcast, with its number in the order of all broadcasts ([`Store::publish`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Logged {
    /// Its number: each is greater than every one published before it.
    pub seq: u64,
    /// What it says.
    pub broadcast: Broadcast,
}

impl Logged {
    /// As one line: its number, a space, then [`Broadcast::to_json`].
    pub fn to_line(&self) -> String {
        format!("{} {}", self.seq, self.broadcast.to_json())
    }

    /// A line [`Logged::to_line`] wrote; `None` for any other.
    pub fn from_line(line: &str) -> Option<Self> {
        let (seq, json) = line.split_once(' ')?;
        let seq = seq.parse().ok()?;
        let broadcast = Broadcast::from_json(json).ok()?;
        Some(Logged { seq, broadcast })
    }
}

/// What [`Store::published_after`] gives.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Published {
    /// The broadcasts kept after the number asked for, in order.
    pub broadcasts: Vec<Logged>,
    /// The number of the latest broadcast published (`0`: none yet).
    pub latest: u64,
}

impl Published {
    /// Whether `broadcasts` are every one published after `after` (none was dropped).
    pub fn complete(&self, after: u64) -> bool {
        match self.broadcasts.first() {
            Some(first) => first.seq <= after.saturating_add(1),
            None => self.latest <= after,
        }
    }
}

/// A [`Store`] could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    message: String,
}

impl StoreError {
    /// An error saying `message`.
    pub fn new(message: impl Into<String>) -> Self {
        StoreError {
            message: message.into(),
        }
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the state store is unavailable: {}", self.message)
    }
}

impl std::error::Error for StoreError {}

/// A shared store is a store: replicas in one process each get a clone of the same one.
impl<S: Store + ?Sized> Store for std::sync::Arc<S> {
    fn load<'a>(
        &'a self,
        session: &'a str,
        idle_ms: u64,
    ) -> StoreFuture<'a, Option<SessionRecord>> {
        (**self).load(session, idle_ms)
    }

    fn save<'a>(
        &'a self,
        session: &'a str,
        record: &'a SessionRecord,
        idle_ms: u64,
    ) -> StoreFuture<'a, ()> {
        (**self).save(session, record, idle_ms)
    }

    fn remove<'a>(&'a self, session: &'a str) -> StoreFuture<'a, ()> {
        (**self).remove(session)
    }

    fn append<'a>(
        &'a self,
        session: &'a str,
        events: &'a [StreamEvent],
        idle_ms: u64,
    ) -> StoreFuture<'a, ()> {
        (**self).append(session, events, idle_ms)
    }

    fn events<'a>(&'a self, session: &'a str) -> StoreFuture<'a, Vec<StreamEvent>> {
        (**self).events(session)
    }

    fn touch<'a>(&'a self, sessions: &'a [String], idle_ms: u64) -> StoreFuture<'a, ()> {
        (**self).touch(sessions, idle_ms)
    }

    fn publish<'a>(&'a self, broadcast: &'a Broadcast) -> StoreFuture<'a, u64> {
        (**self).publish(broadcast)
    }

    fn published_after<'a>(&'a self, after: u64) -> StoreFuture<'a, Published> {
        (**self).published_after(after)
    }

    fn claim<'a>(
        &'a self,
        client: &'a str,
        session: &'a str,
        share: usize,
        idle_ms: u64,
    ) -> StoreFuture<'a, Vec<String>> {
        (**self).claim(client, session, share, idle_ms)
    }

    fn subscribe(&self) -> mpsc::Receiver<Logged> {
        (**self).subscribe()
    }
}
