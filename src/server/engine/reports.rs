//! What an async tool reports while it runs, kept for the request's own context to take back
//! ([`Context::rejoin`](crate::server::Context)).

use super::Change;
use crate::prelude::*;
use crate::v2026_07_28 as latest;

/// What an async tool reported and changed while it ran, for the request's own context to
/// take back: the tool owns a context of its own (a future cannot borrow the caller's across
/// the points where it waits, and still be spawned).
#[derive(Clone, Default)]
pub(crate) struct Shared(alloc::sync::Arc<std::sync::Mutex<Reports>>);

/// Two contexts are alike whatever becomes of their reports (as with their destination).
impl PartialEq for Shared {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl core::fmt::Debug for Shared {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Shared")
    }
}

#[derive(Default)]
pub(crate) struct Reports {
    pub(crate) notes: Vec<latest::ServerNotify>,
    pub(crate) changes: Vec<Change>,
    /// The future closed the request's stream ([`Context::close_stream`]).
    pub(crate) closed: bool,
}

impl Shared {
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Reports> {
        // Nothing panics under the lock: a poisoned lock holds whole reports.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn note(&self, note: latest::ServerNotify) {
        self.lock().notes.push(note);
    }

    pub(crate) fn closed(&self) {
        self.lock().closed = true;
    }

    pub(crate) fn changed(&self, change: Change) {
        let mut reports = self.lock();
        if !reports.changes.contains(&change) {
            reports.changes.push(change);
        }
    }
}
