//! What a call's answer becomes: its response, the events of its stream, what clients are told.

use super::Sessions;
use super::{HttpAnswer, HttpBatch, HttpCall, HttpResponse};
use crate::prelude::*;
use crate::server::engine::call::Answer;
use crate::server::engine::stream::{StreamEvent, StreamId};
use crate::server::{Change, Handler, Server, Session};
use crate::{ErrorCode, RequestId};

impl Sessions {
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
    pub(super) fn stamp(&mut self, events: &mut [StreamEvent]) {
        for event in events {
            let entry = event
                .stream
                .session()
                .and_then(|id| self.sessions.get_mut(id));
            if let Some(entry) = entry {
                let prefix = &self.event_prefix;
                let given = &mut self.events_given;
                let event = core::iter::once(event);
                entry.log.stamp(event, Self::EVENTS_KEPT, prefix, given);
            }
        }
    }

    pub(super) fn finish_call(
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
    pub fn notify<H: Handler + ?Sized>(
        &mut self,
        server: &Server<H>,
        change: &Change,
    ) -> Vec<StreamEvent> {
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
}

/// `response` preceded by `notes` on the stream that carries it: a JSON answer becomes the
/// last event of stream `own`, which the response opens; a response that opens a stream, or
/// has events for one, gets the notes first on it. A response of another status, or with
/// nothing to send (the request was cancelled), has no stream for them.
pub(super) fn after_notes(
    mut response: HttpResponse,
    notes: Vec<String>,
    own: StreamId,
) -> HttpResponse {
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
pub(in crate::server) fn listen_stream(number: u64, session: &Session) -> Option<StreamId> {
    let listen = session.listens.first()?;
    Some(StreamId {
        session: None,
        request: Some(listen.id.clone()),
        listen: Some(number),
    })
}

/// An event of request `request`'s stream in session `session`.
pub(super) fn event(session: &str, request: RequestId, message: String, last: bool) -> StreamEvent {
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
pub(super) fn response_to(line: String, stateless: bool) -> HttpResponse {
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
pub(super) fn error_code(line: &str) -> Option<ErrorCode> {
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

/// The first revision whose clients take an event without a message, which opens a stream
/// they can resume before its first message (SEP-1699); dates compare as text.
const PRIMING_FROM: &str = "2025-11-25";
