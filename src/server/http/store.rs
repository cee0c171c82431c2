//! Where the replicas of one server keep what they share (feature `http-server`): see
//! [`Store`].

mod memory;
#[cfg(feature = "redis")]
mod redis;

pub use memory::MemoryStore;
#[cfg(feature = "redis")]
pub use redis::RedisStore;

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
/// - the events sent on each session's streams, for a client that resumes a stream on
///   another replica (the latest [`Sessions::EVENTS_KEPT`](crate::server::Sessions::EVENTS_KEPT),
///   kept as long as their session);
/// - a bus, on which each replica tells the others what changed ([`Broadcast`]).
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

    /// Tells every replica (this one too) `broadcast`.
    fn publish<'a>(&'a self, broadcast: &'a Broadcast) -> StoreFuture<'a, ()>;

    /// What the replicas publish from now on, this one's too. A broadcast that finds the
    /// receiver full is dropped (what it tells clients is a notification, which clients do
    /// not count on); a bus that breaks is joined again by the store.
    fn subscribe(&self) -> mpsc::Receiver<Broadcast>;
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

    fn publish<'a>(&'a self, broadcast: &'a Broadcast) -> StoreFuture<'a, ()> {
        (**self).publish(broadcast)
    }

    fn subscribe(&self) -> mpsc::Receiver<Broadcast> {
        (**self).subscribe()
    }
}
