//! Resuming a session's event stream (Streamable HTTP, from 2025-03-26): every event on a
//! session's stream gets an id, unique in the session, and the session keeps its latest events,
//! so that a client whose connection broke sends `GET` with `Last-Event-ID` and gets what it
//! missed on that stream, then the rest as it comes.
//!
//! What is kept is bounded: the latest [`Sessions::EVENTS_KEPT`](crate::server::Sessions::EVENTS_KEPT)
//! events of each session, whatever stream they went on. An id older than those is no longer
//! known: the `GET` then opens the session's own stream afresh, as a server that does not
//! resume would (a 404 would tell the client its session is gone).

use super::stream::{StreamEvent, StreamId};
use crate::prelude::*;
use alloc::collections::VecDeque;

/// How many of its latest events a session keeps ([`Sessions::EVENTS_KEPT`](crate::server::Sessions::EVENTS_KEPT)).
pub(crate) const EVENTS_KEPT: usize = 256;

/// How many bytes of its latest events a session keeps
/// ([`Sessions::EVENT_BYTES_KEPT`](crate::server::Sessions::EVENT_BYTES_KEPT)).
pub(crate) const EVENT_BYTES_KEPT: usize = 1 << 20;

/// The events a session sent, latest last, with the id the next one gets.
#[derive(Debug, Default)]
pub(in crate::server) struct EventLog {
    next: u64,
    kept: VecDeque<StreamEvent>,
    /// The bytes of the kept events' messages.
    bytes: usize,
}

impl EventLog {
    /// Gives each of `events` without an id the next one, and keeps a copy of each, dropping
    /// the oldest past `cap` events or past [`Sessions::EVENT_BYTES_KEPT`] bytes (an event
    /// larger than that alone is not kept, nor those before it).
    ///
    /// Each id is the session's count of events; with a `prefix` (see
    /// [`Sessions::with_replica`](crate::server::Sessions::with_replica)), `prefix` followed by the
    /// count of events in `given`, which the table keeps for all its sessions: a session the
    /// replica drops, then adopts again, goes on from it rather than repeat its ids.
    ///
    /// [`Sessions::EVENT_BYTES_KEPT`]: crate::server::Sessions::EVENT_BYTES_KEPT
    pub fn stamp<'e>(
        &mut self,
        events: impl Iterator<Item = &'e mut StreamEvent>,
        cap: usize,
        prefix: &str,
        given: &mut u64,
    ) {
        for event in events.filter(|event| event.id.is_none()) {
            event.id = Some(if prefix.is_empty() {
                self.next += 1;
                self.next.to_string()
            } else {
                *given += 1;
                format!("{prefix}{given}")
            });
            if cap == 0 {
                continue;
            }
            self.keep(event.clone(), cap);
        }
    }

    /// Keeps `event` last, dropping the oldest past `cap` events or the byte bound.
    pub(in crate::server) fn keep(&mut self, event: StreamEvent, cap: usize) {
        let size = event.message.len();
        let bound = EVENT_BYTES_KEPT;
        if size > bound {
            // Not kept: neither are those before it, so that a resume from one of them is
            // answered as one from before the kept events, not with this event left out.
            self.kept.clear();
            self.bytes = 0;
            return;
        }
        while self.kept.len() >= cap || self.bytes + size > bound {
            let Some(oldest) = self.kept.pop_front() else {
                break;
            };
            self.bytes -= oldest.message.len();
        }
        self.bytes += size;
        self.kept.push_back(event);
    }

    /// Takes `events`, oldest first, as the kept ones (the latest `cap` of them): a shared
    /// log, which every replica's events went to.
    pub fn replace(&mut self, events: Vec<StreamEvent>, cap: usize) {
        self.kept.clear();
        self.bytes = 0;
        if cap == 0 {
            return;
        }
        for event in events {
            self.keep(event, cap);
        }
    }

    /// The stream the event `last_id` went on, and the events of that stream after it, in
    /// order; `None` when no kept event has that id.
    pub fn after(&self, last_id: &str) -> Option<(StreamId, Vec<StreamEvent>)> {
        let at = self
            .kept
            .iter()
            .position(|event| event.id.as_deref() == Some(last_id))?;
        let stream = self.kept[at].stream.clone();
        let missed = self.kept.iter().skip(at + 1);
        let missed = missed
            .filter(|event| event.stream == stream)
            .cloned()
            .collect();
        Some((stream, missed))
    }
}
