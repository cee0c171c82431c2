//! The state replicas of one server share, as data: what a session of a stateful revision
//! holds that any replica may serve it with ([`SessionRecord`]), the events kept for a client
//! resuming a stream ([`StreamEvent`]s, through [`Sessions::remember`]), and what one replica
//! tells the others ([`Broadcast`]).
//!
//! The engine stays sans-IO: the caller brings the state in before a request
//! ([`Sessions::adopt`], [`Sessions::remember`], [`Sessions::forget`]) and writes out what
//! changed after it ([`Sessions::record`], the events it sends, the changes it tells). The
//! tower service does both with a [`Store`](crate::server::Store) (feature `http-server`).
//!
//! What stays with the replica that holds it: the requests in flight (their answers go out on
//! that replica's connections), the rounds of `input_required` relayed to a stateful client,
//! and the open streams.

#[cfg(feature = "http-server")]
use super::answers::listen_stream;
use super::sessions::{Entry, Sessions};
use crate::convert::StatelessRequestMeta;
use crate::prelude::*;
use crate::server::engine::session::{Session, Stateful};
#[cfg(feature = "http-server")]
use crate::server::engine::StreamId;
use crate::server::engine::{Change, StreamEvent};
#[cfg(feature = "http-server")]
use crate::server::engine::{Handler, Server};
use crate::v2026_07_28 as latest;
use crate::ProtocolVersion;
use alloc::collections::BTreeSet;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a session of a stateful revision holds that any replica may serve it with: the
/// revision and client `initialize` negotiated, whether the client said it is initialized,
/// the resources it subscribed to and the log level it asked for. Written as JSON by
/// [`SessionRecord::to_json`] (a few hundred bytes: the client's capabilities and
/// `clientInfo` are most of it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionRecord {
    version: ProtocolVersion,
    #[serde(rename = "clientCapabilities")]
    client_capabilities: Value,
    #[serde(
        rename = "clientInfo",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    client_info: Option<Value>,
    initialized: bool,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    subscriptions: BTreeSet<String>,
    #[serde(rename = "logLevel", default, skip_serializing_if = "Option::is_none")]
    log_level: Option<latest::LoggingLevel>,
}

impl SessionRecord {
    /// The revision the session speaks.
    pub fn version(&self) -> &ProtocolVersion {
        &self.version
    }

    /// The record as one line of JSON.
    pub fn to_json(&self) -> String {
        // A struct of strings, maps and JSON values: writing it cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A record [`SessionRecord::to_json`] wrote.
    ///
    /// # Errors
    ///
    /// The text is not such a record: the error says where.
    pub fn from_json(json: &str) -> Result<Self, serde_json::Error> {
        crate::json::from_str(json)
    }

    fn of(session: &Session) -> Option<Self> {
        let stateful = session.stateful.as_ref()?;
        let meta = stateful.meta()?;
        Some(SessionRecord {
            version: stateful.version.clone(),
            client_capabilities: meta.client_capabilities,
            client_info: meta.client_info,
            initialized: stateful.initialized,
            subscriptions: session.subscriptions.clone(),
            log_level: session.log_level,
        })
    }

    /// Puts the record's state into `session`, keeping what is the replica's own.
    pub(super) fn apply(self, session: &mut Session) {
        let meta = StatelessRequestMeta {
            protocol_version: latest::REVISION.to_owned(),
            client_capabilities: self.client_capabilities,
            client_info: self.client_info,
        };
        session.stateful = Some(Stateful::new(self.version, &meta, self.initialized));
        session.subscriptions = self.subscriptions;
        session.log_level = self.log_level;
        // A stateful session's streams carry what the server asks and tells it later.
        session.streams = true;
    }
}

/// What one replica tells the others, through the store's bus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum Broadcast {
    /// Something changed on replica `from`: each replica tells its clients that asked.
    Changed {
        /// The replica it changed on, which told its own clients already.
        from: String,
        /// What changed.
        change: Change,
    },
    /// Session `session`'s record changed on replica `from` (the client subscribed, say):
    /// a replica that holds the session takes it, so that what it tells the session's client
    /// follows what the client asked wherever it asked it.
    Saved {
        /// The replica that wrote it.
        from: String,
        /// The session's `Mcp-Session-Id`.
        session: String,
        /// The session's record.
        record: SessionRecord,
    },
    /// Session `session` ended on replica `from` (`DELETE`): each replica closes the streams
    /// it holds for it.
    Ended {
        /// The replica that ended it.
        from: String,
        /// The session's `Mcp-Session-Id`.
        session: String,
    },
}

impl Broadcast {
    /// The replica that sent it.
    pub fn from(&self) -> &str {
        match self {
            Broadcast::Changed { from, .. }
            | Broadcast::Saved { from, .. }
            | Broadcast::Ended { from, .. } => from,
        }
    }

    /// The broadcast as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A broadcast [`Broadcast::to_json`] wrote.
    ///
    /// # Errors
    ///
    /// The text is not such a broadcast: the error says where.
    pub fn from_json(json: &str) -> Result<Self, serde_json::Error> {
        crate::json::from_str(json)
    }
}

impl Sessions {
    /// Names this replica in every event id it gives (`<name>-<n>`), so that ids are unique
    /// across the replicas that share a session's events: give each process a name of its own
    /// (one that a restart does not reuse). Without it, ids are `1`, `2`, … in each session.
    #[must_use]
    pub fn with_replica(mut self, name: impl Into<String>) -> Self {
        let mut name = name.into();
        if !name.is_empty() {
            name.push('-');
        }
        self.event_prefix = name;
        self
    }

    /// What session `id` holds that another replica may serve it with; `None` when this
    /// replica does not hold it, or holds it before its `initialize` was answered.
    pub fn record(&self, id: &str) -> Option<SessionRecord> {
        SessionRecord::of(&self.sessions.get(id)?.session)
    }

    /// Takes session `id` as `record` says it is (another replica opened it, or changed it):
    /// a session this replica holds keeps its requests in flight and its streams. At `now_ms`
    /// it is used. `false` when the table is full of sessions in use (see [`Sessions::max`]):
    /// the request is then refused with 503, as an `initialize` would be.
    pub fn adopt(&mut self, id: &str, record: SessionRecord, now_ms: u64) -> bool {
        if let Some(entry) = self.sessions.get_mut(id) {
            record.apply(&mut entry.session);
            entry.last_used_ms = now_ms;
            return true;
        }
        // A session adopted counts as no client's: it takes the room of an idle session
        // alone, ending no stream.
        if self.sessions.len() >= self.max && !self.evict_idle() {
            return false;
        }
        let mut session = Session::new();
        record.apply(&mut session);
        self.sessions
            .insert(id.to_owned(), Entry::new(session, "", now_ms));
        true
    }

    /// Drops session `id` from this replica (it ended, or expired, in the shared store): its
    /// streams end, as when it is deleted.
    pub fn forget(&mut self, id: &str) {
        if let Some(entry) = self.sessions.remove(id) {
            let ended: Vec<_> = entry.all_streams(id).collect();
            self.ended.extend(ended);
        }
    }

    /// Takes `events`, oldest first, as the events session `id` kept for a client resuming a
    /// stream (all replicas' events, from the shared store), in place of this replica's own
    /// (the latest [`Sessions::EVENTS_KEPT`]). Nothing when this replica does not hold the
    /// session ([`Sessions::adopt`] first).
    pub fn remember(&mut self, id: &str, events: Vec<StreamEvent>) {
        if let Some(entry) = self.sessions.get_mut(id) {
            entry.log.replace(events, Self::EVENTS_KEPT);
        }
    }
}

#[cfg(feature = "http-server")]
/// Whether `body` is one message that reads its session's record and never changes it: a
/// response, or a request or notification of a method that cannot change what the record
/// holds (the revision, the client's capabilities, `initialized`, the subscriptions, the log
/// level). A message that may change the record reads it from the store first, so that a
/// change another replica made a moment before is not lost under this one's.
pub(in crate::server) fn leaves_the_record(body: &str) -> bool {
    use crate::method::method_names as m;
    let Some(peek) = crate::server::engine::peek::Peek::of(body) else {
        return false; // a batch, or not a message: the engine says what is wrong with it
    };
    let Some(method) = peek.method.as_deref() else {
        return true; // the answer to one of the server's requests
    };
    [
        m::CALL_TOOL_REQUEST,
        m::LIST_TOOLS_REQUEST,
        m::READ_RESOURCE_REQUEST,
        m::LIST_RESOURCES_REQUEST,
        m::LIST_RESOURCE_TEMPLATES_REQUEST,
        m::GET_PROMPT_REQUEST,
        m::LIST_PROMPTS_REQUEST,
        m::COMPLETE_REQUEST,
        m::PING_REQUEST,
        m::CANCELLED_NOTIFICATION,
        m::PROGRESS_NOTIFICATION,
        m::ROOTS_LIST_CHANGED_NOTIFICATION,
    ]
    .contains(&method)
}

#[cfg(feature = "http-server")]
/// The id of the event that tells a session's own stream of the broadcast numbered `seq`
/// (see [`Sessions::notify_logged`]): the store's number, which no replica gives twice.
pub(in crate::server) fn change_id(seq: u64) -> String {
    format!("c{seq}")
}

#[cfg(feature = "http-server")]
/// The number [`change_id`] wrote into `id`; `None` for any other id.
pub(in crate::server) fn change_seq(id: &str) -> Option<u64> {
    let digits = id.strip_prefix('c')?;
    let all_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    all_digits.then(|| digits.parse().ok()).flatten()
}

#[cfg(feature = "http-server")]
impl Sessions {
    /// Says that session `id`'s record as this replica holds it is the store's at `now_ms`:
    /// read from the store, or written there.
    pub(in crate::server) fn stored(&mut self, id: &str, now_ms: u64) {
        if let Some(entry) = self.sessions.get_mut(id) {
            entry.stored_ms = Some(now_ms);
        }
    }

    /// Session `id`'s record, when this replica holds it and read it from the store, or
    /// wrote it there, less than `within_ms` before `now_ms`.
    pub(in crate::server) fn record_stored_within(
        &self,
        id: &str,
        now_ms: u64,
        within_ms: u64,
    ) -> Option<SessionRecord> {
        let entry = self.sessions.get(id)?;
        let stored_ms = entry.stored_ms?;
        if now_ms.saturating_sub(stored_ms) >= within_ms {
            return None;
        }
        SessionRecord::of(&entry.session)
    }

    /// What tells each client of `change`, which the store kept as its broadcast numbered
    /// `seq`: events on the own streams of the sessions this replica holds, each with the id
    /// [`change_id`] gives, and on stateless clients' `subscriptions/listen` streams. Every
    /// session held here that wants the change keeps its event, whether its stream is open
    /// here or not, so that a client resuming here finds it. `seq` is `None` when the store
    /// could not keep the change: its events go without an id, and are kept by no session
    /// (a client cannot resume after what was not kept).
    pub(in crate::server) fn notify_logged<H: Handler + ?Sized>(
        &mut self,
        server: &Server<H>,
        change: &Change,
        seq: Option<u64>,
    ) -> Vec<StreamEvent> {
        let id = seq.map(change_id);
        let mut events = Vec::new();
        for (number, session) in &self.listens {
            let Some(stream) = listen_stream(*number, session) else {
                continue;
            };
            for message in server.notify(session, change) {
                let stream = stream.clone();
                events.push(StreamEvent {
                    id: None,
                    retry: None,
                    stream,
                    message,
                    last: false,
                });
            }
        }
        for (session, entry) in &mut self.sessions {
            let Some(message) = own_line(server, &entry.session, change) else {
                continue;
            };
            let event = StreamEvent {
                id: id.clone(),
                retry: None,
                stream: own_stream(session),
                message,
                last: false,
            };
            if id.is_some() {
                entry.log.keep(event.clone(), Self::EVENTS_KEPT);
            }
            if entry.listening {
                events.push(event);
            }
        }
        events
    }

    /// For a client of session `id` resuming its own stream after the event of broadcast
    /// `after` (see [`change_id`]): keeps, as events of that stream, the changes among
    /// `logged` (the store's broadcasts from `after` on, in order, up to those this replica
    /// heard) that the session was to be told, whether or not a stream of it was open
    /// anywhere when they were made. What the session wanted at each is what its record said
    /// then: the record each broadcast of it carried, its present record before the first.
    /// Nothing when this replica does not hold the session, or when `logged` does not start
    /// at `after` (it was dropped: the stream opens afresh, as from an id no longer kept).
    pub(in crate::server) fn replay<'b, H: Handler + ?Sized>(
        &mut self,
        server: &Server<H>,
        id: &str,
        after: u64,
        logged: impl IntoIterator<Item = (u64, &'b Broadcast)>,
    ) {
        let Some(entry) = self.sessions.get_mut(id) else {
            return;
        };
        let mut logged = logged.into_iter().peekable();
        if logged.peek().map(|(seq, _)| *seq) != Some(after) {
            return;
        }
        let mut wanted = Session::new();
        if let Some(record) = SessionRecord::of(&entry.session) {
            record.apply(&mut wanted);
        }
        let stream = own_stream(id);
        for (seq, broadcast) in logged {
            let message = match broadcast {
                Broadcast::Saved {
                    session, record, ..
                } if session.as_str() == id => {
                    record.clone().apply(&mut wanted);
                    continue;
                }
                Broadcast::Changed { change, .. } if seq > after => {
                    match own_line(server, &wanted, change) {
                        Some(message) => message,
                        None => continue,
                    }
                }
                // The event the client named: only its place, to resume after.
                Broadcast::Changed { .. } if seq == after => String::new(),
                _ => continue,
            };
            let event = StreamEvent {
                id: Some(change_id(seq)),
                retry: None,
                stream: stream.clone(),
                message,
                last: false,
            };
            entry.log.keep(event, Self::EVENTS_KEPT);
        }
    }
}

#[cfg(feature = "http-server")]
/// Session `id`'s own stream (`GET`).
fn own_stream(id: &str) -> StreamId {
    StreamId {
        session: Some(id.to_owned()),
        request: None,
        listen: None,
    }
}

#[cfg(feature = "http-server")]
/// The line that tells `session`'s own stream of `change`, if it wants it.
fn own_line<H: Handler + ?Sized>(
    server: &Server<H>,
    session: &Session,
    change: &Change,
) -> Option<String> {
    // A session of a stateful revision holds no stateless `subscriptions/listen` stream: its
    // lines are its own stream's.
    session.stateful.as_ref()?;
    server.notify(session, change).into_iter().next()
}
