//! A session's record held by a replica (`StreamableHttp::with_records_held_for`): the
//! messages that only read it are served without a read of the store while it is held; a
//! message that may change it reads the store every time, so that a change another replica
//! made, which the bus has not carried yet, is not lost under its own; and a session ended on
//! another replica is found ended by the next message that reads the store. The bus of one
//! replica is held shut by a gate, so that "not carried yet" is a fact of the test, not a race.
#![cfg(all(feature = "http-server", feature = "v2025_11_25"))]

use crate::http_service::{request, serve_service, Serving};
use crate::replicas::{call, open_session, router};
use mcp_spec_types::http_headers::MCP_SESSION_ID;
use mcp_spec_types::server::store::{Logged, Published, StoreFuture};
use mcp_spec_types::server::{Broadcast, MemoryStore, Server, SessionRecord};
use mcp_spec_types::server::{Store, StreamEvent, StreamableHttp};
use mcp_spec_types::v2026_07_28::*;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// A [`MemoryStore`] that counts its session reads (`load`), and whose bus (what `subscribe`
/// gives) carries nothing while its gate is shut.
struct Watched {
    store: Arc<MemoryStore>,
    loads: AtomicUsize,
    /// Whether the bus is shut, and the condition its carrier waits on.
    shut: Arc<(Mutex<bool>, Condvar)>,
}

impl Watched {
    fn new(store: Arc<MemoryStore>) -> Arc<Self> {
        Arc::new(Watched {
            store,
            loads: AtomicUsize::new(0),
            shut: Arc::new((Mutex::new(false), Condvar::new())),
        })
    }

    fn loads(&self) -> usize {
        self.loads.load(Ordering::SeqCst)
    }

    fn shut_bus(&self, shut: bool) {
        let (lock, changed) = &*self.shut;
        *lock.lock().expect("the gate") = shut;
        changed.notify_all();
    }
}

impl Store for Watched {
    fn load<'a>(&'a self, s: &'a str, idle: u64) -> StoreFuture<'a, Option<SessionRecord>> {
        self.loads.fetch_add(1, Ordering::SeqCst);
        self.store.load(s, idle)
    }
    fn save<'a>(&'a self, s: &'a str, r: &'a SessionRecord, idle: u64) -> StoreFuture<'a, ()> {
        self.store.save(s, r, idle)
    }
    fn remove<'a>(&'a self, s: &'a str) -> StoreFuture<'a, ()> {
        self.store.remove(s)
    }
    fn append<'a>(&'a self, s: &'a str, e: &'a [StreamEvent], idle: u64) -> StoreFuture<'a, ()> {
        self.store.append(s, e, idle)
    }
    fn events<'a>(&'a self, s: &'a str) -> StoreFuture<'a, Vec<StreamEvent>> {
        self.store.events(s)
    }
    fn touch<'a>(&'a self, s: &'a [String], idle: u64) -> StoreFuture<'a, ()> {
        self.store.touch(s, idle)
    }
    fn publish<'a>(&'a self, b: &'a Broadcast) -> StoreFuture<'a, u64> {
        self.store.publish(b)
    }
    fn published_after<'a>(&'a self, after: u64) -> StoreFuture<'a, Published> {
        // Shut, the bus is as good as gone, and the log it would catch up from says nothing
        // new either: what it would say, the bus says when it opens.
        if after != u64::MAX && *self.shut.0.lock().expect("the gate") {
            let nothing = Published {
                broadcasts: Vec::new(),
                latest: after,
            };
            return Box::pin(async move { Ok(nothing) });
        }
        self.store.published_after(after)
    }
    fn subscribe(&self) -> tokio::sync::mpsc::Receiver<Logged> {
        let mut heard = self.store.subscribe();
        let (carry, carried) = tokio::sync::mpsc::channel(1024);
        let shut = Arc::clone(&self.shut);
        std::thread::spawn(move || {
            while let Some(logged) = heard.blocking_recv() {
                let (lock, changed) = &*shut;
                let mut closed = lock.lock().expect("the gate");
                while *closed {
                    closed = changed.wait(closed).expect("the gate");
                }
                drop(closed);
                if carry.blocking_send(logged).is_err() {
                    return;
                }
            }
        });
        carried
    }
}

fn replica(store: &Arc<Watched>, held_for: Duration) -> Serving {
    let server = Server::new(Implementation::new("replica", "0.1.0"), router());
    let service = StreamableHttp::new(server).with_store(Arc::clone(store));
    serve_service(service.with_records_held_for(held_for))
}

/// The session's record as the store holds it, as JSON.
fn stored_record(store: &MemoryStore, session: &str) -> Value {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let record = runtime.block_on(store.load(session, 60_000));
    let record = record.expect("the store answers").expect("the session");
    serde_json::from_str(&record.to_json()).expect("JSON")
}

const AN_HOUR: Duration = Duration::from_secs(3600);

#[test]
fn messages_that_only_read_a_held_record_read_no_store_and_the_others_read_it_each_time() {
    let store = Watched::new(Arc::new(MemoryStore::new()));
    let a = replica(&store, AN_HOUR);
    let session = open_session(&a);
    let before = store.loads();
    for id in 1..=10 {
        let (status, listed) = call(&a, &session, id, "tools/list", json!({}));
        assert_eq!(status, 200, "{listed}");
        let (status, read) = call(
            &a,
            &session,
            100 + id,
            "resources/read",
            json!({"uri": "memo://hi"}),
        );
        assert_eq!(status, 200, "{read}");
    }
    assert_eq!(
        store.loads(),
        before,
        "a held record serves what only reads it"
    );
    for (id, uri) in [(30, "memo://hi"), (31, "memo://other")] {
        let (status, answer) = call(&a, &session, id, "resources/subscribe", json!({"uri": uri}));
        assert_eq!((status, &answer["result"]), (200, &json!({})), "{answer}");
    }
    assert_eq!(store.loads(), before + 2, "a change reads the store first");

    // Held for no time at all: every message reads the store.
    let strict_store = Watched::new(Arc::new(MemoryStore::new()));
    let strict = replica(&strict_store, Duration::ZERO);
    let session = open_session(&strict);
    let before = strict_store.loads();
    for id in 1..=10 {
        let (status, listed) = call(&strict, &session, id, "tools/list", json!({}));
        assert_eq!(status, 200, "{listed}");
    }
    assert_eq!(strict_store.loads(), before + 10);
}

#[test]
fn a_change_made_on_another_replica_that_the_bus_has_not_carried_is_not_lost() {
    let shared = Arc::new(MemoryStore::new());
    // Two views of one store: `a` hears nothing while its gate is shut.
    let (on_a, on_b) = (Watched::new(shared.clone()), Watched::new(shared.clone()));
    let (a, b) = (replica(&on_a, AN_HOUR), replica(&on_b, AN_HOUR));
    let session = open_session(&a);
    let (status, listed) = call(&a, &session, 1, "tools/list", json!({}));
    assert_eq!(status, 200, "{listed}");
    on_a.shut_bus(true);
    // Subscribed on `b`; `a` holds the record from before, and has not heard.
    let subscribe = json!({"uri": "memo://hi"});
    let (status, answer) = call(&b, &session, 2, "resources/subscribe", subscribe);
    assert_eq!(status, 200, "{answer}");
    // A change on `a`: it reads the store first, so the subscription made on `b` stays.
    let subscribe = json!({"uri": "memo://other"});
    let (status, answer) = call(&a, &session, 3, "resources/subscribe", subscribe);
    assert_eq!((status, &answer["result"]), (200, &json!({})), "{answer}");
    let record = stored_record(&shared, &session);
    let both = json!(["memo://hi", "memo://other"]);
    assert_eq!(record["subscriptions"], both, "{record}");
    on_a.shut_bus(false);
}

#[test]
fn a_session_ended_elsewhere_is_found_ended_by_the_next_message_that_reads_the_store() {
    let shared = Arc::new(MemoryStore::new());
    let (on_a, on_b) = (Watched::new(shared.clone()), Watched::new(shared.clone()));
    let (a, b) = (replica(&on_a, AN_HOUR), replica(&on_b, AN_HOUR));
    let session = open_session(&a);
    on_a.shut_bus(true);
    let headers = [
        ("MCP-Protocol-Version", "2025-11-25"),
        (MCP_SESSION_ID, session.as_str()),
    ];
    let (status, ..) = request(b.address, "DELETE", "/mcp", &headers, "");
    assert_eq!(status, 200);
    // What only reads the record is served from it while `a` holds it and has not heard: the
    // staleness `with_records_held_for` bounds.
    let (status, listed) = call(&a, &session, 1, "tools/list", json!({}));
    assert_eq!(status, 200, "{listed}");
    // A message that reads the store finds the session gone, and so does every one after it.
    let (status, refused) = call(
        &a,
        &session,
        2,
        "logging/setLevel",
        json!({"level": "info"}),
    );
    assert_eq!(status, 404, "{refused}");
    let (status, refused) = call(&a, &session, 3, "tools/list", json!({}));
    assert_eq!(status, 404, "{refused}");
    on_a.shut_bus(false);
}
