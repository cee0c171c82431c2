//! Pairing responses with the requests they answer.
//!
//! A response carries only the id of its request, and what its `result` must be depends on
//! that request: its method, and (from revision 2025-11-25 on) whether it asked for a task, in
//! which case the answer is a `CreateTaskResult` instead of the method's own result. A
//! [`PendingRequest`] keeps both facts, taken from the request itself so they cannot be
//! mismatched, and [`PendingRequests`] keeps them by the direction the request travelled and
//! its id: each side numbers its requests independently, so the same id may be in flight both
//! ways at once.

use crate::collections::HashMap;
use crate::dispatch::{Message, MethodSet, ResultResponse};
use crate::error::MessageError;
use crate::jsonrpc::RequestId;
use crate::method::Direction;
use crate::prelude::*;
use alloc::borrow::Cow;
use serde_json::value::RawValue;

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

    /// Reads the result of a request of `method` that did not ask to run as a task, from
    /// `deserializer`: [`CallSet::parse_result`] in one pass, for a reader that types a
    /// response's `result` while it reads the envelope around it. Errors are the
    /// deserializer's, without the JSON path and method `parse_result` adds.
    fn deserialize_result<'de, D: serde::Deserializer<'de>>(
        method: &str,
        deserializer: D,
    ) -> Result<Self::Result, D::Error>;

    /// The members the schema declares for the result of `method` (its named result
    /// definition, `ListResourcesResult` for `resources/list`); empty when it names none.
    fn result_members(method: &str) -> &'static [&'static str];
}

/// What a request that is still unanswered expects as its result: its method, and whether it
/// asked to run as a task.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PendingRequest {
    method: Cow<'static, str>,
    task_augmented: bool,
}

impl PendingRequest {
    /// What `call` expects.
    pub fn of<R: CallSet>(call: &R) -> Self {
        PendingRequest::new(call.method(), call.is_task_augmented())
    }

    /// A request of `method` that did not ask for a task, for callers that track requests by
    /// method name. Prefer [`PendingRequest::of`], which cannot miss a task.
    ///
    /// Allocates nothing for a method some MCP revision defines (its name is taken from the
    /// crate's static method table, whatever the lifetime of `method`); only an unknown
    /// method's name is copied.
    ///
    /// ```
    /// use mcp_spec_types::dispatch::PendingRequest;
    /// let owned = String::from("tools/list");
    /// assert_eq!(PendingRequest::without_task(&owned).method(), "tools/list");
    /// assert_eq!(PendingRequest::without_task("x/custom").method(), "x/custom");
    /// ```
    pub fn without_task(method: impl AsRef<str>) -> Self {
        PendingRequest::new(method.as_ref(), false)
    }

    /// A request of `method` that asked, or did not ask, to run as a task: for pairing by the
    /// envelope alone, when the request's params could not be read.
    pub(crate) fn new(method: &str, task_augmented: bool) -> Self {
        let method = match crate::dispatch::static_method_name(method) {
            Some(name) => Cow::Borrowed(name),
            None => Cow::Owned(method.to_owned()),
        };
        PendingRequest {
            method,
            task_augmented,
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
    /// Keyed by direction first so that a look-up borrows the id instead of cloning it.
    requests: HashMap<Direction, HashMap<RequestId, PendingRequest>>,
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
        self.requests.entry(sender).or_default().insert(id, request)
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
        self.requests.get_mut(&sender)?.remove(id)
    }

    /// The request `sender` sent with `id`, left pending: for a caller that looks before it
    /// decides (a progress notification's token, a duplicate id), where
    /// [`resolve`](Self::resolve) would end the request.
    ///
    /// ```
    /// use mcp_spec_types::dispatch::{PendingRequest, PendingRequests};
    /// use mcp_spec_types::{Direction, RequestId};
    ///
    /// let mut pending = PendingRequests::new();
    /// let id = RequestId::from(7);
    /// pending.insert(Direction::ServerToClient, id.clone(), PendingRequest::without_task("roots/list"));
    /// assert_eq!(pending.get(Direction::ServerToClient, &id).unwrap().method(), "roots/list");
    /// assert!(pending.get(Direction::ClientToServer, &id).is_none());
    /// assert_eq!(pending.len(), 1);
    /// ```
    pub fn get(&self, sender: Direction, id: &RequestId) -> Option<&PendingRequest> {
        self.requests.get(&sender)?.get(id)
    }

    /// Whether a request `sender` sent with `id` is pending.
    pub fn contains(&self, sender: Direction, id: &RequestId) -> bool {
        self.get(sender, id).is_some()
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
        self.requests.iter().flat_map(|(direction, requests)| {
            requests
                .iter()
                .map(move |(id, request)| (*direction, id, request))
        })
    }

    /// How many requests are pending.
    pub fn len(&self) -> usize {
        self.requests.values().map(HashMap::len).sum()
    }

    /// Whether none is pending.
    pub fn is_empty(&self) -> bool {
        self.requests.values().all(HashMap::is_empty)
    }
}

/// `call` as the line of request `id` in the message set of `R` and `N`, and what its answer
/// must be: what an engine sends and then awaits.
#[cfg(any(feature = "server", feature = "client"))]
pub(crate) fn request_line<R: CallSet, N: MethodSet>(
    id: RequestId,
    call: R,
) -> (String, PendingRequest) {
    let pending = PendingRequest::of(&call);
    let envelope = crate::dispatch::RequestEnvelope::new(id, call);
    let line = Message::<R, N>::Request(envelope).to_json();
    (line, pending)
}
