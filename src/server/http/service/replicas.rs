//! Replicas: sessions brought in from the store and written back, the bus that tells each
//! replica what changed on the others, and the outbox of events kept before they are sent.

use super::request::Refused;
use super::state::{Out, Replicated, Shared, Write};
use crate::prelude::*;
use crate::server::http::shared::change_seq;
use crate::server::store::Logged;
use crate::server::store::{Store, StoreError};
use crate::server::Handler;
use crate::server::StreamEvent;
use crate::server::{Broadcast, Change, SessionRecord};
use alloc::collections::{BTreeMap, BTreeSet};
use core::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// How long the bus may carry nothing before the replica reads the store's log for what it
/// may have missed (a broadcast lost while the bus was joined again).
pub(super) const CATCH_UP_EVERY: Duration = Duration::from_secs(1);

/// How many sessions' events are appended to the store at once.
const APPENDS_AT_ONCE: usize = 32;

/// How many times a resuming client's changes are read again while the bus is ahead of the
/// read (20 ms apart), before its stream goes on from what was read.
const RESUME_READS: u32 = 10;

impl<H: Handler + Send + Sync + ?Sized + 'static> Shared<H> {
    /// Brings session `id` in from the store before the engine reads its request: the record
    /// (the session adopted, or forgotten when the store no longer has it), and, for a client
    /// resuming a stream after event `resuming`, the events every replica kept for it, and
    /// the changes its own stream carried, or would have carried, since (see
    /// [`Sessions::replay`](crate::server::Sessions)).
    ///
    /// `reads_alone`: the request leaves the record as it is
    /// ([`leaves_the_record`](crate::server::http::shared::leaves_the_record)); the
    /// record this replica holds then serves it, when it read it from the store, or wrote it
    /// there, within the time [`StreamableHttp::with_records_held_for`](crate::server::StreamableHttp::with_records_held_for)
    /// sets.
    pub(super) async fn bring_in(
        &self,
        replicated: &Replicated,
        id: &str,
        resuming: Option<&str>,
        reads_alone: bool,
    ) -> Result<Option<SessionRecord>, Refused> {
        let started_ms = self.now_ms();
        let idle_ms = {
            let open = self.lock();
            // Held no longer than half the store keeps an unread session, so that the store
            // still has it whenever the copy serves.
            let idle_ms = open.sessions.idle_ms();
            let held_for_ms = self.held_for_ms.load(Ordering::SeqCst).min(idle_ms / 2);
            if reads_alone && resuming.is_none() && held_for_ms > 0 {
                let held = open
                    .sessions
                    .record_stored_within(id, started_ms, held_for_ms);
                if let Some(record) = held {
                    return Ok(Some(record));
                }
            }
            idle_ms
        };
        let store = &replicated.store;
        let record = self.bounded(store.load(id, idle_ms)).await;
        let record = record.map_err(Refused::Store)?;
        let events = match (&record, resuming) {
            (Some(_), Some(_)) => Some(self.bounded(store.events(id)).await),
            _ => None,
        };
        let mut events = events.transpose().map_err(Refused::Store)?;
        let after = resuming.and_then(change_seq).filter(|_| record.is_some());
        let mut attempts = 0;
        loop {
            let logged = match after {
                Some(after) => {
                    let read = store.published_after(after.saturating_sub(1));
                    Some(self.bounded(read).await.map_err(Refused::Store)?)
                }
                None => None,
            };
            let brought = {
                let now_ms = self.now_ms();
                let mut open = self.lock();
                // What the bus heard and told this replica's streams, the read must give too:
                // the stream then goes on from there with what the bus tells next.
                let behind = logged
                    .as_ref()
                    .is_some_and(|logged| open.heard.is_none_or(|heard| logged.latest < heard));
                if behind && attempts < RESUME_READS {
                    None
                } else {
                    match &record {
                        // Ended or expired elsewhere: the engine answers 404, as for a session
                        // it never had.
                        None => open.sessions.forget(id),
                        Some(record) => {
                            if !open.sessions.adopt(id, record.clone(), now_ms) {
                                return Err(Refused::Full);
                            }
                            // What the store held when the read started, at the latest.
                            open.sessions.stored(id, started_ms);
                        }
                    }
                    if let Some(events) = events.take() {
                        open.sessions.remember(id, events);
                    }
                    if let (Some(after), Some(logged)) = (after, &logged) {
                        let heard = open.heard.unwrap_or(logged.latest);
                        let upto = logged.broadcasts.iter().filter(|l| l.seq <= heard);
                        let upto = upto.map(|l| (l.seq, &l.broadcast));
                        open.sessions.replay(&self.server, id, after, upto);
                    }
                    Some(record.clone())
                }
            };
            if let Some(record) = brought {
                return Ok(record);
            }
            attempts += 1;
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl<H: ?Sized> Shared<H> {
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
                let started_ms = self.now_ms();
                self.bounded(store.save(&session, &record, idle_ms)).await?;
                self.lock().sessions.stored(&session, started_ms);
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
        // Written: the others hear of it when the bus carries it (a replica that missed it reads
        // it from the store's log; one that could not be kept leaves a replica's copy stale
        // until the session's next request there reads the store).
        let _ = self.bounded(store.publish(&broadcast)).await;
        Ok(())
    }
}

impl<H: ?Sized> Shared<H> {
    /// Counts session `opened` as one of `client`'s in the store, and ends those of the
    /// client's sessions, on any replica, past its share: a client holds its share over the
    /// replicas, as in one table. A store that cannot count leaves the count to each replica.
    pub(super) async fn claim(&self, replicated: &Replicated, client: &str, opened: &str) {
        let (share, idle_ms) = {
            let open = self.lock();
            (open.sessions.client_share(), open.sessions.idle_ms())
        };
        let claimed = replicated.store.claim(client, opened, share, idle_ms);
        let Ok(past) = self.bounded(claimed).await else {
            return;
        };
        for session in past {
            // Ended as a DELETE would: every replica closes its streams, this one too.
            {
                let mut open = self.lock();
                open.sessions.forget(&session);
                let ended = core::mem::take(&mut open.sessions.ended);
                open.outbox.extend(ended.into_iter().map(Out::End));
            }
            let _ = self.write(replicated, Write::Remove(session)).await;
        }
    }
}

impl<H: Handler + Send + Sync + ?Sized + 'static> Shared<H> {
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

    /// Starts, once, the task that hears what the replicas broadcast (this one too), in the
    /// order the store numbered them: a number skipped, or a bus quiet for
    /// [`CATCH_UP_EVERY`], sends it to the store's log for what it missed.
    ///
    /// Waits (at most the store's timeout) until the bus knows where it starts: a stream
    /// opened after it hears every change made after it opened.
    pub(super) async fn join_bus(shared: &Arc<Self>) {
        Self::start_bus(shared);
        let timeout_ms = shared.store_timeout_ms.load(Ordering::SeqCst);
        let started = std::time::Instant::now();
        while shared.lock().heard.is_none()
            && started.elapsed() < Duration::from_millis(timeout_ms)
            && shared.on_bus.load(Ordering::SeqCst)
        {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Starts the bus's task once.
    pub(super) fn start_bus(shared: &Arc<Self>) {
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
            // Where the bus starts: what was published before it is not this replica's to tell.
            loop {
                let Some(shared) = shared.upgrade() else {
                    return; // the service is gone
                };
                let Some(replicated) = shared.replicated.get() else {
                    return;
                };
                let latest = shared.bounded(replicated.store.published_after(u64::MAX));
                if let Ok(published) = latest.await {
                    let mut open = shared.lock();
                    open.heard = Some(open.heard.unwrap_or(0).max(published.latest));
                    break;
                }
                drop(shared);
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            loop {
                let heard = tokio::time::timeout(CATCH_UP_EVERY, bus.recv()).await;
                let Some(shared) = shared.upgrade() else {
                    return; // the service is gone
                };
                match heard {
                    Ok(Some(logged)) => shared.hear(logged).await,
                    Ok(None) => return,
                    Err(_quiet) => shared.catch_up().await,
                }
            }
        });
    }

    /// A broadcast the bus carried: told, after those before it that the bus missed.
    async fn hear(self: Arc<Self>, logged: Logged) {
        let heard = self.lock().heard.unwrap_or(0);
        if logged.seq <= heard {
            return; // read from the log already
        }
        if logged.seq > heard + 1 {
            Arc::clone(&self).catch_up().await;
        }
        self.apply(vec![logged]).await;
    }

    /// Reads from the store's log what the bus did not carry, and tells it. When the log no
    /// longer has all of it, the sessions whose streams are open here are read again from the
    /// store (one that ended meanwhile has its streams closed).
    pub(super) async fn catch_up(self: Arc<Self>) {
        let Some(replicated) = self.replicated.get() else {
            return;
        };
        let Some(heard) = self.lock().heard else {
            return;
        };
        let read = self.bounded(replicated.store.published_after(heard)).await;
        let Ok(published) = read else {
            return; // the store is down: the next quiet spell tries again
        };
        if !published.complete(heard) {
            Arc::clone(&self).reread(replicated).await;
        }
        let latest = published.latest;
        Arc::clone(&self).apply(published.broadcasts).await;
        let mut open = self.lock();
        if open.heard.is_some_and(|heard| heard < latest) {
            // Published, then dropped from the log: nothing left of them to tell.
            open.heard = Some(latest);
        }
    }

    /// Reads again from the store the records of the sessions whose streams are open here.
    async fn reread(self: Arc<Self>, replicated: &Replicated) {
        let (held, idle_ms) = {
            let open = self.lock();
            let held = open.streams.keys().filter_map(|stream| stream.session());
            let mut held: Vec<String> = held.map(str::to_owned).collect();
            held.sort_unstable();
            held.dedup();
            (held, open.sessions.idle_ms())
        };
        for id in held {
            let Ok(record) = self.bounded(replicated.store.load(&id, idle_ms)).await else {
                return;
            };
            let now_ms = self.now_ms();
            let mut open = self.lock();
            match record {
                Some(record) => {
                    open.sessions.adopt(&id, record, now_ms);
                }
                // Not marked as read: the read started before `now_ms`, and the bus it
                // makes up for may have missed more.
                None => {
                    open.sessions.forget(&id);
                    let ended = core::mem::take(&mut open.sessions.ended);
                    open.outbox.extend(ended.into_iter().map(Out::End));
                }
            }
        }
    }

    /// Tells this replica's clients what `broadcasts` say, in order, each once: a change
    /// told on the streams open here (and kept by the sessions held here, for a client that
    /// resumes), an ended session's streams closed here, a session's new record taken.
    async fn apply(self: Arc<Self>, broadcasts: Vec<Logged>) {
        let Some(replicated) = self.replicated.get() else {
            return;
        };
        {
            let now_ms = self.now_ms();
            let mut open = self.lock();
            for Logged { seq, broadcast } in broadcasts {
                if open.heard.is_some_and(|heard| seq <= heard) {
                    continue;
                }
                open.heard = Some(seq);
                let own = broadcast.from() == replicated.name;
                match broadcast {
                    Broadcast::Changed { change, .. } => {
                        let told = open
                            .sessions
                            .notify_logged(&self.server, &change, Some(seq));
                        open.send(told, now_ms);
                    }
                    Broadcast::Ended { session, .. } if !own => {
                        open.sessions.forget(&session);
                        let ended = core::mem::take(&mut open.sessions.ended);
                        open.outbox.extend(ended.into_iter().map(Out::End));
                    }
                    // Only a session this replica holds: it serves the next request of any
                    // other from the store.
                    Broadcast::Saved {
                        session, record, ..
                    } if !own && open.sessions.record(&session).is_some() => {
                        open.sessions.adopt(&session, record, now_ms);
                    }
                    _ => {}
                }
            }
        }
        self.flush().await;
    }

    /// Writes out what waits in the outbox, in order: each session's events are kept in the
    /// store first (the sessions' at once), so that a client resuming on another replica
    /// finds every event it was sent. An event the store could not keep is sent without its
    /// id: the client gets it, but cannot name it to resume after (a resumption after an
    /// earlier one finds it missing, as one from before the events kept). The events of a
    /// session's own stream are the changes it is told, which the store's log keeps already
    /// (see [`Shared::apply`]).
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
            let mut kept: BTreeMap<String, Vec<StreamEvent>> = BTreeMap::new();
            for out in &out {
                let Out::Event(event) = out else { continue };
                let (Some(session), Some(_)) = (event.stream.session(), &event.id) else {
                    continue;
                };
                if event.stream.request().is_none() {
                    continue; // a change, in the store's log
                }
                let events = kept.entry(session.to_owned()).or_default();
                events.push(event.clone());
            }
            let refused = self.append_all(replicated, kept, idle_ms).await;
            let now_ms = self.now_ms();
            let mut open = self.lock();
            for out in out {
                match out {
                    Out::Event(mut event) => {
                        let session = event.stream.session();
                        let own = event.stream.request().is_none();
                        if !own && session.is_some_and(|s| refused.contains(s)) {
                            event.id = None;
                        }
                        open.send_now(event, now_ms);
                    }
                    Out::End(stream) => {
                        open.streams.remove(&stream);
                    }
                }
            }
        }
    }

    /// Appends each session's `kept` events to the store, the sessions' at once (at most
    /// [`APPENDS_AT_ONCE`] at a time), so that a slow one holds no other: the sessions whose
    /// events the store refused.
    async fn append_all(
        &self,
        replicated: &Replicated,
        kept: BTreeMap<String, Vec<StreamEvent>>,
        idle_ms: u64,
    ) -> BTreeSet<String> {
        let mut refused = BTreeSet::new();
        let timeout_ms = self.store_timeout_ms.load(Ordering::SeqCst);
        let timeout = Duration::from_millis(timeout_ms);
        let mut kept = kept.into_iter();
        loop {
            let mut appending = tokio::task::JoinSet::new();
            for (session, events) in kept.by_ref().take(APPENDS_AT_ONCE) {
                let store = Arc::clone(&replicated.store);
                appending.spawn(async move {
                    let appended = store.append(&session, &events, idle_ms);
                    let appended = tokio::time::timeout(timeout, appended).await;
                    (session, matches!(appended, Ok(Ok(()))))
                });
            }
            if appending.is_empty() {
                return refused;
            }
            while let Some(done) = appending.join_next().await {
                match done {
                    Ok((_, true)) => {}
                    Ok((session, false)) => {
                        refused.insert(session);
                    }
                    // A task that panicked (a store's bug): its session's events go without ids.
                    Err(_) => return refused,
                }
            }
        }
    }

    /// Keeps in the store, and tells every replica (this one too, which tells its own clients
    /// when it hears it), what a handler changed, then writes out what waits: in a task of
    /// the runtime, for callers that cannot wait. A change the store could not keep is told
    /// to this replica's clients alone, without ids.
    /// The task, for a caller that waits for it before it answers (so that what a client was
    /// answered is kept, and told in the order the client made its calls).
    pub(super) fn after_answer(
        self: &Arc<Self>,
        changes: Vec<Change>,
    ) -> Option<tokio::task::JoinHandle<()>> {
        let replicated = self.replicated.get()?;
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        let from = replicated.name.clone();
        let shared = Arc::clone(self);
        let task = runtime.spawn(async move {
            if let Some(replicated) = shared.replicated.get() {
                for change in changes {
                    let from = from.clone();
                    let broadcast = Broadcast::Changed { from, change };
                    let kept = shared.bounded(replicated.store.publish(&broadcast)).await;
                    let (Err(_), Broadcast::Changed { change, .. }) = (kept, broadcast) else {
                        continue;
                    };
                    let now_ms = shared.now_ms();
                    let mut open = shared.lock();
                    let told = open.sessions.notify_logged(&shared.server, &change, None);
                    open.send(told, now_ms);
                }
            }
            shared.flush().await;
        });
        Some(task)
    }
}
