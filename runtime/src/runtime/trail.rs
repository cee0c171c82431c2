//! Where a failed read failed, recorded as the error travels out of the nested readers: each
//! generated reader adds the member, array index or map key it was reading, innermost first.
//! Nothing is recorded while reads succeed, so this costs nothing on the fast path, and the
//! types are compiled once (a path-tracking deserializer would compile every reader again).
//!
//! Without the `std` feature there is no trail: a thread-local needs `std`, and one trail for
//! the whole program would mix the crumbs of two threads failing at once into a wrong path.
//! Every function here then records nothing, and [`take`] gives the empty path: an error's
//! path names the member the entry point read (`params`, `result`), not the value inside it.

#[cfg(feature = "std")]
pub use with_std::*;

/// Appends a member name to a path being built outermost first (`resources[0]` + `size`).
pub(crate) fn push_member(path: &mut alloc::string::String, name: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(name);
}

/// Appends an array index to a path being built outermost first (`resources` + `[0]`).
pub(crate) fn push_index(path: &mut alloc::string::String, index: usize) {
    use core::fmt::Write;
    // Writing to a `String` cannot fail; no intermediate string is made.
    let _ = write!(path, "[{index}]");
}

#[cfg(not(feature = "std"))]
pub use without_std::*;

#[cfg(feature = "std")]
mod with_std {
    use crate::prelude::*;
    use core::cell::{Cell, RefCell};
    use std::thread_local;

    enum Crumb {
        Member(&'static str),
        Key(String),
        Index(usize),
    }

    thread_local! {
        static TRAIL: RefCell<Vec<Crumb>> = const { RefCell::new(Vec::new()) };
        /// How many generated readers are running on this thread, one inside the other.
        static DEPTH: Cell<u32> = const { Cell::new(0) };
    }

    /// Puts the depth back however the reader ends (an error, or a panic in a user's type).
    #[must_use = "the reader's scope ends when the guard is dropped"]
    pub struct Scope(u32);

    impl Drop for Scope {
        fn drop(&mut self) {
            DEPTH.with(|d| d.set(self.0));
        }
    }

    /// Enters one generated reader, keeping the trail bounded and exact whatever drove the
    /// read (the crate's entry points, plain `serde_json`, a framework's extractor): the
    /// outermost generated reader starts from an empty trail, since what an earlier failed
    /// read left is stale, and is dropped here rather than growing with every bad input. A
    /// failure caught inside a user's type (an untagged enum trying a generated type) is stale
    /// for the next generated reader too, which starts outermost again. The reader's scope
    /// lasts as long as the returned guard.
    ///
    /// Nested readers only count their depth (a thread-local `Cell`), so the fast path pays
    /// two increments per object; a failed read keeps its crumbs until the next read, for
    /// [`take`]. A guard, not a function taking the reader as a closure: that function would
    /// be compiled once per reader, thread-local accessors and all.
    #[inline]
    pub fn enter() -> Scope {
        let depth = DEPTH.with(|d| d.replace(d.get().saturating_add(1)));
        if depth == 0 {
            forget_stale();
        }
        Scope(depth)
    }

    fn forget_stale() {
        TRAIL.with(|t| {
            if let Ok(mut t) = t.try_borrow_mut() {
                t.clear();
            }
        });
    }

    /// How many crumbs the trail holds (for tests of its bound).
    pub fn len() -> usize {
        TRAIL.with(|t| t.borrow().len())
    }

    fn push(crumb: Crumb) {
        TRAIL.with(|t| t.borrow_mut().push(crumb));
    }

    /// Records that the failure was inside member `name`.
    #[cold]
    #[inline(never)]
    pub fn member(name: &'static str) {
        push(Crumb::Member(name));
    }

    /// Records that the failure was inside the map entry `key`.
    #[cold]
    #[inline(never)]
    pub fn key(key: &str) {
        push(Crumb::Key(key.to_owned()));
    }

    /// Records that the failure was inside array element `index`.
    #[cold]
    #[inline(never)]
    pub fn index(index: usize) {
        push(Crumb::Index(index));
    }

    /// Forgets what an earlier failed read left; call before a read whose path is wanted.
    pub fn clear() {
        TRAIL.with(|t| t.borrow_mut().clear());
    }

    /// The path of the last failure (`resources[0].size`, empty at the top), forgetting it.
    pub fn take() -> String {
        let crumbs = TRAIL.with(|t| core::mem::take(&mut *t.borrow_mut()));
        let mut path = String::new();
        for crumb in crumbs.iter().rev() {
            match crumb {
                Crumb::Member(name) => super::push_member(&mut path, name),
                Crumb::Key(key) => super::push_member(&mut path, key),
                Crumb::Index(index) => super::push_index(&mut path, *index),
            }
        }
        path
    }
}

#[cfg(not(feature = "std"))]
mod without_std {
    use crate::prelude::*;

    /// A generated reader's scope: nothing to keep without `std`.
    #[must_use = "the reader's scope ends when the guard is dropped"]
    pub struct Scope;

    /// Enters one generated reader (nothing is recorded without `std`).
    #[inline]
    pub fn enter() -> Scope {
        Scope
    }

    /// How many crumbs the trail holds: none without `std`.
    pub fn len() -> usize {
        0
    }

    /// Records nothing without `std`.
    #[inline]
    pub fn member(_name: &'static str) {}

    /// Records nothing without `std`.
    #[inline]
    pub fn key(_key: &str) {}

    /// Records nothing without `std`.
    #[inline]
    pub fn index(_index: usize) {}

    /// Nothing to forget without `std`.
    pub fn clear() {}

    /// The empty path: nothing is recorded without `std`.
    pub fn take() -> String {
        String::new()
    }
}
