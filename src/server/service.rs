//! The server over Streamable HTTP as a tower service (feature `http-server`): see
//! [`StreamableHttp`].

mod body;

pub use body::HttpBody;

use super::store::{Store, StoreError};
use super::{Broadcast, Change, SessionRecord};
use super::{Context, Handler, HttpAnswer, HttpCall, HttpIncoming, HttpResponse, Server};
use super::{Sessions, StreamEvent, StreamId};
use crate::http_headers::{LAST_EVENT_ID, MCP_SESSION_ID};
use crate::prelude::*;
use crate::v2026_07_28::ClientCall;
use crate::RpcError;
use bytes::Bytes;
use core::future::Future;
use core::pin::Pin;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use core::task::Poll;
use std::collections::HashMap;
use std::convert::Infallible;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// A handler's answer.
type CallResult = Result<crate::v2026_07_28::ClientCallResult, RpcError>;

/// The server over Streamable HTTP as a `tower` service (feature `http-server`): the engine's
/// transport rules ([`Server::http_receive`], [`Sessions`]) with the connections, event
/// streams, timers and tasks they need, for any server the `http` crate's types fit: axum
/// (`route_service`), hyper (through hyper-util's `TowerToHyperService`), any tower stack.
///
/// What it adds to the engine:
/// - **its own path alone**: a request for another path gets 404 ([`StreamableHttp::with_path`]);
/// - **a body limit**: a larger body gets 413 before it is read whole
///   ([`StreamableHttp::with_body_limit`]);
/// - **what HTTP itself requires**: a POST whose body is not `application/json` gets 415, one
///   whose client accepts neither JSON nor event streams 406 (a client that takes JSON alone
///   gets every answer as JSON), and with [`StreamableHttp::with_allowed_hosts`] a foreign
///   `Host` gets 403;
/// - **a handler that panics** answers its request with an internal error (-32603), rather
///   than break the connection and leave the request in flight;
/// - **streams to resume**: with [`StreamableHttp::with_call_streams`] every session's
///   `tools/call` is answered on a stream opened at once, which its handler may close early
///   ([`Context::close_stream`]) for the client to resume after the
///   [`StreamableHttp::with_retry`] delay;
/// - **no lock around a handler**: the sessions are locked to take a request in and to send
///   its answer, never while the handler runs, so a slow call holds up no other. A call that
///   asks for no reports runs in its request's own task (no hand-off: the fast path); a
///   handler that blocks for long there holds one of the runtime's workers while it does;
/// - **reports as they are made**: a call whose client asked for progress or log messages
///   runs on tokio's blocking pool, and what its handler reports goes out at once on the call's
///   event stream ([`Context::send_reports_to`]): a session's call answers with a stream at
///   once; a stateless call's response stays one JSON message unless a report comes before
///   the answer;
/// - **keep-alive**: a comment on every open stream every [`StreamableHttp::with_keep_alive`]
///   (15 s by default), which also finds the streams whose client went away and closes them,
///   so that what the engine keeps for them is freed;
/// - **graceful shutdown** ([`StreamableHttp::shutdown`]): the open streams end, so that the
///   server's own graceful shutdown (axum's `with_graceful_shutdown`) does not wait on them,
///   and later requests get 503;
/// - **replicas** ([`StreamableHttp::with_store`]): several processes behind a load balancer
///   serve the same sessions, streams resumed on any of them, each told what changed on the
///   others.
///
/// ```no_run
/// # async fn run() -> std::io::Result<()> {
/// use mcp_spec_types::server::{Router, Server, StreamableHttp};
/// use mcp_spec_types::v2026_07_28::*;
///
/// let router = Router::new().resource(Resource::new("memo://hi", "hi"), |read| {
///     Ok(ReadResourceResult::text(read.uri, "Hi!"))
/// });
/// let service = StreamableHttp::new(Server::new(Implementation::new("memo", "0.1.0"), router));
/// // With axum: `axum::Router::new().route_service("/mcp", service)`.
/// # let _ = service; Ok(()) }
/// ```
pub struct StreamableHttp<H> {
    shared: Arc<Shared<H>>,
    config: Arc<Config>,
}

impl<H> Clone for StreamableHttp<H> {
    fn clone(&self) -> Self {
        StreamableHttp {
            shared: Arc::clone(&self.shared),
            config: Arc::clone(&self.config),
        }
    }
}

impl<H> core::fmt::Debug for StreamableHttp<H> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StreamableHttp")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone)]
struct Config {
    path: Option<String>,
    body_limit: usize,
    keep_alive: Duration,
    /// The names a request's `Host` may give; `None`: any.
    hosts: Option<Vec<String>>,
    /// The `retry` a stream opened for a call tells the client to wait before it resumes.
    retry: Option<Duration>,
    /// Whether every session's `tools/call` is answered on a stream opened at once.
    call_streams: bool,
}

struct Shared<H> {
    server: Server<H>,
    open: Mutex<Open>,
    started: Instant,
    closing: AtomicBool,
    /// Whether the keep-alive task runs (it starts with the first request, in its runtime).
    pinging: AtomicBool,
    /// The store replicas share, and this replica's name: set once, before serving.
    replicated: OnceLock<Replicated>,
    /// How long one operation of the store may take, in milliseconds.
    store_timeout_ms: AtomicU64,
    /// Whether the task that hears the other replicas runs (it starts with the first request).
    on_bus: AtomicBool,
    /// Held while the outbox is written out: one writer at a time keeps the events' order.
    flushing: tokio::sync::Mutex<()>,
}

/// The store the replicas of the server share.
struct Replicated {
    store: Arc<dyn Store>,
    /// This replica's name, in its event ids and its broadcasts.
    name: String,
}

/// The engine's sessions and the event streams open on them: one lock, so that events go out
/// in the order the engine gives them.
struct Open {
    sessions: Sessions,
    streams: HashMap<StreamId, mpsc::Sender<Bytes>>,
    /// With a store, what waits to be written out, in the order the engine gave it: a
    /// session's events are kept in the store before they are sent (see [`Shared::flush`]).
    outbox: Vec<Out>,
    /// Whether events wait in the outbox (with a store) rather than go out at once.
    queued: bool,
}

/// What waits in the outbox.
enum Out {
    Event(StreamEvent),
    /// A stream that ends, after the events before it.
    End(StreamId),
}

/// What a request changed in the state replicas share, to write to the store.
enum Write {
    /// A session opened, or its record changed.
    Save(String, SessionRecord),
    /// A session ended.
    Remove(String),
}

impl<H: Handler> StreamableHttp<H> {
    /// The most bytes a request's body may have, by default: 4 MiB.
    pub const DEFAULT_BODY_LIMIT: usize = 4 << 20;
    /// How often open streams get a keep-alive comment, by default.
    pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(15);
    /// How long one operation of the store may take, by default (see
    /// [`StreamableHttp::with_store_timeout`]).
    pub const DEFAULT_STORE_TIMEOUT: Duration = Duration::from_secs(2);

    /// `server` over Streamable HTTP at `/mcp`, with the engine's defaults for sessions
    /// ([`Sessions::DEFAULT_MAX`], [`Sessions::DEFAULT_IDLE_MS`], the loopback origins alone)
    /// and session ids from the standard library's per-process random keys (see
    /// [`StreamableHttp::with_sessions`] for ids of your own).
    pub fn new(server: Server<H>) -> Self {
        StreamableHttp {
            shared: Arc::new(Shared {
                server,
                open: Mutex::new(Open {
                    sessions: Sessions::new(random_ids()),
                    streams: HashMap::new(),
                    outbox: Vec::new(),
                    queued: false,
                }),
                started: Instant::now(),
                closing: AtomicBool::new(false),
                pinging: AtomicBool::new(false),
                replicated: OnceLock::new(),
                store_timeout_ms: AtomicU64::new(millis(Self::DEFAULT_STORE_TIMEOUT)),
                on_bus: AtomicBool::new(false),
                flushing: tokio::sync::Mutex::new(()),
            }),
            config: Arc::new(Config {
                path: Some("/mcp".to_owned()),
                body_limit: Self::DEFAULT_BODY_LIMIT,
                keep_alive: Self::DEFAULT_KEEP_ALIVE,
                hosts: None,
                retry: None,
                call_streams: false,
            }),
        }
    }

    /// Answers at `path` alone (`/mcp` by default); other paths get 404.
    #[must_use]
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        Arc::make_mut(&mut self.config).path = Some(path.into());
        self
    }

    /// Answers whatever the path: for a service mounted under a prefix that the router strips
    /// (axum's `nest_service`).
    #[must_use]
    pub fn at_any_path(mut self) -> Self {
        Arc::make_mut(&mut self.config).path = None;
        self
    }

    /// Refuses a body longer than `bytes` with 413.
    #[must_use]
    pub fn with_body_limit(mut self, bytes: usize) -> Self {
        Arc::make_mut(&mut self.config).body_limit = bytes;
        self
    }

    /// Writes a keep-alive comment on every open stream each `every`.
    #[must_use]
    pub fn with_keep_alive(mut self, every: Duration) -> Self {
        Arc::make_mut(&mut self.config).keep_alive = every.max(Duration::from_millis(1));
        self
    }

    /// Refuses (403) a request whose `Host` names none of `hosts` (`localhost`, say; without
    /// the port): a server on the loopback interface reached under a foreign name was reached
    /// through DNS rebinding. The engine checks `Origin`, which browsers send; this catches the
    /// rest. By default any host is served: a server behind a proxy has the proxy's names.
    #[must_use]
    pub fn with_allowed_hosts<S: Into<String>>(
        mut self,
        hosts: impl IntoIterator<Item = S>,
    ) -> Self {
        let hosts = hosts
            .into_iter()
            .map(|host| host.into().to_ascii_lowercase());
        Arc::make_mut(&mut self.config).hosts = Some(hosts.collect());
        self
    }

    /// Tells a client, on each stream opened for a call, to wait `delay` before it resumes
    /// the stream once it ends without the answer (the event stream's `retry` field).
    #[must_use]
    pub fn with_retry(mut self, delay: Duration) -> Self {
        Arc::make_mut(&mut self.config).retry = Some(delay);
        self
    }

    /// Answers every session's `tools/call` on an event stream opened at once, when its
    /// client takes event streams, rather than only a call that asked for reports: its
    /// answer can then be resumed with `Last-Event-ID` if the connection breaks, and its
    /// handler may close the stream early ([`Context::close_stream`]) so that a long call
    /// holds no connection.
    #[must_use]
    pub fn with_call_streams(mut self) -> Self {
        Arc::make_mut(&mut self.config).call_streams = true;
        self
    }

    /// Keeps the sessions in `sessions`: its limits, the origins it takes, its session ids.
    /// The sessions open so far are dropped: call it before serving.
    #[must_use]
    pub fn with_sessions(self, sessions: Sessions) -> Self {
        let name = self.shared.replicated.get().map(|r| r.name.clone());
        self.shared.lock().sessions = match name {
            Some(name) => sessions.with_replica(name),
            None => sessions,
        };
        self
    }

    /// Keeps the state replicas share in `store`, so that several processes (behind a load
    /// balancer, with no stickiness) serve the same clients:
    /// - a session of a stateful revision opened on one replica goes on over the others (each
    ///   request reads its record from the store; what changes it, written back before the
    ///   answer goes out);
    /// - the events of a session's streams are kept in the store before they are sent, with
    ///   ids unique across replicas, so that a client resumes a stream on any replica with
    ///   `Last-Event-ID`, even after the one it was on died;
    /// - what a handler changes ([`Context::changed`]) is told to the clients of every replica,
    ///   through the store's bus; a session deleted on one replica ends its streams on all.
    ///
    /// What stays with the replica that holds it: the requests in flight, a stateful client's
    /// `input_required` rounds (its answers must reach the replica that asked), the open
    /// streams. Stateless requests (2026-07-28 on) need nothing from the store but its bus;
    /// their `input_required` state is sealed with a [`KeyRing`](crate::input_required::KeyRing)
    /// every replica is given ([`Server::with_state_codec`]).
    ///
    /// A request whose state the store cannot read or write within
    /// [`StreamableHttp::with_store_timeout`] gets 503 and a JSON-RPC error saying the state
    /// store is unavailable; service comes back with the store. Call it once, before serving:
    /// the first store given is the one kept.
    #[must_use]
    pub fn with_store(self, store: impl Store) -> Self {
        let name = random_ids()()[..12].to_owned();
        let replicated = Replicated {
            store: Arc::new(store),
            name: name.clone(),
        };
        if self.shared.replicated.set(replicated).is_ok() {
            let mut open = self.shared.lock();
            open.sessions.event_prefix = format!("{name}-");
            open.queued = true;
        }
        self
    }

    /// Bounds each operation of the store (see [`StreamableHttp::with_store`]) to `timeout`
    /// ([`StreamableHttp::DEFAULT_STORE_TIMEOUT`] by default): a request waits for the store
    /// at most this long for each of the (at most four) operations it needs.
    #[must_use]
    pub fn with_store_timeout(self, timeout: Duration) -> Self {
        (self.shared.store_timeout_ms).store(millis(timeout).max(1), Ordering::SeqCst);
        self
    }

    /// The server it serves.
    pub fn server(&self) -> &Server<H> {
        &self.shared.server
    }

    /// Ends every open event stream and refuses every later request (503): what the HTTP
    /// server's own graceful shutdown waits on is then only the requests being answered.
    pub fn shutdown(&self) {
        self.shared.closing.store(true, Ordering::SeqCst);
        let now_ms = self.shared.now_ms();
        let mut open = self.shared.lock();
        let Open {
            sessions, streams, ..
        } = &mut *open;
        for (stream, _) in streams.drain() {
            sessions.close(&stream, now_ms);
        }
    }

    /// How many sessions are open.
    pub fn sessions(&self) -> usize {
        self.shared.lock().sessions.len()
    }

    /// How many event streams are open.
    pub fn streams(&self) -> usize {
        self.shared.lock().streams.len()
    }
}

impl<H: Handler + Send + Sync + 'static> StreamableHttp<H> {
    async fn serve<B: http_body::Body>(
        self,
        request: http::Request<B>,
    ) -> http::Response<HttpBody> {
        let shared = self.shared;
        Shared::keep_alive(&shared, self.config.keep_alive);
        if let Some(path) = &self.config.path {
            if request.uri().path() != path {
                return plain(404);
            }
        }
        if shared.closing.load(Ordering::SeqCst) {
            return plain(503);
        }
        if let Some(hosts) = &self.config.hosts {
            if !hosts_allowed(&request, hosts) {
                return refuse(403, "Forbidden: the Host is not one this server answers to");
            }
        }
        let takes_streams = accepts(request.headers(), "text/event-stream");
        if request.method() == http::Method::POST {
            if !(takes_streams || accepts(request.headers(), "application/json")) {
                let why = "Not Acceptable: accept application/json and text/event-stream";
                return refuse(406, why);
            }
            let json = request
                .headers()
                .get(http::header::CONTENT_TYPE)
                .and_then(|kind| kind.to_str().ok())
                .is_some_and(|kind| kind.trim_start().starts_with("application/json"));
            if !json {
                return refuse(
                    415,
                    "Unsupported Media Type: the body must be application/json",
                );
            }
        }
        let (parts, body) = request.into_parts();
        let body = match body::read(body, self.config.body_limit).await {
            Ok(body) => body,
            Err(body::Unread::TooLarge) => return plain(413),
            Err(body::Unread::Broken) => return plain(400),
        };
        let Ok(body) = String::from_utf8(body) else {
            return plain(400);
        };
        let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
        let method = parts.method.as_str();
        let replicated = shared.replicated.get();
        let session = header(MCP_SESSION_ID).map(str::to_owned);
        let mut before = None;
        if let (Some(replicated), Some(id)) = (replicated, &session) {
            Shared::join_bus(&shared);
            let resuming = method == "GET" && header(LAST_EVENT_ID).is_some();
            match shared.bring_in(replicated, id, resuming).await {
                Ok(record) => before = record,
                Err(refused) => return refused.into_reply(&body),
            }
        } else if replicated.is_some() {
            Shared::join_bus(&shared);
        }
        let (reply, write) = {
            let now_ms = shared.now_ms();
            let mut open = shared.lock();
            let incoming =
                (shared.server).http_receive(&mut open.sessions, method, header, &body, now_ms);
            match incoming {
                HttpIncoming::Respond(response) if replicated.is_none() => {
                    return open.deliver(response, now_ms);
                }
                HttpIncoming::Respond(response) => {
                    let session = session.as_deref();
                    let write = open.write(method, session, before.as_ref(), &response);
                    (Ok(open.deliver(response, now_ms)), write)
                }
                HttpIncoming::Call(call) => (Err(call), None),
            }
        };
        let reply = match reply {
            Ok(reply) => reply,
            Err(call) => return shared.answer(call, &self.config, takes_streams).await,
        };
        if let (Some(replicated), Some(write)) = (replicated, write) {
            if let Err(error) = shared.write(replicated, write).await {
                return Refused::Store(error).into_reply(&body);
            }
        }
        Arc::clone(&shared).flush().await;
        reply
    }
}

/// Why a request is refused before the engine reads it.
enum Refused {
    /// The store could not be read or written.
    Store(StoreError),
    /// The session is in the store, but this replica's table is full of sessions in use.
    Full,
}

impl Refused {
    /// The 503 that says so, answering the request in `body` (when it has an id).
    fn into_reply(self, body: &str) -> http::Response<HttpBody> {
        let message = match self {
            Refused::Store(error) => error.to_string(),
            Refused::Full => "too many sessions: try again later".to_owned(),
        };
        let id = crate::answer::request_id(body);
        let error = RpcError::new(crate::ErrorCode::InternalError, message);
        json_reply(503, super::call::error_line(id, error))
    }
}

impl<H> Shared<H> {
    fn lock(&self) -> MutexGuard<'_, Open> {
        // A handler never runs under the lock, and the engine does not panic: a poisoned lock
        // holds a consistent table.
        self.open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// `operation` of the store, bounded by the store's timeout.
    async fn bounded<T>(
        &self,
        operation: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let timeout_ms = self.store_timeout_ms.load(Ordering::SeqCst);
        let timeout = Duration::from_millis(timeout_ms);
        match tokio::time::timeout(timeout, operation).await {
            Ok(done) => done,
            Err(_) => Err(StoreError::new(format!("no answer within {timeout_ms} ms"))),
        }
    }

    /// Brings session `id` in from the store before the engine reads its request: the record
    /// (the session adopted, or forgotten when the store no longer has it), and, for a client
    /// `resuming` a stream, the events every replica kept for it.
    async fn bring_in(
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
    async fn write(&self, replicated: &Replicated, write: Write) -> Result<(), StoreError> {
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
    fn keep_alive(shared: &Arc<Self>, every: Duration) {
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
    fn join_bus(shared: &Arc<Self>) {
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
    async fn heard(self: Arc<Self>, broadcast: Broadcast) {
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
    async fn flush(self: Arc<Self>) {
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
    fn after_answer(self: &Arc<Self>, changes: Vec<Change>) {
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

    /// Runs the handler on `call` and gives the response. `takes_streams`: the client
    /// accepts event streams (a client that takes JSON alone gets every answer as JSON, its
    /// reports with it).
    async fn answer(
        self: Arc<Self>,
        mut call: HttpCall,
        config: &Config,
        takes_streams: bool,
    ) -> http::Response<HttpBody> {
        let pending = call.pending();
        let context = pending.context();
        let reports = context.progress_token.is_some() || context.log_level.is_some();
        let stateless = call.session().is_none();
        let streamed =
            config.call_streams && !stateless && matches!(pending.call(), ClientCall::CallTool(_));
        // Outside a tokio runtime (hyper driven by another executor) nothing can run beside
        // the request: the handler runs here, its reports going with its answer.
        let runtime = tokio::runtime::Handle::try_current().ok();
        let Some(runtime) = runtime.filter(|_| takes_streams && (reports || streamed)) else {
            // Nothing goes out before the answer: run here, with no lock held.
            let (call, mut context, responder) = call.into_parts();
            let result = self.call_here(call, &mut context).await;
            return self.finish(responder.respond_with(&mut context, result));
        };
        let opened = if stateless {
            None
        } else {
            let now_ms = self.now_ms();
            let retry_ms = config
                .retry
                .map(|retry| u64::try_from(retry.as_millis()).unwrap_or(u64::MAX));
            let mut open = self.lock();
            let opened = open.sessions.open_stream(&mut call, retry_ms);
            opened.map(|response| {
                let stream = response.stream.clone();
                let reply = open.deliver(response, now_ms);
                (reply, stream)
            })
        };
        if opened.is_some() {
            // The stream's first event, kept in the store before it is sent.
            Arc::clone(&self).flush().await;
        }
        match opened {
            // A session's call: its stream is open; its reports, then its answer, go on it.
            Some((reply, stream)) => {
                let (call, mut context, responder) = call.into_parts();
                if let Some(stream) = stream {
                    // The stream's writer is looked up for each report, not held: a stream
                    // closed early must end when it is taken out of the table.
                    let (shared, on) = (Arc::downgrade(&self), stream.clone());
                    context.send_reports_to(move |line| {
                        let Some(shared) = shared.upgrade() else {
                            return;
                        };
                        if let Some(writer) = shared.lock().streams.get(&on) {
                            let _ = writer.try_send(Bytes::from(data(&line)));
                        }
                    });
                    let shared = Arc::downgrade(&self);
                    context.close_stream_with(move || {
                        if let Some(shared) = shared.upgrade() {
                            // Its writer dropped, the body ends; the engine keeps what is
                            // sent on it meanwhile, for the client to resume.
                            shared.lock().streams.remove(&stream);
                        }
                    });
                }
                self.run_beside(&runtime, call, context, move |shared, result, context| {
                    shared.finish(responder.respond_with(context, result));
                });
                reply
            }
            // A call already answered on a stream (after the client's input): its reports go
            // with its answer, on that stream.
            None if !stateless => {
                let (call, mut context, responder) = call.into_parts();
                let result = self.call_here(call, &mut context).await;
                self.finish(responder.respond_with(&mut context, result))
            }
            // A stateless call: one JSON answer, unless a report comes first.
            None => self.answer_stateless(call, &runtime).await,
        }
    }

    /// Answers `call` in the request's own task: an async handler's future awaited, any other
    /// handler run here. A handler that panics answers with an internal error.
    async fn call_here(&self, call: ClientCall, context: &mut Context) -> CallResult {
        let handler = self.server.handler();
        if handler.is_async(&call) {
            Unwinding(handler.call_async(call, context)).await
        } else {
            unwinding(|| handler.call(call, context))
        }
    }

    /// Runs the handler on `call` beside the request, then `done` with its answer: an async
    /// handler's future as a task of `runtime`, any other handler on its blocking pool (a
    /// handler that blocks between its reports must not hold the worker that would write
    /// them). A handler that panics answers with an internal error.
    fn run_beside(
        self: Arc<Self>,
        runtime: &tokio::runtime::Handle,
        call: ClientCall,
        mut context: Context,
        done: impl FnOnce(&Arc<Self>, CallResult, &mut Context) + Send + 'static,
    ) {
        if self.server.handler().is_async(&call) {
            runtime.spawn(async move {
                let answer = self.server.handler().call_async(call, &mut context);
                let result = Unwinding(answer).await;
                done(&self, result, &mut context);
            });
        } else {
            runtime.spawn_blocking(move || {
                let result = unwinding(|| self.server.handler().call(call, &mut context));
                done(&self, result, &mut context);
            });
        }
    }

    /// A stateless call whose client asked for reports: the first of a report and the answer
    /// decides whether the response is an event stream or one JSON message.
    async fn answer_stateless(
        self: Arc<Self>,
        call: HttpCall,
        runtime: &tokio::runtime::Handle,
    ) -> http::Response<HttpBody> {
        enum Out {
            Report(String),
            Done(HttpAnswer),
        }
        let (out, mut outs) = mpsc::unbounded_channel();
        let (call, mut context, responder) = call.into_parts();
        let reports = out.clone();
        context.send_reports_to(move |line| {
            let _ = reports.send(Out::Report(line));
        });
        Arc::clone(&self).run_beside(runtime, call, context, move |_, result, _| {
            let _ = out.send(Out::Done(responder.respond(result)));
        });
        let first = match outs.recv().await {
            Some(Out::Done(answer)) => return self.finish(answer),
            Some(Out::Report(first)) => first,
            None => return plain(500), // the handler's task panicked
        };
        let (writer, body) = HttpBody::stream();
        let _ = writer.try_send(Bytes::from(data(&first)));
        runtime.spawn(async move {
            // Waits for room on the stream rather than drop the answer behind a burst of
            // reports; a client that went away ends the wait (the send fails).
            while let Some(out) = outs.recv().await {
                match out {
                    Out::Report(line) => {
                        let _ = writer.send(Bytes::from(data(&line))).await;
                    }
                    Out::Done(answer) => {
                        let response = self.finished(answer);
                        if let Some(line) = response.body {
                            let _ = writer.send(Bytes::from(data(&line))).await;
                        }
                        return;
                    }
                }
            }
        });
        let mut reply = http::Response::new(body);
        reply.headers_mut().insert(
            http::header::CONTENT_TYPE,
            http::HeaderValue::from_static("text/event-stream"),
        );
        reply
    }

    /// The response for `answer`, with its events sent and the clients told of its changes.
    fn finish(self: &Arc<Self>, answer: HttpAnswer) -> http::Response<HttpBody> {
        let now_ms = self.now_ms();
        let (reply, changes, waiting) = {
            let mut open = self.lock();
            let (response, changes) = open.finished(&self.server, answer);
            let reply = open.deliver(response, now_ms);
            (reply, changes, !open.outbox.is_empty())
        };
        if waiting || !changes.is_empty() {
            self.after_answer(changes);
        }
        reply
    }

    /// [`Shared::finish`], as the engine's response: for a stream opened already.
    fn finished(self: &Arc<Self>, answer: HttpAnswer) -> HttpResponse {
        let now_ms = self.now_ms();
        let (response, changes, waiting) = {
            let mut open = self.lock();
            let (mut response, changes) = open.finished(&self.server, answer);
            open.send_and_end(&mut response, now_ms);
            (response, changes, !open.outbox.is_empty())
        };
        if waiting || !changes.is_empty() {
            self.after_answer(changes);
        }
        response
    }
}

impl Open {
    /// The engine's response for `answer`, with the events that tell the clients of what its
    /// handler changed.
    /// The changes are given back, for the other replicas.
    fn finished<H: Handler>(
        &mut self,
        server: &Server<H>,
        answer: HttpAnswer,
    ) -> (HttpResponse, Vec<Change>) {
        let mut response = self.sessions.finish(answer);
        let changes = core::mem::take(&mut response.changes);
        for change in &changes {
            let told = self.sessions.notify(server, change);
            response.events.extend(told);
        }
        (response, changes)
    }

    /// What the response to a request of `method` (in session `session`, whose record was
    /// `before` it) changed in the state replicas share.
    fn write(
        &self,
        method: &str,
        session: Option<&str>,
        before: Option<&SessionRecord>,
        response: &HttpResponse,
    ) -> Option<Write> {
        let opened = response
            .headers
            .iter()
            .find(|(name, _)| *name == MCP_SESSION_ID);
        if let Some((_, id)) = opened {
            let record = self.sessions.record(id)?;
            return Some(Write::Save(id.clone(), record));
        }
        let session = session?;
        if method == "DELETE" {
            return (response.status == 200).then(|| Write::Remove(session.to_owned()));
        }
        let after = self.sessions.record(session)?;
        (before != Some(&after)).then(|| Write::Save(session.to_owned(), after))
    }

    /// `response` as an HTTP response: its stream opened, its events written, the streams it
    /// ends closed.
    fn deliver(&mut self, mut response: HttpResponse, now_ms: u64) -> http::Response<HttpBody> {
        let content_type = response.content_type();
        let body = match (response.stream.take(), response.body.take()) {
            (Some(stream), _) => {
                let (writer, body) = HttpBody::stream();
                self.streams.insert(stream, writer);
                body
            }
            (None, Some(json)) => HttpBody::full(json),
            (None, None) => HttpBody::empty(),
        };
        self.send_and_end(&mut response, now_ms);
        let mut reply = http::Response::new(body);
        *reply.status_mut() =
            http::StatusCode::from_u16(response.status).unwrap_or(http::StatusCode::OK);
        let headers = reply.headers_mut();
        for (name, value) in response.headers {
            if let Ok(value) = http::HeaderValue::try_from(value) {
                headers.append(name, value);
            }
        }
        if let Some(content_type) = content_type {
            headers.insert(
                http::header::CONTENT_TYPE,
                http::HeaderValue::from_static(content_type),
            );
        }
        reply
    }

    /// Writes `response`'s events on their streams, then closes the streams it ends (dropping
    /// a stream's writer ends its body).
    fn send_and_end(&mut self, response: &mut HttpResponse, now_ms: u64) {
        let events = core::mem::take(&mut response.events);
        self.send(events, now_ms);
        if self.queued {
            let ended = response.ended.iter().cloned().map(Out::End);
            self.outbox.extend(ended);
            return;
        }
        for ended in &response.ended {
            self.streams.remove(ended);
        }
    }

    /// Writes each event on its stream (with a store, puts it in the outbox).
    fn send(&mut self, events: Vec<StreamEvent>, now_ms: u64) {
        if self.queued {
            self.outbox.extend(events.into_iter().map(Out::Event));
            return;
        }
        for event in events {
            self.send_now(event, now_ms);
        }
    }

    /// Writes `event` on its stream; a stream whose client went away, or is too slow to take
    /// what waits for it, is closed.
    fn send_now(&mut self, event: StreamEvent, now_ms: u64) {
        let Some(writer) = self.streams.get(&event.stream) else {
            return;
        };
        let sent = writer.try_send(Bytes::from(event.to_sse()));
        if sent.is_err() || event.last {
            self.streams.remove(&event.stream);
            self.sessions.close(&event.stream, now_ms);
        }
    }

    /// Writes a comment (which clients skip) on every open stream: a stream whose client went
    /// away is found so, and closed, so that the engine frees what it kept for it. The
    /// sessions whose streams are still open, in use.
    fn ping(&mut self, now_ms: u64) -> Vec<String> {
        let Open {
            sessions, streams, ..
        } = self;
        streams.retain(|stream, writer| {
            let alive = writer.try_send(Bytes::from_static(b":\n\n")).is_ok();
            if !alive {
                sessions.close(stream, now_ms);
            }
            alive
        });
        let mut in_use: Vec<String> = streams
            .keys()
            .filter_map(|stream| stream.session().map(str::to_owned))
            .collect();
        in_use.sort_unstable();
        in_use.dedup();
        in_use
    }
}

/// A handler's panic, as the answer a client can read: the request is answered, and what the
/// engine keeps for it is freed, rather than the connection dropped mid-response.
fn panicked() -> RpcError {
    RpcError::new(crate::ErrorCode::InternalError, "the handler failed")
}

/// `run`'s answer, or [`panicked`] when it panics.
fn unwinding(run: impl FnOnce() -> CallResult) -> CallResult {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|_| Err(panicked()))
}

/// A handler's future, answering [`panicked`] when a poll panics.
struct Unwinding<'a>(super::CallFuture<'a>);

impl Future for Unwinding<'_> {
    type Output = CallResult;

    fn poll(mut self: Pin<&mut Self>, task: &mut core::task::Context<'_>) -> Poll<CallResult> {
        let future = &mut self.0;
        let polled =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| future.as_mut().poll(task)));
        polled.unwrap_or_else(|_| Poll::Ready(Err(panicked())))
    }
}

/// Whether any `Accept` of `headers` lists `kind` (or `*/*`), as the engine reads a `GET`'s.
fn accepts(headers: &http::HeaderMap, kind: &str) -> bool {
    let listed = headers.get_all(http::header::ACCEPT).iter();
    let listed = listed.filter_map(|accept| accept.to_str().ok());
    listed
        .map(str::trim)
        .any(|accept| super::http::accepts(accept, kind))
}

/// Whether every `Host` of the request, and its URI's authority (HTTP/2's `:authority`, which
/// comes without a `Host`), names one of `hosts` (the port aside).
fn hosts_allowed(request: &http::Request<impl Sized>, hosts: &[String]) -> bool {
    let named = |name: &str| {
        let name = name.trim_start_matches('[').trim_end_matches(']');
        hosts.iter().any(|host| host.eq_ignore_ascii_case(name))
    };
    if let Some(host) = request.uri().host() {
        if !named(host) {
            return false;
        }
    }
    let headers = request.headers();
    headers.get_all(http::header::HOST).iter().all(|host| {
        let Ok(authority) = host.to_str() else {
            return false;
        };
        let name = match authority.strip_prefix('[') {
            Some(rest) => rest.split(']').next().unwrap_or_default(),
            None => authority
                .rsplit_once(':')
                .map_or(authority, |(name, _)| name),
        };
        hosts.iter().any(|host| host.eq_ignore_ascii_case(name))
    })
}

/// A refusal of HTTP's own, with a JSON-RPC error (no id) saying why, for the client to read.
fn refuse(status: u16, why: &str) -> http::Response<HttpBody> {
    let error = RpcError::new(crate::ErrorCode::InvalidRequest, why);
    json_reply(status, super::call::error_line(None, error))
}

/// `duration` in whole milliseconds (saturating).
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// A response of `status` whose body is the JSON `body`.
fn json_reply(status: u16, body: String) -> http::Response<HttpBody> {
    let mut reply = http::Response::new(HttpBody::full(body));
    *reply.status_mut() = http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::OK);
    reply.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    reply
}

/// A message as the data of an event with no id.
fn data(line: &str) -> String {
    format!("data: {line}\n\n")
}

/// A response with `status` and no body.
fn plain(status: u16) -> http::Response<HttpBody> {
    let mut reply = http::Response::new(HttpBody::empty());
    *reply.status_mut() = http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::OK);
    reply
}

/// Session ids from the standard library's per-process random keys (SipHash keyed from the
/// system's randomness, of a counter): unique, and not to be guessed from outside the process.
fn random_ids() -> impl FnMut() -> String + Send + 'static {
    let keys = RandomState::new();
    let mut count = 0u64;
    move || {
        count += 1;
        format!(
            "{:016x}{:016x}",
            keys.hash_one(count),
            keys.hash_one(!count)
        )
    }
}

impl<H, B> tower_service::Service<http::Request<B>> for StreamableHttp<H>
where
    H: Handler + Send + Sync + 'static,
    B: http_body::Body + Send + 'static,
    B::Data: Send,
{
    type Response = http::Response<HttpBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut core::task::Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let service = self.clone();
        Box::pin(async move { Ok(service.serve(request).await) })
    }
}
