//! A request handed out to be answered later: the engine reads and converts it, the caller
//! runs the handler where it likes (inline, on a thread, in a task), and the answer comes back
//! through the session, converted for the client.

use super::notification::notification_line;
use super::Context;
use crate::dispatch::ErrorResponse;
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::{RequestId, RpcError};
use core::fmt;

/// How an answer is written in the client's revision.
pub(in crate::server) type Convert =
    Box<dyn FnOnce(Result<latest::ClientCallResult, RpcError>) -> String + Send + Sync>;

/// A request for the handler: the call in the handlers' revision (2026-07-28), what it came
/// with, and the [`Responder`] that writes its answer in the client's revision.
pub struct PendingCall {
    call: latest::ClientCall,
    context: Context,
    responder: Responder,
}

/// Writes the answer to one request, in the revision of the client that sent it.
pub struct Responder {
    id: RequestId,
    convert: Convert,
    /// For a stateful client, the call and its context again: an `input_required` answer is
    /// relayed to such a client as requests, and the call retried with their answers.
    retry: Option<Box<(latest::ClientCall, Context, u8)>>,
}

/// A request's answer, written: hand it to [`Session::finish`](crate::server::Session::finish), which
/// gives the line to send unless the client cancelled the request meanwhile.
#[derive(Debug, Clone, PartialEq)]
#[must_use = "an answer is sent only through `Session::finish`"]
pub struct Answer {
    id: RequestId,
    line: String,
    /// An `input_required` result for a stateful client, to relay as requests.
    relay: Option<Box<Relay>>,
}

/// What a stateful client is asked instead of receiving an `input_required` result, and the
/// call to retry with its answers.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::server) struct Relay {
    pub asked: latest::InputRequiredResult,
    pub call: latest::ClientCall,
    pub context: Context,
    /// How many times the call has answered `input_required`, this time included.
    pub rounds: u8,
}

impl PendingCall {
    /// `retry`: for a stateful client, which cannot take an `input_required` answer, how many
    /// times the call has answered one already; such an answer is then relayed to the client
    /// as requests, and the call retried with their answers.
    pub(in crate::server) fn new(
        call: latest::ClientCall,
        context: Context,
        id: RequestId,
        convert: Convert,
        retry: Option<u8>,
    ) -> Self {
        let retry = retry
            .filter(|_| can_ask_for_input(&call))
            .map(|rounds| Box::new((call.clone(), context.clone(), rounds)));
        PendingCall {
            call,
            context,
            responder: Responder { id, convert, retry },
        }
    }

    /// The request, in the handlers' revision.
    pub fn call(&self) -> &latest::ClientCall {
        &self.call
    }

    /// What the request came with.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// The id of the request.
    pub fn id(&self) -> &RequestId {
        &self.responder.id
    }

    /// The call, its context, and the responder for its answer, to move where the handler
    /// runs.
    pub fn into_parts(self) -> (latest::ClientCall, Context, Responder) {
        (self.call, self.context, self.responder)
    }
}

impl Responder {
    /// The id of the request it answers.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    /// The lines that send what the handler reported in `context` (its progress, its log
    /// messages: see [`Context`]) since the last call, as notifications of the client's
    /// revision: send them before the answer. A report the client's revision has no
    /// notification for is not sent.
    ///
    /// A handler run inline by [`Server::handle`](crate::server::Server::handle) has its reports
    /// sent for it; one run elsewhere sends them as it goes (a progress report is worth
    /// something only while the work goes on), and before [`Responder::respond`]: what is
    /// still in `context` then is not sent.
    pub fn notes(&self, context: &mut Context) -> Vec<String> {
        let notes = context.take_notes();
        let lines = notes
            .iter()
            .map(|note| notification_line(&context.peer, note));
        lines.flatten().collect()
    }

    /// Writes `result` as the response, in the client's revision: a result the client's
    /// revision cannot say is an internal error (-32603) saying why, "resource not found" is
    /// that revision's code.
    ///
    /// An `input_required` result for a client of a stateful revision, which has no such
    /// result, is relayed: the session asks the client each input request as a request of its
    /// revision, then hands the call out again with the answers (see
    /// [`Session::finish`](crate::server::Session::finish)).
    pub fn respond(self, result: Result<latest::ClientCallResult, RpcError>) -> Answer {
        let asked = result.as_ref().ok().and_then(|r| r.input_required());
        if let (Some(retry), Some(asked)) = (self.retry, asked) {
            let (call, context, rounds) = *retry;
            let relay = Relay {
                asked: asked.clone(),
                call,
                context,
                rounds: rounds.saturating_add(1),
            };
            let (id, line) = (self.id, String::new());
            return Answer {
                id,
                line,
                relay: Some(Box::new(relay)),
            };
        }
        let line = (self.convert)(result);
        Answer {
            id: self.id,
            line,
            relay: None,
        }
    }
}

impl Answer {
    /// The id of the request it answers.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    pub(in crate::server) fn into_parts(self) -> (RequestId, String, Option<Box<Relay>>) {
        (self.id, self.line, self.relay)
    }
}

/// The error response line to request `id` (`null` when the id cannot be read).
pub(in crate::server) fn error_line(id: Option<RequestId>, error: RpcError) -> String {
    let response = match id {
        Some(id) => ErrorResponse::new(id, error),
        None => ErrorResponse::without_id(error),
    };
    crate::json::to_string(&response).unwrap_or_default()
}

/// Whether the result of `call` may be `input_required`.
fn can_ask_for_input(call: &latest::ClientCall) -> bool {
    matches!(
        call,
        latest::ClientCall::CallTool(_)
            | latest::ClientCall::GetPrompt(_)
            | latest::ClientCall::ReadResource(_)
    )
}

impl fmt::Debug for PendingCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PendingCall")
            .field("call", &self.call)
            .field("context", &self.context)
            .field("id", &self.responder.id)
            .finish()
    }
}

impl fmt::Debug for Responder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The conversion is a function: the id says which request it answers.
        f.debug_struct("Responder")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}
