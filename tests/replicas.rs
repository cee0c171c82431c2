//! Replicas of one server (`StreamableHttp::with_store`), each a service served by axum on a
//! port of its own, sharing a `MemoryStore`: a session opened on one goes on over the others
//! and ends on all, a change made on one reaches the streams of another (a session's own
//! stream, a stateless `subscriptions/listen`), a stream resumes on another replica after its
//! replica went away with every event once, changes made while no stream of a session was
//! open anywhere are replayed on resume (exactly those after the event named), a session
//! adopted again repeats no id, a change the store could not keep goes without an id, the
//! store's events and broadcasts are bounded in bytes, and a store that is down or hangs gets
//! 503 with a JSON-RPC error within the bound, service coming back with the store.
//! `tests/replicas_redis.rs` runs the same over Redis, nginx and the official SDKs' clients.
#![cfg(all(feature = "http-server", feature = "v2025_11_25"))]

use crate::http_service::{header, next_data, request, serve_service, stateless, whole_body};
use crate::http_service::{post_stateless, Serving};
use mcp_spec_types::http_headers::MCP_SESSION_ID;
use mcp_spec_types::server::store::{Logged, Published, StoreFuture};
use mcp_spec_types::server::{Broadcast, Change, MemoryStore, Router, Server, SessionRecord};
use mcp_spec_types::server::{Store, StoreError, StreamEvent, StreamableHttp};
use mcp_spec_types::v2026_07_28::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The server each replica runs: `touch` says `memo://hi` changed.
pub(crate) fn router() -> Router {
    Router::new()
        .tool_with(Tool::new("touch", ToolInputSchema::new()), |_, context| {
            context.changed(Change::ResourceUpdated("memo://hi".into()));
            Ok(CallToolResult::text("touched"))
        })
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        })
        .subscriptions(|_| Ok(()))
}

fn replica(store: impl Store) -> Serving {
    let server = Server::new(Implementation::new("replica", "0.1.0"), router());
    serve_service(StreamableHttp::new(server).with_store(store))
}

/// The message of `refused`, the JSON-RPC error answering request `id` because the state
/// store could not be read or written; fails when it is not that.
pub(crate) fn store_unavailable(refused: &Value, id: u64) -> &str {
    assert_eq!(refused["id"], id, "{refused}");
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("the state store is unavailable: "),
        "{message}"
    );
    message
}

/// A replica that reads the store for every message of a session
/// (`with_records_held_for(Duration::ZERO)`): each read pushes the store's expiry of the
/// session back by this replica's idle limit (30 minutes), so that a session lives on in the
/// store through it while a replica with a shorter limit forgets it.
fn strict_replica(store: impl Store) -> Serving {
    let server = Server::new(Implementation::new("replica", "0.1.0"), router());
    let service = StreamableHttp::new(server).with_store(store);
    serve_service(service.with_records_held_for(Duration::ZERO))
}

/// A POST of `body` in session `session` (2025-11-25): the status, headers and reader.
pub(crate) fn post(
    replica: &Serving,
    session: Option<&str>,
    body: &Value,
) -> (u16, Vec<(String, String)>, BufReader<TcpStream>) {
    let mut headers = vec![("MCP-Protocol-Version", "2025-11-25")];
    if let Some(session) = session {
        headers.push((MCP_SESSION_ID, session));
    }
    request(replica.address, "POST", "/mcp", &headers, &body.to_string())
}

/// The JSON answer to `method` with `params` in session `session`: status and body.
pub(crate) fn call(
    replica: &Serving,
    session: &str,
    id: u64,
    method: &str,
    params: Value,
) -> (u16, Value) {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let (status, headers, mut reader) = post(replica, Some(session), &body);
    let text = whole_body(&headers, &mut reader);
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A 2025-11-25 session opened on `replica`, initialized: its id.
pub(crate) fn open_session(replica: &Serving) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    let (status, headers, mut reader) = post(replica, None, &initialize);
    assert_eq!(status, 200, "{headers:?}");
    let answer: Value = serde_json::from_str(&whole_body(&headers, &mut reader)).expect("JSON");
    assert_eq!(
        answer["result"]["protocolVersion"], "2025-11-25",
        "{answer}"
    );
    let id = header(&headers, &MCP_SESSION_ID.to_ascii_lowercase())
        .expect("a session id")
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let (status, ..) = post(replica, Some(&id), &initialized);
    assert_eq!(status, 202);
    id
}

/// The session's own stream (`GET`), resumed after `last` when given.
fn get(replica: &Serving, session: &str, last: Option<&str>) -> BufReader<TcpStream> {
    let mut headers = vec![
        ("MCP-Protocol-Version", "2025-11-25"),
        (MCP_SESSION_ID, session),
    ];
    if let Some(last) = last {
        headers.push(("Last-Event-ID", last));
    }
    let (status, headers, reader) = request(replica.address, "GET", "/mcp", &headers, "");
    assert_eq!(status, 200, "{headers:?}");
    reader
}

/// The next event of a chunked event stream with a message: its id and its message. Fails
/// after 10 s (the keep-alive comments would keep a read waiting for ever).
fn next_event(reader: &mut BufReader<TcpStream>) -> Option<(String, Value)> {
    let (id, message) = next_maybe_numbered(reader)?;
    Some((id.expect("an event id"), message))
}

/// The next event with a message, as [`next_event`]: its id if it has one, and its message.
fn next_maybe_numbered(reader: &mut BufReader<TcpStream>) -> Option<(Option<String>, Value)> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut id = None;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(!left.is_zero(), "no event within 10 s");
        let stream = reader.get_ref();
        stream.set_read_timeout(Some(left)).expect("a read timeout");
        let mut line = String::new();
        if reader.read_line(&mut line).expect("an event within 10 s") == 0 {
            return None;
        }
        let line = line.trim_end();
        if let Some(value) = line.strip_prefix("id: ") {
            id = Some(value.to_owned());
        }
        if let Some(data) = line.strip_prefix("data: ").filter(|d| !d.is_empty()) {
            let message = serde_json::from_str(data).expect("an event's JSON");
            return Some((id, message));
        }
        if line == "0" {
            return None; // the last chunk
        }
    }
}

/// Two replicas sharing a store, and a session opened on the first, subscribed to memo://hi.
fn two_replicas_and_a_subscribed_session() -> (Serving, Serving, String) {
    let store = Arc::new(MemoryStore::new());
    let (a, b) = (replica(store.clone()), replica(store));
    let session = open_session(&a);
    let subscribe = json!({"uri": "memo://hi"});
    let (status, answer) = call(&a, &session, 1, "resources/subscribe", subscribe);
    assert_eq!(status, 200, "{answer}");
    (a, b, session)
}

fn touch(replica: &Serving, session: &str, id: u64) {
    let (status, answer) = call(replica, session, id, "tools/call", json!({"name": "touch"}));
    assert_eq!(
        (status, &answer["result"]["content"][0]["text"]),
        (200, &json!("touched"))
    );
}

#[test]
fn a_session_opened_on_one_replica_goes_on_over_the_others_and_ends_on_all() {
    let store = Arc::new(MemoryStore::new());
    let (a, b, c) = (
        replica(store.clone()),
        replica(store.clone()),
        replica(store.clone()),
    );
    let session = open_session(&a);
    assert_eq!(store.len(), 1);
    let (status, listed) = call(&b, &session, 1, "tools/list", json!({}));
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["result"]["tools"][0]["name"], "touch", "{listed}");
    // Answered in the session's revision on every replica: 2025-11-25 has no `resultType`.
    assert_eq!(listed["result"].get("resultType"), None, "{listed}");
    let (status, read) = call(
        &c,
        &session,
        2,
        "resources/read",
        json!({"uri": "memo://hi"}),
    );
    assert_eq!(
        (status, &read["result"]["contents"][0]["text"]),
        (200, &json!("Hi!"))
    );
    // Ended on one replica: no other serves it once it reads the store, which a message
    // that may change the record does at once (one that only reads it, once the bus tells
    // the replica, or within `with_records_held_for`: tests/replicas_held.rs).
    let headers = [
        ("MCP-Protocol-Version", "2025-11-25"),
        (MCP_SESSION_ID, &*session),
    ];
    let (status, ..) = request(c.address, "DELETE", "/mcp", &headers, "");
    assert_eq!(status, 200);
    assert!(store.is_empty());
    for (at, replica) in [&a, &b].into_iter().enumerate() {
        let id = 3 + 2 * at as u64;
        let level = json!({"level": "info"});
        let (status, refused) = call(replica, &session, id, "logging/setLevel", level);
        assert_eq!(status, 404, "{refused}");
        let (status, refused) = call(replica, &session, id + 1, "tools/list", json!({}));
        assert_eq!(status, 404, "{refused}");
    }
}

#[test]
fn a_change_on_one_replica_reaches_the_session_stream_held_by_another() {
    let (a, b, session) = two_replicas_and_a_subscribed_session();
    // Subscribed on one replica, listening on the other, changed on the first.
    let mut stream = get(&b, &session, None);
    touch(&a, &session, 2);
    let (_, told) = next_event(&mut stream).expect("the change, on b's stream");
    assert_eq!(told["method"], "notifications/resources/updated", "{told}");
    assert_eq!(told["params"]["uri"], "memo://hi", "{told}");
}

#[test]
fn a_stream_resumes_on_another_replica_after_its_own_went_away_with_every_event_once() {
    let (a, b, session) = two_replicas_and_a_subscribed_session();
    let mut on_a = get(&a, &session, None);
    for id in 2..5 {
        touch(&b, &session, id);
    }
    let seen: Vec<String> = (0..3)
        .map(|_| next_event(&mut on_a).expect("an event on a's stream").0)
        .collect();
    // The client read the first event only, then its replica went away.
    drop(on_a);
    drop(a);
    let mut on_b = get(&b, &session, Some(&seen[0]));
    let missed: Vec<String> = (0..2)
        .map(|_| next_event(&mut on_b).expect("a missed event").0)
        .collect();
    assert_eq!(
        missed,
        seen[1..],
        "every event after the last one seen, in order"
    );
    touch(&b, &session, 5);
    let (later, told) = next_event(&mut on_b).expect("the next change, live");
    assert_eq!(told["method"], "notifications/resources/updated", "{told}");
    assert!(
        !seen.contains(&later),
        "a new id, not one seen: {later} in {seen:?}"
    );
}

#[test]
fn a_change_on_one_replica_reaches_a_stateless_listen_stream_on_another() {
    let store = Arc::new(MemoryStore::new());
    let (a, b) = (replica(store.clone()), replica(store.clone()));
    let listen = json!({"notifications": {"resourceSubscriptions": ["memo://hi"]}});
    let (headers, body) = stateless(1, "subscriptions/listen", listen);
    let pairs: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let (status, headers, mut stream) = request(a.address, "POST", "/mcp", &pairs, &body);
    assert_eq!(status, 200, "{headers:?}");
    // Shorter than the keep-alive's 15 s: a change that never comes ends the read.
    let timeout = Some(Duration::from_secs(10));
    stream
        .get_ref()
        .set_read_timeout(timeout)
        .expect("a read timeout");
    let acknowledged = next_data(&mut stream).expect("the acknowledgement");
    assert_eq!(
        acknowledged["method"],
        "notifications/subscriptions/acknowledged"
    );
    let (status, answer) = post_stateless(&b, 2, "tools/call", json!({"name": "touch"}));
    assert_eq!(status, 200, "{answer}");
    let told = next_data(&mut stream).expect("the change, on a's stream");
    assert_eq!(told["method"], "notifications/resources/updated", "{told}");
    assert_eq!(told["params"]["uri"], "memo://hi", "{told}");
}

/// A store that can be taken down (each operation fails) or made to hang.
struct Flaky {
    store: MemoryStore,
    down: AtomicBool,
    hangs: AtomicBool,
    /// Whether `publish` alone fails.
    refuses_broadcasts: AtomicBool,
}

impl Flaky {
    fn check(&self) -> Result<(), StoreError> {
        match self.down.load(Ordering::SeqCst) {
            true => Err(StoreError::new("connection refused")),
            false => Ok(()),
        }
    }

    fn run<'a, T: Send + 'a>(&'a self, then: StoreFuture<'a, T>) -> StoreFuture<'a, T> {
        Box::pin(async move {
            if self.hangs.load(Ordering::SeqCst) {
                std::future::pending::<()>().await;
            }
            self.check()?;
            then.await
        })
    }
}

impl Store for Flaky {
    fn load<'a>(&'a self, s: &'a str, idle: u64) -> StoreFuture<'a, Option<SessionRecord>> {
        self.run(self.store.load(s, idle))
    }
    fn save<'a>(&'a self, s: &'a str, r: &'a SessionRecord, idle: u64) -> StoreFuture<'a, ()> {
        self.run(self.store.save(s, r, idle))
    }
    fn remove<'a>(&'a self, s: &'a str) -> StoreFuture<'a, ()> {
        self.run(self.store.remove(s))
    }
    fn append<'a>(&'a self, s: &'a str, e: &'a [StreamEvent], idle: u64) -> StoreFuture<'a, ()> {
        self.run(self.store.append(s, e, idle))
    }
    fn events<'a>(&'a self, s: &'a str) -> StoreFuture<'a, Vec<StreamEvent>> {
        self.run(self.store.events(s))
    }
    fn touch<'a>(&'a self, s: &'a [String], idle: u64) -> StoreFuture<'a, ()> {
        self.run(self.store.touch(s, idle))
    }
    fn publish<'a>(&'a self, b: &'a Broadcast) -> StoreFuture<'a, u64> {
        if self.refuses_broadcasts.load(Ordering::SeqCst) {
            return Box::pin(async { Err(StoreError::new("refused")) });
        }
        self.run(self.store.publish(b))
    }
    fn published_after<'a>(&'a self, after: u64) -> StoreFuture<'a, Published> {
        self.run(self.store.published_after(after))
    }
    fn subscribe(&self) -> tokio::sync::mpsc::Receiver<Logged> {
        self.store.subscribe()
    }
}

#[test]
fn a_store_down_or_hanging_gets_503_within_the_bound_and_service_comes_back_with_it() {
    let flaky = Arc::new(Flaky {
        store: MemoryStore::new(),
        down: AtomicBool::new(false),
        hangs: AtomicBool::new(false),
        refuses_broadcasts: AtomicBool::new(false),
    });
    let server = Server::new(Implementation::new("replica", "0.1.0"), router());
    let service = StreamableHttp::new(server).with_store(flaky.clone());
    let held_for = Duration::from_millis(100);
    let service = service.with_records_held_for(held_for);
    let a = serve_service(service.with_store_timeout(Duration::from_millis(200)));
    let session = open_session(&a);
    for (down, hangs) in [(true, false), (false, true)] {
        flaky.down.store(down, Ordering::SeqCst);
        flaky.hangs.store(hangs, Ordering::SeqCst);
        // A message that may change the record reads the store at once; one that only reads
        // it does once the record was held for `held_for`.
        for (id, method, params) in [
            (6, "logging/setLevel", json!({"level": "info"})),
            (7, "tools/list", json!({})),
        ] {
            if method == "tools/list" {
                std::thread::sleep(held_for);
            }
            let asked = Instant::now();
            let (status, refused) = call(&a, &session, id, method, params);
            let waited = asked.elapsed();
            assert_eq!(status, 503, "{method}: {refused}");
            let message = store_unavailable(&refused, id);
            let why = if down {
                "connection refused"
            } else {
                "no answer within 200 ms"
            };
            assert!(message.ends_with(why), "{message}");
            // One operation, bounded at 200 ms: far less than a client's own timeout.
            assert!(waited < Duration::from_secs(5), "waited {waited:?}");
        }
        // A stateless request needs nothing from the store but its bus.
        let (status, answer) = post_stateless(&a, 8, "tools/list", json!({}));
        assert_eq!(status, 200, "{answer}");
    }
    flaky.hangs.store(false, Ordering::SeqCst);
    let (status, listed) = call(&a, &session, 9, "tools/list", json!({}));
    assert_eq!(status, 200, "back with the store: {listed}");
}

#[test]
fn changes_made_while_no_stream_of_the_session_is_open_anywhere_are_replayed_on_resume() {
    let store = Arc::new(MemoryStore::new());
    let (a, b, c) = (
        replica(store.clone()),
        replica(store.clone()),
        replica(store),
    );
    let session = open_session(&a);
    let (status, answer) = call(
        &a,
        &session,
        1,
        "resources/subscribe",
        json!({"uri": "memo://hi"}),
    );
    assert_eq!(status, 200, "{answer}");
    let mut on_a = get(&a, &session, None);
    touch(&b, &session, 2);
    let (first, _) = next_event(&mut on_a).expect("the first change, live");
    // The replica holding the stream goes away: no stream of the session is open anywhere
    // while two more changes are made.
    drop(on_a);
    drop(a);
    touch(&b, &session, 3);
    touch(&b, &session, 4);
    let mut on_b = get(&b, &session, Some(&first));
    let missed: Vec<(String, Value)> = (0..2)
        .map(|_| next_event(&mut on_b).expect("a change made while no stream was open"))
        .collect();
    for (_, told) in &missed {
        assert_eq!(told["params"]["uri"], "memo://hi", "{told}");
    }
    assert!(
        missed[0].0 != first && missed[1].0 != missed[0].0,
        "{missed:?}"
    );
    touch(&b, &session, 5);
    let (live, _) = next_event(&mut on_b).expect("the next change, live");
    let ids = [
        first.clone(),
        missed[0].0.clone(),
        missed[1].0.clone(),
        live,
    ];
    let mut distinct = ids.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        4,
        "each change once, each its own id: {ids:?}"
    );
    // Resuming (on another replica: `b` learns the stream closed only when it next writes)
    // after the second change replays the last two alone.
    drop(on_b);
    let mut again = get(&c, &session, Some(&ids[1]));
    let replayed: Vec<String> = (0..2)
        .map(|_| next_event(&mut again).expect("a replayed change").0)
        .collect();
    assert_eq!(replayed, ids[2..], "exactly those after the one named");
}

#[test]
fn a_session_adopted_again_after_its_idle_expiry_gets_no_event_twice_and_no_stale_one() {
    let store = Arc::new(MemoryStore::new());
    let server = Server::new(Implementation::new("replica", "0.1.0"), router());
    let forgetful = StreamableHttp::new(server)
        .with_store(store.clone())
        .with_session_limits(64, Duration::from_millis(300), 16);
    let (a, b) = (serve_service(forgetful), strict_replica(store));
    let session = open_session(&b);
    let (status, answer) = call(
        &b,
        &session,
        1,
        "resources/subscribe",
        json!({"uri": "memo://hi"}),
    );
    assert_eq!(status, 200, "{answer}");
    let mut seen = Vec::new();
    for round in 0..2u64 {
        // `a` adopts the session (again, in the second round), hears two changes, and is
        // left: idle there past its limit, the session lives on in the store through `b`.
        let mut on_a = get(&a, &session, None);
        touch(&b, &session, 10 + round * 2);
        touch(&b, &session, 11 + round * 2);
        for _ in 0..2 {
            seen.push(next_event(&mut on_a).expect("a change on a's stream").0);
        }
        drop(on_a);
        std::thread::sleep(Duration::from_millis(600));
        call(&b, &session, 20 + round, "tools/list", json!({}));
        // Another session's request makes `a` expire the idle ones: this one with them.
        open_session(&a);
    }
    let mut distinct = seen.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "an id given twice: {seen:?}");
    let mut resumed = get(&b, &session, Some(&seen[0]));
    let replayed: Vec<String> = (0..3)
        .map(|_| next_event(&mut resumed).expect("a replayed change").0)
        .collect();
    assert_eq!(
        replayed,
        seen[1..],
        "every change after the one named, once, in order"
    );
}

#[test]
fn a_change_the_store_could_not_keep_is_told_without_an_id() {
    let flaky = Arc::new(Flaky {
        store: MemoryStore::new(),
        down: AtomicBool::new(false),
        hangs: AtomicBool::new(false),
        refuses_broadcasts: AtomicBool::new(false),
    });
    let a = replica(flaky.clone());
    let session = open_session(&a);
    let (status, answer) = call(
        &a,
        &session,
        1,
        "resources/subscribe",
        json!({"uri": "memo://hi"}),
    );
    assert_eq!(status, 200, "{answer}");
    let mut stream = get(&a, &session, None);
    touch(&a, &session, 2);
    let (kept, _) = next_maybe_numbered(&mut stream).expect("a kept change");
    assert!(kept.is_some(), "a change the store kept has an id");
    flaky.refuses_broadcasts.store(true, Ordering::SeqCst);
    touch(&a, &session, 3);
    let (unkept, told) = next_maybe_numbered(&mut stream).expect("the change, all the same");
    assert_eq!(told["params"]["uri"], "memo://hi", "{told}");
    assert_eq!(unkept, None, "an event the store refused is not resumable");
}

/// `count` events of `size` bytes each (their message) on a request stream of `session`.
pub fn large_events(session: &str, count: u64, size: usize) -> Vec<StreamEvent> {
    (0..count)
        .map(|n| {
            let message = format!("\"{}\"", "x".repeat(size.saturating_sub(2)));
            let event = json!({"id": format!("e{n}"), "stream": {"session": session, "request": 1},
                "message": message, "last": false});
            serde_json::from_value(event).expect("an event")
        })
        .collect()
}

/// What `store` keeps of a session's events is bounded in bytes as `Sessions` bounds them:
/// the oldest dropped first; an event larger than the bound alone not kept, nor those before.
pub async fn events_are_bounded_in_bytes(store: &dyn Store) {
    let bound = mcp_spec_types::server::Sessions::EVENT_BYTES_KEPT;
    let record = r#"{"version":"2025-11-25","clientCapabilities":{},"initialized":true}"#;
    let record = SessionRecord::from_json(record).expect("a record");
    store.save("s", &record, 60_000).await.expect("saved");
    let third = bound / 3 + 1;
    store
        .append("s", &large_events("s", 3, third), 60_000)
        .await
        .expect("appended");
    let kept: Vec<String> = store
        .events("s")
        .await
        .expect("read")
        .into_iter()
        .filter_map(|e| e.id)
        .collect();
    assert_eq!(kept, ["e1", "e2"], "the oldest dropped past the bound");
    let mut events = large_events("s", 2, 10);
    events.insert(0, large_events("s", 1, bound + 1).remove(0));
    events[0].id = Some("huge".into());
    store.append("s", &events, 60_000).await.expect("appended");
    let kept: Vec<String> = store
        .events("s")
        .await
        .expect("read")
        .into_iter()
        .filter_map(|e| e.id)
        .collect();
    assert_eq!(kept, ["e0", "e1"], "nothing before one too large");
}

#[test]
fn a_memory_store_keeps_a_session_events_within_the_byte_bound() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(events_are_bounded_in_bytes(&MemoryStore::new()));
}

/// What `store` keeps of its broadcasts is bounded in bytes: the oldest dropped first, the
/// numbers going on, and a reader told that some are gone.
pub async fn broadcasts_are_bounded_in_bytes(store: &dyn Store) {
    use mcp_spec_types::server::store::{BROADCASTS_KEPT, BROADCAST_BYTES_KEPT};
    let large = "x".repeat(100 * 1024);
    let record = json!({"version": "2025-11-25", "clientCapabilities": {},
        "clientInfo": {"name": large, "version": "1"}, "initialized": true});
    let record = SessionRecord::from_json(&record.to_string()).expect("a record");
    let saved: Broadcast = serde_json::from_value(json!({"kind": "saved", "from": "r",
        "session": "s", "record": serde_json::to_value(&record).expect("JSON")}))
    .expect("a broadcast");
    let count = (BROADCAST_BYTES_KEPT / (100 * 1024)) as u64 + 10;
    assert!(count < BROADCASTS_KEPT as u64);
    let mut last = 0;
    for _ in 0..count {
        let seq = store.publish(&saved).await.expect("published");
        assert!(seq > last, "numbers go on: {seq} after {last}");
        last = seq;
    }
    let published = store.published_after(0).await.expect("read");
    assert_eq!(published.latest, last);
    let bytes: usize = published.broadcasts.iter().map(|l| l.to_line().len()).sum();
    assert!(bytes <= BROADCAST_BYTES_KEPT, "{bytes} bytes kept");
    assert!(
        !published.complete(0),
        "the oldest are gone, and the reader is told"
    );
    assert!(published.complete(published.broadcasts[0].seq - 1));
    assert_eq!(published.broadcasts.last().map(|l| l.seq), Some(last));
}

#[test]
fn a_memory_store_keeps_its_broadcasts_within_the_byte_bound() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(broadcasts_are_bounded_in_bytes(&MemoryStore::new()));
}

#[test]
fn a_session_adopted_again_repeats_no_id_on_its_request_streams() {
    let store = Arc::new(MemoryStore::new());
    let server = Server::new(Implementation::new("replica", "0.1.0"), router());
    let forgetful = StreamableHttp::new(server)
        .with_store(store.clone())
        .with_call_streams()
        .with_session_limits(64, Duration::from_millis(300), 16);
    let (a, b) = (serve_service(forgetful), strict_replica(store));
    let session = open_session(&b);
    let mut ids = Vec::new();
    for round in 0..2u64 {
        // Each `tools/call` on `a` is answered on a stream whose events have ids.
        let body = json!({"jsonrpc": "2.0", "id": 30 + round, "method": "tools/call",
            "params": {"name": "touch"}});
        let (status, headers, mut reader) = post(&a, Some(&session), &body);
        assert_eq!(status, 200, "{headers:?}");
        let (id, answer) = next_maybe_numbered(&mut reader).expect("the answer, on the stream");
        assert_eq!(answer["id"], 30 + round, "{answer}");
        ids.push(id.expect("an id on the answer's event"));
        // Idle on `a` past its limit, the session lives on in the store through `b`; another
        // session's request makes `a` forget it, to adopt it again in the next round.
        call(&b, &session, 40 + round, "tools/list", json!({}));
        std::thread::sleep(Duration::from_millis(600));
        call(&b, &session, 50 + round, "tools/list", json!({}));
        open_session(&a);
    }
    let mut distinct = ids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), ids.len(), "an id given twice: {ids:?}");
}
