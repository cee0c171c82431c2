//! What the engine hands out for a line it received ([`Incoming`]): a line to send, a call for
//! the handler, or a session's JSON-RPC batch (2025-03-26; later revisions have none), its
//! requests handed out together, answered where the caller chooses (the HTTP service: on its
//! blocking pool, with no lock held), then finished in the session as one array of responses.

use super::call::{Answer, PendingCall};
use super::{Change, Context, Session};
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::RpcError;

/// What [`Server::receive`](crate::server::Server::receive) makes of a line.
#[derive(Debug)]
#[non_exhaustive]
pub enum Incoming {
    /// A line to send now.
    Answer(String),
    /// A request for the handler: answer it with its [`Responder`](crate::server::Responder), and
    /// send what [`Session::finish`] gives for the answer.
    Call(Box<PendingCall>),
    /// A JSON-RPC batch (2025-03-26) with calls for the handler: answer them
    /// ([`Batch::answer_with`](Batch::answer_with)) and send what
    /// [`Batch::finish`](Batch::finish) gives.
    Batch(Batch),
    /// Nothing to send: a notification, a response, a message that asks for no answer.
    Nothing,
}

/// A batch a session's client sent, read: the answers the engine gave at once, in their
/// places, and the calls for the handler. Answer its calls ([`Batch::answer_with`]), then
/// [`Batch::finish`] it in its session. An item of a batch gets no reports and cannot ask the
/// client for input: the batch's answer is one array of responses.
#[derive(Debug, Default)]
pub struct Batch {
    parts: Vec<Part>,
}

#[derive(Debug)]
enum Part {
    /// An answer the engine gave at once (an error, a `ping`'s result).
    Line(String),
    /// A call for the handler, not answered yet.
    Call(Box<PendingCall>),
    /// A call answered, with what its handler said changed.
    Answered(Answer, Vec<Change>),
}

impl Batch {
    /// Takes what the engine made of one item, in order.
    pub(in crate::server) fn push(&mut self, incoming: Incoming) {
        match incoming {
            Incoming::Answer(line) => self.parts.push(Part::Line(line)),
            Incoming::Call(pending) => self.parts.push(Part::Call(pending)),
            // Items of a batch are not batches; a notification asks for nothing.
            Incoming::Batch(_) | Incoming::Nothing => {}
        }
    }

    /// Whether the batch asks for no answer at all (notifications and responses alone).
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// How many of its calls wait for the handler.
    pub fn calls(&self) -> usize {
        let waiting = self
            .parts
            .iter()
            .filter(|part| matches!(part, Part::Call(_)));
        waiting.count()
    }

    /// Answers each call that waits with `answer` (the handler's), in order.
    pub fn answer_with(
        &mut self,
        mut answer: impl FnMut(
            latest::ClientCall,
            &mut Context,
        ) -> Result<latest::ClientCallResult, RpcError>,
    ) {
        for part in &mut self.parts {
            let taken = core::mem::replace(part, Part::Line(String::new()));
            *part = match taken {
                Part::Call(pending) => {
                    let (call, mut context, responder) = (*pending).into_parts();
                    let result = answer(call, &mut context);
                    Part::Answered(responder.respond(result), context.take_changes())
                }
                other => other,
            };
        }
    }

    /// The line that answers the batch in `session`: its responses in order, as one array
    /// (`None` when none is left to send: a request cancelled meanwhile is not answered), and
    /// what its handlers changed, for the clients to be told. A call never answered is
    /// answered with an internal error (-32603).
    pub fn finish(self, session: &mut Session) -> (Option<String>, Vec<Change>) {
        let mut lines = Vec::new();
        let mut changes = Vec::new();
        for part in self.parts {
            match part {
                Part::Line(line) => lines.push(line),
                Part::Call(pending) => {
                    let (_, _, responder) = (*pending).into_parts();
                    let error = RpcError::new(crate::ErrorCode::InternalError, "not answered");
                    lines.extend(session.finish(responder.respond(Err(error))));
                }
                Part::Answered(answer, changed) => {
                    lines.extend(session.finish(answer));
                    changes.extend(changed);
                }
            }
        }
        let line = (!lines.is_empty()).then(|| format!("[{}]", lines.join(",")));
        (line, changes)
    }
}
