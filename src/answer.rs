//! Answering what could not be read: the JSON-RPC error a [`MessageError`] calls for, and the
//! error response that carries it back to the request's id.
//!
//! A peer that sends something unreadable still gets an answer: -32700 for text that is not
//! JSON, -32600 for JSON that is not a JSON-RPC message (or a batch where the revision has
//! none), -32601 for a method the receiver does not take, -32602 for params that do not fit the
//! method. The response carries the request's id whenever the envelope got far enough to have
//! one, and `null` otherwise, as JSON-RPC 2.0 requires.
//!
//! ```
//! # #[cfg(feature = "v2025_11_25")] {
//! use mcp_spec_types::answer::error_response;
//! use mcp_spec_types::v2025_11_25::ClientMessage;
//! use mcp_spec_types::{ErrorCode, RequestId};
//!
//! let text = r#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":7}}"#;
//! let error = ClientMessage::parse(text).unwrap_err();
//! let response = error_response(text, &error).unwrap();
//! assert_eq!(response.id, Some(RequestId::from(7)));
//! assert_eq!(response.code(), ErrorCode::InvalidParams);
//! # }
//! ```

use crate::dispatch::{ErrorResponse, Message, MethodSet, ResultResponse};
use crate::error::{MessageError, MessageErrorKind};
use crate::jsonrpc::{ErrorCode, RequestId, RpcError};
use crate::prelude::*;
use serde::Deserialize;
use serde_json::Value;

/// The JSON-RPC error code for a message that could not be read.
pub fn error_code(error: &MessageError) -> ErrorCode {
    match error.kind() {
        MessageErrorKind::Json => ErrorCode::ParseError,
        MessageErrorKind::Envelope | MessageErrorKind::BatchNotAllowed => ErrorCode::InvalidRequest,
        MessageErrorKind::WrongDirection
        | MessageErrorKind::WrongKind
        | MessageErrorKind::WrongRevision => ErrorCode::MethodNotFound,
        MessageErrorKind::Params => ErrorCode::InvalidParams,
        // A result or error object from the peer is never answered, but the error still has a
        // code: the response did not fit what the request expects.
        MessageErrorKind::Result | MessageErrorKind::ErrorObject => ErrorCode::InvalidParams,
    }
}

/// The JSON-RPC error for a message that could not be read: [`error_code`], the error's text
/// as the message, and the method and JSON path (when known) in `data`.
pub fn rpc_error(error: &MessageError) -> RpcError {
    let mut data = serde_json::Map::new();
    if let Some(method) = error.method() {
        data.insert("method".into(), Value::String(method.to_owned()));
    }
    if !error.path().is_empty() {
        data.insert("path".into(), Value::String(error.path().to_owned()));
    }
    let rpc = RpcError::new(error_code(error), error.to_string());
    if data.is_empty() {
        rpc
    } else {
        rpc.with_data(Value::Object(data))
    }
}

/// The id of the message `text`, when it is an object with a string or integer `id`; reads no
/// other member. `None` for anything else (not JSON, a batch, no id, a `null` id).
pub fn request_id(text: &str) -> Option<RequestId> {
    #[derive(Deserialize)]
    struct Id {
        id: Option<RequestId>,
    }
    // A struct reads from an array too; only an object is a message with an id.
    if !text.trim_start().starts_with('{') {
        return None;
    }
    crate::json::from_str::<Id>(text).ok().and_then(|m| m.id)
}

/// Whether `text` is a JSON object with a `method` and no `id` member at all: a
/// notification, which is never answered, not even with an error.
fn is_notification(text: &str) -> bool {
    crate::json::from_str::<serde_json::Map<String, Value>>(text)
        .is_ok_and(|m| m.contains_key("method") && !m.contains_key("id"))
}

/// The error response to the message `text` that failed with `error`: the request's id when
/// it can be read, `null` otherwise. `None` when the message is a notification (which JSON-RPC
/// never answers) or a response (answering it would start a loop).
pub fn error_response(text: &str, error: &MessageError) -> Option<ErrorResponse> {
    if is_notification(text) || error.kind() == MessageErrorKind::Result {
        return None;
    }
    let rpc = rpc_error(error);
    Some(match request_id(text) {
        Some(id) => ErrorResponse::new(id, rpc),
        None => ErrorResponse::without_id(rpc),
    })
}

/// Answers one line a client sent, for a server that reads and writes lines (stdio): a
/// request (of the set `C`, notifications `N`) gets `handler`'s result, or its error, as a
/// response; a message that cannot be read gets the error response [`error_response`] makes; a
/// batch gets the array of its answers. `None` when nothing is to be sent back: a
/// notification, a response, a batch of those.
///
/// Each revision module has it as `reply_to(line, handler)`, with its own sets. A result that
/// cannot be written (a declared member put into `extra`) is answered with an internal error
/// (-32603) that says why, never with a malformed line.
pub fn reply_to<C: MethodSet, N: MethodSet, T: serde::Serialize>(
    line: &str,
    mut handler: impl FnMut(C) -> Result<T, RpcError>,
) -> Option<String> {
    let message = match Message::<C, N>::parse(line) {
        Ok(message) => message,
        Err(error) => {
            let response = error_response(line, &error)?;
            return Some(Message::<C, N>::Error(response).to_json());
        }
    };
    let answer = match message {
        Message::Batch(messages) => {
            let answers: Vec<Message<C, N>> = messages
                .into_iter()
                .filter_map(|message| answer(message, &mut handler))
                .collect();
            return (!answers.is_empty()).then(|| Message::<C, N>::Batch(answers).to_json());
        }
        message => answer(message, &mut handler)?,
    };
    Some(answer.to_json())
}

fn answer<C: MethodSet, N: MethodSet, T: serde::Serialize>(
    message: Message<C, N>,
    handler: &mut impl FnMut(C) -> Result<T, RpcError>,
) -> Option<Message<C, N>> {
    let Message::Request(request) = message else {
        return None;
    };
    let id = request.id;
    Some(match handler(request.call) {
        Ok(result) => match ResultResponse::new(id.clone(), &result) {
            Ok(response) => Message::Response(response),
            Err(error) => Message::Error(ErrorResponse::new(
                id,
                RpcError::new(
                    ErrorCode::InternalError,
                    format!("the result cannot be written: {error}"),
                ),
            )),
        },
        Err(error) => Message::Error(ErrorResponse::new(id, error)),
    })
}
