//! Replicas: sessions brought in from the store and written back, the bus that tells each
//! replica what changed on the others, and the outbox of events kept before they are sent.

use super::request::Refused;
use super::state::{Out, Replicated, Shared, Write};
use crate::prelude::*;
use crate::server::store::{Store, StoreError};
use crate::server::Handler;
use crate::server::StreamEvent;
use crate::server::{Broadcast, Change, SessionRecord};
use core::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Duration;

impl<H> Shared<H> {
    /// Brings session `id` in from the store before the engine reads its request: the record
    /// (the session adopted, or forgotten when the store no longer has it), and, for a client
    /// `resuming` a stream, the events every replica kept for it.
    pub(super) async fn bring_in(
        &self,
        replicated: &Replicated,
        id: &str,
        resuming: bool,
    ) -> Result<Option<SessionRecord>, Refused> {
        let idle_ms = self.lock().sessions.idle_ms();
        let store = &replicated.store;
        let record = self.bounded(store.load(id, idle_ms)).await;
        let record = record.map_err(Refused::Store)?;
        let events = match (&record, resuming) {
            (Some(_), true) => Some(self.bounded(store.events(id)).await),
            _ => None,
        };
        let events = events.transpose().map_err(Refused::Store)?;
        let now_ms = self.now_ms();
        let mut open = self.lock();
        match &record {
            // Ended or expired elsewhere: the engine answers 404, as for a session it never had.
            None => open.sessions.forget(id),
            Some(record) => {
                if !open.sessions.adopt(id, record.clone(), now_ms) {
                    return Err(Refused::Full);
                }
            }
        }
        if let Some(events) = events {
            open.sessions.remember(id, events);
        }
        Ok(record)
    }

    /// Writes what a request changed to the store, and tells the other replicas.
    pub(super) async fn write(
        &self,
        replicated: &Replicated,
        write: Write,
    ) -> Result<(), StoreError> {
        let store = &replicated.store;
        let from = replicated.name.clone();
        let idle_ms = self.lock().sessions.idle_ms();
        let broadcast = match write {
            Write::Save(session, record) => {
                self.bounded(store.save(&session, &record, idle_ms)).await?;
                Broadcast::Saved {
                    from,
                    session,
                    record,
                }
            }
            Write::Remove(session) => {
                self.bounded(store.remove(&session)).await?;
                Broadcast::Ended { from, session }
            }
        };
        // Written: the others hear of it when the bus carries it (a lost broadcast leaves a
        // replica's copy stale until the session's next request there reads the store).
        let _ = self.bounded(store.publish(&broadcast)).await;
        Ok(())
    }
}

impl<H: Handler + Send + Sync + 'static> Shared<H> {
    /// Starts the keep-alive task once, in the runtime of the first request.
    pub(super) fn keep_alive(shared: &Arc<Self>, every: Duration) {
        if shared.pinging.swap(true, Ordering::SeqCst) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            shared.pinging.store(false, Ordering::SeqCst);
            return;
        };
        let shared: Weak<Self> = Arc::downgrade(shared);
        runtime.spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                let Some(shared) = shared.upgrade() else {
                    return; // the service is gone
                };
                let now_ms = shared.now_ms();
                let in_use = shared.lock().ping(now_ms);
                if let Some(replicated) = shared.replicated.get() {
                    // A session whose streams are open here is in use: it does not expire in
                    // the store while they are.
                    let idle_ms = shared.lock().sessions.idle_ms();
                    let touched = replicated.store.touch(&in_use, idle_ms);
                    let _ = shared.bounded(touched).await;
                }
            }
        });
    }

    /// Starts, once, the task that hears what the other replicas broadcast.
    pub(super) fn join_bus(shared: &Arc<Self>) {
        let Some(replicated) = shared.replicated.get() else {
            return;
        };
        if shared.on_bus.swap(true, Ordering::SeqCst) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            shared.on_bus.store(false, Ordering::SeqCst);
            return;
        };
        let mut bus = replicated.store.subscribe();
        let shared: Weak<Self> = Arc::downgrade(shared);
        runtime.spawn(async move {
            while let Some(broadcast) = bus.recv().await {
                let Some(shared) = shared.upgrade() else {
                    return; // the service is gone
                };
                shared.heard(broadcast).await;
            }
        });
    }

    /// What another replica broadcast: its change told to this replica's clients, its ended
    /// session's streams closed here, its session's new record taken.
    pub(super) async fn heard(self: Arc<Self>, broadcast: Broadcast) {
        let Some(replicated) = self.replicated.get() else {
            return;
        };
        if broadcast.from() == replicated.name {
            return;
        }
        {
            let now_ms = self.now_ms();
            let mut open = self.lock();
            match broadcast {
                Broadcast::Changed { change, .. } => {
                    let told = open.sessions.notify(&self.server, &change);
                    open.send(told, now_ms);
                }
                Broadcast::Ended { session, .. } => {
                    open.sessions.forget(&session);
                    let ended = core::mem::take(&mut open.sessions.ended);
                    open.outbox.extend(ended.into_iter().map(Out::End));
                }
                Broadcast::Saved {
                    session, record, ..
                } => {
                    // Only a session this replica holds: it serves the next request of any
                    // other from the store.
                    if open.sessions.record(&session).is_some() {
                        open.sessions.adopt(&session, record, now_ms);
                    }
                }
            }
        }
        self.flush().await;
    }

    /// Writes out what waits in the outbox, in order: each session's events are kept in the
    /// store first, so that a client resuming on another replica finds every event it was
    /// sent. (An event the store could not keep is sent all the same: the client gets it,
    /// only a resumption after it starts afresh.)
    pub(super) async fn flush(self: Arc<Self>) {
        let Some(replicated) = self.replicated.get() else {
            return;
        };
        let _writer = self.flushing.lock().await;
        loop {
            let (out, idle_ms) = {
                let mut open = self.lock();
                (core::mem::take(&mut open.outbox), open.sessions.idle_ms())
            };
            if out.is_empty() {
                return;
            }
            let mut kept: Vec<(&str, Vec<StreamEvent>)> = Vec::new();
            for out in &out {
                let Out::Event(event) = out else { continue };
                let (Some(session), Some(_)) = (event.stream.session(), &event.id) else {
                    continue;
                };
                match kept.last_mut() {
                    Some((last, events)) if *last == session => events.push(event.clone()),
                    _ => kept.push((session, vec![event.clone()])),
                }
            }
            for (session, events) in &kept {
                let appended = replicated.store.append(session, events, idle_ms);
                let _ = self.bounded(appended).await;
            }
            let now_ms = self.now_ms();
            let mut open = self.lock();
            for out in out {
                match out {
                    Out::Event(event) => open.send_now(event, now_ms),
                    Out::End(stream) => {
                        open.streams.remove(&stream);
                    }
                }
            }
        }
    }

    /// Tells the other replicas what a handler changed (its own clients were told), then
    /// writes out what waits: in a task of the runtime, for callers that cannot wait.
    pub(super) fn after_answer(self: &Arc<Self>, changes: Vec<Change>) {
        let Some(replicated) = self.replicated.get() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let from = replicated.name.clone();
        let shared = Arc::clone(self);
        runtime.spawn(async move {
            if let Some(replicated) = shared.replicated.get() {
                for change in changes {
                    let from = from.clone();
                    let broadcast = Broadcast::Changed { from, change };
                    let _ = shared.bounded(replicated.store.publish(&broadcast)).await;
                }
            }
            shared.flush().await;
        });
    }
}
