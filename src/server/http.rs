//! Streamable HTTP, as plain data: a request's method, headers and body in; the status, the
//! headers and the body to answer with out. The HTTP library is the caller's (see
//! `examples/http-server.rs` for hyper).
//!
//! The engine applies the transport's rules around [`Server::receive`](crate::server::Server::receive):
//! - a stateful client opens a session with `initialize`, whose answer carries its
//!   `Mcp-Session-Id`; each later request carries it (missing: 400; unknown, expired or
//!   ended: 404) and an `MCP-Protocol-Version` the server speaks (otherwise 400; the session
//!   is answered in its own revision whatever the header names); `DELETE` ends the session;
//! - a stateless request (2026-07-28 on) stands alone: its headers must say what its body says
//!   ([`http_headers::check`](crate::http_headers::check), `-32020` with 400; a `tools/call`'s
//!   `Mcp-Param-*` headers too, against the tool's `x-mcp-header` annotations as
//!   [`Handler::tool_headers`](super::Handler::tool_headers) gives them), and the transport's errors carry their status
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
//! a quarter by default; the client is the key given to [`Server::http_receive_from`](crate::server::Server::http_receive_from)). An
//! `initialize` of a client at its share ends that client's own idlest session; one that finds
//! the table full ends the idlest session of the client holding the most (its client's next
//! request gets 404, and the transport has it open a new session). So no one client, by
//! opening sessions or holding streams open, evicts another's sessions or shuts it out. The
//! clock is the caller's: each call says what time it is.

mod answers;
mod receive;
mod sessions;

#[cfg(feature = "http-server")]
pub(super) use answers::listen_stream;
#[cfg(feature = "http-server")]
pub(super) use receive::accepts;
pub(super) use sessions::Entry;
pub use sessions::Sessions;

use super::call::{Answer, Responder};
use super::stream::{StreamEvent, StreamId};
use super::{Change, Context, PendingCall};
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::{RequestId, RpcError};

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
    /// What the handler said changed while it answered ([`Context::changed`](crate::server::Context::changed)), when it ran
    /// elsewhere ([`HttpResponder::respond_with`]): tell the clients with
    /// [`Sessions::notify`]. [`Server::http`](crate::server::Server::http) tells them itself (their events are in
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

/// What [`Server::http`](crate::server::Server::http) makes of a request.
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
    /// The call, as [`Server::receive`](crate::server::Server::receive) hands it out.
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
