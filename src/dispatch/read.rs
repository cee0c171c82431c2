//! Typed reads of a message's members (params, results, the error object), each through the
//! crate's reader, with the method and JSON path of any mismatch.

use super::{revisions_defining, CallSet, PendingRequest, ResultResponse};
use crate::error::{MessageError, MessageErrorKind};
use crate::method::{Direction, MethodKind};
use crate::prelude::*;
use alloc::borrow::Cow;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::Value;

/// Reads params that the method requires.
pub fn required_params<T: DeserializeOwned>(
    method: &str,
    params: Option<&RawValue>,
) -> Result<T, MessageError> {
    match params {
        Some(raw) => read_params(method, raw),
        None => Err(
            MessageError::new(MessageErrorKind::Params, "missing field `params`")
                .with_method(method),
        ),
    }
}

/// Reads params that the method makes optional.
pub fn optional_params<T: DeserializeOwned>(
    method: &str,
    params: Option<&RawValue>,
) -> Result<Option<T>, MessageError> {
    params.map(|raw| read_params(method, raw)).transpose()
}

fn read_params<T: DeserializeOwned>(method: &str, raw: &RawValue) -> Result<T, MessageError> {
    read_member(raw, MessageErrorKind::Params, "params").map_err(|e| e.with_method(method))
}

/// Reads a result as `T`, naming the method and the path of any mismatch.
pub fn read_result<T: DeserializeOwned>(method: &str, raw: &RawValue) -> Result<T, MessageError> {
    read_member(raw, MessageErrorKind::Result, "result").map_err(|e| e.with_method(method))
}

/// Reads the answer to a request that asked to run as a task: the task it created (`task`
/// read with `C`), or the request's own result (`own`), since receivers that do not support
/// tasks for a request "MUST process requests of that type normally, ignoring any
/// task-augmentation metadata" (2025-11-25, Tasks). When neither fits, the error is the
/// `CreateTaskResult` one if the result has a `task` member, else the method's own.
pub fn read_task_result<T, C: DeserializeOwned>(
    method: &str,
    raw: &RawValue,
    task: fn(C) -> T,
    own: impl FnOnce() -> Result<T, MessageError>,
) -> Result<T, MessageError> {
    let task_error = match read_result::<C>(method, raw) {
        Ok(created) => return Ok(task(created)),
        Err(e) => e,
    };
    own().map_err(|own_error| {
        let members: Result<alloc::collections::BTreeMap<Cow<str>, &RawValue>, _> =
            crate::json::from_str(raw.get());
        if members.is_ok_and(|m| m.contains_key("task")) {
            task_error
        } else {
            own_error
        }
    })
}

/// Reads one member of a message as `T`; a failure names the JSON path of the culprit, in
/// serde_json's words ([`crate::__private::from_str_explained`]).
pub(super) fn read_member<T: DeserializeOwned>(
    raw: &RawValue,
    kind: MessageErrorKind,
    member: &str,
) -> Result<T, MessageError> {
    crate::__private::from_str_explained(raw.get())
        .map_err(|explained| MessageError::from_explained(kind, member, explained))
}

/// Decides what an unlisted method is: another direction's or kind's method of this revision
/// (an error), another revision's method (an error), or a method nobody defines (kept as data).
pub fn unknown_method(
    method: &str,
    params: Option<&RawValue>,
    in_revision: Option<(Option<Direction>, Option<MethodKind>)>,
    set_revision: &str,
    set_sender: Direction,
    set_kind: MethodKind,
) -> Result<Option<Value>, MessageError> {
    if let Some((direction, kind)) = in_revision {
        if let Some(kind) = kind {
            if kind != set_kind {
                let (is, came) = match kind {
                    MethodKind::Request => ("a request", "a notification (no `id`)"),
                    MethodKind::Notification => ("a notification", "a request (with `id`)"),
                };
                return Err(MessageError::new(
                    MessageErrorKind::WrongKind,
                    format!("{method} is {is} in revision {set_revision}, but came as {came}"),
                )
                .with_method(method));
            }
        }
        let sender = match direction {
            Some(Direction::ClientToServer) => "the client",
            Some(Direction::ServerToClient) => "the server",
            _ => "either side",
        };
        let expected = match set_sender {
            Direction::ClientToServer => "the client",
            _ => "the server",
        };
        return Err(MessageError::new(
            MessageErrorKind::WrongDirection,
            format!("{method} is sent by {sender} in revision {set_revision}, not by {expected}"),
        )
        .with_method(method));
    }
    let elsewhere = revisions_defining(method);
    if !elsewhere.is_empty() {
        return Err(MessageError::new(
            MessageErrorKind::WrongRevision,
            format!(
                "{method} is not part of revision {set_revision}; it is defined in {}",
                elsewhere.join(", ")
            ),
        )
        .with_method(method));
    }
    match params {
        None => Ok(None),
        Some(raw) => crate::json::from_str(raw.get())
            .map(Some)
            .map_err(|e| MessageError::new(MessageErrorKind::Params, strip(e)).with_method(method)),
    }
}

impl ResultResponse {
    /// Reads the result as `T`, with the JSON path of any mismatch.
    pub fn result_as<T: DeserializeOwned>(&self) -> Result<T, MessageError> {
        read_member(&self.result, MessageErrorKind::Result, "result")
    }

    /// Reads the result as the result type of request `R`.
    ///
    /// This knows the method only: a request that asked to run as a task (2025-11-25's
    /// `params.task`) is answered with a `CreateTaskResult` instead. Where the request itself
    /// is at hand, [`ResultResponse::result_of`] types both answers.
    pub fn result_for<R: crate::Request>(&self) -> Result<R::Result, MessageError> {
        self.result_as::<R::Result>()
            .map_err(|e| e.with_method(R::METHOD))
    }

    /// Reads the result as the answer to `request` (see [`PendingRequest::of`]): the
    /// method's result type, or `CreateTaskResult` for a request that asked for a task.
    pub fn result_of<R: CallSet>(
        &self,
        request: &PendingRequest,
    ) -> Result<R::Result, MessageError> {
        R::parse_result(request, &self.result)
    }
}

/// A serde_json error's message without its position, which would count within the member.
pub(super) fn strip(error: serde_json::Error) -> String {
    crate::error::strip_position(&error.to_string())
}
