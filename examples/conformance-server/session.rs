//! Sessions: the negotiated revision, what the client asked for, and the session's SSE streams
//! with every event they carried, so a client that lost a stream resumes it with
//! `Last-Event-ID`.

use crate::revision::Negotiated;
use hyper::body::Bytes;
use mcp_spec_types::dispatch::{
    ErrorResponse, PendingRequest, PendingRequests, RequestEnvelope, ResultResponse,
};
use mcp_spec_types::v2025_11_25::{
    ClientCapabilities, LoggingLevel, ServerCall, ServerCallResult, ServerMessage,
};
use mcp_spec_types::{Direction, RequestId};
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// How long a client may take to answer a request of the server.
const ANSWER_WITHIN: Duration = Duration::from_secs(30);
/// The reconnection delay the priming event of every stream asks for.
pub const RETRY_MS: u64 = 1000;

/// The sessions of the server, by id.
#[derive(Default)]
pub struct Sessions {
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    next: AtomicU64,
}

impl Sessions {
    /// A new session in `revision` for a client with `client` capabilities.
    pub fn create(&self, revision: Negotiated, client: ClientCapabilities) -> Arc<Session> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or_default();
        let session = Arc::new(Session {
            id: format!("{n:x}-{nanos:08x}"),
            revision,
            client,
            state: Mutex::new(State::default()),
        });
        lock(&self.sessions).insert(session.id.clone(), Arc::clone(&session));
        session
    }

    /// The session `id`, if it is open.
    pub fn get(&self, id: &str) -> Option<Arc<Session>> {
        lock(&self.sessions).get(id).cloned()
    }

    /// Ends session `id`: its streams close and its unanswered requests fail.
    pub fn end(&self, id: &str) -> bool {
        let Some(session) = lock(&self.sessions).remove(id) else {
            return false;
        };
        let mut state = session.state();
        for stream in state.streams.values_mut() {
            stream.sink = None;
        }
        state.waiting.clear();
        true
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// One client's session.
pub struct Session {
    /// The `Mcp-Session-Id`.
    pub id: String,
    /// The negotiated revision.
    pub revision: Negotiated,
    /// What the client declared in `initialize`.
    pub client: ClientCapabilities,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    level: Option<LoggingLevel>,
    subscriptions: BTreeSet<String>,
    streams: HashMap<u64, Stream>,
    next_stream: u64,
    standalone: Option<u64>,
    next_request: i64,
    pending: PendingRequests,
    waiting: HashMap<RequestId, oneshot::Sender<Result<ServerCallResult, String>>>,
}

/// An SSE stream: every event it carried (the priming event has no data), and the connection
/// it is sent on while one is open.
struct Stream {
    events: Vec<Option<String>>,
    sink: Option<mpsc::UnboundedSender<Bytes>>,
    done: bool,
}

fn event(stream: u64, index: usize, data: Option<&str>) -> Bytes {
    Bytes::from(match data {
        None => format!("id: {stream}-{index}\nretry: {RETRY_MS}\ndata: \n\n"),
        Some(data) => format!("id: {stream}-{index}\nevent: message\ndata: {data}\n\n"),
    })
}

/// What an SSE response reads its events from.
pub type Events = mpsc::UnboundedReceiver<Bytes>;

impl Session {
    fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// Opens a stream with its priming event; `standalone` for the GET stream, which carries
    /// what relates to no request.
    pub fn open_stream(&self, standalone: bool) -> (u64, Events) {
        let (sink, events) = mpsc::unbounded_channel();
        let mut state = self.state();
        let id = state.next_stream;
        state.next_stream += 1;
        let _ = sink.send(event(id, 0, None));
        state.streams.insert(
            id,
            Stream {
                events: vec![None],
                sink: Some(sink),
                done: false,
            },
        );
        if standalone {
            state.standalone = Some(id);
        }
        (id, events)
    }

    /// Sends `text` on `stream` (or the GET stream, for `None`), keeping it for resumption.
    fn emit(&self, stream: Option<u64>, text: String) -> bool {
        let mut state = self.state();
        let Some(id) = stream.or(state.standalone) else {
            return false;
        };
        let Some(stream) = state.streams.get_mut(&id) else {
            return false;
        };
        let bytes = event(id, stream.events.len(), Some(&text));
        stream.events.push(Some(text));
        if let Some(sink) = &stream.sink {
            if sink.send(bytes).is_err() {
                stream.sink = None;
            }
        }
        true
    }

    /// Sends a response on `stream`.
    pub fn respond(&self, stream: u64, text: String) {
        self.emit(Some(stream), text);
    }

    /// The stream has carried everything it will: its connection closes.
    pub fn finish(&self, stream: u64) {
        if let Some(stream) = self.state().streams.get_mut(&stream) {
            stream.done = true;
            stream.sink = None;
        }
    }

    /// Closes the connection of `stream` while its request goes on (SEP-1699 polling).
    pub fn detach(&self, stream: u64) {
        if let Some(stream) = self.state().streams.get_mut(&stream) {
            stream.sink = None;
        }
    }

    /// Resumes the stream of event `last` (`<stream>-<index>`): the events after it now, the
    /// rest as they come. `None` for an event this session never sent.
    pub fn resume(&self, last: &str) -> Option<Events> {
        let (stream, index) = last.split_once('-')?;
        let (stream, index): (u64, usize) = (stream.parse().ok()?, index.parse().ok()?);
        let mut state = self.state();
        let entry = state.streams.get_mut(&stream)?;
        if index >= entry.events.len() {
            return None;
        }
        let (sink, events) = mpsc::unbounded_channel();
        for (i, data) in entry.events.iter().enumerate().skip(index + 1) {
            if let Some(data) = data {
                let _ = sink.send(event(stream, i, Some(data)));
            }
        }
        if !entry.done {
            entry.sink = Some(sink);
        }
        Some(events)
    }

    /// Records `logging/setLevel`.
    pub fn set_level(&self, level: LoggingLevel) {
        self.state().level = Some(level);
    }

    /// Records `resources/subscribe` (`on`) or `resources/unsubscribe`.
    pub fn subscribe(&self, uri: &str, on: bool) {
        let mut state = self.state();
        if on {
            state.subscriptions.insert(uri.to_owned());
        } else {
            state.subscriptions.remove(uri);
        }
    }

    /// Whether a message at `level` passes the level the client set (all do until it sets one).
    pub fn logs(&self, level: LoggingLevel) -> bool {
        self.state()
            .level
            .is_none_or(|set| crate::call::passes(&level, &set))
    }

    /// Types a response of the client as the result of the server's request it answers.
    pub fn answered(&self, response: &ResultResponse) {
        let mut state = self.state();
        let Some(result) = state.pending.answer::<ServerCall>(response) else {
            return;
        };
        if let Some(waiting) = state.waiting.remove(&response.id) {
            let _ = waiting.send(result.map_err(|e| e.to_string()));
        }
    }

    /// An error response of the client to a request of the server.
    pub fn refused(&self, response: &ErrorResponse) {
        let Some(id) = &response.id else { return };
        let mut state = self.state();
        state.pending.resolve(Direction::ServerToClient, id);
        if let Some(waiting) = state.waiting.remove(id) {
            let _ = waiting.send(Err(response.error.message.clone()));
        }
    }
}

impl Session {
    /// Sends `message` on `stream` (or the GET stream, for `None`), written in the session's
    /// revision.
    pub fn send(&self, stream: Option<u64>, message: &ServerMessage) -> Result<(), String> {
        let text = self.revision.write(message).map_err(|e| {
            format!(
                "not expressible in revision {}: {e}",
                self.revision.version()
            )
        })?;
        if self.emit(stream, text) {
            Ok(())
        } else {
            Err("no stream open to the client".to_owned())
        }
    }

    /// Sends a request to the client on `stream` and waits for its answer.
    pub async fn request(
        &self,
        stream: Option<u64>,
        call: ServerCall,
    ) -> Result<ServerCallResult, String> {
        let (answer, waiting) = oneshot::channel();
        let id = {
            let mut state = self.state();
            state.next_request += 1;
            let id = RequestId::from(state.next_request);
            let pending = PendingRequest::of(&call);
            state
                .pending
                .insert(Direction::ServerToClient, id.clone(), pending);
            state.waiting.insert(id.clone(), answer);
            id
        };
        let sent = self.send(
            stream,
            &ServerMessage::Request(RequestEnvelope::new(id.clone(), call)),
        );
        let outcome = match sent {
            Ok(()) => match tokio::time::timeout(ANSWER_WITHIN, waiting).await {
                Ok(Ok(answer)) => answer,
                Ok(Err(_)) => Err("the session ended".to_owned()),
                Err(_) => Err("the client did not answer in time".to_owned()),
            },
            Err(e) => Err(e),
        };
        let mut state = self.state();
        state.waiting.remove(&id);
        state.pending.resolve(Direction::ServerToClient, &id);
        outcome
    }
}
