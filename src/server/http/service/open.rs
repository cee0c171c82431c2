//! The open event streams and what waits to go out on them.

use super::body::HttpBody;
use super::state::{Open, Out, Write};
use crate::http_headers::MCP_SESSION_ID;
use crate::prelude::*;
use crate::server::StreamEvent;
use crate::server::{Change, SessionRecord};
use crate::server::{Handler, HttpAnswer, HttpResponse, Server};
use bytes::Bytes;

impl Open {
    /// The engine's response for `answer`, with the events that tell the clients of what its
    /// handler changed.
    /// The changes are given back, for the other replicas.
    pub(super) fn finished<H: Handler + ?Sized>(
        &mut self,
        server: &Server<H>,
        answer: HttpAnswer,
    ) -> (HttpResponse, Vec<Change>) {
        let response = self.sessions.finish(answer);
        self.told(server, response)
    }

    /// `response` with the events that tell the clients of what its handlers changed (with a
    /// store, none: see [`Shared::after_answer`](super::state::Shared)); the changes given
    /// back, for the store.
    pub(super) fn told<H: Handler + ?Sized>(
        &mut self,
        server: &Server<H>,
        mut response: HttpResponse,
    ) -> (HttpResponse, Vec<Change>) {
        let changes = core::mem::take(&mut response.changes);
        if self.queued {
            // With a store, every replica tells its clients when the store's bus carries the
            // change, this one too: the change is kept first, and told in the store's order.
            return (response, changes);
        }
        for change in &changes {
            let told = self.sessions.notify(server, change);
            response.events.extend(told);
        }
        (response, changes)
    }

    /// What the response to a request of `method` (in session `session`, whose record was
    /// `before` it) changed in the state replicas share.
    pub(super) fn write(
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
    pub(super) fn deliver(
        &mut self,
        mut response: HttpResponse,
        now_ms: u64,
    ) -> http::Response<HttpBody> {
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
    pub(super) fn send_and_end(&mut self, response: &mut HttpResponse, now_ms: u64) {
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
    pub(super) fn send(&mut self, events: Vec<StreamEvent>, now_ms: u64) {
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
    pub(super) fn send_now(&mut self, event: StreamEvent, now_ms: u64) {
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
    pub(super) fn ping(&mut self, now_ms: u64) -> Vec<String> {
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
