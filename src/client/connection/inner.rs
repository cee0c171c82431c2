//! What a connection shares between its calls and its reading task: the engine, the link,
//! the calls in flight, and how each line read is taken in.

use super::super::{Client, Event};
use super::*;
use crate::dispatch::MethodSet;
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::{ErrorCode, RequestId, RpcError};
use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard};

impl Inner {
    pub(super) fn new(client: Client, link: Link) -> Self {
        let call_timeout = match &link {
            #[cfg(feature = "http-client")]
            Link::Http(link) => link.call_timeout(),
            #[cfg(feature = "stdio-client")]
            Link::Stdio(_) => None,
        };
        Inner {
            engine: Mutex::new(client),
            pending: Mutex::new(HashMap::new()),
            connecting: Mutex::new(None),
            notified: Mutex::new(None),
            answering: Mutex::new(None),
            watches: Mutex::new(HashMap::new()),
            tokens: AtomicU64::new(0),
            call_timeout: Mutex::new(call_timeout),
            link,
        }
    }

    /// Whether a cancelled call is told to the server with `notifications/cancelled`: over
    /// stdio, and over HTTP in a stateful revision. Over HTTP in a stateless one, the call's
    /// response stream, closed as its future is dropped, is the cancellation.
    pub(super) fn tells_cancellation(&self) -> bool {
        match &self.link {
            #[cfg(feature = "http-client")]
            Link::Http(_) => !self
                .engine()
                .version()
                .is_some_and(crate::negotiation::is_stateless),
            #[cfg(feature = "stdio-client")]
            Link::Stdio(_) => true,
        }
    }

    /// The HTTP link, when the connection is over HTTP.
    #[cfg(feature = "http-client")]
    pub(super) fn http_link(&self) -> Option<&http::HttpLink> {
        match &self.link {
            Link::Http(link) => Some(link),
            #[cfg(feature = "stdio-client")]
            Link::Stdio(_) => None,
        }
    }

    pub(super) fn engine(&self) -> MutexGuard<'_, Client> {
        lock(&self.engine)
    }

    /// Sends `line`; `id` is the request's when it is one a caller waits on (over HTTP, its
    /// answer comes in the response, or the stream is resumed until it does).
    pub(super) async fn send(&self, line: String, id: Option<RequestId>) -> Result<(), CallError> {
        match &self.link {
            #[cfg(feature = "http-client")]
            Link::Http(link) => link.exchange(self, line, id).await,
            #[cfg(feature = "stdio-client")]
            Link::Stdio(link) => {
                let _ = id;
                link.write(line).await
            }
        }
    }

    /// What `line` from the server amounts to: answers given to their callers, notifications
    /// to the caller's function; the lines to send back.
    pub(super) fn receive(&self, line: &str) -> Vec<String> {
        self.receive_on(line, None)
    }

    /// [`Inner::receive`] for a line that came on the response stream of the caller's request
    /// `stream`: its log messages are that call's.
    pub(super) fn receive_on(&self, line: &str, stream: Option<&RequestId>) -> Vec<String> {
        let events = self.engine().receive(line);
        self.handle_on(events, stream)
    }

    /// Request `line` got no answer at the transport (an HTTP error, a stream that ended):
    /// `why` is then its answer.
    #[cfg(feature = "http-client")]
    pub(super) fn no_answer(&self, line: &str, why: RpcError) -> Vec<String> {
        let events = self.engine().no_answer(line, why);
        self.handle(events)
    }

    #[cfg(feature = "http-client")]
    pub(super) fn handle(&self, events: Vec<Event>) -> Vec<String> {
        self.handle_on(events, None)
    }

    /// The function watching `notification`, when a call in flight watches it: its progress
    /// by its token, its log messages by the stream they came on.
    pub(super) fn watcher(
        &self,
        notification: &latest::ServerNotify,
        stream: Option<&RequestId>,
    ) -> Option<Box<dyn Fn(latest::ServerNotify)>> {
        let watches = lock(&self.watches);
        match notification {
            latest::ServerNotify::Progress(progress) => {
                let watching = watches
                    .values()
                    .find(|watch| watch.token.as_ref() == Some(&progress.progress_token))?;
                let progress = Arc::clone(watching.progress.as_ref()?);
                Some(Box::new(move |notification| {
                    if let latest::ServerNotify::Progress(params) = notification {
                        progress(params);
                    }
                }))
            }
            latest::ServerNotify::LoggingMessage(_) => {
                let logged = Arc::clone(watches.get(stream?)?.logged.as_ref()?);
                Some(Box::new(move |notification| {
                    if let latest::ServerNotify::LoggingMessage(params) = notification {
                        logged(params);
                    }
                }))
            }
            _ => None,
        }
    }

    pub(super) fn handle_on(&self, events: Vec<Event>, stream: Option<&RequestId>) -> Vec<String> {
        let mut to_send = Vec::new();
        for event in events {
            match event {
                Event::Send(line) => to_send.push(line),
                Event::Connected(version) => {
                    if let Some(told) = lock(&self.connecting).take() {
                        let _ = told.send(Ok(version));
                    }
                }
                Event::Refused(why) => {
                    if let Some(told) = lock(&self.connecting).take() {
                        let _ = told.send(Err(CallError::Server(why)));
                    }
                }
                Event::NoRevisionInCommon { client, server } => {
                    if let Some(told) = lock(&self.connecting).take() {
                        let _ = told.send(Err(CallError::NoRevisionInCommon { client, server }));
                    }
                }
                Event::Answer { id, result } => {
                    if let Some(caller) = lock(&self.pending).remove(&id) {
                        let _ = caller.send(result.map_err(CallError::Server));
                    }
                }
                Event::Notification(notification) => {
                    if let Some(watcher) = self.watcher(&notification, stream) {
                        watcher(notification);
                        continue;
                    }
                    let notified = lock(&self.notified).clone();
                    if let Some(notified) = notified {
                        notified(notification);
                    }
                }
                Event::Request { id, call } => {
                    let answering = lock(&self.answering).clone();
                    let answer = match answering {
                        Some(answering) => answering(call),
                        None => Err(RpcError::new(
                            ErrorCode::MethodNotFound,
                            format!("the client does not answer {}", call.method()),
                        )),
                    };
                    let answered = self.engine().respond(&id, answer);
                    let answered = answered.or_else(|unsayable| {
                        // The server's revision cannot say the answer: an error it can.
                        let why = RpcError::new(ErrorCode::InternalError, unsayable.to_string());
                        self.engine().respond(&id, Err(why))
                    });
                    for event in answered.unwrap_or_default() {
                        match event {
                            // The engine gave the call up: what the server asked for it was
                            // refused.
                            Event::Answer {
                                id,
                                result: Err(why),
                            } => {
                                if let Some(caller) = lock(&self.pending).remove(&id) {
                                    let _ = caller.send(Err(CallError::Unexpected(why.message)));
                                }
                            }
                            other => to_send.extend(self.handle_on(vec![other], stream)),
                        }
                    }
                }
                Event::Unpaired(_) | Event::Unreadable(_) => {}
            }
        }
        to_send
    }

    /// Gives every call still waiting `why` as its answer: the connection is gone.
    #[cfg(feature = "stdio-client")]
    pub(super) fn fail_all(&self, why: &str) {
        let waiting: Vec<_> = lock(&self.pending).drain().collect();
        for (_, caller) in waiting {
            let _ = caller.send(Err(CallError::Transport(why.to_owned())));
        }
        if let Some(told) = lock(&self.connecting).take() {
            let _ = told.send(Err(CallError::Transport(why.to_owned())));
        }
    }

    /// Gives request `id`'s caller, if it still waits, `why` as its answer.
    #[cfg(feature = "http-client")]
    pub(super) fn give_up(&self, id: &RequestId, why: &str) {
        if let Some(caller) = lock(&self.pending).remove(id) {
            let _ = caller.send(Err(CallError::Unexpected(why.to_owned())));
        }
    }

    /// Whether the caller of request `id` still waits.
    #[cfg(feature = "http-client")]
    pub(super) fn waits(&self, id: &RequestId) -> bool {
        lock(&self.pending).contains_key(id)
    }
}
