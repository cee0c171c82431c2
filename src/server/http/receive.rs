//! A request read: the transport's rules around the engine, the session it names, the stream it
//! opens.

use super::answers::{event, listen_stream, response_to};
use super::sessions::Entry;
use super::Sessions;
use super::{HttpBatch, HttpCall, HttpIncoming, HttpResponse};
use crate::http_headers::{self, LAST_EVENT_ID, MCP_PROTOCOL_VERSION, MCP_SESSION_ID};
use crate::prelude::*;
use crate::server::engine::stream::{StreamEvent, StreamId};
use crate::server::engine::Incoming;
use crate::server::{Handler, Server, Session};
use crate::{ErrorCode, RpcError};
use serde_json::Value;

impl<H: Handler + ?Sized> Server<H> {
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
                let result =
                    crate::server::engine::later::answer_here(self.handler(), call, &mut context);
                let mut response = sessions.finish(responder.respond_with(&mut context, result));
                for change in core::mem::take(&mut response.changes) {
                    let told = sessions.notify(self, &change);
                    response.events.extend(told);
                }
                response
            }
            HttpIncoming::Batch(mut batch) => {
                batch.answer_with(|call, context| {
                    crate::server::engine::later::answer_here(self.handler(), call, context)
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

    pub(super) fn receive_request<'h>(
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
                .filter(|_| {
                    crate::server::engine::peek::Peek::of(body).is_some_and(|p| p.method.is_none())
                })
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
        let peek = crate::server::engine::peek::Peek::of(body);
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
pub(super) struct Request<'a> {
    client: &'a str,
    method: &'a str,
    body: &'a str,
    now_ms: u64,
}

/// Whether an `Accept` value lists the media type `kind`, or `*/*` (parameters aside).
pub(in crate::server) fn accepts(accept: &str, kind: &str) -> bool {
    accept.split(',').any(|listed| {
        let listed = listed.split(';').next().unwrap_or_default().trim();
        listed.eq_ignore_ascii_case(kind) || listed == "*/*"
    })
}

/// A `GET`: the session's own stream, opened, or with `Last-Event-ID` the stream that event
/// went on, resumed after it (405 without a session: stateless revisions have none; 404 for
/// an unknown session, 409 when its own stream is already open, 406 when the client does not
/// take event streams).
pub(super) fn open_stream<'h>(
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
pub(super) fn check_headers<'h>(
    body: &str,
    headers: &impl Fn(&str) -> Option<&'h str>,
    handler: &(impl Handler + ?Sized),
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

/// The header a browser names the page's origin in.
const ORIGIN: &str = "Origin";
