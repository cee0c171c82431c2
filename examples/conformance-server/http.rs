//! The Streamable HTTP transport: one endpoint, `/mcp`, taking POST (messages), GET (the
//! server's own stream, or a stream resumed with `Last-Event-ID`) and DELETE (the end of a
//! session).

use crate::call::{Call, Channel};
use crate::fixtures;
use crate::revision::{self, Revision};
use crate::session::{Events, Session, Sessions};
use crate::stateless;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Frame, Incoming};
use hyper::header::{
    HeaderMap, HeaderValue, ACCEPT, ALLOW, CACHE_CONTROL, CONTENT_TYPE, HOST, ORIGIN,
};
use hyper::{Method, Request, Response, StatusCode};
use mcp_spec_types::answer::error_response;
use mcp_spec_types::convert::{convert_call_with, ConvertTo, StatelessRequestMeta};
use mcp_spec_types::dispatch::{ErrorResponse, Message, MethodSet, RequestEnvelope};
use mcp_spec_types::progress::Progress;
use mcp_spec_types::v2025_11_25::{
    self as stateful, ClientCall, ClientCallResult, ClientMessage, ServerMessage,
};
use mcp_spec_types::v2026_07_28 as handlers;
use mcp_spec_types::{ErrorCode, RpcError};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// The largest request body the server reads.
pub const MAX_BODY: usize = 4 * 1024 * 1024;
const SESSION: &str = "mcp-session-id";
const VERSION: &str = "mcp-protocol-version";
const LAST_EVENT: &str = "last-event-id";

/// A response body: whole, or a stream of SSE events.
pub type Body = http_body_util::combinators::BoxBody<Bytes, Infallible>;

struct Sse(Events);

impl hyper::body::Body for Sse {
    type Data = Bytes;
    type Error = Infallible;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0
            .poll_recv(cx)
            .map(|event| event.map(|b| Ok(Frame::data(b))))
    }
}

pub fn reply(status: StatusCode, content_type: &str, body: impl Into<Bytes>) -> Response<Body> {
    let mut response = Response::new(Full::new(body.into()).boxed());
    *response.status_mut() = status;
    if let Ok(value) = HeaderValue::from_str(content_type) {
        response.headers_mut().insert(CONTENT_TYPE, value);
    }
    response
}

fn json(status: StatusCode, message: &ServerMessage) -> Response<Body> {
    reply(status, "application/json", message.to_json())
}

/// An HTTP error carrying a JSON-RPC error response without an id.
fn refuse(status: StatusCode, code: ErrorCode, text: &str) -> Response<Body> {
    let error = ErrorResponse::without_id(RpcError::new(code, text));
    json(status, &Message::Error(error))
}

/// An SSE response sending `events` as they come.
pub fn stream(events: Events) -> Response<Body> {
    let mut response = Response::new(Sse(events).boxed());
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// One SSE event carrying a JSON-RPC message, for a stream that is not resumed (a stateless
/// one: no `id`).
pub fn sse_event(data: &str) -> Bytes {
    Bytes::from(format!("event: message\ndata: {data}\n\n"))
}

fn sse(events: Events, session: &str) -> Response<Body> {
    with_session(stream(events), session)
}

fn with_session(mut response: Response<Body>, session: &str) -> Response<Body> {
    if let Ok(value) = HeaderValue::from_str(session) {
        response.headers_mut().insert(SESSION, value);
    }
    response
}

fn header(headers: &HeaderMap, name: impl hyper::header::AsHeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Whether `authority` (`host[:port]`) names this machine's loopback interface.
fn loopback(authority: &str) -> bool {
    let host = match authority.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    };
    matches!(
        host.to_ascii_lowercase().as_str(),
        "localhost" | "127.0.0.1" | "::1"
    )
}

/// DNS rebinding protection: every Host, and every Origin a browser sends, must be local.
fn local(headers: &HeaderMap) -> bool {
    let host_ok = headers
        .get_all(HOST)
        .iter()
        .all(|h| h.to_str().is_ok_and(loopback));
    let origin_ok = headers.get_all(ORIGIN).iter().all(|origin| {
        origin
            .to_str()
            .ok()
            .and_then(|o| o.split_once("://"))
            .is_some_and(|(_, authority)| loopback(authority.trim_end_matches('/')))
    });
    host_ok && origin_ok
}

fn accepts(headers: &HeaderMap, kind: &str) -> bool {
    header(headers, ACCEPT).is_some_and(|a| a.contains(kind) || a.contains("*/*"))
}

/// Serves one HTTP request.
pub async fn serve(sessions: Arc<Sessions>, request: Request<Incoming>) -> Response<Body> {
    if !local(request.headers()) {
        return refuse(
            StatusCode::FORBIDDEN,
            ErrorCode::InvalidRequest,
            "Forbidden: the Host or Origin is not local",
        );
    }
    #[cfg(feature = "auth")]
    let mut request = request;
    #[cfg(feature = "auth")]
    if crate::auth::enabled() {
        let path = request.uri().path();
        if let Some(document) = crate::auth::metadata_response(path, request.headers()) {
            return reply(StatusCode::OK, "application/json", document);
        }
        if path == "/mcp" {
            match crate::auth::check(request.headers()).await {
                Ok(Some(granted)) => drop(request.extensions_mut().insert(granted)),
                Ok(None) => {}
                Err(denial) => return denied(&denial),
            }
        }
    }
    if request.uri().path() != "/mcp" {
        return reply(
            StatusCode::NOT_FOUND,
            "text/plain",
            "not found: the endpoint is /mcp",
        );
    }
    match *request.method() {
        Method::POST => post(sessions, request).await,
        Method::GET => get(&sessions, request.headers()),
        Method::DELETE => match session_of(&sessions, request.headers()) {
            Ok(session) => {
                sessions.end(&session.id);
                reply(StatusCode::OK, "text/plain", "")
            }
            Err(refused) => *refused,
        },
        _ => not_allowed(),
    }
}

/// 401 or 403 with the challenge of an OAuth protected resource.
#[cfg(feature = "auth")]
fn denied(denial: &crate::auth::Denial) -> Response<Body> {
    let mut response = reply(denial.status, "application/json", denial.body());
    if let Ok(value) = HeaderValue::from_str(&denial.header()) {
        response
            .headers_mut()
            .insert(hyper::header::WWW_AUTHENTICATE, value);
    }
    response
}

fn not_allowed() -> Response<Body> {
    let mut response = reply(StatusCode::METHOD_NOT_ALLOWED, "text/plain", "");
    response
        .headers_mut()
        .insert(ALLOW, HeaderValue::from_static("GET, POST, DELETE"));
    response
}

/// The session a request names: 400 without `Mcp-Session-Id`, 404 for one that is not open,
/// 400 for an `MCP-Protocol-Version` this server does not speak.
fn session_of(
    sessions: &Sessions,
    headers: &HeaderMap,
) -> Result<Arc<Session>, Box<Response<Body>>> {
    let Some(id) = header(headers, SESSION) else {
        return Err(Box::new(refuse(
            StatusCode::BAD_REQUEST,
            ErrorCode::Other(-32000),
            "Bad Request: Mcp-Session-Id header is required",
        )));
    };
    let Some(session) = sessions.get(id) else {
        return Err(Box::new(refuse(
            StatusCode::NOT_FOUND,
            ErrorCode::Other(-32000),
            "Session not found",
        )));
    };
    if let Some(version) = header(headers, VERSION) {
        if revision::named(version).is_none() {
            let text = format!("Bad Request: unsupported MCP-Protocol-Version {version}");
            return Err(Box::new(refuse(
                StatusCode::BAD_REQUEST,
                ErrorCode::Other(-32000),
                &text,
            )));
        }
    }
    Ok(session)
}

fn get(sessions: &Sessions, headers: &HeaderMap) -> Response<Body> {
    // A stream outside a session is not served: a stateless (2026-07-28) client listens with
    // `subscriptions/listen`, and a client probing before `initialize` takes 405 as the sign
    // to go on with POST.
    if header(headers, SESSION).is_none() {
        return not_allowed();
    }
    if !accepts(headers, "text/event-stream") {
        return refuse(
            StatusCode::NOT_ACCEPTABLE,
            ErrorCode::Other(-32000),
            "Not Acceptable: GET needs Accept: text/event-stream",
        );
    }
    let session = match session_of(sessions, headers) {
        Ok(session) => session,
        Err(refused) => return *refused,
    };
    match header(headers, LAST_EVENT) {
        Some(last) => match session.resume(last) {
            Some(events) => sse(events, &session.id),
            None => refuse(
                StatusCode::BAD_REQUEST,
                ErrorCode::Other(-32000),
                "unknown Last-Event-ID",
            ),
        },
        None => sse(session.open_stream(true).1, &session.id),
    }
}

async fn post(sessions: Arc<Sessions>, request: Request<Incoming>) -> Response<Body> {
    let headers = request.headers().clone();
    #[cfg(feature = "auth")]
    let granted = request.extensions().get::<crate::auth::Granted>().cloned();
    if !(accepts(&headers, "application/json") || accepts(&headers, "text/event-stream")) {
        return refuse(
            StatusCode::NOT_ACCEPTABLE,
            ErrorCode::Other(-32000),
            "Not Acceptable: Accept application/json and text/event-stream",
        );
    }
    if !header(&headers, CONTENT_TYPE).is_some_and(|t| t.starts_with("application/json")) {
        return refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::Other(-32000),
            "Unsupported Media Type: Content-Type must be application/json",
        );
    }
    let body = match Limited::new(request.into_body(), MAX_BODY).collect().await {
        Ok(body) => body.to_bytes(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            let text = format!("Payload Too Large: the limit is {MAX_BODY} bytes");
            return refuse(
                StatusCode::PAYLOAD_TOO_LARGE,
                ErrorCode::InvalidRequest,
                &text,
            );
        }
        Err(_) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                ErrorCode::ParseError,
                "the body could not be read",
            )
        }
    };
    let Ok(text) = std::str::from_utf8(&body) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            ErrorCode::ParseError,
            "Parse error: the body is not UTF-8",
        );
    };
    #[cfg(feature = "auth")]
    if let Some(granted) = &granted {
        if let Err(denial) = crate::auth::check_body(granted, &headers, text) {
            return denied(&denial);
        }
    }
    if header(&headers, SESSION).is_none() {
        if let Ok(body) = serde_json::from_str::<serde_json::Value>(text) {
            if stateless::applies(header(&headers, VERSION), &body) {
                return stateless::serve(&headers, text, &body).await;
            }
        }
        return initialize(&sessions, text);
    }
    let session = match session_of(&sessions, &headers) {
        Ok(session) => session,
        Err(refused) => return *refused,
    };
    let messages = match session.revision.read(text) {
        Ok(messages) => messages,
        Err(e) => return unreadable(text, &e),
    };
    let batch = text.trim_start().starts_with('[');
    let mut requests = Vec::new();
    for message in messages {
        match message {
            Message::Request(r) => requests.push(r),
            Message::Response(r) => session.answered(&r),
            Message::Error(e) => session.refused(&e),
            // `initialized`, `cancelled`, progress: nothing to do.
            Message::Notification(_) | Message::Batch(_) => {}
        }
    }
    if requests.is_empty() {
        return reply(StatusCode::ACCEPTED, "text/plain", "");
    }
    let streams = requests
        .iter()
        .any(|r| matches!(r.call, ClientCall::CallTool(_)));
    // SSE for calls that may send notifications and requests first, and for a client that
    // takes nothing else; JSON for the rest.
    let json_ok = accepts(&headers, "application/json");
    if accepts(&headers, "text/event-stream") && (streams || !json_ok) {
        let (stream, events) = session.open_stream(false);
        let task_session = Arc::clone(&session);
        tokio::spawn(async move {
            for request in requests {
                let answer = answer(&task_session, Some(stream), request).await;
                task_session.respond(stream, answer.to_json());
            }
            task_session.finish(stream);
        });
        return sse(events, &session.id);
    }
    let mut answers = Vec::new();
    for request in requests {
        answers.push(answer(&session, None, request).await);
    }
    let body = match answers.pop() {
        Some(only) if !batch && answers.is_empty() => only,
        Some(last) => {
            answers.push(last);
            Message::Batch(answers)
        }
        None => return reply(StatusCode::ACCEPTED, "text/plain", ""),
    };
    with_session(json(StatusCode::OK, &body), &session.id)
}

/// The JSON-RPC error for a message that could not be read, with the request's id when it
/// has one: in a 200 response for a well-formed request the server does not take (-32601,
/// -32602), 400 for the rest (not JSON, not JSON-RPC, a batch the revision does not have).
fn unreadable(text: &str, error: &mcp_spec_types::MessageError) -> Response<Body> {
    let response = error_response(text, error)
        .unwrap_or_else(|| ErrorResponse::without_id(mcp_spec_types::answer::rpc_error(error)));
    let status = match response.code() {
        ErrorCode::MethodNotFound | ErrorCode::InvalidParams if response.id.is_some() => {
            StatusCode::OK
        }
        _ => StatusCode::BAD_REQUEST,
    };
    json(status, &Message::Error(response))
}

/// A POST without a session: it must be `initialize`, which opens one.
fn initialize(sessions: &Sessions, text: &str) -> Response<Body> {
    let message = match ClientMessage::parse(text) {
        Ok(message) => message,
        Err(e) => return unreadable(text, &e),
    };
    let Message::Request(RequestEnvelope {
        id,
        call: ClientCall::Initialize(params),
        ..
    }) = message
    else {
        return refuse(
            StatusCode::BAD_REQUEST,
            ErrorCode::Other(-32000),
            "Bad Request: no session; send initialize first",
        );
    };
    let revision: &'static dyn Revision = revision::negotiate(&params.protocol_version);
    let session = sessions.create(revision, params.capabilities);
    let response = match initialized(revision.version())
        .and_then(|result| revision.answer(id.clone(), "initialize", &result))
    {
        Ok(response) => Message::Response(response),
        Err(e) => Message::Error(ErrorResponse::new(
            id,
            RpcError::new(ErrorCode::InternalError, e),
        )),
    };
    with_session(json(StatusCode::OK, &response), &session.id)
}

/// The `initialize` result, for the negotiated `version`: what the handlers offer, converted
/// for a peer, and the subscriptions only a session has.
fn initialized(version: &str) -> Result<ClientCallResult, String> {
    let mut capabilities =
        ConvertTo::<stateful::ServerCapabilities>::convert_for_peer(&fixtures::capabilities())
            .map_err(|e| e.to_string())?
            .value;
    if let Some(resources) = &mut capabilities.resources {
        resources.subscribe = Some(true);
    }
    let server_info =
        ConvertTo::<stateful::Implementation>::convert_for_peer(&fixtures::server_info())
            .map_err(|e| e.to_string())?
            .value;
    Ok(ClientCallResult::Initialize(stateful::InitializeResult {
        capabilities,
        instructions: None,
        meta: None,
        protocol_version: version.to_owned(),
        server_info,
        extra: Default::default(),
    }))
}

/// The empty result of the session's own methods.
fn empty() -> stateful::EmptyResult {
    stateful::EmptyResult(stateful::BaseResult {
        meta: None,
        extra: Default::default(),
    })
}

/// What only a session has, which 2026-07-28 removed: `ping`, `logging/setLevel` and the
/// resource subscriptions. `None` for a request of the handlers.
fn own(session: &Session, call: &ClientCall) -> Option<ClientCallResult> {
    Some(match call {
        ClientCall::Ping(_) => ClientCallResult::Ping(empty()),
        ClientCall::SetLevel(params) => {
            session.set_level(params.level);
            ClientCallResult::SetLevel(empty())
        }
        ClientCall::Subscribe(params) => {
            session.subscribe(&params.uri, true);
            ClientCallResult::Subscribe(empty())
        }
        ClientCall::Unsubscribe(params) => {
            session.subscribe(&params.uri, false);
            ClientCallResult::Unsubscribe(empty())
        }
        _ => return None,
    })
}

/// Answers one request of a session: its result in the session's revision, or an error.
async fn answer(
    session: &Arc<Session>,
    stream: Option<u64>,
    request: RequestEnvelope<ClientCall>,
) -> ServerMessage {
    let id = request.id;
    let method = request.call.method().to_owned();
    if let ClientCall::Initialize(_) = request.call {
        let error = RpcError::new(
            ErrorCode::InvalidRequest,
            "the session is already initialized",
        );
        return Message::Error(ErrorResponse::new(id, error));
    }
    let unfit = |e: String| {
        let text = format!(
            "the answer does not fit revision {}: {e}",
            session.revision.version()
        );
        Message::Error(ErrorResponse::new(
            id.clone(),
            RpcError::new(ErrorCode::InternalError, text),
        ))
    };
    if let Some(result) = own(session, &request.call) {
        return match session.revision.answer(id.clone(), &method, &result) {
            Ok(response) => Message::Response(response),
            Err(e) => unfit(e),
        };
    }
    // The handlers' revision lacks what 2025-11-25 has beyond the above (its tasks methods):
    // such a request is refused as unknown, as a server without them would.
    if !handlers::ClientCall::lists(&method) {
        return Message::Error(ErrorResponse::new(id, RpcError::method_not_found(&method)));
    }
    // The call reaches the handlers as a stateless request would carry it: with the
    // session's version and capabilities in `_meta`.
    let meta = StatelessRequestMeta {
        protocol_version: handlers::REVISION.to_owned(),
        client_capabilities: serde_json::to_value(&session.client).unwrap_or_default(),
        client_info: None,
    };
    let up: handlers::ClientCall = match convert_call_with(&request.call, &meta) {
        Ok(up) => up,
        Err(e) => {
            let text = format!("not expressible for the handlers: {e}");
            return Message::Error(ErrorResponse::new(id, RpcError::invalid_params(text)));
        }
    };
    // What the client declared, reduced to what 2026-07-28 defines (2025-11-25's `tasks`
    // capability is not the handlers' concern): the rest still reaches them.
    let client = ConvertTo::<handlers::ClientCapabilities>::convert_for_peer(&session.client)
        .map(|declared| declared.value)
        .unwrap_or_default();
    let call = Call {
        client,
        progress: Progress::of(&request.call),
        channel: Channel::Session {
            session: Arc::clone(session),
            stream,
        },
    };
    match fixtures::answer(&call, up).await {
        Ok(result) => match session
            .revision
            .answer_handlers(id.clone(), &method, &result)
        {
            Ok(response) => Message::Response(response),
            Err(e) => unfit(e),
        },
        Err(error) => Message::Error(ErrorResponse::new(id, stateful_error(&method, error))),
    }
}

/// SEP-2164 undone: a resource that does not exist is `-32602` with its URI in `data` for the
/// handlers (2026-07-28), and `-32002` in every stateful revision.
fn stateful_error(method: &str, error: RpcError) -> RpcError {
    let about_uri = error
        .data
        .as_ref()
        .is_some_and(|data| data.get("uri").is_some());
    if method != "resources/read" || error.code != ErrorCode::InvalidParams || !about_uri {
        return error;
    }
    RpcError {
        code: ErrorCode::ResourceNotFound,
        ..error
    }
}
