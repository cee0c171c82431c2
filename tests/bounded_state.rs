//! The readers' error trail (where a failed read failed) is bounded and exact whatever drives
//! the read: a server that reads the generated types with plain `serde_json` (or a framework's
//! JSON extractor) never calls the crate's entry points, and must not grow with every bad
//! request, nor hand a later error the crumbs of an earlier one.
//!
//! A server's HTTP sessions are bounded the same way: a client that opens a session, a stream,
//! a long call, and goes away, leaves nothing behind once its session expires.
//!
//! A counting global allocator tracks, for each thread, the bytes it allocated and has not
//! freed: each test measures its own thread, whatever the other tests' threads allocate
//! meanwhile.
// The trail is per thread, with `std`; without it nothing is recorded (runtime/src/runtime/trail.rs).
#![cfg(all(feature = "v2026_07_28", feature = "std"))]

use mcp_spec_types::__private::trail;
use mcp_spec_types::dispatch::read_result;
use mcp_spec_types::v2026_07_28 as mcp;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    // Constant-initialised and without a destructor: reading it never allocates, so the
    // allocator may use it.
    static HELD: Cell<isize> = const { Cell::new(0) };
}

/// Adds `bytes` to what the current thread holds.
fn count(bytes: isize) {
    // A thread past its thread-locals' end has nothing left to measure.
    let _ = HELD.try_with(|held| held.set(held.get() + bytes));
}

/// The bytes the current thread allocated and has not freed.
fn held() -> isize {
    HELD.with(Cell::get)
}

// SAFETY: every call is passed on to the system allocator unchanged; only a counter is kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: the caller's contract for `alloc` is passed on as it is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        // SAFETY: `ptr` came from `alloc`/`realloc` above, with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
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
    let before = held();
    for _ in 0..READS {
        let error = serde_json::from_str::<mcp::Resource>(BAD).unwrap_err();
        assert!(error.is_data());
    }
    let grown = held() - before;
    println!("{READS} failed reads: {grown} bytes still allocated after them");
    assert!(grown <= 0, "{grown} bytes grew over {READS} failed reads");
    assert_eq!(trail::len(), crumbs_of_one, "the trail holds one failure");

    // A failure caught inside a user's type leaves nothing for the next error's path.
    let text = format!(r#"{{"items":[{BAD}],"then":{{"uri":"x","name":"y","size":"big"}}}}"#);
    let raw = RawValue::from_string(text).unwrap();
    let error = read_result::<Batch>("resources/read", &raw).unwrap_err();
    assert_eq!(error.path(), "result.size", "{error}");
}

/// Clients of a 2025-11-25 server over Streamable HTTP that each leave their session holding
/// all it can hold (its own stream, an event log to resume from, calls in flight, one of them
/// answering on a stream of its own), then go away for good.
#[cfg(all(feature = "server", feature = "v2025_11_25"))]
mod abandoned_sessions {
    use super::held;
    use mcp_spec_types::http_headers::{lookup, MCP_SESSION_ID};
    use mcp_spec_types::server::{
        Change, Handler, HttpCall, HttpIncoming, Router, Server, Sessions, StreamId,
    };
    use mcp_spec_types::v2026_07_28::*;
    use serde_json::{json, Value};
    use std::collections::{BTreeMap, BTreeSet};

    const IDLE_MS: u64 = 1_000;
    const URI: &str = "memo://hi";
    /// Updates told on each session's own stream, all kept for resumption (fewer than
    /// `Sessions::EVENTS_KEPT`).
    const UPDATES: usize = 16;

    fn server() -> Server<Router> {
        let router = Router::new()
            .tool(Tool::new("slow", ToolInputSchema::new()), |_| {
                Ok(CallToolResult::text("done"))
            })
            .resource(Resource::new(URI, "hi"), |read| {
                Ok(ReadResourceResult::text(read.uri, "Hi!"))
            })
            .subscriptions(|_| Ok(()));
        Server::new(Implementation::new("memo", "1.0.0"), router)
    }

    /// What a client left behind: its session's own stream, its long call's stream, and its
    /// calls, handed out and not yet answered.
    struct Left {
        own: StreamId,
        long: StreamId,
        calls: Vec<HttpCall>,
    }

    /// A client that opens a session at `now_ms`, subscribes, opens the session's stream and
    /// sends two calls; the first answers on a stream of its own.
    fn client(server: &Server<Router>, sessions: &mut Sessions, now_ms: u64) -> Left {
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}});
        let opened = server.http(
            sessions,
            "POST",
            lookup::<&str, &str>(&[]),
            &initialize.to_string(),
            now_ms,
        );
        assert_eq!(opened.status, 200, "{opened:?}");
        let (_, id) = (opened.headers.iter())
            .find(|(name, _)| name.eq_ignore_ascii_case(MCP_SESSION_ID))
            .expect("a session id");
        let session = [(MCP_SESSION_ID, id.as_str())];
        let post = |sessions: &mut Sessions, body: Value| {
            server.http_receive(
                sessions,
                "POST",
                lookup(&session),
                &body.to_string(),
                now_ms,
            )
        };

        let subscribe = json!({"jsonrpc": "2.0", "id": 1, "method": "resources/subscribe",
            "params": {"uri": URI}});
        assert!(matches!(
            post(sessions, subscribe),
            HttpIncoming::Respond(response) if response.status == 200
        ));
        let listen = [
            (MCP_SESSION_ID, id.as_str()),
            ("Accept", "text/event-stream"),
        ];
        let get = server.http(sessions, "GET", lookup(&listen), "", now_ms);
        let own = get.stream.expect("the session's own stream");

        let mut calls = Vec::new();
        for request in [2, 3] {
            let call = json!({"jsonrpc": "2.0", "id": request, "method": "tools/call",
                "params": {"name": "slow"}});
            match post(sessions, call) {
                HttpIncoming::Call(call) => calls.push(call),
                other => panic!("expected a call, got {other:?}"),
            }
        }
        let opened = sessions
            .open_stream(&mut calls[0], Some(500))
            .expect("a session's call answers on a stream");
        let long = opened.stream.expect("the long call's stream");
        Left { own, long, calls }
    }

    /// `clients` clients leave their sessions at `start` and never come back; the sessions
    /// expire. The bytes the thread held at the peak, over what it held before.
    fn round(
        server: &Server<Router>,
        sessions: &mut Sessions,
        clients: usize,
        start: u64,
    ) -> isize {
        let before = held();
        let left: Vec<Left> = (0..clients)
            .map(|_| client(server, sessions, start))
            .collect();
        let updated = Change::ResourceUpdated(URI.to_owned());
        let mut first_told = BTreeMap::new();
        for _ in 0..UPDATES {
            let told = sessions.notify(server, &updated);
            assert_eq!(told.len(), clients);
            for event in told {
                first_told
                    .entry(event.stream)
                    .or_insert(event.id.expect("an event id"));
            }
        }
        // Each connection drops (the caller closes the stream), and the client resumes once:
        // what it missed is replayed from the session's log. Then it is gone for good.
        for client in &left {
            sessions.close(&client.own, start + 1);
            let session = client.own.session().expect("a session's stream");
            let resume = [
                (MCP_SESSION_ID, session),
                ("Accept", "text/event-stream"),
                ("Last-Event-ID", first_told[&client.own].as_str()),
            ];
            let resumed = server.http(sessions, "GET", lookup(&resume), "", start + 1);
            assert_eq!(resumed.events.len(), UPDATES - 1, "{resumed:?}");
            sessions.close(&client.own, start + 1);
        }
        let peak = held() - before;

        assert_eq!(
            sessions.expire(start + 1 + IDLE_MS),
            0,
            "idle, not yet too long"
        );
        assert_eq!(sessions.expire(start + 2 + IDLE_MS), clients);
        assert!(sessions.is_empty());
        // The calls are answered after their sessions ended: nothing is sent, and what expiry
        // ended (the long calls' streams, which the caller still holds open) is reported once.
        let long: BTreeSet<StreamId> = left.iter().map(|client| client.long.clone()).collect();
        let mut ended = Vec::new();
        for call in left.into_iter().flat_map(|client| client.calls) {
            let (request, mut context, responder) = call.into_parts();
            let answer = responder.respond(server.handler().call(request, &mut context));
            let response = sessions.finish(answer);
            assert_eq!(
                (response.status, &response.body, response.events.len()),
                (202, &None, 0)
            );
            ended.extend(response.ended);
        }
        assert_eq!(ended.len(), long.len(), "each stream reported once");
        assert_eq!(ended.into_iter().collect::<BTreeSet<_>>(), long);
        peak
    }

    #[test]
    fn expired_sessions_leave_nothing_of_their_streams_event_logs_and_calls() {
        const CLIENTS: usize = 200;
        let server = server();
        let mut next = 0u64;
        let mut sessions = Sessions::new(move || {
            next += 1;
            format!("session-{next}")
        })
        .with_limits(CLIENTS, IDLE_MS);
        // Between responses the engine keeps the streams that ended, for the next response to
        // report, and hands the list itself over, so no capacity grown by many sessions
        // expiring at once stays behind. One session first, for what the server allocates
        // once whatever the number of sessions (3.7 KB); then 200 must leave nothing at all.
        round(&server, &mut sessions, 1, 0);
        let baseline = held();
        let peak = round(&server, &mut sessions, CLIENTS, 10 * IDLE_MS);
        let left = held() - baseline;
        println!("{CLIENTS} abandoned sessions: {peak} bytes at the peak, {left} once expired");
        assert_eq!(
            left, 0,
            "{CLIENTS} expired sessions left {left} bytes behind"
        );
    }

    /// The bytes a session opened by `initialize` with `capabilities` holds once opened, and
    /// the status of the answer's JSON-RPC (`None` for a result, the error code otherwise).
    fn session_cost(
        server: &Server<Router>,
        sessions: &mut Sessions,
        capabilities: &Value,
    ) -> (isize, Option<i64>) {
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": capabilities,
            "clientInfo": {"name": "test", "version": "1"}}})
        .to_string();
        let before = held();
        let opened = server.http(sessions, "POST", lookup::<&str, &str>(&[]), &initialize, 0);
        let body: Value =
            serde_json::from_str(opened.body.as_deref().unwrap_or("null")).expect("a JSON answer");
        let code = body["error"]["code"].as_i64();
        drop((opened, body));
        (held() - before, code)
    }

    #[test]
    fn an_initialize_with_megabytes_of_capabilities_leaves_nothing_behind() {
        let server = server();
        let mut next = 0u64;
        let mut sessions = Sessions::new(move || {
            next += 1;
            format!("session-{next:04}")
        });
        // The first session pays for what the table allocates once.
        session_cost(&server, &mut sessions, &json!({}));
        let (ordinary, refused) = session_cost(&server, &mut sessions, &json!({}));
        assert_eq!(refused, None);
        let fat = json!({"experimental": {"padding": {"text": "x".repeat(4_000_000)}}});
        let (left, refused) = session_cost(&server, &mut sessions, &fat);
        assert_eq!(refused, Some(-32602));
        assert_eq!(sessions.len(), 2);
        let (after, refused) = session_cost(&server, &mut sessions, &json!({}));
        assert_eq!(refused, None);
        println!("a session: {ordinary} bytes; a refused 4 MB initialize: {left}; then {after}");
        assert_eq!(left, 0, "a refused initialize left {left} bytes behind");
        assert_eq!(
            after, ordinary,
            "a session costs {after} bytes after it, {ordinary} before"
        );
    }
}
