//! The server over Streamable HTTP as a tower service (feature `http-server`): see
//! [`StreamableHttp`].

mod body;
mod calls;
mod checks;
mod client_key;
mod listen;
mod open;
mod replicas;
mod reply;
mod request;
mod state;

pub use body::HttpBody;

use super::store::Store;
use super::Sessions;
use crate::prelude::*;
use crate::server::engine::{Handler, Server};
use client_key::ClientKey;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use state::{Erased, Open, Replicated, Shared};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The server over Streamable HTTP as a `tower` service (feature `http-server`): the engine's
/// transport rules ([`Server::http_receive`](crate::server::Server::http_receive), [`Sessions`]) with the connections, event
/// streams, timers and tasks they need, for any server the `http` crate's types fit: axum
/// (`route_service`), hyper (through hyper-util's `TowerToHyperService`), any tower stack.
///
/// What it adds to the engine:
/// - **its own path alone**: a request for another path gets 404 ([`StreamableHttp::with_path`]);
/// - **a body limit**: a larger body gets 413 before it is read whole
///   ([`StreamableHttp::with_body_limit`]);
/// - **checks before the body**: the path, the method (405), the `Host` (403 unless it names
///   the loopback interface or one of [`StreamableHttp::with_allowed_hosts`]), the `Origin`
///   (403, see [`Sessions::with_origins`]) and what HTTP itself requires (a POST whose body is
///   not `application/json` gets 415, one whose client accepts neither JSON nor event streams
///   406; a client that takes JSON alone gets every answer as JSON) are checked before the
///   body is read and before the store is touched;
/// - **a body deadline**: a body that has not arrived whole within
///   [`StreamableHttp::with_body_timeout`] (30 s by default) gets 408 and its connection
///   closed;
/// - **a handler that panics** answers its request with an internal error (-32603), rather
///   than break the connection and leave the request in flight;
/// - **streams to resume**: with [`StreamableHttp::with_call_streams`] every session's
///   `tools/call` is answered on a stream opened at once, which its handler may close early
///   ([`Context::close_stream`](crate::server::Context::close_stream)) for the client to resume after the
///   [`StreamableHttp::with_retry`] delay;
/// - **no lock around a handler, and no worker held by one**: the sessions are locked to take
///   a request in and to send its answer, never while the handler runs; a handler that is not
///   async runs on tokio's blocking pool (at most [`StreamableHttp::with_blocking_calls`] at
///   once; a call past that waits for room, holding no thread), never on the runtime's
///   workers, so a slow or blocking call holds up no other request; an async handler's future
///   is awaited as a task. A JSON-RPC batch (2025-03-26) runs its calls one after the other
///   on the blocking pool, with no lock held.
/// - **reports as they are made**: what its handler reports goes out at once on the call's
///   event stream ([`Context::send_reports_to`](crate::server::Context::send_reports_to)): a session's call answers with a stream at
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
pub struct StreamableHttp<H: ?Sized> {
    shared: Arc<Shared<H>>,
    config: Arc<Config>,
}

impl<H: ?Sized> Clone for StreamableHttp<H> {
    fn clone(&self) -> Self {
        StreamableHttp {
            shared: Arc::clone(&self.shared),
            config: Arc::clone(&self.config),
        }
    }
}

impl<H: ?Sized> core::fmt::Debug for StreamableHttp<H> {
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
    /// The names a request's `Host` may give besides the loopback interface's; `None`: any.
    hosts: Option<Vec<String>>,
    /// How long a request's body may take to arrive.
    body_timeout: Duration,
    /// How long a request's headers may take to arrive (on a connection `serve` accepted).
    header_timeout: Duration,
    /// The handlers that block (every handler but an async one) run on tokio's blocking pool
    /// once a permit of this is theirs: at most so many at once.
    blocking: Arc<tokio::sync::Semaphore>,
    /// The `retry` a stream opened for a call tells the client to wait before it resumes.
    retry: Option<Duration>,
    /// Whether every session's `tools/call` is answered on a stream opened at once.
    call_streams: bool,
    /// Which client a request comes from.
    client: ClientKey,
}

impl<H: Handler> StreamableHttp<H> {
    /// The most bytes a request's body may have, by default: 4 MiB.
    pub const DEFAULT_BODY_LIMIT: usize = 4 << 20;
    /// How often open streams get a keep-alive comment, by default.
    pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(15);
    /// How long one operation of the store may take, by default (see
    /// [`StreamableHttp::with_store_timeout`]).
    pub const DEFAULT_STORE_TIMEOUT: Duration = Duration::from_secs(2);
    /// How long a session's record, read from the store, serves its read-only requests, by
    /// default (see [`StreamableHttp::with_records_held_for`]).
    pub const DEFAULT_RECORDS_HELD_FOR: Duration = Duration::from_secs(1);
    /// How long a request's body may take to arrive, by default (see
    /// [`StreamableHttp::with_body_timeout`]).
    pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
    /// How long a request's headers may take to arrive, by default (see
    /// [`StreamableHttp::with_header_timeout`]).
    pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(30);
    /// How many handlers that block may run at once, by default (see
    /// [`StreamableHttp::with_blocking_calls`]).
    pub const DEFAULT_BLOCKING_CALLS: usize = 64;

    /// `server` over Streamable HTTP at `/mcp`, with the engine's defaults for sessions
    /// ([`Sessions::DEFAULT_MAX`], [`Sessions::DEFAULT_IDLE_MS`], the loopback origins alone),
    /// the loopback hosts alone, and session ids of 128 bits from the operating system's
    /// randomness (see [`StreamableHttp::with_sessions`] for ids of your own).
    pub fn new(server: Server<H>) -> Self {
        StreamableHttp {
            shared: Arc::new(Shared {
                server,
                open: Mutex::new(Open {
                    sessions: Sessions::new(random_ids()),
                    streams: HashMap::new(),
                    outbox: Vec::new(),
                    queued: false,
                    heard: None,
                }),
                started: Instant::now(),
                closing: AtomicBool::new(false),
                pinging: AtomicBool::new(false),
                replicated: OnceLock::new(),
                store_timeout_ms: AtomicU64::new(millis(Self::DEFAULT_STORE_TIMEOUT)),
                held_for_ms: AtomicU64::new(millis(Self::DEFAULT_RECORDS_HELD_FOR)),
                on_bus: AtomicBool::new(false),
                flushing: tokio::sync::Mutex::new(()),
            }),
            config: Arc::new(Config {
                path: Some("/mcp".to_owned()),
                body_limit: Self::DEFAULT_BODY_LIMIT,
                keep_alive: Self::DEFAULT_KEEP_ALIVE,
                hosts: Some(Vec::new()),
                body_timeout: Self::DEFAULT_BODY_TIMEOUT,
                header_timeout: Self::DEFAULT_HEADER_TIMEOUT,
                blocking: Arc::new(tokio::sync::Semaphore::new(Self::DEFAULT_BLOCKING_CALLS)),
                retry: None,
                call_streams: false,
                client: ClientKey::Peer,
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

    /// Serves requests whose `Host` names one of `hosts` (`mcp.example.com`, say; without the
    /// port), besides the loopback interface's names (`localhost`, `127.0.0.1` and the rest of
    /// `127.0.0.0/8`, `::1`), the only ones served by default. A request whose `Host` names
    /// another gets 403 before its body is read: a server on the loopback interface reached
    /// under a foreign name was reached through DNS rebinding. The engine checks `Origin`,
    /// which browsers send; this catches the rest. A server reached under a name of its own
    /// (behind a proxy that keeps the client's `Host`, or on another interface) names it here.
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

    /// Serves requests whatever their `Host`: for a server whose gateway checks it.
    #[must_use]
    pub fn with_any_host(mut self) -> Self {
        Arc::make_mut(&mut self.config).hosts = None;
        self
    }

    /// Answers 408, and closes the connection, when a request's body has not arrived whole
    /// within `timeout` of its headers ([`StreamableHttp::DEFAULT_BODY_TIMEOUT`] by default): a
    /// client that promises a body and sends it slowly, or never, holds nothing for longer.
    /// How long the headers may take is the HTTP server's own setting (hyper's
    /// `header_read_timeout`, with a timer: see `examples/http-server.rs`).
    #[must_use]
    pub fn with_body_timeout(mut self, timeout: Duration) -> Self {
        Arc::make_mut(&mut self.config).body_timeout = timeout;
        self
    }

    /// Closes a connection [`StreamableHttp::serve`] accepted when a request's headers have not
    /// arrived whole within `timeout` ([`StreamableHttp::DEFAULT_HEADER_TIMEOUT`] by default):
    /// a client that opens connections and sends nothing, or sends its headers slowly, holds
    /// them no longer. (Mounted in a framework, the service gets the framework's bound.)
    #[must_use]
    pub fn with_header_timeout(mut self, timeout: Duration) -> Self {
        Arc::make_mut(&mut self.config).header_timeout = timeout;
        self
    }

    /// Runs at most `calls` handlers that block at once ([`StreamableHttp::DEFAULT_BLOCKING_CALLS`]
    /// by default, at least one). A handler that is not async ([`Handler::is_async`]) runs on
    /// tokio's blocking pool, never on the runtime's workers, so that a tool which blocks (a
    /// database driver, a blocking HTTP client, heavy work) holds up no other request; a call
    /// that finds `calls` running waits for one to end, holding no thread while it waits.
    #[must_use]
    pub fn with_blocking_calls(mut self, calls: usize) -> Self {
        let pool = Arc::new(tokio::sync::Semaphore::new(calls.max(1)));
        Arc::make_mut(&mut self.config).blocking = pool;
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
    /// handler may close the stream early ([`Context::close_stream`](crate::server::Context::close_stream)) so that a long call
    /// holds no connection.
    #[must_use]
    pub fn with_call_streams(mut self) -> Self {
        Arc::make_mut(&mut self.config).call_streams = true;
        self
    }

    /// Tells clients apart by the address a trusted proxy in front of the service writes last
    /// into `header` (`x-forwarded-for`, say), rather than by the peer's address, which is
    /// then the proxy's. Only for a service that the proxy alone can reach: a client that
    /// reaches it directly may write the header itself.
    #[must_use]
    pub fn with_client_address_header(mut self, header: http::HeaderName) -> Self {
        Arc::make_mut(&mut self.config).client = ClientKey::Forwarded(header);
        self
    }

    /// Tells clients apart by `key`: the principal a request's credentials name, as the
    /// deployment's authentication found it (in the request's extensions, say), or `None`
    /// for a request without one (which then counts as its peer address's).
    ///
    /// Each client holds at most its share of the sessions and streams
    /// ([`Sessions::with_client_share`]): one that opens more ends its own idlest session,
    /// never another client's. By default a client is its peer's address (the
    /// [`std::net::SocketAddr`] in the request's extensions, which [`StreamableHttp::serve`]
    /// puts there; with axum, give `ConnectInfo`'s here). Requests that name no client share
    /// one unknown client, which has no share: the table then drops the idlest session of
    /// all, as it must.
    ///
    /// With a principal, a session also answers the principal that opened it alone: its id
    /// sent with another's credentials gets 404, as an unknown one does. (With a store, on
    /// the replica that opened it: the store's record does not name its principal.)
    #[must_use]
    pub fn with_client_key(
        mut self,
        key: impl Fn(&http::request::Parts) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        Arc::make_mut(&mut self.config).client = ClientKey::Principal(Arc::new(key));
        self
    }

    /// Keeps at most `max` sessions at once (at least one; [`Sessions::DEFAULT_MAX`] by
    /// default), each ended once its client has sent no request for `idle` (its streams open
    /// or not; [`Sessions::DEFAULT_IDLE_MS`] by default), and at most `per_client` of them for
    /// one client (a quarter of `max` by default: see [`StreamableHttp::with_client_key`]).
    #[must_use]
    pub fn with_session_limits(self, max: usize, idle: Duration, per_client: usize) -> Self {
        let mut open = self.shared.lock();
        let sessions = core::mem::replace(&mut open.sessions, Sessions::new(String::new));
        open.sessions = (sessions.with_limits(max, millis(idle))).with_client_share(per_client);
        drop(open);
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
    /// - a session of a stateful revision opened on one replica goes on over the others (a
    ///   request that may change its record reads it from the store, one that only reads it
    ///   is served from the replica's copy for [`StreamableHttp::with_records_held_for`];
    ///   what changes it, written back before the answer goes out);
    /// - the events of a session's streams are kept in the store before they are sent, with
    ///   ids unique across replicas, so that a client resumes a stream on any replica with
    ///   `Last-Event-ID`, even after the one it was on died;
    /// - what a handler changes ([`Context::changed`](crate::server::Context::changed)) is kept
    ///   in the store, numbered, and told to the clients of every replica in that order, through
    ///   the store's bus; a session whose stream was open nowhere meanwhile is replayed it when
    ///   its client resumes with `Last-Event-ID` (see [`Store::publish`]); a session deleted
    ///   on one replica ends its streams on all.
    ///
    /// What stays with the replica that holds it: the requests in flight, a stateful client's
    /// `input_required` rounds (its answers must reach the replica that asked), the open
    /// streams. Stateless requests (2026-07-28 on) need nothing from the store but its bus;
    /// their `input_required` state is sealed with a [`KeyRing`](crate::input_required::KeyRing)
    /// every replica is given ([`Server::with_state_codec`](crate::server::Server::with_state_codec)).
    ///
    /// A request whose state the store cannot read or write within
    /// [`StreamableHttp::with_store_timeout`] gets 503 and a JSON-RPC error saying the state
    /// store is unavailable; service comes back with the store. Call it once, before serving:
    /// the first store given is the one kept.
    #[must_use]
    pub fn with_store(self, store: impl Store) -> Self {
        let mut name = random_ids()();
        name.truncate(12);
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

    /// With a store (see [`StreamableHttp::with_store`]): how long the record of a session
    /// that this replica read from the store, or wrote there, serves the session's messages
    /// that only read it ([`StreamableHttp::DEFAULT_RECORDS_HELD_FOR`] by default). Those are
    /// responses, and the requests and notifications that cannot change what the record holds
    /// (`tools/call`, the lists, `resources/read`, `prompts/get`, `completion/complete`, `ping`,
    /// cancellations, progress); the others (`initialize`, `notifications/initialized`,
    /// `resources/subscribe` and `unsubscribe`, `logging/setLevel`), a batch and a resumed
    /// stream read the store every time, so that no change made on another replica is lost
    /// under theirs.
    ///
    /// Meanwhile the bus brings this replica what the others change, as it carries it; a
    /// change it lost or has not carried yet is seen here once the record is read again, at
    /// most this long after the last read. A store that stops answering is then found by the
    /// sessions' requests within this time too (they answer 503), and the store's expiry of
    /// a session counts from at most this long before its last use. It is held no longer than
    /// half the time an idle session is kept ([`Sessions::idle_ms`](crate::server::Sessions::idle_ms)),
    /// so that the store still has the session whenever its copy serves. `Duration::ZERO`:
    /// every message of a session reads the store.
    #[must_use]
    pub fn with_records_held_for(self, held_for: Duration) -> Self {
        (self.shared.held_for_ms).store(millis(held_for), Ordering::SeqCst);
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
    /// The same service, its server's handler a `dyn Handler`: what serves every request.
    fn erased(&self) -> StreamableHttp<Erased> {
        let shared: Arc<Shared<Erased>> = self.shared.clone();
        StreamableHttp {
            shared,
            config: Arc::clone(&self.config),
        }
    }
}

/// `duration` in whole milliseconds (saturating).
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Session ids of 128 bits from the operating system's randomness, as 32 hexadecimal
/// digits: not to be guessed, whatever else the process shows. Empty when the system has no
/// randomness to give (the engine then refuses the `initialize` rather than make one up).
fn random_ids() -> impl FnMut() -> String + Send + 'static {
    || {
        let mut bits = [0u8; 16];
        match getrandom::fill(&mut bits) {
            Ok(()) => bits.iter().map(|byte| format!("{byte:02x}")).collect(),
            Err(_) => String::new(),
        }
    }
}
