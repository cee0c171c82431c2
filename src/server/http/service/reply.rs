//! The responses the service writes itself.

use super::body::HttpBody;
use crate::prelude::*;
use crate::RpcError;

/// A refusal of HTTP's own, with a JSON-RPC error (no id) saying why, for the client to read.
pub(super) fn refuse(status: u16, why: &str) -> http::Response<HttpBody> {
    let error = RpcError::new(crate::ErrorCode::InvalidRequest, why);
    json_reply(status, crate::server::engine::call::error_line(None, error))
}

/// A response of `status` whose body is the JSON `body`.
pub(super) fn json_reply(status: u16, body: String) -> http::Response<HttpBody> {
    let mut reply = http::Response::new(HttpBody::full(body));
    *reply.status_mut() = http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::OK);
    reply.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    reply
}

/// A message as the data of an event with no id.
pub(super) fn data(line: &str) -> String {
    format!("data: {line}\n\n")
}

/// A response with `status` and no body.
pub(super) fn plain(status: u16) -> http::Response<HttpBody> {
    let mut reply = http::Response::new(HttpBody::empty());
    *reply.status_mut() = http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::OK);
    reply
}
