//! Pairing responses with the requests they answer.
//!
//! A response carries only the id of its request, and what its `result` must be depends on
//! that request: its method, and (from revision 2025-11-25 on) whether it asked for a task, in
//! which case the answer is a `CreateTaskResult` instead of the method's own result. A
//! [`PendingRequest`] keeps both facts, taken from the request itself so they cannot be
//! mismatched, and [`PendingRequests`] keeps them by the direction the request travelled and
//! its id: each side numbers its requests independently, so the same id may be in flight both
//! ways at once.

use crate::dispatch::{Message, MethodSet, ResultResponse};
use crate::error::MessageError;
use crate::jsonrpc::RequestId;
use crate::method::Direction;
use serde_json::value::RawValue;
use std::collections::HashMap;

/// The request sets of a revision (`ClientCall`, `ServerCall`): requests whose answers are
/// typed by [`CallSet::Result`]. Implemented by generated code only.
pub trait CallSet: MethodSet {
    /// The results of the set's requests (`ClientCallResult`, `ServerCallResult`).
    type Result: serde::Serialize;

    /// Whether the request asked to run as a task (`params.task`), so that its answer is a
    /// `CreateTaskResult`. Always `false` in revisions without tasks.
    fn is_task_augmented(&self) -> bool;

    /// Reads the result of `request`.
    fn parse_result(
        request: &PendingRequest,
        result: &RawValue,
    ) -> Result<Self::Result, MessageError>;

    /// The members the schema declares for the result of `method` (its named result
    /// definition, `ListResourcesResult` for `resources/list`); empty when it names none.
    fn result_members(method: &str) -> &'static [&'static str];
}

/// What a request that is still unanswered expects as its result: its method, and whether it
/// asked to run as a task.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PendingRequest {
    method: String,
    task_augmented: bool,
}

impl PendingRequest {
    /// What `call` expects.
    pub fn of<R: CallSet>(call: &R) -> Self {
        PendingRequest {
            method: call.method().to_owned(),
            task_augmented: call.is_task_augmented(),
        }
    }

    /// A request of `method` that did not ask for a task, for callers that track requests by
    /// method name. Prefer [`PendingRequest::of`], which cannot miss a task.
    pub fn without_task(method: impl Into<String>) -> Self {
        PendingRequest {
            method: method.into(),
            task_augmented: false,
        }
    }

    /// The request's method.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// Whether the request asked to run as a task (its answer is then a `CreateTaskResult`).
    pub fn is_task_augmented(&self) -> bool {
        self.task_augmented
    }
}

/// Requests sent and not yet answered, by the direction they travelled and their id, so each
/// response is typed as the result of the request it answers.
///
/// ```
/// # #[cfg(feature = "v2025_11_25")] {
/// use mcp_spec_types::dispatch::{Message, PendingRequests};
/// use mcp_spec_types::v2025_11_25::{ClientCallResult, ClientMessage, ServerMessage};
/// use mcp_spec_types::Direction;
///
/// let mut pending = PendingRequests::new();
/// let call = ClientMessage::parse(
///     r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{"ttl":60000}}}"#,
/// ).unwrap();
/// pending.track(&call);
///
/// let answer = r#"{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"t1","status":"working",
///   "createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":60000}}}"#;
/// let Message::Response(response) = ServerMessage::parse(answer).unwrap() else { unreachable!() };
/// let request = pending.resolve(Direction::ClientToServer, &response.id).unwrap();
/// let result = ClientCallResult::parse(&request, &response.result).unwrap();
/// assert!(matches!(result, ClientCallResult::CreateTask(_)));
/// # }
/// ```
#[derive(Debug, Clone, Default)]
pub struct PendingRequests {
    requests: HashMap<(Direction, RequestId), PendingRequest>,
}

impl PendingRequests {
    /// No pending requests.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a request `sender` sent ([`Direction::ClientToServer`] for the client's
    /// requests); returns the request already pending under the same direction and id, if
    /// any (a peer that reuses an id while the first request is unanswered breaks JSON-RPC).
    pub fn insert(
        &mut self,
        sender: Direction,
        id: RequestId,
        request: PendingRequest,
    ) -> Option<PendingRequest> {
        self.requests.insert((sender, id), request)
    }

    /// Records every request of a message (batches included), as sent by `R`'s side.
    pub fn track<R: CallSet, N: MethodSet>(&mut self, message: &Message<R, N>) {
        match message {
            Message::Request(r) => {
                self.insert(R::SENDER, r.id.clone(), PendingRequest::of(&r.call));
            }
            Message::Batch(items) => items.iter().for_each(|m| self.track(m)),
            _ => {}
        }
    }

    /// Removes and returns the request `sender` sent with `id`: the one a response from the
    /// other side answers.
    pub fn resolve(&mut self, sender: Direction, id: &RequestId) -> Option<PendingRequest> {
        // Borrowing a tuple key needs an owned id; responses are rare next to the reading.
        self.requests.remove(&(sender, id.clone()))
    }

    /// Types a response from the peer of `R`'s side as the result of the request it answers,
    /// removing that request. `None` when no request of `R`'s side is pending under its id.
    pub fn answer<R: CallSet>(
        &mut self,
        response: &ResultResponse,
    ) -> Option<Result<R::Result, MessageError>> {
        let request = self.resolve(R::SENDER, &response.id)?;
        Some(R::parse_result(&request, &response.result))
    }

    /// The requests still unanswered: who sent each, its id, and what it expects.
    pub fn unanswered(&self) -> impl Iterator<Item = (Direction, &RequestId, &PendingRequest)> {
        self.requests
            .iter()
            .map(|((direction, id), request)| (*direction, id, request))
    }

    /// How many requests are pending.
    pub fn len(&self) -> usize {
        self.requests.len()
    }

    /// Whether none is pending.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }
}
