//! A request handed out to be answered later: the engine reads and converts it, the caller
//! runs the handler where it likes (inline, on a thread, in a task), and the answer comes back
//! through the session, converted for the client.

use super::Context;
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::{RequestId, RpcError};
use core::fmt;

/// How an answer is written in the client's revision.
pub(super) type Convert =
    Box<dyn FnOnce(Result<latest::ClientCallResult, RpcError>) -> String + Send>;

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
}

/// A request's answer, written: hand it to [`Session::finish`](super::Session::finish), which
/// gives the line to send unless the client cancelled the request meanwhile.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use = "an answer is sent only through `Session::finish`"]
pub struct Answer {
    id: RequestId,
    line: String,
}

impl PendingCall {
    pub(super) fn new(
        call: latest::ClientCall,
        context: Context,
        id: RequestId,
        convert: Convert,
    ) -> Self {
        PendingCall {
            call,
            context,
            responder: Responder { id, convert },
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

    /// Writes `result` as the response, in the client's revision: a result the client's
    /// revision cannot say is an internal error (-32603) saying why, "resource not found" is
    /// that revision's code.
    pub fn respond(self, result: Result<latest::ClientCallResult, RpcError>) -> Answer {
        let line = (self.convert)(result);
        Answer { id: self.id, line }
    }
}

impl Answer {
    /// The id of the request it answers.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    pub(super) fn into_parts(self) -> (RequestId, String) {
        (self.id, self.line)
    }
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
