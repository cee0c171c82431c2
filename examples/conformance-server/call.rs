//! One request being answered, whichever lifecycle brought it: a stateful session's, or a
//! stateless (2026-07-28) request that carries everything itself. The handlers (`fixtures.rs`)
//! see only this, so they are written once for both, in 2026-07-28's types. A session's
//! notifications and requests are converted (losslessly) to 2025-11-25, which the session
//! writes for its own revision.

use crate::listen;
use crate::session::Session;
use mcp_spec_types::convert::{convert_call, convert_result, ConvertTo};
use mcp_spec_types::dispatch::{CallSet, NotificationEnvelope, PendingRequest};
use mcp_spec_types::input_required::INPUT_RESPONSES;
use mcp_spec_types::progress::Progress;
use mcp_spec_types::v2025_11_25 as stateful;
use mcp_spec_types::v2026_07_28::{
    ClientCapabilities, LoggingLevel, ServerCall, ServerCallResult, ServerMessage, ServerNotify,
};
use mcp_spec_types::{ErrorCode, RpcError};
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// Where a request's notifications go.
pub enum Channel {
    /// A session's: its POST's SSE stream (`Some`) or its GET stream.
    Session {
        /// The session.
        session: Arc<Session>,
        /// The POST's SSE stream, when the answer goes on one.
        stream: Option<u64>,
    },
    /// A stateless request's own response. The level is the request's `_meta` log level: without one, no
    /// log message may be sent for the request.
    Stateless {
        /// The messages before the answer.
        sink: mpsc::UnboundedSender<ServerMessage>,
        /// The lowest level the request asked to see.
        level: Option<LoggingLevel>,
        /// What the handler asks the client, and the answers the request brought.
        inputs: Arc<Inputs>,
    },
}

/// The requests a stateless request's handler sends the client. There are no requests of the
/// server in the stateless revisions: the handler's `n`-th request is asked, under key
/// `input-n`, in an `input_required` result, and the client sends the request again with the
/// answer under that key in `inputResponses`; the handler, run again from the start, asks the
/// same requests in the same order and now finds the answers.
#[derive(Default)]
pub struct Inputs {
    responses: Map<String, Value>,
    asked: Mutex<Vec<(String, ServerCall)>>,
    next: AtomicUsize,
}

impl Inputs {
    /// The inputs of a request whose params are `params`.
    pub fn of(params: &Map<String, Value>) -> Self {
        let responses = match params.get(INPUT_RESPONSES) {
            Some(Value::Object(responses)) => responses.clone(),
            _ => Map::new(),
        };
        Inputs {
            responses,
            ..Inputs::default()
        }
    }

    /// The requests asked and not answered, with their keys.
    pub fn asked(&self) -> Vec<(String, ServerCall)> {
        std::mem::take(&mut *self.asked.lock().unwrap_or_else(|p| p.into_inner()))
    }

    fn request(&self, call: ServerCall) -> Result<ServerCallResult, String> {
        let key = format!("input-{}", self.next.fetch_add(1, Ordering::Relaxed));
        if let Some(answer) = self.responses.get(&key) {
            let raw = serde_json::value::to_raw_value(answer).map_err(|e| e.to_string())?;
            return ServerCall::parse_result(&PendingRequest::of(&call), &raw)
                .map_err(|e| format!("the answer under {key}: {e}"));
        }
        self.asked
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((key, call));
        Err("asked for with input_required".to_owned())
    }
}

/// One request being answered.
pub struct Call {
    /// What the client declared: in `initialize` for a session, in the request's `_meta` for
    /// a stateless request.
    pub client: ClientCapabilities,
    /// Progress reports, when the request asked for them.
    pub progress: Option<Progress>,
    /// Where its notifications go.
    pub channel: Channel,
}

/// Whether a message at `level` passes `threshold` (RFC 5424 order, as the schema lists it),
/// in either revision's levels (a session's are 2025-11-25's, the handlers' 2026-07-28's).
pub fn passes<L: serde::Serialize>(level: &L, threshold: &L) -> bool {
    const ORDER: [&str; 8] = [
        "debug",
        "info",
        "notice",
        "warning",
        "error",
        "critical",
        "alert",
        "emergency",
    ];
    let rank = |l: &L| {
        let name = serde_json::to_value(l).ok();
        ORDER
            .iter()
            .position(|x| name.as_ref().and_then(Value::as_str) == Some(*x))
    };
    rank(level) >= rank(threshold)
}

impl Call {
    /// The session, for the methods only sessions have.
    pub fn session(&self) -> Option<&Arc<Session>> {
        match &self.channel {
            Channel::Session { session, .. } => Some(session),
            Channel::Stateless { .. } => None,
        }
    }

    /// Sends a notification related to the request.
    pub fn notify(&self, notification: ServerNotify) {
        match &self.channel {
            Channel::Session { session, stream } => {
                // A notification 2025-11-25 cannot carry is not sent.
                if let Ok(notification) = convert_call::<_, stateful::ServerNotify>(&notification) {
                    let message = stateful::ServerMessage::Notification(NotificationEnvelope::new(
                        notification,
                    ));
                    let _ = session.send(*stream, &message);
                }
            }
            Channel::Stateless { sink, .. } => {
                let message = ServerMessage::Notification(NotificationEnvelope::new(notification));
                let _ = sink.send(message);
            }
        }
    }

    /// Logs `text` at `level`, if the client's level lets it through.
    pub fn log(&self, level: LoggingLevel, text: &str) {
        let wanted = match &self.channel {
            Channel::Session { session, .. } => {
                ConvertTo::<stateful::LoggingLevel>::convert(&level)
                    .is_ok_and(|level| session.logs(level))
            }
            Channel::Stateless { level: asked, .. } => {
                asked.as_ref().is_some_and(|t| passes(&level, t))
            }
        };
        if wanted {
            self.notify(ServerNotify::LoggingMessage(crate::fixtures::log_message(
                level, text,
            )));
        }
    }

    /// Closes the connection of the request's stream; the answer waits for the client to
    /// resume it. Stateless streams are not resumable, so they stay open.
    pub fn close_stream(&self) {
        if let Channel::Session {
            session,
            stream: Some(stream),
        } = &self.channel
        {
            session.detach(*stream);
        }
    }

    /// The tool lists changed: every `subscriptions/listen` stream that asked hears it, and so
    /// does a session's own GET stream.
    pub fn list_changed(&self, notification: ServerNotify) {
        listen::broadcast(&notification);
        if let Channel::Session { session, .. } = &self.channel {
            if let Ok(notification) = convert_call::<_, stateful::ServerNotify>(&notification) {
                let message =
                    stateful::ServerMessage::Notification(NotificationEnvelope::new(notification));
                let _ = session.send(None, &message);
            }
        }
    }

    /// Refuses the request unless the client declared `sampling`/`elicitation`/`roots` as
    /// `needed` names them: the -32021 error whose data is the missing capabilities, as a
    /// `ClientCapabilities` object.
    pub fn require(&self, needed: &ClientCapabilities) -> Result<(), RpcError> {
        let missing = ClientCapabilities {
            sampling: needed
                .sampling
                .clone()
                .filter(|_| self.client.sampling.is_none()),
            elicitation: needed
                .elicitation
                .clone()
                .filter(|_| self.client.elicitation.is_none()),
            roots: needed.roots.clone().filter(|_| self.client.roots.is_none()),
            ..ClientCapabilities::default()
        };
        if missing == ClientCapabilities::default() {
            return Ok(());
        }
        let data = serde_json::json!({ "requiredCapabilities": missing });
        Err(RpcError::from_code(ErrorCode::MissingRequiredClientCapability).with_data(data))
    }

    /// Sends a request to the client and waits for its answer; for a stateless request, the
    /// answer the request brought, or an `input_required` result asking for it (see
    /// [`Inputs`]).
    pub async fn request(&self, call: ServerCall) -> Result<ServerCallResult, String> {
        let declared = match &call {
            ServerCall::Elicit(_) => self.client.elicitation.is_some(),
            ServerCall::CreateMessage(_) => self.client.sampling.is_some(),
            ServerCall::ListRoots(_) => self.client.roots.is_some(),
            _ => true,
        };
        if !declared {
            return Err("the client did not declare the capability".to_owned());
        }
        match &self.channel {
            Channel::Session { session, stream } => {
                let asked: stateful::ServerCall = convert_call(&call).map_err(|e| e.to_string())?;
                let pending = PendingRequest::of(&asked);
                let answer = session.request(*stream, asked).await?;
                convert_result::<stateful::ServerCall, ServerCall>(&answer, &pending)
                    .map_err(|e| e.to_string())
            }
            Channel::Stateless { inputs, .. } => inputs.request(call),
        }
    }
}
