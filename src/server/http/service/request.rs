//! One request served: its checks, its body, the engine, the store.

use super::body::{self, HttpBody, Unread};
use super::checks::{accepts, hosts_allowed};
use super::reply::{json_reply, plain, refuse};
use super::state::{Erased, Shared, Write};
use super::StreamableHttp;
use crate::http_headers::{LAST_EVENT_ID, MCP_METHOD, MCP_SESSION_ID};
use crate::prelude::*;
use crate::server::http::shared::leaves_the_record;
use crate::server::store::StoreError;
use crate::server::{Handler, HttpBatch, HttpCall, HttpIncoming};
use crate::RpcError;
use core::future::Future;
use core::pin::Pin;
use core::sync::atomic::Ordering;
use core::task::Poll;
use std::convert::Infallible;
use std::sync::Arc;

impl StreamableHttp<Erased> {
    /// The response to `request`: its head checked, its body read, then the rest, which
    /// depends on neither the handler's type nor the body's.
    pub(super) async fn serve_request<B: http_body::Body>(
        self,
        request: http::Request<B>,
    ) -> http::Response<HttpBody> {
        let (parts, body) = request.into_parts();
        // Every check that needs no body comes before it is read, and before the store is
        // touched: a request refused here costs its headers alone.
        let takes_streams = match self.check_head(&parts) {
            Ok(takes_streams) => takes_streams,
            Err(refused) => return refused,
        };
        let read = body::read(body, self.config.body_limit);
        // Outside a tokio runtime (hyper driven by another executor) there is no timer: the
        // HTTP server's own bounds are all there is.
        let read = match tokio::runtime::Handle::try_current() {
            Ok(_) => tokio::time::timeout(self.config.body_timeout, read)
                .await
                .unwrap_or(Err(Unread::TimedOut)),
            Err(_) => read.await,
        };
        self.serve_read(parts, read, takes_streams).await
    }

    /// Whether the request's head may be answered: `Ok` with whether its client takes event
    /// streams, or the refusal.
    // The refusal is the response itself, returned at once to be sent: boxing it would only
    // add an allocation to each refused request.
    #[allow(clippy::result_large_err)]
    fn check_head(&self, request: &http::request::Parts) -> Result<bool, http::Response<HttpBody>> {
        Shared::keep_alive(&self.shared, self.config.keep_alive);
        if let Some(path) = &self.config.path {
            if request.uri.path() != path {
                return Err(plain(404));
            }
        }
        if self.shared.closing.load(Ordering::SeqCst) {
            return Err(plain(503));
        }
        let verb = &request.method;
        if verb != http::Method::POST && verb != http::Method::GET && verb != http::Method::DELETE {
            let mut reply = plain(405);
            let allow = http::HeaderValue::from_static("GET, POST, DELETE");
            reply.headers_mut().insert(http::header::ALLOW, allow);
            return Err(reply);
        }
        if let Some(hosts) = &self.config.hosts {
            if !hosts_allowed(request, hosts) {
                return Err(refuse(
                    403,
                    "Forbidden: the Host is not one this server answers to",
                ));
            }
        }
        let origin = request.headers.get(http::header::ORIGIN);
        if let Some(origin) = origin {
            let origin = origin.to_str().ok();
            if !origin.is_some_and(|origin| self.shared.lock().sessions.allows_origin(origin)) {
                let why = "Forbidden: requests from this Origin are not taken";
                return Err(refuse(403, why));
            }
        }
        let takes_streams = accepts(&request.headers, "text/event-stream");
        if request.method == http::Method::POST {
            if !(takes_streams || accepts(&request.headers, "application/json")) {
                let why = "Not Acceptable: accept application/json and text/event-stream";
                return Err(refuse(406, why));
            }
            let json = request
                .headers
                .get(http::header::CONTENT_TYPE)
                .and_then(|kind| kind.to_str().ok())
                .is_some_and(|kind| kind.trim_start().starts_with("application/json"));
            if !json {
                return Err(refuse(
                    415,
                    "Unsupported Media Type: the body must be application/json",
                ));
            }
        }
        Ok(takes_streams)
    }

    /// The response to a request whose head passed and whose body was `read`, as a future
    /// in a box: a function of this crate, so its body is compiled here alone, not again in
    /// each crate that serves requests of its own body type.
    fn serve_read(
        self,
        parts: http::request::Parts,
        read: Result<Vec<u8>, Unread>,
        takes_streams: bool,
    ) -> Pin<Box<dyn Future<Output = http::Response<HttpBody>> + Send>> {
        Box::pin(self.serve_read_here(parts, read, takes_streams))
    }

    /// The body of [`StreamableHttp::serve_read`].
    async fn serve_read_here(
        self,
        parts: http::request::Parts,
        read: Result<Vec<u8>, Unread>,
        takes_streams: bool,
    ) -> http::Response<HttpBody> {
        let shared = self.shared;
        let body = match read {
            Ok(body) => body,
            Err(Unread::TooLarge) => return plain(413),
            Err(Unread::Broken) => return plain(400),
            Err(Unread::TimedOut) => {
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
            Shared::join_bus(&shared).await;
            let resuming = header(LAST_EVENT_ID).filter(|_| method == "GET");
            // Peeked only when a held record may serve it: with a window of zero every
            // message reads the store, and the engine's own peek is the only one.
            let may_hold = shared.held_for_ms.load(Ordering::SeqCst) > 0;
            let reads_alone = method == "POST" && may_hold && leaves_the_record(&body);
            match shared
                .bring_in(replicated, id, resuming.map(str::trim), reads_alone)
                .await
            {
                Ok(record) => before = record,
                Err(refused) => return refused.into_reply(&body),
            }
        } else if replicated.is_some() {
            // A stateless request needs the bus alone; one that opens a stream waits until the
            // bus knows where it starts, as a session's does.
            if header(MCP_METHOD) == Some("subscriptions/listen") {
                Shared::join_bus(&shared).await;
            } else {
                Shared::start_bus(&shared);
            }
        }
        let (reply, write) = {
            let now_ms = shared.now_ms();
            let mut open = shared.lock();
            if let (true, Some(id)) = (bound, &session) {
                // Another principal's session is one this principal does not know of. (A
                // session adopted from the store names no client: the store's record does not
                // say who opened it, so the binding holds on the replica that opened it.)
                if open
                    .sessions
                    .client_of(id)
                    .is_some_and(|owner| !owner.is_empty() && owner != client)
                {
                    let error =
                        RpcError::new(crate::ErrorCode::InvalidRequest, "Session not found");
                    let line = crate::server::engine::call::error_line(
                        crate::answer::request_id(&body),
                        error,
                    );
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
            let opened = match (&write, &session) {
                (Write::Save(id, _), None) => Some(id.clone()),
                _ => None,
            };
            if let Err(error) = shared.write(replicated, write).await {
                return Refused::Store(error).into_reply(&body);
            }
            if let Some(opened) = opened.filter(|_| !client.is_empty()) {
                shared.claim(replicated, &client, &opened).await;
            }
        }
        if session.is_some() {
            // The session's events, kept in the store before its answer goes.
            Arc::clone(&shared).flush().await;
        } else if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            // A stateless request waits for no session's events.
            runtime.spawn(Arc::clone(&shared).flush());
        }
        reply
    }
}

/// What the engine handed out of a request, for the handler.
enum Handed {
    Call(HttpCall),
    Batch(HttpBatch),
}

/// Why a request is refused before the engine reads it.
pub(super) enum Refused {
    /// The store could not be read or written.
    Store(StoreError),
    /// The session is in the store, but this replica's table is full of sessions in use.
    Full,
}

impl Refused {
    /// The 503 that says so, answering the request in `body` (when it has an id).
    pub(super) fn into_reply(self, body: &str) -> http::Response<HttpBody> {
        let message = match self {
            Refused::Store(error) => error.to_string(),
            Refused::Full => "too many sessions: try again later".to_owned(),
        };
        let id = crate::answer::request_id(body);
        let error = RpcError::new(crate::ErrorCode::InternalError, message);
        json_reply(503, crate::server::engine::call::error_line(id, error))
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
        let service = self.erased();
        Box::pin(async move { Ok(service.serve_request(request).await) })
    }
}
