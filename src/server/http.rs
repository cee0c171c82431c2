//! Streamable HTTP, as plain data: a request's method, headers and body in; the status, the
//! headers and the body to answer with out. The HTTP library is the caller's (see
//! `examples/http-server.rs` for hyper).
//!
//! The engine applies the transport's rules around [`Server::receive`]:
//! - a stateful client opens a session with `initialize`, whose answer carries its
//!   `Mcp-Session-Id`; each later request carries it (missing: 400; unknown, expired or
//!   ended: 404) and an `MCP-Protocol-Version` the server speaks (otherwise 400; the session
//!   is answered in its own revision whatever the header names); `DELETE` ends the session;
//! - a stateless request (2026-07-28 on) stands alone: its headers must say what its body says
//!   ([`http_headers::check`](crate::http_headers::check), `-32020` with 400; a `tools/call`'s
//!   `Mcp-Param-*` headers too, against the tool's `x-mcp-header` annotations as
//!   [`Handler::tool_headers`] gives them), and the transport's errors carry their status
//!   (400, and 404 for an unknown method);
//! - a message that asks for no answer gets 202 and no body;
//! - a request from a web page whose `Origin` the server does not take gets 403, before
//!   anything else (DNS rebinding; by default only the loopback interface's origins are
//!   taken: [`Sessions::with_origins`], [`Sessions::with_any_origin`]).
//!
//! What the server says besides its answers goes on event streams (server-sent events), for
//! the sessions of stateful revisions:
//! - a request whose handler asks the client for input (an `input_required` answer, relayed
//!   as requests of the client's revision) is answered with an event stream instead of one
//!   message: its first event asks the first input request; the client's answer comes in a
//!   POST of its own (202), and the next request, then the final answer, go out as
//!   [`StreamEvent`]s on the first request's stream;
//! - a `GET` with the session's id opens the session's own stream (one at a time: a second
//!   gets 409), on which [`Sessions::notify`] sends what the client subscribed to.
//!
//! The engine holds no connection: a response that opens a stream says so
//! ([`HttpResponse::stream`]); the caller keeps the connection open under that
//! [`StreamId`], writes each event given for it ([`HttpResponse::events`], the return of
//! [`Sessions::notify`]) and closes it after the one marked [`StreamEvent::last`], or when a
//! response lists it in [`HttpResponse::ended`] (its request cancelled, its session deleted or
//! expired); it reports a stream closed with [`Sessions::close`]. A stateless request
//! (2026-07-28 on) gets one message, or, when its handler reported progress or log messages,
//! a stream that its response opens and ends (the reports, then the answer); its
//! `subscriptions/listen` gets a stream that stays open, acknowledged first, then told by
//! [`Sessions::notify`] what it asked for, until the caller closes it (at most
//! [`Sessions::max`] at once: the next is refused with 503). `GET` without a session gets
//! 405: those revisions carry input in their results.
//!
//! What a handler reports while it answers (see [`Context`]) goes before its answer on the
//! answer's stream: a JSON answer becomes an event stream for it.
//!
//! A call that takes long may be answered on an event stream at once
//! ([`Sessions::open_stream`]), which opens with an event the client can resume after, so that
//! the caller may close the connection before the answer and the client polls for it
//! (SEP-1699); the answer, when [`Sessions::finish`] gives it, is the stream's last event.
//!
//! A session's streams can be resumed: each of their events has an id unique in the session
//! ([`StreamEvent::id`]), and a `GET` with `Last-Event-ID` reopens the stream that event went
//! on, with the events it missed since (the session keeps its latest
//! [`Sessions::EVENTS_KEPT`]; an id older than those opens the session's own stream afresh).
//!
//! Sessions are bounded: one whose client sent no request for longer than
//! [`Sessions::idle_ms`] is dropped (its streams end with it), at most [`Sessions::max`] exist
//! at once, and one client holds at most its share of them ([`Sessions::with_client_share`],
//! a quarter by default; the client is the key given to [`Server::http_receive_from`]). An
//! `initialize` of a client at its share ends that client's own idlest session; one that finds
//! the table full ends the idlest session of the client holding the most (its client's next
//! request gets 404, and the transport has it open a new session). So no one client, by
//! opening sessions or holding streams open, evicts another's sessions or shuts it out. The
//! clock is the caller's: each call says what time it is.

use super::call::{Answer, Responder};
use super::engine::Incoming;
use super::origin::Origins;
use super::resume::EventLog;
use super::stream::{StreamEvent, StreamId};
use super::{Change, Context, Handler, PendingCall, Server, Session};
use crate::http_headers::{self, LAST_EVENT_ID, MCP_PROTOCOL_VERSION, MCP_SESSION_ID};
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::{ErrorCode, RequestId, RpcError};
use alloc::collections::{BTreeMap, BTreeSet};
use core::fmt;
use serde_json::Value;

/// An HTTP response, as plain data.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// The headers, beside `Content-Type` ([`HttpResponse::content_type`]).
    pub headers: Vec<(&'static str, String)>,
    /// The body: one JSON-RPC message (or a batch's array); `None` for 202, 404 of a `DELETE`,
    /// 405, and an event stream.
    pub body: Option<String>,
    /// The event stream this response opens: keep the connection open under this id and
    /// write its events as they come (the first ones are in [`HttpResponse::events`]).
    pub stream: Option<StreamId>,
    /// Events to write on open streams, this response's own among them (in order).
    pub events: Vec<StreamEvent>,
    /// Streams that end without a last event: the client cancelled their request, or their
    /// session ended or expired, or (this response's own) a request's stream resumed after its
    /// last event. Close their connections, after this response's events.
    pub ended: Vec<StreamId>,
    /// What the handler said changed while it answered ([`Context::changed`]), when it ran
    /// elsewhere ([`HttpResponder::respond_with`]): tell the clients with
    /// [`Sessions::notify`]. [`Server::http`] tells them itself (their events are in
    /// [`HttpResponse::events`]) and leaves this empty.
    pub changes: Vec<Change>,
    /// The `Content-Type`, fixed when the engine hands the response out, so that it stays
    /// right once the caller has taken the body or the stream out of it.
    content_type: Option<&'static str>,
}

impl HttpResponse {
    fn new(status: u16, body: Option<String>) -> Self {
        HttpResponse {
            status,
            headers: Vec::new(),
            body,
            stream: None,
            events: Vec::new(),
            ended: Vec::new(),
            changes: Vec::new(),
            content_type: None,
        }
    }

    /// The response as the engine hands it out: its content type fixed (see
    /// [`HttpResponse::content_type`]).
    fn sealed(mut self) -> Self {
        self.seal();
        self
    }

    fn seal(&mut self) {
        self.content_type = match (&self.body, &self.stream) {
            (Some(_), _) => Some("application/json"),
            (None, Some(_)) => Some("text/event-stream"),
            (None, None) => None,
        };
    }

    fn error(status: u16, id: Option<RequestId>, error: RpcError) -> Self {
        HttpResponse::new(status, Some(super::call::error_line(id, error)))
    }

    /// A 200 that opens `stream`, with its first events.
    fn opening(stream: StreamId, events: Vec<StreamEvent>) -> Self {
        let mut response = HttpResponse::new(200, None);
        response.stream = Some(stream);
        response.events = events;
        response
    }

    /// The `Content-Type` to send: `application/json` with a body, `text/event-stream` for a
    /// stream, none otherwise. It is the response's as the engine gave it: taking
    /// [`HttpResponse::body`] or [`HttpResponse::stream`] out first does not change it.
    pub fn content_type(&self) -> Option<&'static str> {
        self.content_type
    }
}

/// What [`Server::http`] makes of a request.
#[derive(Debug)]
#[non_exhaustive]
pub enum HttpIncoming {
    /// The response to send now.
    Respond(HttpResponse),
    /// A request for the handler; the response follows from its answer, through
    /// [`Sessions::finish`].
    Call(HttpCall),
    /// A session's JSON-RPC batch (2025-03-26) with calls for the handler: answer them
    /// ([`HttpBatch::answer_with`]), then [`Sessions::finish_batch`] gives the response.
    Batch(HttpBatch),
}

/// A session's JSON-RPC batch, received over HTTP (see [`HttpIncoming::Batch`]).
#[derive(Debug)]
pub struct HttpBatch {
    batch: super::Batch,
    session: String,
}

impl HttpBatch {
    /// Answers each call of the batch that waits with `answer` (the handler's), in order.
    pub fn answer_with(
        &mut self,
        answer: impl FnMut(
            latest::ClientCall,
            &mut Context,
        ) -> Result<latest::ClientCallResult, RpcError>,
    ) {
        self.batch.answer_with(answer);
    }
}

/// A request for the handler, received over HTTP.
#[derive(Debug)]
pub struct HttpCall {
    pending: Box<PendingCall>,
    session: Option<String>,
    /// The request whose stream carries the answer (a call handed out again after its
    /// client's input); `None`: the answer is this HTTP request's response.
    stream: Option<RequestId>,
}

/// Writes the answer to one request received over HTTP.
#[derive(Debug)]
pub struct HttpResponder {
    responder: Responder,
    session: Option<String>,
    stream: Option<RequestId>,
}

/// An answer to a request received over HTTP: [`Sessions::finish`] makes the response.
#[derive(Debug, Clone, PartialEq)]
#[must_use = "the response is made by `Sessions::finish`"]
pub struct HttpAnswer {
    answer: Answer,
    session: Option<String>,
    stream: Option<RequestId>,
    /// What the handler reported, as lines to send before the answer.
    notes: Vec<String>,
    /// What the handler said changed.
    changes: Vec<Change>,
}

impl HttpCall {
    /// The call, as [`Server::receive`] hands it out.
    pub fn pending(&self) -> &PendingCall {
        &self.pending
    }

    /// The `Mcp-Session-Id` of the session it came in; `None` for a stateless request.
    pub fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }

    /// The call, its context, and the responder for its answer.
    pub fn into_parts(self) -> (latest::ClientCall, Context, HttpResponder) {
        let (call, context, responder) = (*self.pending).into_parts();
        let (session, stream) = (self.session, self.stream);
        let responder = HttpResponder {
            responder,
            session,
            stream,
        };
        (call, context, responder)
    }
}

impl HttpResponder {
    /// Writes `result` as the answer, in the client's revision (see [`Responder::respond`]).
    pub fn respond(self, result: Result<latest::ClientCallResult, RpcError>) -> HttpAnswer {
        HttpAnswer {
            answer: self.responder.respond(result),
            session: self.session,
            stream: self.stream,
            notes: Vec::new(),
            changes: Vec::new(),
        }
    }

    /// [`HttpResponder::respond`], after what the handler reported in `context` (progress,
    /// log messages: see [`Context`]): the response is then an event stream whose events are
    /// the reports, then the answer. (They go out with the answer: an HTTP response that is
    /// not yet a stream cannot carry them earlier.) An answer whose status is not 200 (a
    /// stateless request's error) goes alone, as JSON.
    pub fn respond_with(
        self,
        context: &mut Context,
        result: Result<latest::ClientCallResult, RpcError>,
    ) -> HttpAnswer {
        let notes = self.responder.notes(context);
        let mut answer = self.respond(result);
        answer.notes = notes;
        answer.changes = context.take_changes();
        answer
    }
}

/// The header a browser names the page's origin in.
const ORIGIN: &str = "Origin";

/// The first revision whose clients take an event without a message, which opens a stream
/// they can resume before its first message (SEP-1699); dates compare as text.
const PRIMING_FROM: &str = "2025-11-25";

/// The sessions of stateful clients, by `Mcp-Session-Id`.
pub struct Sessions {
    pub(super) sessions: BTreeMap<String, Entry>,
    /// The open `subscriptions/listen` streams of stateless clients, by number: each a session
    /// of its own, which lives as long as its stream.
    listens: BTreeMap<u64, Session>,
    /// The client each open `subscriptions/listen` stream belongs to, by number.
    listen_clients: BTreeMap<u64, Box<str>>,
    /// The number of the next stateless `subscriptions/listen` stream.
    next_listen: u64,
    /// Streams ended without a last event, for the next response to report.
    pub(super) ended: Vec<StreamId>,
    /// What each event id starts with: this replica's name (see [`Sessions::with_replica`]).
    pub(super) event_prefix: String,
    ids: Box<dyn FnMut() -> String + Send>,
    pub(super) max: usize,
    /// The most sessions (and stateless streams) one client holds; `None`: a quarter of `max`.
    share: Option<usize>,
    idle_ms: u64,
    origins: Origins,
}

pub(super) struct Entry {
    pub(super) session: Session,
    /// The client that opened it (see [`Server::http_receive_from`]).
    pub(super) client: Box<str>,
    pub(super) last_used_ms: u64,
    /// Whether the session's own stream (`GET`) is open.
    listening: bool,
    /// The requests whose responses are event streams still open.
    streams: BTreeSet<RequestId>,
    /// The latest events sent on the session's streams, for a client resuming one.
    pub(super) log: EventLog,
}

impl Entry {
    pub(super) fn new(session: Session, client: &str, now_ms: u64) -> Self {
        Entry {
            session,
            client: client.into(),
            last_used_ms: now_ms,
            listening: false,
            streams: BTreeSet::new(),
            log: EventLog::default(),
        }
    }

    /// Every stream of the session `id` that is open.
    pub(super) fn all_streams(&self, id: &str) -> impl Iterator<Item = StreamId> + '_ {
        let own = self.listening.then_some(None);
        let requests = self.streams.iter().cloned().map(Some);
        let session = id.to_owned();
        own.into_iter()
            .chain(requests)
            .map(move |request| StreamId {
                session: Some(session.clone()),
                request,
                listen: None,
            })
    }

    /// The request streams whose requests are no longer in flight (cancelled): forgotten, as
    /// streams of session `id`.
    fn sweep(&mut self, id: &str) -> Vec<StreamId> {
        if self.streams.is_empty() {
            return Vec::new();
        }
        let (gone, open): (BTreeSet<RequestId>, BTreeSet<RequestId>) =
            core::mem::take(&mut self.streams)
                .into_iter()
                .partition(|request| !self.session.is_in_flight(request));
        self.streams = open;
        let session = id.to_owned();
        let ended = gone.into_iter().map(|request| StreamId {
            session: Some(session.clone()),
            request: Some(request),
            listen: None,
        });
        ended.collect()
    }
}

impl fmt::Debug for Sessions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sessions")
            .field("len", &self.sessions.len())
            .field("max", &self.max)
            .field("idle_ms", &self.idle_ms)
            .finish_non_exhaustive()
    }
}

impl Sessions {
    /// How many sessions exist at once, by default.
    pub const DEFAULT_MAX: usize = 1024;
    /// How long a session may stay idle, by default: 30 minutes.
    pub const DEFAULT_IDLE_MS: u64 = 30 * 60 * 1000;
    /// How many of its latest events a session keeps for a client that resumes a stream with
    /// `Last-Event-ID`, whatever stream they went on.
    pub const EVENTS_KEPT: usize = 256;
    /// How many bytes of its latest events' messages a session keeps for a client that
    /// resumes, at most: the oldest go first past it; an event larger than it alone is sent
    /// but not kept, and the events before it are dropped, so that a resume from one of them
    /// opens the stream afresh, as from an id older than those kept.
    pub const EVENT_BYTES_KEPT: usize = 1 << 20;

    /// No sessions yet. `ids` makes each new session's id: the specification asks for ids
    /// that are globally unique and cryptographically secure (a random UUID, say), made of
    /// visible ASCII characters. An id already in use is never given out twice: the next one
    /// is asked for (sixteen times at most, then the `initialize` is refused with 500); an
    /// empty id says the source has none to give, and is asked for again in the same way.
    pub fn new(ids: impl FnMut() -> String + Send + 'static) -> Self {
        Sessions {
            sessions: BTreeMap::new(),
            listens: BTreeMap::new(),
            listen_clients: BTreeMap::new(),
            next_listen: 0,
            ended: Vec::new(),
            event_prefix: String::new(),
            ids: Box::new(ids),
            max: Self::DEFAULT_MAX,
            share: None,
            idle_ms: Self::DEFAULT_IDLE_MS,
            origins: Origins::default(),
        }
    }

    /// Takes requests from web pages of `origins` too (`scheme://host[:port]`, as a browser
    /// writes `Origin`), besides the loopback interface's (`localhost`, `127.0.0.1`, `[::1]`,
    /// any scheme and port: the only ones taken by default). A request whose `Origin` is
    /// neither gets 403, so that a page the user visits cannot reach the server through DNS
    /// rebinding; a request without `Origin` (what clients other than browsers send) is
    /// always taken.
    #[must_use]
    pub fn with_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.origins = Origins::Listed(origins.into_iter().map(Into::into).collect());
        self
    }

    /// Takes requests whatever their `Origin`: for a server whose gateway checks it.
    #[must_use]
    pub fn with_any_origin(mut self) -> Self {
        self.origins = Origins::Any;
        self
    }

    /// Sets the most sessions at once (at least one) and how long one may stay idle.
    #[must_use]
    pub fn with_limits(mut self, max: usize, idle_ms: u64) -> Self {
        self.max = max.max(1);
        self.idle_ms = idle_ms;
        self
    }

    /// Whether a request whose `Origin` is `origin` is taken (see [`Sessions::with_origins`]).
    pub fn allows_origin(&self, origin: &str) -> bool {
        self.origins.allow(Some(origin))
    }

    /// Sets the most sessions one client holds at once (at least one; a quarter of
    /// [`Sessions::max`] by default), and the most stateless `subscriptions/listen` streams it
    /// holds open. A client past its share makes room among its own sessions (its idlest ends,
    /// whatever it is doing), never among another client's: see [`Server::http_receive_from`].
    #[must_use]
    pub fn with_client_share(mut self, sessions: usize) -> Self {
        self.share = Some(sessions.max(1));
        self
    }

    /// The most sessions one client holds at once.
    pub fn client_share(&self) -> usize {
        self.share.unwrap_or(self.max / 4).clamp(1, self.max)
    }

    /// The client that opened session `id` (see [`Server::http_receive_from`]).
    pub fn client_of(&self, id: &str) -> Option<&str> {
        self.sessions.get(id).map(|entry| &*entry.client)
    }

    /// The most sessions at once.
    pub fn max(&self) -> usize {
        self.max
    }

    /// How long a session may stay idle, in milliseconds.
    pub fn idle_ms(&self) -> u64 {
        self.idle_ms
    }

    /// How many sessions exist.
    pub fn len(&self) -> usize {
        self.sessions.len()
    }

    /// How many `subscriptions/listen` streams of stateless clients are open (at most
    /// [`Sessions::max`]; the next is refused with 503 until one closes).
    pub fn listening(&self) -> usize {
        self.listens.len()
    }

    /// Whether there is no session.
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }

    /// Drops every session idle for longer than the limit at `now_ms`: whose client sent no
    /// request for that long, even if its own stream is still open (a stream held open sends
    /// nothing that shows a client is there); how many it dropped.
    pub fn expire(&mut self, now_ms: u64) -> usize {
        let before = self.sessions.len();
        let idle_ms = self.idle_ms;
        let ended = &mut self.ended;
        self.sessions.retain(|id, entry| {
            let kept = now_ms.saturating_sub(entry.last_used_ms) <= idle_ms;
            if !kept {
                ended.extend(entry.all_streams(id));
            }
            kept
        });
        before - self.sessions.len()
    }

    /// Makes room for a new session of `client`, fairly: a client at its share
    /// ([`Sessions::client_share`]) gives up its own idlest session, whatever it is doing; in
    /// a table full of several clients' sessions, the client holding the most gives up its
    /// idlest (one with no stream open and no request in flight, if it has one). So no one
    /// client, however many sessions it opens or streams it holds, makes another's
    /// `initialize` fail or its session disappear. Whether there is room.
    ///
    /// The cost falls on the session idle the longest of the client that holds the most,
    /// whose client gets 404 and, as the transport asks of it, opens a new one.
    pub(super) fn make_room(&mut self, client: &str) -> bool {
        if client.is_empty() {
            // Clients the caller cannot tell apart: no share to keep, the idlest of all goes.
            return self.sessions.len() < self.max || self.evict_idle();
        }
        let own = self.sessions.values().filter(|e| &*e.client == client);
        if own.count() >= self.client_share() {
            return self.evict_idlest_of(client);
        }
        if self.sessions.len() < self.max {
            return true;
        }
        let mut held: BTreeMap<&str, usize> = BTreeMap::new();
        for entry in self.sessions.values() {
            *held.entry(&entry.client).or_default() += 1;
        }
        let heaviest = held.into_iter().max_by_key(|(_, count)| *count);
        let Some(heaviest) = heaviest.map(|(client, _)| client.to_owned()) else {
            return false;
        };
        self.evict_idlest_of(&heaviest)
    }

    /// Drops the session used least recently among those that are idle (no stream open, no
    /// request in flight), as [`Sessions::expire`] would once its time is up. Whether one
    /// was dropped.
    pub(super) fn evict_idle(&mut self) -> bool {
        let idlest = self
            .sessions
            .iter()
            .filter(|(_, entry)| {
                !entry.listening && entry.streams.is_empty() && entry.session.in_flight() == 0
            })
            .min_by_key(|(_, entry)| entry.last_used_ms)
            .map(|(id, _)| id.clone());
        idlest.is_some_and(|id| self.sessions.remove(&id).is_some())
    }

    /// Ends the session of `client` used least recently, preferring one that is idle (no
    /// stream open, no request in flight); its streams end. Whether one was ended.
    fn evict_idlest_of(&mut self, client: &str) -> bool {
        let own = self.sessions.iter().filter(|(_, e)| &*e.client == client);
        let idlest = own
            .min_by_key(|(_, entry)| {
                let busy =
                    entry.listening || !entry.streams.is_empty() || entry.session.in_flight() > 0;
                (busy, entry.last_used_ms)
            })
            .map(|(id, _)| id.clone());
        let Some(id) = idlest else {
            return false;
        };
        if let Some(entry) = self.sessions.remove(&id) {
            self.ended.extend(entry.all_streams(&id));
        }
        true
    }

    /// The response for a call's answer: the answer's line, or 202 with no body when the
    /// client cancelled the request, or its session ended, meanwhile.
    ///
    /// When the handler asked a stateful client for input, the response opens an event stream
    /// whose first event asks for it. A call handed out again with the client's input is
    /// answered on its first request's stream: the response to the POST that brought the
    /// input is 202, with the event for that stream.
    pub fn finish(&mut self, answer: HttpAnswer) -> HttpResponse {
        let HttpAnswer {
            answer,
            session,
            stream,
            notes,
            changes,
        } = answer;
        let own = StreamId {
            session: session.clone(),
            request: Some(answer.id().clone()),
            listen: None,
        };
        let mut response = self.finish_call(answer, session, stream);
        if !notes.is_empty() {
            response = after_notes(response, notes, own);
        }
        // Taken, not appended: what a burst of expiries grew is given back, not kept.
        response.ended.extend(core::mem::take(&mut self.ended));
        self.stamp(&mut response.events);
        response.changes = changes;
        response.sealed()
    }

    /// The response for a batch whose calls were answered ([`HttpBatch::answer_with`]): its
    /// responses as one JSON array, or 202 with no body when none is left to send (its
    /// requests were cancelled, or its session ended, meanwhile). What its handlers changed is
    /// in [`HttpResponse::changes`], for [`Sessions::notify`].
    pub fn finish_batch(&mut self, batch: HttpBatch) -> HttpResponse {
        let HttpBatch { batch, session } = batch;
        let answered = match self.sessions.get_mut(&session) {
            Some(entry) => batch.finish(&mut entry.session),
            None => (None, Vec::new()),
        };
        let mut response = match answered.0 {
            Some(line) => response_to(line, false),
            None => HttpResponse::new(202, None),
        };
        response.ended.extend(core::mem::take(&mut self.ended));
        response.changes = answered.1;
        response.sealed()
    }

    /// Answers the POST that brought `call` now, with an event stream that its answer will
    /// end, rather than with the answer: for a call that takes long, whose connection the
    /// server may close before it ends (SEP-1699, 2025-11-25). The stream opens with an event
    /// that has an id, no message and `retry_ms` (when given) as the client's reconnection
    /// delay, so that the client can resume it with `GET` and `Last-Event-ID` after the
    /// connection closes, however early; [`Sessions::finish`] then gives the answer as the
    /// stream's last event (its response is 202, for no request: only its events are sent),
    /// kept for the client that resumes.
    ///
    /// A session of a revision before 2025-11-25 gets the stream without that first event
    /// (its clients do not expect events without a message), so it cannot be resumed before
    /// the answer. `None` for a stateless call (its stream cannot be resumed: the answer is
    /// its response) and for a call already answered on a stream (handed out again after
    /// the client's input).
    pub fn open_stream(
        &mut self,
        call: &mut HttpCall,
        retry_ms: Option<u64>,
    ) -> Option<HttpResponse> {
        if call.stream.is_some() {
            return None;
        }
        let session = call.session.clone()?;
        let entry = self.sessions.get_mut(&session)?;
        let request = call.pending.id().clone();
        entry.streams.insert(request.clone());
        call.stream = Some(request.clone());
        let primes = entry
            .session
            .version()
            .is_some_and(|v| v.as_str() >= PRIMING_FROM);
        let stream = StreamId {
            session: Some(session.clone()),
            request: Some(request.clone()),
            listen: None,
        };
        let mut events = Vec::new();
        if primes {
            let mut priming = event(&session, request, String::new(), false);
            priming.retry = retry_ms;
            events.push(priming);
        }
        let mut response = HttpResponse::opening(stream, events);
        self.stamp(&mut response.events);
        Some(response.sealed())
    }

    /// Gives each event on a session's stream its id, and keeps it for resumption.
    fn stamp(&mut self, events: &mut [StreamEvent]) {
        for event in events {
            let entry = event
                .stream
                .session()
                .and_then(|id| self.sessions.get_mut(id));
            if let Some(entry) = entry {
                let prefix = &self.event_prefix;
                entry
                    .log
                    .stamp(core::iter::once(event), Self::EVENTS_KEPT, prefix);
            }
        }
    }

    fn finish_call(
        &mut self,
        answer: Answer,
        session: Option<String>,
        stream: Option<RequestId>,
    ) -> HttpResponse {
        // A stateless request's session lived for that request alone.
        let Some(session) = session else {
            return response_to(answer.into_parts().1, true);
        };
        let request = answer.id().clone();
        let Some(entry) = self.sessions.get_mut(&session) else {
            return HttpResponse::new(202, None);
        };
        let Some(line) = entry.session.finish(answer) else {
            return HttpResponse::new(202, None);
        };
        // Still in flight: the line asks the client for input, and the answer comes later.
        let asking = entry.session.is_in_flight(&request);
        match stream {
            Some(original) => {
                if !asking {
                    entry.streams.remove(&original);
                }
                let mut response = HttpResponse::new(202, None);
                response
                    .events
                    .push(event(&session, original, line, !asking));
                response
            }
            None if asking => {
                entry.streams.insert(request.clone());
                let first = event(&session, request, line, false);
                HttpResponse::opening(first.stream.clone(), vec![first])
            }
            None => response_to(line, false),
        }
    }

    /// What tells each client of `change` (see [`Server::notify`]): events on the streams
    /// sessions opened with `GET`, and on stateless clients' `subscriptions/listen` streams
    /// that asked for it. A session without a stream open is not told.
    pub fn notify<H: Handler>(&mut self, server: &Server<H>, change: &Change) -> Vec<StreamEvent> {
        let listening = self.sessions.iter().filter(|(_, entry)| entry.listening);
        let mut events = Vec::new();
        for (number, session) in &self.listens {
            let Some(stream) = listen_stream(*number, session) else {
                continue;
            };
            for line in server.notify(session, change) {
                let stream = stream.clone();
                events.push(StreamEvent {
                    id: None,
                    retry: None,
                    stream,
                    message: line,
                    last: false,
                });
            }
        }
        for (id, entry) in listening {
            for line in server.notify(&entry.session, change) {
                events.push(StreamEvent {
                    id: None,
                    retry: None,
                    stream: StreamId {
                        session: Some(id.clone()),
                        request: None,
                        listen: None,
                    },
                    message: line,
                    last: false,
                });
            }
        }
        self.stamp(&mut events);
        events
    }

    /// The caller closed `stream`'s connection at `now_ms`: a session's own stream may be
    /// opened again, and the session is idle from then on; a stateless client's
    /// `subscriptions/listen` ends (its only way to end over HTTP); a request's stream needs nothing
    /// (its events still come, for the caller to drop: a closed connection does not cancel
    /// the request).
    pub fn close(&mut self, stream: &StreamId, now_ms: u64) {
        if let Some(number) = stream.listen {
            // The client's way to end a stateless `subscriptions/listen`.
            self.listens.remove(&number);
            self.listen_clients.remove(&number);
            return;
        }
        if stream.request.is_none() {
            let entry = stream.session().and_then(|id| self.sessions.get_mut(id));
            if let Some(entry) = entry {
                entry.listening = false;
                entry.last_used_ms = now_ms;
            }
        }
    }

    /// A new session's id; `None` when the source gives only ids in use (a source that
    /// repeats itself would otherwise hold the server in a loop).
    fn fresh_id(&mut self) -> Option<String> {
        // An empty id is the source's way to say it has none (its randomness failed).
        (0..16)
            .map(|_| (self.ids)())
            .find(|id| !id.is_empty() && !self.sessions.contains_key(id))
    }
}

/// `response` preceded by `notes` on the stream that carries it: a JSON answer becomes the
/// last event of stream `own`, which the response opens; a response that opens a stream, or
/// has events for one, gets the notes first on it. A response of another status, or with
/// nothing to send (the request was cancelled), has no stream for them.
fn after_notes(mut response: HttpResponse, notes: Vec<String>, own: StreamId) -> HttpResponse {
    let stream = match (&response.stream, response.events.first(), &response.body) {
        (Some(stream), _, _) => stream.clone(),
        (None, Some(event), _) => event.stream.clone(),
        (None, None, Some(_)) if response.status == 200 => {
            let body = response.body.take().unwrap_or_default();
            response.stream = Some(own.clone());
            response.events.push(StreamEvent {
                id: None,
                retry: None,
                stream: own.clone(),
                message: body,
                last: true,
            });
            own
        }
        _ => return response,
    };
    let notes = notes.into_iter().map(|message| StreamEvent {
        id: None,
        retry: None,
        stream: stream.clone(),
        message,
        last: false,
    });
    let rest = core::mem::take(&mut response.events);
    response.events = notes.chain(rest).collect();
    response
}

/// The stream of stateless `subscriptions/listen` number `number`, whose session is `session`.
fn listen_stream(number: u64, session: &Session) -> Option<StreamId> {
    let listen = session.listens.first()?;
    Some(StreamId {
        session: None,
        request: Some(listen.id.clone()),
        listen: Some(number),
    })
}

/// An event of request `request`'s stream in session `session`.
fn event(session: &str, request: RequestId, message: String, last: bool) -> StreamEvent {
    StreamEvent {
        id: None,
        retry: None,
        stream: StreamId {
            session: Some(session.to_owned()),
            request: Some(request),
            listen: None,
        },
        message,
        last,
    }
}

/// The status of an answer line: a stateless request's transport errors carry theirs (the
/// schema: "For HTTP, the response status code MUST be `400 Bad Request`"; an unknown method
/// is 404); any other answer is 200.
fn response_to(line: String, stateless: bool) -> HttpResponse {
    let status = if stateless {
        match error_code(&line) {
            Some(ErrorCode::MethodNotFound) => 404,
            Some(
                ErrorCode::HeaderMismatch
                | ErrorCode::MissingRequiredClientCapability
                | ErrorCode::UnsupportedProtocolVersion
                | ErrorCode::ParseError
                | ErrorCode::InvalidRequest
                | ErrorCode::InvalidParams,
            ) => 400,
            _ => 200,
        }
    } else {
        match error_code(&line) {
            Some(ErrorCode::ParseError | ErrorCode::InvalidRequest) => 400,
            _ => 200,
        }
    };
    HttpResponse::new(status, Some(line))
}

/// The `error.code` of a response line the engine wrote.
fn error_code(line: &str) -> Option<ErrorCode> {
    #[derive(serde::Deserialize)]
    struct Line {
        error: Option<Code>,
    }
    #[derive(serde::Deserialize)]
    struct Code {
        code: ErrorCode,
    }
    let line: Line = crate::json::from_str_strict(line).ok()?;
    line.error.map(|e| e.code)
}

impl<H: Handler> Server<H> {
    /// Serves one HTTP request, running the handler inline: the response to send.
    ///
    /// `method` is the HTTP method, `headers` finds a header by name case-insensitively
    /// ([`http_headers::lookup`] makes one from pairs), `body` is the request's body, and
    /// `now_ms` the time in milliseconds on any clock that does not go back (it ages the
    /// sessions).
    pub fn http<'h>(
        &self,
        sessions: &mut Sessions,
        method: &str,
        headers: impl Fn(&str) -> Option<&'h str>,
        body: &str,
        now_ms: u64,
    ) -> HttpResponse {
        match self.http_receive(sessions, method, headers, body, now_ms) {
            HttpIncoming::Respond(response) => response,
            HttpIncoming::Call(call) => {
                let (call, mut context, responder) = call.into_parts();
                let result = super::later::answer_here(self.handler(), call, &mut context);
                let mut response = sessions.finish(responder.respond_with(&mut context, result));
                for change in core::mem::take(&mut response.changes) {
                    let told = sessions.notify(self, &change);
                    response.events.extend(told);
                }
                response
            }
            HttpIncoming::Batch(mut batch) => {
                batch.answer_with(|call, context| {
                    super::later::answer_here(self.handler(), call, context)
                });
                let mut response = sessions.finish_batch(batch);
                for change in core::mem::take(&mut response.changes) {
                    let told = sessions.notify(self, &change);
                    response.events.extend(told);
                }
                response
            }
        }
    }

    /// [`Server::http`] without running the handler: a request for it is handed out as an
    /// [`HttpCall`], whose answer [`Sessions::finish`] turns into the response. Every request
    /// counts as the same client's: see [`Server::http_receive_from`] to tell clients apart.
    pub fn http_receive<'h>(
        &self,
        sessions: &mut Sessions,
        method: &str,
        headers: impl Fn(&str) -> Option<&'h str>,
        body: &str,
        now_ms: u64,
    ) -> HttpIncoming {
        self.http_receive_from(sessions, "", method, headers, body, now_ms)
    }

    /// [`Server::http_receive`] for a request of `client`: a key the caller gives each client
    /// (its address, or the principal its credentials name). A client holds at most its
    /// share of the sessions ([`Sessions::with_client_share`]) and of the stateless streams;
    /// one past it ends its own idlest session to open another, and a full table makes room
    /// among the sessions of the client holding the most, so that no client can evict or
    /// lock out another. (Which client may use a session is the caller's to check, with
    /// [`Sessions::client_of`].)
    pub fn http_receive_from<'h>(
        &self,
        sessions: &mut Sessions,
        client: &str,
        method: &str,
        headers: impl Fn(&str) -> Option<&'h str>,
        body: &str,
        now_ms: u64,
    ) -> HttpIncoming {
        let request = Request {
            client,
            method,
            body,
            now_ms,
        };
        let mut incoming = self.receive_request(sessions, request, headers);
        if let HttpIncoming::Respond(response) = &mut incoming {
            response.ended.append(&mut sessions.ended);
            sessions.stamp(&mut response.events);
            response.seal();
        }
        incoming
    }

    fn receive_request<'h>(
        &self,
        sessions: &mut Sessions,
        request: Request<'_>,
        headers: impl Fn(&str) -> Option<&'h str>,
    ) -> HttpIncoming {
        let Request {
            client,
            method,
            body,
            now_ms,
        } = request;
        sessions.expire(now_ms);
        let respond = |response| HttpIncoming::Respond(response);
        if !sessions.origins.allow(headers(ORIGIN)) {
            let message = "Forbidden: requests from this Origin are not taken";
            let error = RpcError::new(ErrorCode::InvalidRequest, message);
            return respond(HttpResponse::error(403, None, error));
        }
        let session_id = headers(MCP_SESSION_ID).map(str::to_owned);
        match method {
            "POST" => {}
            "DELETE" => {
                let ended = session_id.as_ref().and_then(|id| {
                    let entry = sessions.sessions.remove(id)?;
                    Some(entry.all_streams(id).collect::<Vec<_>>())
                });
                let status = match (ended, session_id) {
                    (Some(ended), _) => {
                        sessions.ended.extend(ended);
                        200
                    }
                    (None, Some(_)) => 404,
                    (None, None) => 400,
                };
                return respond(HttpResponse::new(status, None));
            }
            "GET" => return respond(open_stream(sessions, session_id, &headers)),
            _ => {
                let mut response = HttpResponse::new(405, None);
                response
                    .headers
                    .push(("Allow", "GET, POST, DELETE".to_owned()));
                return respond(response);
            }
        }
        let id = crate::answer::request_id(body);
        if let Some(session_id) = session_id {
            let Some(entry) = sessions.sessions.get_mut(&session_id) else {
                let error = RpcError::new(ErrorCode::InvalidRequest, "Session not found");
                return respond(HttpResponse::error(404, id, error));
            };
            entry.last_used_ms = now_ms;
            // The session is answered in the revision `initialize` negotiated, whatever the
            // header says. The header "SHOULD be the one negotiated"; only "an invalid or
            // unsupported" one MUST get 400 (the transport page), so a version the server
            // speaks is taken even when it is not the session's (the official suite sends
            // one).
            if let Some(version) = headers(MCP_PROTOCOL_VERSION).map(str::trim) {
                if !self.versions().iter().any(|v| v.as_str() == version) {
                    let message = format!(
                        "{MCP_PROTOCOL_VERSION} {version} is not a version this server speaks"
                    );
                    let error = RpcError::new(ErrorCode::InvalidRequest, message);
                    return respond(HttpResponse::error(400, id, error));
                }
            }
            // The client's answer to an input request: what follows goes on the stream of the
            // request that asked for input.
            // The body is read again only when its id is one the server asked with.
            let asked = id.as_ref().and_then(|id| entry.session.asked_for(id));
            let answering = asked
                .filter(|_| super::peek::Peek::of(body).is_some_and(|p| p.method.is_none()))
                .cloned();
            let incoming = self.receive(&mut entry.session, body);
            let mut ended_event = None;
            if let (Incoming::Answer(_), Some(original)) = (&incoming, &answering) {
                if !entry.session.is_in_flight(original) {
                    entry.streams.remove(original);
                    ended_event = Some(original.clone());
                }
            }
            // A request cancelled meanwhile ends its stream with no last event.
            let swept = entry.sweep(&session_id);
            sessions.ended.extend(swept);
            return match (incoming, answering) {
                (Incoming::Answer(line), Some(original)) => {
                    let last = ended_event.as_ref() == Some(&original);
                    let mut response = HttpResponse::new(202, None);
                    response
                        .events
                        .push(event(&session_id, original, line, last));
                    respond(response)
                }
                (Incoming::Answer(line), None) => respond(response_to(line, false)),
                (Incoming::Call(pending), stream) => HttpIncoming::Call(HttpCall {
                    pending,
                    session: Some(session_id),
                    stream,
                }),
                (Incoming::Batch(batch), _) => HttpIncoming::Batch(HttpBatch {
                    batch,
                    session: session_id,
                }),
                _ => respond(HttpResponse::new(202, None)),
            };
        }
        // A stateless request's session lives for its request alone, but for a
        // `subscriptions/listen`, whose stream carries what the server says later: its session
        // lives as long as the stream.
        let mut session = Session::new();
        let peek = super::peek::Peek::of(body);
        let stateless = peek.as_ref().is_some_and(|p| p.meta_version().is_some());
        session.streams = stateless
            && peek.as_ref().and_then(|p| p.method.as_deref())
                == Some(crate::method::method_names::SUBSCRIPTIONS_LISTEN_REQUEST);
        if stateless {
            if let Err(refused) = check_headers(body, &headers, self.handler()) {
                return respond(HttpResponse::error(400, id, refused));
            }
        }
        let own_listens = || sessions.listen_clients.values().filter(|c| &***c == client);
        if session.streams
            && (sessions.listens.len() >= sessions.max
                || (!client.is_empty() && own_listens().count() >= sessions.client_share()))
        {
            let message = "too many open streams: try again later";
            let error = RpcError::new(ErrorCode::InternalError, message);
            return respond(HttpResponse::error(503, id, error));
        }
        let incoming = self.receive(&mut session, body);
        if session.streams() > 0 {
            // The stream opened: the acknowledgement is its first event.
            let number = sessions.next_listen;
            sessions.next_listen += 1;
            let Some(stream) = listen_stream(number, &session) else {
                return respond(HttpResponse::new(202, None));
            };
            let events = match incoming {
                Incoming::Answer(line) => vec![StreamEvent {
                    id: None,
                    retry: None,
                    stream: stream.clone(),
                    message: line,
                    last: false,
                }],
                _ => Vec::new(),
            };
            sessions.listens.insert(number, session);
            sessions.listen_clients.insert(number, client.into());
            return respond(HttpResponse::opening(stream, events));
        }
        if session.version().is_some() {
            // `initialize` opened a stateful session: it is kept, under a fresh id.
            if !sessions.make_room(client) {
                let message = "too many sessions: try again later";
                let error = RpcError::new(ErrorCode::InternalError, message);
                return respond(HttpResponse::error(503, id, error));
            }
            let Some(session_id) = sessions.fresh_id() else {
                let message = "no fresh session id: the id source repeats ids in use";
                let error = RpcError::new(ErrorCode::InternalError, message);
                return respond(HttpResponse::error(500, id, error));
            };
            let line = match incoming {
                Incoming::Answer(line) => line,
                _ => return respond(HttpResponse::new(202, None)),
            };
            // The session's streams carry what the server asks and tells it later.
            session.streams = true;
            let entry = Entry::new(session, client, now_ms);
            (sessions.sessions).insert(session_id.clone(), entry);
            let mut response = response_to(line, false);
            response.headers.push((MCP_SESSION_ID, session_id));
            return respond(response);
        }
        match incoming {
            Incoming::Answer(line) => respond(response_to(line, true)),
            Incoming::Call(pending) => HttpIncoming::Call(HttpCall {
                pending,
                session: None,
                stream: None,
            }),
            _ => respond(HttpResponse::new(202, None)),
        }
    }
}

/// What [`Server::http_receive_from`] was given of a request, but its headers.
struct Request<'a> {
    client: &'a str,
    method: &'a str,
    body: &'a str,
    now_ms: u64,
}

/// Whether an `Accept` value lists the media type `kind`, or `*/*` (parameters aside).
pub(super) fn accepts(accept: &str, kind: &str) -> bool {
    accept.split(',').any(|listed| {
        let listed = listed.split(';').next().unwrap_or_default().trim();
        listed.eq_ignore_ascii_case(kind) || listed == "*/*"
    })
}

/// A `GET`: the session's own stream, opened, or with `Last-Event-ID` the stream that event
/// went on, resumed after it (405 without a session: stateless revisions have none; 404 for
/// an unknown session, 409 when its own stream is already open, 406 when the client does not
/// take event streams).
fn open_stream<'h>(
    sessions: &mut Sessions,
    session_id: Option<String>,
    headers: &impl Fn(&str) -> Option<&'h str>,
) -> HttpResponse {
    let Some(session_id) = session_id else {
        let mut response = HttpResponse::new(405, None);
        response.headers.push(("Allow", "POST, DELETE".to_owned()));
        return response;
    };
    let Some(entry) = sessions.sessions.get_mut(&session_id) else {
        let error = RpcError::new(ErrorCode::InvalidRequest, "Session not found");
        return HttpResponse::error(404, None, error);
    };
    let accepts = headers("Accept").is_some_and(|accept| accepts(accept, "text/event-stream"));
    if !accepts {
        let message = "a GET must accept text/event-stream";
        return HttpResponse::error(406, None, RpcError::new(ErrorCode::InvalidRequest, message));
    }
    // Resuming a stream: what it missed, then what comes (an id no longer kept opens the
    // session's own stream, as a server that does not resume would).
    let resumed = headers(LAST_EVENT_ID).and_then(|last| entry.log.after(last.trim()));
    let (stream, missed) = match resumed {
        Some((stream, missed)) if stream.request.is_some() => {
            // A request's stream that has ended, its last event already seen: nothing more
            // will come on it, so it ends at once.
            let open = stream
                .request
                .as_ref()
                .is_some_and(|id| entry.streams.contains(id));
            let over = !open && !missed.iter().any(|event| event.last);
            let mut response = HttpResponse::opening(stream.clone(), missed);
            if over {
                response.ended.push(stream);
            }
            return response;
        }
        Some((stream, missed)) => (stream, missed),
        None => {
            let stream = StreamId {
                session: Some(session_id),
                request: None,
                listen: None,
            };
            (stream, Vec::new())
        }
    };
    if entry.listening {
        let message = "the session's stream is already open";
        return HttpResponse::error(409, None, RpcError::new(ErrorCode::InvalidRequest, message));
    }
    entry.listening = true;
    HttpResponse::opening(stream, missed)
}

/// A stateless request's headers against its body (`-32020`): the standard ones, and a
/// `tools/call`'s `Mcp-Param-*` headers against the tool's annotations.
fn check_headers<'h>(
    body: &str,
    headers: &impl Fn(&str) -> Option<&'h str>,
    handler: &impl Handler,
) -> Result<(), RpcError> {
    let Ok(message) = crate::json::from_str::<Value>(body) else {
        return Ok(());
    };
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return Ok(());
    };
    let params = message.get("params");
    http_headers::check(method, params, headers).map_err(|m| m.to_rpc_error())?;
    if method != crate::method::method_names::CALL_TOOL_REQUEST {
        return Ok(());
    }
    let tool = params.and_then(|p| p.get("name")).and_then(Value::as_str);
    match tool.and_then(|tool| handler.tool_headers(tool)) {
        Some(annotated) => {
            let arguments = params.and_then(|p| p.get("arguments"));
            annotated
                .check(arguments, headers)
                .map_err(|m| m.to_rpc_error())
        }
        None => Ok(()),
    }
}
