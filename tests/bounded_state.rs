//! The readers' error trail (where a failed read failed) is bounded and exact whatever drives
//! the read: a server that reads the generated types with plain `serde_json` (or a framework's
//! JSON extractor) never calls the crate's entry points, and must not grow with every bad
//! request, nor hand a later error the crumbs of an earlier one.
//!
//! A counting global allocator tracks the bytes currently allocated; everything runs in one
//! test so that no other test thread allocates during the measurement.
// The trail is per thread, with `std`; without it nothing is recorded (runtime/src/runtime/trail.rs).
#![cfg(all(feature = "v2026_07_28", feature = "std"))]

use mcp_spec_types::__private::trail;
use mcp_spec_types::dispatch::read_result;
use mcp_spec_types::v2026_07_28 as mcp;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static CURRENT: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only a counter is kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        CURRENT.fetch_add(layout.size() as isize, Ordering::SeqCst);
        // SAFETY: the caller's contract for `alloc` is passed on as it is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size() as isize, Ordering::SeqCst);
        // SAFETY: `ptr` came from `alloc`/`realloc` above, with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        CURRENT.fetch_add(new_size as isize - layout.size() as isize, Ordering::SeqCst);
        // SAFETY: the caller's contract for `realloc` is passed on as it is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A resource whose `annotations.priority` is a string where the schema wants a number.
const BAD: &str = r#"{"uri":"file:///a.txt","name":"a","annotations":{"priority":"high"}}"#;

/// A user's type around the generated ones: its untagged enum tries `Resource` first, which
/// fails and is caught (the item is kept as plain JSON), then a real failure follows.
#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Batch {
    items: Vec<Item>,
    then: mcp::Resource,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
#[allow(dead_code)]
enum Item {
    Resource(Box<mcp::Resource>),
    Other(serde_json::Value),
}

#[test]
fn failed_reads_through_plain_serde_json_leave_bounded_exact_state() {
    const READS: usize = 1_000_000;
    // Warm up the thread-local and the allocator's size classes.
    for _ in 0..1_000 {
        assert!(serde_json::from_str::<mcp::Resource>(BAD).is_err());
    }
    let crumbs_of_one = trail::len();
    assert_eq!(
        crumbs_of_one, 2,
        "one failure leaves `annotations` and `priority`"
    );
    let before = CURRENT.load(Ordering::SeqCst);
    for _ in 0..READS {
        let error = serde_json::from_str::<mcp::Resource>(BAD).unwrap_err();
        assert!(error.is_data());
    }
    let grown = CURRENT.load(Ordering::SeqCst) - before;
    println!("{READS} failed reads: {grown} bytes still allocated after them");
    assert!(grown <= 0, "{grown} bytes grew over {READS} failed reads");
    assert_eq!(trail::len(), crumbs_of_one, "the trail holds one failure");

    // A failure caught inside a user's type leaves nothing for the next error's path.
    let text = format!(r#"{{"items":[{BAD}],"then":{{"uri":"x","name":"y","size":"big"}}}}"#);
    let raw = RawValue::from_string(text).unwrap();
    let error = read_result::<Batch>("resources/read", &raw).unwrap_err();
    assert_eq!(error.path(), "result.size", "{error}");
}
