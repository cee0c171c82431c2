//! A `#![no_std]` library on `mcp-spec-types` without its default features: it answers a
//! `resources/read` request of revision 2026-07-28, and says where a bad one is wrong.
//!
//! `cargo build` compiles the library with the panic handler and the global allocator that
//! `std` also defines: were any crate of its build to link `std`, the two panic handlers would
//! be a compile error (a duplicate lang item). `cargo test` checks what it answers.
#![no_std]

extern crate alloc;

use alloc::string::String;
use mcp_spec_types::dispatch::read_result;
use mcp_spec_types::v2026_07_28::{reply_to, ClientCall, ClientCallResult, ReadResourceResult};
use mcp_spec_types::{dispatch::MethodSet, MessageError, RpcError};
use serde_json::value::RawValue;

/// What a server answers to one line a client sent: a `resources/read` request gets the
/// resource's text; another request, "method not found"; a line that is not a request of
/// 2026-07-28, the error response that says where it is wrong. `None` for a notification.
pub fn answer(line: &str) -> Option<String> {
    reply_to(line, |call| match call {
        ClientCall::ReadResource(read) => Ok(ClientCallResult::from(ReadResourceResult::text(
            read.uri,
            "hello from no_std",
        ))),
        other => Err(RpcError::method_not_found(other.method())),
    })
}

#[cfg(not(test))]
mod runtime {
    //! What `std` would give a program: the panic handler and a global allocator (a bump
    //! allocator over a static buffer, enough to show that the crate builds without `std`).
    use core::alloc::{GlobalAlloc, Layout};
    use core::sync::atomic::{AtomicUsize, Ordering};

    #[panic_handler]
    fn panic(_info: &core::panic::PanicInfo<'_>) -> ! {
        loop {}
    }

    const HEAP_SIZE: usize = 1 << 20;

    struct Bump {
        next: AtomicUsize,
    }

    static mut HEAP: [u8; HEAP_SIZE] = [0; HEAP_SIZE];

    // SAFETY: each allocation is a distinct, aligned range of `HEAP`, handed out once (the
    // offset only grows, by compare-and-swap); nothing is ever freed.
    unsafe impl GlobalAlloc for Bump {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let base = core::ptr::addr_of_mut!(HEAP) as *mut u8;
            let mut start = self.next.load(Ordering::Relaxed);
            loop {
                let aligned =
                    (base as usize + start).next_multiple_of(layout.align()) - base as usize;
                let end = match aligned.checked_add(layout.size()) {
                    Some(end) if end <= HEAP_SIZE => end,
                    _ => return core::ptr::null_mut(),
                };
                match self
                    .next
                    .compare_exchange(start, end, Ordering::Relaxed, Ordering::Relaxed)
                {
                    Ok(_) => return base.add(aligned),
                    Err(now) => start = now,
                }
            }
        }

        unsafe fn dealloc(&self, _ptr: *mut u8, _layout: Layout) {}
    }

    #[global_allocator]
    static ALLOCATOR: Bump = Bump {
        next: AtomicUsize::new(0),
    };
}

/// Reads a `resources/read` result, as a client does: how many contents it has, or the error
/// that says where it is wrong.
pub fn read_contents(result: &RawValue) -> Result<usize, MessageError> {
    read_result::<ReadResourceResult>("resources/read", result).map(|read| read.contents.len())
}

#[cfg(test)]
mod tests {
    use super::{answer, read_contents};

    #[test]
    fn reads_a_request_and_writes_its_response() {
        let line = r#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"file:///a.txt","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
        let response: serde_json::Value =
            serde_json::from_str(&answer(line).expect("an answer")).expect("JSON");
        assert_eq!(response["id"], 7);
        assert_eq!(response["result"]["contents"][0]["uri"], "file:///a.txt");
        assert_eq!(
            response["result"]["contents"][0]["text"],
            "hello from no_std"
        );
    }

    #[test]
    fn a_bad_request_is_refused_at_its_json_path() {
        // Without `std` the path comes from the crate's own reader (no per-thread trail).
        let line = r#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":7,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
        let response: serde_json::Value =
            serde_json::from_str(&answer(line).expect("an answer")).expect("JSON");
        assert_eq!(response["id"], 7);
        assert_eq!(response["error"]["code"], -32602);
        assert_eq!(
            response["error"]["message"],
            "resources/read: at params.uri: invalid type: integer `7`, expected a string"
        );
    }

    #[test]
    fn a_bad_result_is_refused_at_its_element() {
        let ok = r#"{"resultType":"complete","ttlMs":0,"cacheScope":"private","contents":[{"uri":"file:///a.txt","text":"a"},{"uri":"file:///b.txt","text":"b"}]}"#;
        let raw = |text| serde_json::from_str::<&serde_json::value::RawValue>(text).expect("JSON");
        assert_eq!(read_contents(raw(ok)).expect("reads"), 2);
        let bad = r#"{"resultType":"complete","ttlMs":0,"cacheScope":"private","contents":[{"uri":"file:///a.txt","text":"a"},{"uri":5,"text":"b"}]}"#;
        let error = read_contents(raw(bad)).expect_err("refused");
        // A resource's contents are a union whose arms are tried on the buffered item: without
        // `std` the path ends at the item (with it, the trail names `uri` inside).
        assert_eq!(error.path(), "result.contents[1]");
        assert_eq!(error.method(), Some("resources/read"));
    }
}
