//! What every request of the service shares: the engine, its sessions and open streams, the
//! store replicas share.

use crate::prelude::*;
use crate::server::store::{Store, StoreError};
use crate::server::SessionRecord;
use crate::server::{Handler, Server};
use crate::server::{Sessions, StreamEvent, StreamId};
use bytes::Bytes;
use core::future::Future;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

pub(super) struct Shared<H: ?Sized> {
    pub(super) open: Mutex<Open>,
    pub(super) started: Instant,
    pub(super) closing: AtomicBool,
    /// Whether the keep-alive task runs (it starts with the first request, in its runtime).
    pub(super) pinging: AtomicBool,
    /// The store replicas share, and this replica's name: set once, before serving.
    pub(super) replicated: OnceLock<Replicated>,
    /// How long one operation of the store may take, in milliseconds.
    pub(super) store_timeout_ms: AtomicU64,
    /// How long a session's record read from the store serves its read-only requests, in
    /// milliseconds (see [`StreamableHttp::with_records_held_for`](super::StreamableHttp::with_records_held_for)).
    pub(super) held_for_ms: AtomicU64,
    /// Whether the task that hears the other replicas runs (it starts with the first request).
    pub(super) on_bus: AtomicBool,
    /// Held while the outbox is written out: one writer at a time keeps the events' order.
    pub(super) flushing: tokio::sync::Mutex<()>,
    /// Last, so that a service of any handler is held as one of [`Erased`]'s.
    pub(super) server: Server<H>,
}

/// The handler of the service's code: every service is served as one whose server has a
/// `dyn Handler`, so that the service and the engine under it are compiled once, in this
/// crate, rather than again in each application for its own handler.
pub(super) type Erased = dyn Handler + Send + Sync;

/// The store the replicas of the server share.
pub(super) struct Replicated {
    pub(super) store: Arc<dyn Store>,
    /// This replica's name, in its event ids and its broadcasts.
    pub(super) name: String,
}

/// The engine's sessions and the event streams open on them: one lock, so that events go out
/// in the order the engine gives them.
pub(super) struct Open {
    pub(super) sessions: Sessions,
    pub(super) streams: HashMap<StreamId, mpsc::Sender<Bytes>>,
    /// With a store, what waits to be written out, in the order the engine gave it: a
    /// session's events are kept in the store before they are sent (see [`Shared::flush`]).
    pub(super) outbox: Vec<Out>,
    /// Whether events wait in the outbox (with a store) rather than go out at once.
    pub(super) queued: bool,
    /// With a store, the number of the latest broadcast this replica heard and told its
    /// clients of: every one before it was heard too, in order. `None` until the bus is
    /// joined.
    pub(super) heard: Option<u64>,
}

/// What waits in the outbox.
pub(super) enum Out {
    Event(StreamEvent),
    /// A stream that ends, after the events before it.
    End(StreamId),
}

/// What a request changed in the state replicas share, to write to the store.
pub(super) enum Write {
    /// A session opened, or its record changed.
    Save(String, SessionRecord),
    /// A session ended.
    Remove(String),
}

impl<H: ?Sized> Shared<H> {
    pub(super) fn lock(&self) -> MutexGuard<'_, Open> {
        // A handler never runs under the lock, and the engine does not panic: a poisoned lock
        // holds a consistent table.
        self.open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(super) fn now_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// `operation` of the store, bounded by the store's timeout.
    pub(super) async fn bounded<T>(
        &self,
        operation: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let timeout_ms = self.store_timeout_ms.load(Ordering::SeqCst);
        let timeout = Duration::from_millis(timeout_ms);
        match tokio::time::timeout(timeout, operation).await {
            Ok(done) => done,
            Err(_) => Err(StoreError::new(format!("no answer within {timeout_ms} ms"))),
        }
    }
}
