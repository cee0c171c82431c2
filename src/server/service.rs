//! The server over Streamable HTTP as a tower service (feature `http-server`): see
//! [`StreamableHttp`].

mod body;
mod listen;

pub use body::HttpBody;

use super::store::{Store, StoreError};
use super::{Broadcast, Change, SessionRecord};
use super::{
    Context, Handler, HttpAnswer, HttpBatch, HttpCall, HttpIncoming, HttpResponse, Server,
};
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
///   ([`Context::close_stream`]) for the client to resume after the
///   [`StreamableHttp::with_retry`] delay;
/// - **no lock around a handler, and no worker held by one**: the sessions are locked to take
///   a request in and to send its answer, never while the handler runs; a handler that is not
///   async runs on tokio's blocking pool (at most [`StreamableHttp::with_blocking_calls`] at
///   once; a call past that waits for room, holding no thread), never on the runtime's
///   workers, so a slow or blocking call holds up no other request; an async handler's future
///   is awaited as a task. A JSON-RPC batch (2025-03-26) runs its calls one after the other
///   on the blocking pool, with no lock held.
/// - **reports as they are made**: what its handler reports goes out at once on the call's
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
    /// The names a request's `Host` may give besides the loopback interface's; `None`: any.
    hosts: Option<Vec<String>>,
    /// How long a request's body may take to arrive.
    body_timeout: Duration,
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

/// What finds the principal of a request (see [`StreamableHttp::with_client_key`]).
type PrincipalOf = dyn Fn(&http::request::Parts) -> Option<String> + Send + Sync;

/// How the service tells which client a request comes from (see
/// [`StreamableHttp::with_client_key`]).
#[derive(Clone)]
enum ClientKey {
    /// The peer's address, from the request's extensions (a [`std::net::SocketAddr`]).
    Peer,
    /// The last address a trusted proxy wrote into this header.
    Forwarded(http::HeaderName),
    /// What the deployment computes: the authenticated principal. A session answers it alone.
    Principal(Arc<PrincipalOf>),
}

impl core::fmt::Debug for ClientKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ClientKey::Peer => f.write_str("Peer"),
            ClientKey::Forwarded(header) => f.debug_tuple("Forwarded").field(header).finish(),
            ClientKey::Principal(_) => f.write_str("Principal(..)"),
        }
    }
}

impl ClientKey {
    /// The key of the client that sent `request` (empty when it cannot be told: every such
    /// request counts as one unknown client's, which has no share), and whether its sessions
    /// answer it alone.
    fn of(&self, request: &http::request::Parts) -> (String, bool) {
        let peer = || {
            let address = request.extensions.get::<std::net::SocketAddr>();
            address.map(|address| format!("address {}", address.ip()))
        };
        match self {
            ClientKey::Peer => (peer().unwrap_or_default(), false),
            ClientKey::Forwarded(header) => {
                let forwarded = request.headers.get_all(header).iter().next_back();
                let last = forwarded
                    .and_then(|value| value.to_str().ok())
                    .and_then(|value| value.rsplit(',').next())
                    .map(str::trim)
                    .filter(|address| !address.is_empty());
                let key = last.map(|address| format!("address {address}"));
                (key.or_else(peer).unwrap_or_default(), false)
            }
            ClientKey::Principal(key) => match key(request) {
                Some(principal) => (format!("principal {principal}"), true),
                None => (peer().unwrap_or_default(), false),
            },
        }
    }
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
    /// How long a request's body may take to arrive, by default (see
    /// [`StreamableHttp::with_body_timeout`]).
    pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
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
                hosts: Some(Vec::new()),
                body_timeout: Self::DEFAULT_BODY_TIMEOUT,
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
    /// handler may close the stream early ([`Context::close_stream`]) so that a long call
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
    /// sent with another's credentials gets 404, as an unknown one does.
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
    async fn serve_request<B: http_body::Body>(
        self,
        request: http::Request<B>,
    ) -> http::Response<HttpBody> {
        let shared = self.shared;
        Shared::keep_alive(&shared, self.config.keep_alive);
        // Every check that needs no body comes before it is read, and before the store is
        // touched: a request refused here costs its headers alone.
        if let Some(path) = &self.config.path {
            if request.uri().path() != path {
                return plain(404);
            }
        }
        if shared.closing.load(Ordering::SeqCst) {
            return plain(503);
        }
        let verb = request.method();
        if verb != http::Method::POST && verb != http::Method::GET && verb != http::Method::DELETE {
            let mut reply = plain(405);
            let allow = http::HeaderValue::from_static("GET, POST, DELETE");
            reply.headers_mut().insert(http::header::ALLOW, allow);
            return reply;
        }
        if let Some(hosts) = &self.config.hosts {
            if !hosts_allowed(&request, hosts) {
                return refuse(403, "Forbidden: the Host is not one this server answers to");
            }
        }
        let origin = request.headers().get(http::header::ORIGIN);
        if let Some(origin) = origin {
            let origin = origin.to_str().ok();
            if !origin.is_some_and(|origin| shared.lock().sessions.allows_origin(origin)) {
                let why = "Forbidden: requests from this Origin are not taken";
                return refuse(403, why);
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
        let read = body::read(body, self.config.body_limit);
        // Outside a tokio runtime (hyper driven by another executor) there is no timer: the
        // HTTP server's own bounds are all there is.
        let read = match tokio::runtime::Handle::try_current() {
            Ok(_) => tokio::time::timeout(self.config.body_timeout, read).await,
            Err(_) => Ok(read.await),
        };
        let body = match read {
            Ok(Ok(body)) => body,
            Ok(Err(body::Unread::TooLarge)) => return plain(413),
            Ok(Err(body::Unread::Broken)) => return plain(400),
            Err(_) => {
                // The connection is closed after the answer: what is left of the body would
                // be read as the next request.
                let mut reply = refuse(408, "Request Timeout: the body did not arrive in time");
                let close = http::HeaderValue::from_static("close");
                reply.headers_mut().insert(http::header::CONNECTION, close);
                return reply;
            }
        };
        let Ok(body) = String::from_utf8(body) else {
            return plain(400);
        };
        let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
        let (client, bound) = self.config.client.of(&parts);
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
            if let (true, Some(id)) = (bound, &session) {
                // Another principal's session is one this principal does not know of.
                if open
                    .sessions
                    .client_of(id)
                    .is_some_and(|owner| owner != client)
                {
                    let error =
                        RpcError::new(crate::ErrorCode::InvalidRequest, "Session not found");
                    let line = super::call::error_line(crate::answer::request_id(&body), error);
                    return json_reply(404, line);
                }
            }
            let sessions = &mut open.sessions;
            let incoming =
                (shared.server).http_receive_from(sessions, &client, method, header, &body, now_ms);
            match incoming {
                HttpIncoming::Respond(response) if replicated.is_none() => {
                    return open.deliver(response, now_ms);
                }
                HttpIncoming::Respond(response) => {
                    let session = session.as_deref();
                    let write = open.write(method, session, before.as_ref(), &response);
                    (Ok(open.deliver(response, now_ms)), write)
                }
                HttpIncoming::Call(call) => (Err(Handed::Call(call)), None),
                HttpIncoming::Batch(batch) => {
                    // What the engine answered of it (a subscription, say) changed the record.
                    let session = session.as_deref();
                    let after = session.and_then(|id| Some((id, open.sessions.record(id)?)));
                    let write = after
                        .filter(|(_, after)| before.as_ref() != Some(after))
                        .map(|(id, after)| Write::Save(id.to_owned(), after));
                    (Err(Handed::Batch(batch)), write)
                }
            }
        };
        let reply = match reply {
            Ok(reply) => reply,
            Err(Handed::Call(call)) => {
                return shared.answer(call, &self.config, takes_streams).await;
            }
            Err(Handed::Batch(batch)) => shared.respond_batch(batch, &self.config.blocking).await,
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

/// What the engine handed out of a request, for the handler.
enum Handed {
    Call(HttpCall),
    Batch(HttpBatch),
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
        let pool = &config.blocking;
        let Some(runtime) = runtime.filter(|_| takes_streams && (reports || streamed)) else {
            // Nothing goes out before the answer: answered from here, with no lock held.
            return self.respond_here(call, pool).await;
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
                let finish = move |shared: &Arc<Self>, result, context: &mut Context| {
                    shared.finish(responder.respond_with(context, result));
                };
                self.run_beside(&runtime, pool, call, context, finish);
                reply
            }
            // A call already answered on a stream (after the client's input): its reports go
            // with its answer, on that stream.
            None if !stateless => self.respond_here(call, pool).await,
            // A stateless call: one JSON answer, unless a report comes first.
            None => self.answer_stateless(call, &runtime, pool).await,
        }
    }

    /// Answers `call` and gives its response: an async handler's future awaited in the
    /// request's own task (it holds no thread while it waits), any other handler on tokio's
    /// blocking pool once the service's pool of blocking calls has room,
    /// never on the runtime's workers. The blocking call finishes by itself, so that a client
    /// that hangs up meanwhile leaves nothing of its call in the session. A handler that
    /// panics answers with an internal error.
    async fn respond_here(
        self: &Arc<Self>,
        call: HttpCall,
        pool: &Arc<tokio::sync::Semaphore>,
    ) -> http::Response<HttpBody> {
        let (call, mut context, responder) = call.into_parts();
        let handler = self.server.handler();
        if handler.is_async(&call) {
            let result = Unwinding(handler.call_async(call, &mut context)).await;
            return self.finish(responder.respond_with(&mut context, result));
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            // Outside a tokio runtime there is no blocking pool: the handler runs here.
            let result = unwinding(|| handler.call(call, &mut context));
            return self.finish(responder.respond_with(&mut context, result));
        };
        // The pool is never closed: a permit always comes.
        let permit = Arc::clone(pool).acquire_owned().await.ok();
        let shared = Arc::clone(self);
        let running = runtime.spawn_blocking(move || {
            let _permit = permit;
            let result = unwinding(|| shared.server.handler().call(call, &mut context));
            shared.finish(responder.respond_with(&mut context, result))
        });
        // Only a runtime that shuts down drops a blocking task before it runs.
        running.await.unwrap_or_else(|_| plain(503))
    }

    /// Answers a batch's calls one after the other on tokio's blocking pool, once the pool of
    /// blocking calls has room (an async handler's future run to its end there), with no lock
    /// held, then gives its response. A handler that panics answers its item with an internal
    /// error.
    async fn respond_batch(
        self: &Arc<Self>,
        mut batch: HttpBatch,
        pool: &Arc<tokio::sync::Semaphore>,
    ) -> http::Response<HttpBody> {
        let shared = Arc::clone(self);
        let answer = move |batch: &mut HttpBatch| {
            let handler = shared.server.handler();
            batch.answer_with(|call, context| {
                unwinding(|| super::later::answer_here(handler, call, context))
            });
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                let permit = Arc::clone(pool).acquire_owned().await.ok();
                let shared = Arc::clone(self);
                let running = runtime.spawn_blocking(move || {
                    let _permit = permit;
                    answer(&mut batch);
                    shared.finish_batch(batch)
                });
                running.await.unwrap_or_else(|_| plain(503))
            }
            Err(_) => {
                answer(&mut batch);
                self.finish_batch(batch)
            }
        }
    }

    /// The response for a batch whose calls were answered, with the clients told of what its
    /// handlers changed.
    fn finish_batch(self: &Arc<Self>, batch: HttpBatch) -> http::Response<HttpBody> {
        let now_ms = self.now_ms();
        let (reply, changes, waiting) = {
            let mut open = self.lock();
            let response = open.sessions.finish_batch(batch);
            let (response, changes) = open.told(&self.server, response);
            let reply = open.deliver(response, now_ms);
            (reply, changes, !open.outbox.is_empty())
        };
        if waiting || !changes.is_empty() {
            self.after_answer(changes);
        }
        reply
    }

    /// Runs the handler on `call` beside the request, then `done` with its answer: an async
    /// handler's future as a task of `runtime`, any other handler on its blocking pool once
    /// `pool` has room (a handler that blocks between its reports must not hold the worker
    /// that would write them). A handler that panics answers with an internal error.
    fn run_beside(
        self: Arc<Self>,
        runtime: &tokio::runtime::Handle,
        pool: &Arc<tokio::sync::Semaphore>,
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
            let pool = Arc::clone(pool);
            let blocking = runtime.clone();
            runtime.spawn(async move {
                let permit = pool.acquire_owned().await.ok();
                // Awaited by no one: `done` takes the answer.
                drop(blocking.spawn_blocking(move || {
                    let _permit = permit;
                    let result = unwinding(|| self.server.handler().call(call, &mut context));
                    done(&self, result, &mut context);
                }));
            });
        }
    }

    /// A stateless call whose client asked for reports: the first of a report and the answer
    /// decides whether the response is an event stream or one JSON message.
    async fn answer_stateless(
        self: Arc<Self>,
        call: HttpCall,
        runtime: &tokio::runtime::Handle,
        pool: &Arc<tokio::sync::Semaphore>,
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
        Arc::clone(&self).run_beside(runtime, pool, call, context, move |_, result, _| {
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
        let response = self.sessions.finish(answer);
        self.told(server, response)
    }

    /// `response` with the events that tell the clients of what its handlers changed; the
    /// changes given back, for the other replicas.
    fn told<H: Handler>(
        &mut self,
        server: &Server<H>,
        mut response: HttpResponse,
    ) -> (HttpResponse, Vec<Change>) {
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
/// comes without a `Host`), names the loopback interface or one of `hosts` (the port aside).
fn hosts_allowed(request: &http::Request<impl Sized>, hosts: &[String]) -> bool {
    let named = |name: &str| {
        is_loopback_name(name) || hosts.iter().any(|host| host.eq_ignore_ascii_case(name))
    };
    if let Some(host) = request.uri().host() {
        if !named(host.trim_start_matches('[').trim_end_matches(']')) {
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
        named(name)
    })
}

/// Whether `name` (a host, without port or brackets) names the loopback interface:
/// `localhost`, an address of `127.0.0.0/8`, or `::1`.
fn is_loopback_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|address| address.is_loopback())
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
        Box::pin(async move { Ok(service.serve_request(request).await) })
    }
}
