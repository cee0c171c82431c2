//! The stateless revisions (2026-07-28, SEP-2575): every POST is a whole conversation. The
//! request names its protocol version and the client's capabilities in `params._meta`, and the
//! transport's checks come first, each with its HTTP status:
//!
//! 1. `_meta` must hold the protocol version and the client capabilities (`-32602`, 400);
//! 2. the headers must agree with the body (`-32020`, 400: `mcp_spec_types::http_headers`);
//! 3. the version must be one this server serves statelessly (`-32022`, 400, listing them:
//!    `mcp_spec_types::negotiation`);
//! 4. the method must exist in the revision (`-32601`, 404), which the removed ones
//!    (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe`, ...) no longer do.
//!
//! `server/discover` and `subscriptions/listen` (`listen.rs`) are the revision's own; the
//! tasks extension's methods (`tasks.rs`) are answered before the revision would refuse them. Every
//! other request goes as it is to the handlers the sessions use (`fixtures.rs`, written against
//! 2026-07-28), and its result gets what every stateless result carries: `resultType`, the
//! cache hints where the schema declares them (`mcp_spec_types::cache`), the server's identity
//! in `_meta`. Notifications of the request (progress; logs only when `_meta` asks for a level)
//! go first on the POST's own SSE response; a request that sends none is answered with JSON,
//! so that an error keeps its HTTP status. There are no requests of the server: what a handler
//! asks the client (sampling, elicitation, roots) becomes an `input_required` result, and the
//! handler finds the answers when the client sends the request again (`call.rs`, `Inputs`);
//! the SEP-2322 scenarios' own tools (`input_required.rs`) are offered each request first.

use crate::call::{Call, Channel, Inputs};
use crate::fixtures;
use crate::http::{reply, sse_event, stream, Body};
use hyper::body::Bytes;
use hyper::header::HeaderMap;
use hyper::{Response, StatusCode};
use mcp_spec_types::answer::{error_response, rpc_error};
use mcp_spec_types::cache::declared_members;
use mcp_spec_types::convert::StatelessResult;
use mcp_spec_types::dispatch::{ErrorResponse, Message, MethodSet, ResultResponse};
use mcp_spec_types::progress::Progress;
use mcp_spec_types::v2026_07_28::input_required::InputRequired;
use mcp_spec_types::v2026_07_28::{
    self as rev, ClientCall, ClientCallResult, ClientMessage, DiscoverResult, RequestMetaObject,
    ResultMetaObject, ServerMessage, UnsupportedProtocolVersionError,
    UnsupportedProtocolVersionErrorObject,
};
use mcp_spec_types::{http_headers, negotiation, ErrorCode, RequestId, RpcError};
use serde_json::{Map, Value};
use std::sync::Arc;
use tokio::sync::mpsc;

/// Whether a POST without a session speaks a stateless revision: its body's `_meta` names a
/// protocol version, or its `MCP-Protocol-Version` header names a version that is not a
/// stateful revision this server speaks (such a request is then refused for what it lacks).
pub fn applies(version_header: Option<&str>, body: &Value) -> bool {
    let names_version = meta_of(body).is_some_and(|meta| {
        meta.contains_key(mcp_spec_types::convert::meta_keys::PROTOCOL_VERSION)
    });
    names_version || version_header.is_some_and(|v| crate::revision::named(v).is_none())
}

fn meta_of(body: &Value) -> Option<&Map<String, Value>> {
    body.get("params")?.get("_meta")?.as_object()
}

/// A JSON response carrying one JSON-RPC message.
fn json(status: StatusCode, message: &ServerMessage) -> Response<Body> {
    reply(status, "application/json", message.to_json())
}

fn refuse(status: StatusCode, id: Option<RequestId>, error: RpcError) -> Response<Body> {
    let response = match id {
        Some(id) => ErrorResponse::new(id, error),
        None => ErrorResponse::without_id(error),
    };
    json(status, &Message::Error(response))
}

/// The HTTP status of an error a handler answered with: the transport's own errors carry
/// theirs (the schema: "For HTTP, the response status code MUST be `400 Bad Request`"; an
/// unknown method is 404); any other error is the answer of a request that was served.
fn status_of(code: ErrorCode) -> StatusCode {
    match code {
        ErrorCode::MethodNotFound => StatusCode::NOT_FOUND,
        ErrorCode::HeaderMismatch
        | ErrorCode::MissingRequiredClientCapability
        | ErrorCode::UnsupportedProtocolVersion
        | ErrorCode::ParseError
        | ErrorCode::InvalidRequest => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

/// Serves one stateless POST (`text`, already read as `body`).
pub async fn serve(headers: &HeaderMap, text: &str, body: &Value) -> Response<Body> {
    let id = body
        .get("id")
        .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    let method = body
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let params = body.get("params");

    // 1. The request's own description of itself.
    let meta = match meta_of(body)
        .map(|meta| serde_json::from_value::<RequestMetaObject>(Value::Object(meta.clone())))
    {
        Some(Ok(meta)) => meta,
        Some(Err(e)) => {
            let text = format!("Invalid params: _meta lacks what every request carries: {e}");
            return refuse(StatusCode::BAD_REQUEST, id, RpcError::invalid_params(text));
        }
        None => {
            let text = "Invalid params: every request carries _meta with its protocol version and client capabilities";
            return refuse(StatusCode::BAD_REQUEST, id, RpcError::invalid_params(text));
        }
    };
    // 2. The headers a gateway routes on say what the body says.
    let lookup = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Err(mismatch) = http_headers::check(method, params, lookup) {
        return refuse(
            StatusCode::from_u16(http_headers::HEADER_MISMATCH_STATUS)
                .unwrap_or(StatusCode::BAD_REQUEST),
            id,
            mismatch.to_rpc_error(),
        );
    }
    // 3. A version this server serves per request.
    if let Err(refusal) =
        negotiation::check_request_version(&meta.io_modelcontextprotocol_protocol_version)
    {
        return unsupported(id, &refusal);
    }
    // The tasks extension's methods are no revision's (`tasks.rs`).
    if let (Some(id), true) = (&id, crate::tasks::handles(method)) {
        let params = params
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let answer = crate::tasks::answer(
            method,
            &params,
            &meta.io_modelcontextprotocol_client_capabilities,
        );
        let internal = |e: String| RpcError::new(ErrorCode::InternalError, e);
        let answer = match answer.await {
            Some(answer) => answer,
            None => Err(internal(format!("{method} has no handler"))),
        };
        let response = answer.and_then(|result| {
            ResultResponse::new(id.clone(), &result).map_err(|e| internal(e.to_string()))
        });
        return match response {
            Ok(response) => json(StatusCode::OK, &Message::Response(response)),
            Err(error) => refuse(status_of(error.code), Some(id.clone()), error),
        };
    }
    // 4. A request of the revision.
    let request = match ClientMessage::parse(text) {
        Ok(Message::Request(request)) => request,
        Ok(Message::Notification(_) | Message::Response(_) | Message::Error(_)) => {
            // Cancellation of a request answered on its own stream: nothing to keep.
            return reply(StatusCode::ACCEPTED, "text/plain", "");
        }
        Ok(Message::Batch(_)) => {
            let error = RpcError::new(
                ErrorCode::InvalidRequest,
                "batches are not part of 2026-07-28",
            );
            return refuse(StatusCode::BAD_REQUEST, id, error);
        }
        Err(e) => {
            let response = error_response(text, &e)
                .unwrap_or_else(|| ErrorResponse::without_id(rpc_error(&e)));
            let status = match response.code() {
                ErrorCode::MethodNotFound => StatusCode::NOT_FOUND,
                _ => StatusCode::BAD_REQUEST,
            };
            return json(status, &Message::Error(response));
        }
    };
    let id = request.id;
    // The tool's own headers (`Mcp-Param-*`) must agree with its arguments, as the standard
    // ones did with the body.
    if let ClientCall::CallTool(params) = &request.call {
        if let Err(error) = tool_headers(&params.name, params.arguments.as_ref(), &lookup) {
            return refuse(StatusCode::BAD_REQUEST, Some(id), error);
        }
    }
    match request.call {
        ClientCall::Discover(_) => discover(id),
        ClientCall::SubscriptionsListen(params) => {
            stream(crate::listen::open(id, &params.notifications))
        }
        ClientCall::Unknown { method, .. } => refuse(
            StatusCode::NOT_FOUND,
            Some(id),
            RpcError::method_not_found(&method),
        ),
        call => {
            let params = params
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            served(id, meta, call, params).await
        }
    }
}

/// Checks the `Mcp-Param-*` headers of a call of tool `name` against its `arguments`. An
/// unknown tool is the handlers' to refuse.
fn tool_headers<'h>(
    name: &str,
    arguments: Option<&mcp_spec_types::JsonObject>,
    lookup: &impl Fn(&str) -> Option<&'h str>,
) -> Result<(), RpcError> {
    let Some(schema) = fixtures::tool_input_schema(name) else {
        return Ok(());
    };
    let headers = http_headers::ToolHeaders::from_input_schema(&schema)
        .map_err(|e| RpcError::new(ErrorCode::InternalError, e.to_string()))?;
    let arguments = arguments.and_then(|a| serde_json::to_value(a).ok());
    headers
        .check(arguments.as_ref(), lookup)
        .map_err(|mismatch| mismatch.to_rpc_error())
}

fn unsupported(id: Option<RequestId>, refusal: &negotiation::UnsupportedVersion) -> Response<Body> {
    let error = UnsupportedProtocolVersionError {
        error: UnsupportedProtocolVersionErrorObject {
            data: refusal.into(),
            message: refusal.to_string(),
            extra: Map::new(),
        },
        id,
        extra: Map::new(),
    };
    let status = StatusCode::from_u16(negotiation::UnsupportedVersion::HTTP_STATUS)
        .unwrap_or(StatusCode::BAD_REQUEST);
    match mcp_spec_types::json::to_string(&error) {
        Ok(text) => reply(status, "application/json", text),
        Err(e) => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            None,
            RpcError::new(ErrorCode::InternalError, e.to_string()),
        ),
    }
}

/// The server's identity, as every result's `_meta` carries it.
fn result_meta() -> ResultMetaObject {
    ResultMetaObject {
        io_modelcontextprotocol_server_info: Some(fixtures::server_info()),
        extra: Map::new(),
    }
}

fn discover(id: RequestId) -> Response<Body> {
    let mut capabilities = fixtures::capabilities();
    crate::tasks::advertise(&mut capabilities);
    let hint = fixtures::hint("server/discover");
    let result = ClientCallResult::Discover(DiscoverResult {
        cache_scope: hint.scope,
        capabilities,
        instructions: None,
        meta: Some(result_meta()),
        result_type: mcp_spec_types::cache::ResultType::COMPLETE,
        supported_versions: negotiation::stateless_supported_strings(),
        ttl_ms: hint.ttl_ms,
        extra: Map::new(),
    });
    respond(id, &result)
}

fn respond(id: RequestId, result: &ClientCallResult) -> Response<Body> {
    match ResultResponse::new(id.clone(), result) {
        Ok(response) => json(StatusCode::OK, &Message::Response(response)),
        Err(e) => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            Some(id),
            RpcError::new(ErrorCode::InternalError, e.to_string()),
        ),
    }
}

/// A request the handlers answer: JSON when it sends nothing before its answer, an SSE stream
/// of its notifications and then its answer otherwise.
async fn served(
    id: RequestId,
    meta: RequestMetaObject,
    call: ClientCall,
    params: Map<String, Value>,
) -> Response<Body> {
    let client = meta.io_modelcontextprotocol_client_capabilities.clone();
    let level = meta.io_modelcontextprotocol_log_level;
    let (sink, mut notes) = mpsc::unbounded_channel();
    let inputs = Arc::new(Inputs::of(&params));
    let handler = Call {
        client,
        progress: Progress::of(&call),
        channel: Channel::Stateless {
            sink,
            level,
            inputs: Arc::clone(&inputs),
        },
    };
    let asked = Asked {
        params,
        client: meta.io_modelcontextprotocol_client_capabilities,
        inputs,
    };
    let answer = tokio::spawn(answer(handler, id.clone(), call, asked));
    let Some(first) = notes.recv().await else {
        // The handler let go of its channel: it has answered, and sent nothing before.
        return match answer.await {
            Ok((status, text)) => reply(status, "application/json", text),
            Err(e) => refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                Some(id),
                RpcError::new(ErrorCode::InternalError, e.to_string()),
            ),
        };
    };
    let (events, lines) = mpsc::unbounded_channel::<Bytes>();
    tokio::spawn(async move {
        let mut next = Some(first);
        while let Some(message) = next {
            let _ = events.send(sse_event(&message.to_json()));
            next = notes.recv().await;
        }
        let text = match answer.await {
            Ok((_, text)) => text,
            Err(e) => Message::<rev::ServerCall, rev::ServerNotify>::Error(ErrorResponse::new(
                id,
                RpcError::new(ErrorCode::InternalError, e.to_string()),
            ))
            .to_json(),
        };
        let _ = events.send(sse_event(&text));
    });
    stream(lines)
}

/// What a result of `method` carries besides its own members: `resultType`, the cache hints
/// where its definition has them, and the server's identity in `_meta`.
fn fill(method: &str) -> StatelessResult {
    let mut fill = StatelessResult::cached(fixtures::hint(method));
    if let Ok(Value::Object(meta)) = serde_json::to_value(result_meta()) {
        for (key, value) in meta {
            fill = fill.with_meta(key, value);
        }
    }
    fill
}

/// A request as its revision wrote it, for the handlers written against that revision.
struct Asked {
    /// The request's `params`.
    params: Map<String, Value>,
    /// The client's capabilities, from `_meta`.
    client: rev::ClientCapabilities,
    /// What the handler asked the client.
    inputs: Arc<Inputs>,
}

fn error_answer(id: RequestId, error: RpcError) -> (StatusCode, String) {
    let status = status_of(error.code);
    let text = ServerMessage::Error(ErrorResponse::new(id, error)).to_json();
    (status, text)
}

/// A complete result object of `method` as the answer to `id`, with what every stateless
/// result carries.
fn result_answer(
    id: RequestId,
    method: &str,
    mut result: Map<String, Value>,
) -> (StatusCode, String) {
    fill(method).insert_into(&mut result, declared_members::<ClientCall>(method));
    match ResultResponse::new(id.clone(), &result) {
        Ok(response) => (StatusCode::OK, ServerMessage::Response(response).to_json()),
        Err(e) => error_answer(id, RpcError::new(ErrorCode::InternalError, e.to_string())),
    }
}

impl Asked {
    /// The `input_required` result asking the client what the handler asked it, if it did.
    fn input_required(&self, method: &str, id: &RequestId) -> Option<(StatusCode, String)> {
        let asked = self.inputs.asked();
        if asked.is_empty() {
            return None;
        }
        let internal =
            |e: String| error_answer(id.clone(), RpcError::new(ErrorCode::InternalError, e));
        let mut required = InputRequired::new();
        for (key, call) in asked {
            required = match call {
                rev::ServerCall::CreateMessage(params) => required.sample(key, params),
                rev::ServerCall::Elicit(params) => required.elicit(key, params),
                rev::ServerCall::ListRoots(_) => required.list_roots(key),
                other => {
                    return Some(internal(format!(
                        "{} is not an input request",
                        other.method()
                    )))
                }
            };
        }
        Some(match required.build(&self.client) {
            Ok(result) => match serde_json::to_value(result) {
                Ok(Value::Object(result)) => result_answer(id.clone(), method, result),
                Ok(_) => internal("an input_required result is an object".to_owned()),
                Err(e) => internal(e.to_string()),
            },
            Err(e) => error_answer(id.clone(), e.into()),
        })
    }
}

/// The answer of the handlers to `call`, in 2026-07-28's types, with its HTTP status (for a
/// JSON response).
async fn answer(
    handler: Call,
    id: RequestId,
    call: ClientCall,
    asked: Asked,
) -> (StatusCode, String) {
    let method = call.method().to_owned();
    let error = error_answer;
    // The requests that ask the client for input (SEP-2322) have handlers of their own,
    // written against 2026-07-28: they are offered each request first.
    let offered = match crate::input_required::answer(&method, &asked.params, &asked.client) {
        Some(answer) => Some(answer),
        None => crate::tasks::answer(&method, &asked.params, &asked.client).await,
    };
    if let Some(answer) = offered {
        return match answer {
            Ok(result) => result_answer(id, &method, result),
            Err(e) => error(id, e),
        };
    }
    let result = fixtures::answer(&handler, call).await;
    // The channel closes with the handler, which tells the transport that the answer is next.
    drop(handler);
    // What the handler asked the client goes to it as an input_required result, whatever the
    // handler made of having no answer yet.
    if let Some(answer) = asked.input_required(&method, &id) {
        return answer;
    }
    let result = match result {
        Ok(result) => result,
        Err(e) => return error(id, e),
    };
    let mut result = result;
    // The lists name the SEP-2322 handlers' tools and prompt too.
    match &mut result {
        ClientCallResult::ListTools(list) => {
            list.tools.extend(crate::input_required::tools());
            list.tools.extend(crate::tasks::tools());
        }
        ClientCallResult::ListPrompts(list) => {
            list.prompts.extend(crate::input_required::prompts())
        }
        _ => {}
    }
    match serde_json::to_value(&result) {
        Ok(Value::Object(result)) => result_answer(id, &method, result),
        Ok(_) => error(
            id,
            RpcError::new(ErrorCode::InternalError, "a result is an object"),
        ),
        Err(e) => error(id, RpcError::new(ErrorCode::InternalError, e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    //! What the suite's 2026-07-28 scenarios leave unexercised: a request that asks for log
    //! messages gets them, at and above its level only, on its own stream.

    use super::*;
    use http_body_util::BodyExt;
    use hyper::header::{HeaderName, HeaderValue};
    use serde_json::json;

    /// The content type and body of the answer to a `tools/call` of `tool`, with `_meta` log
    /// level `level`.
    fn call(tool: &str, level: Option<&str>) -> (String, String) {
        let mut meta = json!({
            "io.modelcontextprotocol/protocolVersion": rev::REVISION,
            "io.modelcontextprotocol/clientCapabilities": {}
        });
        if let Some(level) = level {
            meta["io.modelcontextprotocol/logLevel"] = json!(level);
        }
        post(json!({ "name": tool, "arguments": {}, "_meta": meta }))
    }

    /// The content type and body of the answer to a `tools/call` with `params`.
    fn post(params: Value) -> (String, String) {
        let body = json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params });
        let mut headers = HeaderMap::new();
        for (name, value) in
            http_headers::request_headers(rev::REVISION, "tools/call", Some(&params))
        {
            headers.insert(
                HeaderName::from_bytes(name.as_bytes()).expect("a header name"),
                HeaderValue::from_str(&value).expect("a header value"),
            );
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let response = serve(&headers, &body.to_string(), &body).await;
            let kind = response.headers()[hyper::header::CONTENT_TYPE]
                .to_str()
                .unwrap_or_default()
                .to_owned();
            let bytes = response
                .into_body()
                .collect()
                .await
                .expect("the body")
                .to_bytes();
            (kind, String::from_utf8_lossy(&bytes).into_owned())
        })
    }

    #[test]
    fn logs_only_when_meta_asks_for_a_level() {
        let (kind, text) = call("test_tool_with_logging", None);
        assert_eq!(kind, "application/json");
        assert!(!text.contains("notifications/message"), "{text}");
        assert!(text.contains(r#""resultType":"complete""#), "{text}");

        let (kind, text) = call("test_tool_with_logging", Some("info"));
        assert_eq!(kind, "text/event-stream");
        assert_eq!(text.matches("notifications/message").count(), 3, "{text}");
        // The answer comes last, after every log message.
        let answer = text.find(r#""id":7"#).expect("the answer");
        assert!(text
            .rfind("notifications/message")
            .is_some_and(|log| log < answer));

        let (kind, text) = call("test_tool_with_logging", Some("warning"));
        assert_eq!(kind, "application/json");
        assert!(!text.contains("notifications/message"), "{text}");
    }

    #[test]
    fn a_handler_request_of_the_client_becomes_input_required_and_its_answer_comes_back() {
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": rev::REVISION,
            "io.modelcontextprotocol/clientCapabilities": { "sampling": {} }
        });
        let first =
            json!({ "name": "test_sampling", "arguments": { "prompt": "hi" }, "_meta": meta });
        let (_, text) = post(first.clone());
        let asked: Value = serde_json::from_str(&text).expect("JSON");
        let result = &asked["result"];
        assert_eq!(result["resultType"], "input_required", "{text}");
        assert_eq!(
            result["inputRequests"]["input-0"]["method"],
            "sampling/createMessage"
        );

        let mut retry = first;
        retry["inputResponses"] = json!({ "input-0": {
            "role": "assistant",
            "content": { "type": "text", "text": "hello back" },
            "model": "m"
        }});
        let (_, text) = post(retry);
        assert!(text.contains("LLM response: hello back"), "{text}");
        assert!(text.contains(r#""resultType":"complete""#), "{text}");
    }
}
