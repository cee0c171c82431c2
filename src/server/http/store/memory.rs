//! The store in this process's memory: replicas that are services of one process.

use super::{Logged, Published, Store, StoreFuture, BROADCASTS_KEPT, BROADCAST_BYTES_KEPT};
use crate::prelude::*;
use crate::server::{Broadcast, SessionRecord, Sessions, StreamEvent};
use alloc::collections::VecDeque;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// A [`Store`] in this process's memory, for replicas that are services of one process (tests,
/// a server with several listeners), and as the model a store of another kind follows.
#[derive(Debug, Default)]
pub struct MemoryStore {
    kept: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    sessions: HashMap<String, KeptSession>,
    buses: Vec<mpsc::Sender<Logged>>,
    /// The latest broadcasts, and the number of the last one.
    log: VecDeque<(Logged, usize)>,
    /// The bytes of the kept broadcasts' lines.
    log_bytes: usize,
    seq: u64,
    /// Each client's sessions, oldest first (see [`Store::claim`]).
    clients: HashMap<String, VecDeque<String>>,
}

#[derive(Debug)]
struct KeptSession {
    record: Option<SessionRecord>,
    events: Vec<StreamEvent>,
    until: Instant,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        MemoryStore::default()
    }

    /// How many sessions it keeps (expired ones aside).
    pub fn len(&self) -> usize {
        let now = Instant::now();
        let kept = self.lock();
        kept.sessions.values().filter(|s| s.until > now).count()
    }

    /// Whether it keeps no session.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        // Nothing here panics under the lock: a poisoned lock holds a consistent table.
        self.kept
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn until(idle_ms: u64) -> Instant {
    let now = Instant::now();
    now.checked_add(Duration::from_millis(idle_ms))
        .unwrap_or(now + Duration::from_secs(u64::from(u32::MAX)))
}

impl Kept {
    /// Session `id`, unless it expired (then forgotten).
    fn live(&mut self, id: &str) -> Option<&mut KeptSession> {
        let expired = self
            .sessions
            .get(id)
            .is_some_and(|s| s.until <= Instant::now());
        if expired {
            self.sessions.remove(id);
        }
        self.sessions.get_mut(id)
    }

    fn entry(&mut self, id: &str, idle_ms: u64) -> &mut KeptSession {
        let now = Instant::now();
        self.sessions.retain(|_, s| s.until > now);
        let kept = self.sessions.entry(id.to_owned()).or_insert(KeptSession {
            record: None,
            events: Vec::new(),
            until: now,
        });
        kept.until = until(idle_ms);
        kept
    }
}

impl Store for MemoryStore {
    fn load<'a>(
        &'a self,
        session: &'a str,
        idle_ms: u64,
    ) -> StoreFuture<'a, Option<SessionRecord>> {
        let mut kept = self.lock();
        let record = kept.live(session).and_then(|s| {
            s.until = until(idle_ms);
            s.record.clone()
        });
        Box::pin(core::future::ready(Ok(record)))
    }

    fn save<'a>(
        &'a self,
        session: &'a str,
        record: &'a SessionRecord,
        idle_ms: u64,
    ) -> StoreFuture<'a, ()> {
        self.lock().entry(session, idle_ms).record = Some(record.clone());
        Box::pin(core::future::ready(Ok(())))
    }

    fn remove<'a>(&'a self, session: &'a str) -> StoreFuture<'a, ()> {
        self.lock().sessions.remove(session);
        Box::pin(core::future::ready(Ok(())))
    }

    fn append<'a>(
        &'a self,
        session: &'a str,
        events: &'a [StreamEvent],
        idle_ms: u64,
    ) -> StoreFuture<'a, ()> {
        let mut kept = self.lock();
        let log = &mut kept.entry(session, idle_ms).events;
        let bound = Sessions::EVENT_BYTES_KEPT;
        // An event larger than the bound alone is not kept, nor those before it (as
        // `Sessions` keeps them): a resume from one of them opens its stream afresh.
        let too_large = events.iter().rposition(|e| e.message.len() > bound);
        let events = match too_large {
            Some(at) => {
                log.clear();
                &events[at + 1..]
            }
            None => events,
        };
        log.extend_from_slice(events);
        let over = log.len().saturating_sub(Sessions::EVENTS_KEPT);
        log.drain(..over);
        let mut bytes: usize = log.iter().map(|e| e.message.len()).sum();
        let mut first = 0;
        while bytes > bound && first < log.len() {
            bytes -= log[first].message.len();
            first += 1;
        }
        log.drain(..first);
        Box::pin(core::future::ready(Ok(())))
    }

    fn events<'a>(&'a self, session: &'a str) -> StoreFuture<'a, Vec<StreamEvent>> {
        let mut kept = self.lock();
        let events = kept.live(session).map(|s| s.events.clone());
        Box::pin(core::future::ready(Ok(events.unwrap_or_default())))
    }

    fn touch<'a>(&'a self, sessions: &'a [String], idle_ms: u64) -> StoreFuture<'a, ()> {
        let mut kept = self.lock();
        for id in sessions {
            if let Some(session) = kept.live(id) {
                session.until = until(idle_ms);
            }
        }
        Box::pin(core::future::ready(Ok(())))
    }

    fn publish<'a>(&'a self, broadcast: &'a Broadcast) -> StoreFuture<'a, u64> {
        let mut kept = self.lock();
        kept.seq += 1;
        let logged = Logged {
            seq: kept.seq,
            broadcast: broadcast.clone(),
        };
        let size = logged.to_line().len();
        kept.log.push_back((logged.clone(), size));
        kept.log_bytes += size;
        while kept.log.len() > BROADCASTS_KEPT || kept.log_bytes > BROADCAST_BYTES_KEPT {
            let Some((_, dropped)) = kept.log.pop_front() else {
                break;
            };
            kept.log_bytes -= dropped;
        }
        kept.buses.retain(|bus| {
            // A receiver that is full misses this one (and reads it from the log); one that
            // is gone is forgotten.
            !matches!(
                bus.try_send(logged.clone()),
                Err(mpsc::error::TrySendError::Closed(_))
            )
        });
        Box::pin(core::future::ready(Ok(logged.seq)))
    }

    fn published_after<'a>(&'a self, after: u64) -> StoreFuture<'a, Published> {
        let kept = self.lock();
        let broadcasts = kept.log.iter().map(|(logged, _)| logged);
        let broadcasts = broadcasts.filter(|logged| logged.seq > after);
        let published = Published {
            broadcasts: broadcasts.cloned().collect(),
            latest: kept.seq,
        };
        Box::pin(core::future::ready(Ok(published)))
    }

    fn claim<'a>(
        &'a self,
        client: &'a str,
        session: &'a str,
        share: usize,
        _idle_ms: u64,
    ) -> StoreFuture<'a, Vec<String>> {
        let mut kept = self.lock();
        let now = Instant::now();
        let Kept {
            sessions, clients, ..
        } = &mut *kept;
        let own = clients.entry(client.to_owned()).or_default();
        own.retain(|id| sessions.get(id).is_some_and(|s| s.until > now) && id != session);
        own.push_back(session.to_owned());
        let over = own.len().saturating_sub(share.max(1));
        let past: Vec<String> = own.drain(..over).collect();
        clients.retain(|_, own| !own.is_empty());
        Box::pin(core::future::ready(Ok(past)))
    }

    fn subscribe(&self) -> mpsc::Receiver<Logged> {
        let (bus, receiver) = mpsc::channel(BUS_ROOM);
        self.lock().buses.push(bus);
        receiver
    }
}

/// How many broadcasts wait for a replica before the next is dropped.
pub(super) const BUS_ROOM: usize = 1024;
