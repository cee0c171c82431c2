//! The engine: a line in, what to do about it out (a line to send, a call for the handler,
//! or nothing), in the client's revision.

mod stateful;

use super::call::{error_line, Convert, PendingCall};
use super::incoming::Incoming;
use super::peek::Peek;
use super::session::Session;
use super::{Context, Handler};
use crate::cache::CacheHint;
use crate::convert::{convert_call, convert_result_with, ConversionError, StatelessResult};
use crate::dispatch::{CallSet, Message, MethodSet, PendingRequest, ResultResponse};
use crate::input_required::StateCodec;
use crate::method::method_names as names;
use crate::negotiation::{self, UnsupportedVersion};
use crate::prelude::*;
use crate::revision::{self, ClientMessage, Revision, Summary, Visit};
use crate::v2026_07_28 as latest;
use crate::{ErrorCode, MessageError, ProtocolVersion, RequestId, RpcError};
use alloc::sync::Arc;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

/// A server: the handler, what it says about itself, and the revisions it offers. It holds no
/// per-client state (that is a [`Session`]'s), so one server serves any number of sessions,
/// from any number of threads when the handler is `Sync`.
pub struct Server<H: ?Sized> {
    info: latest::Implementation,
    instructions: Option<String>,
    capabilities: Option<latest::ServerCapabilities>,
    versions: Vec<ProtocolVersion>,
    discover_cache: CacheHint,
    /// `info` as JSON, for the `_meta` of each 2026-07-28 result; `None` when the server is
    /// told not to say who it is.
    info_json: Option<Arc<str>>,
    /// What seals the `requestState` the handlers hand out and opens what clients send back.
    codec: Option<Arc<dyn StateCodec + Send + Sync>>,
    /// The most bytes a session keeps of its client's capabilities and `clientInfo`.
    client_info_limit: usize,
    /// Last, so that the HTTP service may hold any server as one with a `dyn Handler`: its
    /// code is then compiled once, in this crate, whatever the application's handler.
    handler: H,
}

impl<H: Handler> Server<H> {
    /// A server named by `info` that answers with `handler`, offering every released revision
    /// this build enables (the draft only when [`Server::with_versions`] names it).
    pub fn new(info: latest::Implementation, handler: H) -> Self {
        let info_json = crate::json::to_string(&info).ok().map(Arc::from);
        Server {
            handler,
            info,
            instructions: None,
            capabilities: None,
            versions: ProtocolVersion::SUPPORTED_RELEASED.to_vec(),
            discover_cache: CacheHint::UNCACHED,
            info_json,
            codec: None,
            client_info_limit: Self::DEFAULT_CLIENT_INFO_LIMIT,
        }
    }

    /// The most bytes of capabilities and `clientInfo` (as JSON, in the handlers' revision) an
    /// `initialize` may bring, by default: 64 KiB, a hundred times what the official SDKs'
    /// clients send.
    pub const DEFAULT_CLIENT_INFO_LIMIT: usize = 64 << 10;

    /// Refuses an `initialize` whose capabilities and `clientInfo` take more than `bytes` as
    /// JSON ([`Server::DEFAULT_CLIENT_INFO_LIMIT`] by default) with -32602 saying so: a session
    /// keeps them for as long as it lives, and a client must not make it keep megabytes.
    #[must_use]
    pub fn with_client_info_limit(mut self, bytes: usize) -> Self {
        self.client_info_limit = bytes;
        self
    }

    /// Seals every `requestState` a handler hands out to a 2026-07-28 client with `codec`,
    /// and opens every one such a client sends back before the handler sees it: handlers
    /// write and read their state in the clear, and a state the client altered (or made up)
    /// is refused with -32602 before any handler runs. The state a client of a stateful
    /// revision never sees (the engine asks it for input itself) is not sealed.
    ///
    /// A client must send the state back as it came: the specification has the server treat
    /// it as untrusted input, which a codec that authenticates it (an HMAC, say) makes safe.
    #[must_use]
    pub fn with_state_codec(mut self, codec: impl StateCodec + Send + Sync + 'static) -> Self {
        self.codec = Some(Arc::new(codec));
        self
    }

    /// Leaves the server's identity out of its results. By default each result of 2026-07-28
    /// carries it in `_meta["io.modelcontextprotocol/serverInfo"]`, which the schema asks of
    /// servers "on every response unless specifically configured not to do so" (a `_meta`
    /// the handler gave keeps its members; one that already names a `serverInfo` keeps it).
    /// The stateful revisions have no such member, and get none.
    #[must_use]
    pub fn without_server_info(mut self) -> Self {
        self.info_json = None;
        self
    }

    /// Sets the capabilities the server announces, instead of the handler's own.
    #[must_use]
    pub fn with_capabilities(mut self, capabilities: latest::ServerCapabilities) -> Self {
        self.capabilities = Some(capabilities);
        self
    }

    /// Sets the instructions `initialize` and `server/discover` give the client.
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Sets the revisions the server offers, among those this build enables (a version it
    /// does not enable cannot be offered: see [`Server::versions`]). Negotiation prefers the
    /// newest released one, whatever the order given.
    #[must_use]
    pub fn with_versions(mut self, versions: impl IntoIterator<Item = ProtocolVersion>) -> Self {
        self.versions = ProtocolVersion::supported_among(versions);
        self
    }

    /// Sets how long, and for whom, a client may cache the `server/discover` result (default:
    /// not at all).
    #[must_use]
    pub fn with_discover_cache(mut self, hint: CacheHint) -> Self {
        self.discover_cache = hint;
        self
    }
}

impl<H: Handler + ?Sized> Server<H> {
    /// The revisions the server offers, newest first (the draft, when offered, first).
    pub fn versions(&self) -> &[ProtocolVersion] {
        &self.versions
    }

    /// The handler.
    pub fn handler(&self) -> &H {
        &self.handler
    }

    /// The capabilities the server announces.
    pub fn capabilities(&self) -> latest::ServerCapabilities {
        match &self.capabilities {
            Some(capabilities) => capabilities.clone(),
            None => self.handler.capabilities(),
        }
    }

    /// Answers one line a client of `session` sent, running the handler inline: the lines to
    /// send back, in order (none for a notification, a response, or a batch of those). The
    /// answer comes last, after what the handler reported while answering (progress, log
    /// messages: see [`Context`]).
    pub fn handle(&self, session: &mut Session, line: &str) -> Vec<String> {
        let incoming = self.receive(session, line);
        self.settle(session, incoming)
    }

    /// Reads one line a client of `session` sent and says what to do about it, without
    /// running the handler: a line to send now (the lifecycle's answers, `server/discover`,
    /// errors), a [`PendingCall`] for the handler (its answer goes back through
    /// [`Session::finish`]), or nothing. A JSON-RPC batch (2025-03-26) whose items the engine
    /// answers itself is answered whole; one with calls for the handler is handed out as
    /// [`Incoming::Batch`].
    pub fn receive(&self, session: &mut Session, line: &str) -> Incoming {
        if let Some(version) = session.version().cloned() {
            return self.in_session(&version, session, line);
        }
        let Some(peek) = Peek::of(line) else {
            // Not one JSON object whose routing members read: the handlers' revision reads
            // it, and says what is wrong (a batch, text that is not JSON, a method that is not
            // a string...), or routes it as it does any line without a version.
            return self.stateless_latest(session, line);
        };
        // A request that names its version in `_meta` is a stateless revision's, whatever its
        // method: an `initialize` then is a method that revision removed (-32601).
        if peek.method.as_deref() == Some(names::INITIALIZE_REQUEST)
            && peek.meta_version().is_none()
        {
            return self.initialize(session, &peek, line);
        }
        let version = match peek.meta_version() {
            Some(requested) => match self.stateless_version(requested) {
                Ok(version) => version,
                Err(refusal) => {
                    let id = crate::answer::request_id(line);
                    return match id {
                        Some(id) => Incoming::Answer(error_line(Some(id), refusal.to_rpc_error())),
                        None => Incoming::Nothing,
                    };
                }
            },
            None if peek.method.is_none() => return Incoming::Nothing,
            None => match self.stateless_versions().next() {
                // A stateless request without its version is refused by its revision's
                // reader (`_meta` is required), with the path of what is missing.
                Some(version) => version.clone(),
                None if peek.is_request() => {
                    let message = "no session: send `initialize` first";
                    let error = RpcError::new(ErrorCode::InvalidRequest, message);
                    let id = crate::answer::request_id(line);
                    return Incoming::Answer(error_line(id, error));
                }
                None => return Incoming::Nothing,
            },
        };
        if version.as_str() == latest::REVISION {
            return self.stateless_latest(session, line);
        }
        let visit = Stateless {
            server: self,
            session,
            line,
        };
        revision::visit(&version, visit).unwrap_or(Incoming::Nothing)
    }

    /// Carries `incoming` out inline: the handler answers a call at once, after what it
    /// reported.
    fn settle(&self, session: &mut Session, incoming: Incoming) -> Vec<String> {
        match incoming {
            Incoming::Answer(line) => vec![line],
            Incoming::Call(pending) => {
                let (call, mut context, responder) = (*pending).into_parts();
                let result = super::later::answer_here(&self.handler, call, &mut context);
                let mut lines = responder.notes(&mut context);
                lines.extend(session.finish(responder.respond(result)));
                for change in context.take_changes() {
                    lines.extend(self.notify(session, &change));
                }
                lines
            }
            Incoming::Batch(mut batch) => {
                batch.answer_with(|call, context| {
                    super::later::answer_here(&self.handler, call, context)
                });
                let (line, changes) = batch.finish(session);
                let mut lines: Vec<String> = line.into_iter().collect();
                for change in changes {
                    lines.extend(self.notify(session, &change));
                }
                lines
            }
            Incoming::Nothing => Vec::new(),
        }
    }

    fn stateless_versions(&self) -> impl Iterator<Item = &ProtocolVersion> {
        self.versions
            .iter()
            .filter(|v| negotiation::is_stateless(v))
    }

    /// The version a stateless request names, when the server offers it statelessly.
    fn stateless_version(&self, requested: &str) -> Result<ProtocolVersion, UnsupportedVersion> {
        let offered = self.stateless_versions().find(|v| v.as_str() == requested);
        offered.cloned().ok_or_else(|| self.refusal(requested))
    }

    fn refusal(&self, requested: &str) -> UnsupportedVersion {
        UnsupportedVersion {
            requested: requested.to_owned(),
            supported: self
                .stateless_versions()
                .map(|v| v.as_str().to_owned())
                .collect(),
        }
    }

    /// The lifecycle's rule for `initialize`: the requested revision when offered, otherwise
    /// the newest released one with `initialize` (then any offered one with it).
    fn stateful_version(&self, requested: &str) -> Option<ProtocolVersion> {
        let stateful = || {
            self.versions
                .iter()
                .filter(|v| !negotiation::is_stateless(v))
        };
        stateful()
            .find(|v| v.as_str() == requested)
            .or_else(|| stateful().find(|v| ProtocolVersion::SUPPORTED_RELEASED.contains(v)))
            .or_else(|| stateful().next())
            .cloned()
    }

    fn initialize(&self, session: &mut Session, peek: &Peek, line: &str) -> Incoming {
        let requested = peek.initialize_version().unwrap_or_default();
        let Some(version) = self.stateful_version(requested) else {
            // The server offers only stateless revisions: the client learns which.
            let error = self.refusal(requested).to_rpc_error();
            return match crate::answer::request_id(line) {
                Some(id) => Incoming::Answer(error_line(Some(id), error)),
                None => Incoming::Nothing,
            };
        };
        self.initialize_in(&version, session, line)
    }

    fn discover(&self) -> latest::DiscoverResult {
        let versions = self.stateless_versions().map(|v| v.as_str().to_owned());
        let hint = self.discover_cache;
        let result = latest::DiscoverResult::complete(
            self.capabilities(),
            versions,
            hint.ttl_ms,
            hint.scope,
        );
        match &self.instructions {
            Some(text) => result.with_instructions(text.clone()),
            None => result,
        }
    }

    fn stateless_latest(&self, session: &mut Session, line: &str) -> Incoming {
        let message = match latest::ClientMessage::parse(line) {
            Ok(message) => message,
            // A method an older revision defined and 2026-07-28 does not is no method of this
            // revision, as one that no revision defines is: the handler gets both as
            // `ClientCall::Unknown` (an extension may define it again: the tasks extension's
            // `tasks/get`), and answers -32601 unless it serves it.
            Err(error) if error.kind() == crate::MessageErrorKind::WrongRevision => {
                match unknown_request(line) {
                    Some(request) => Message::Request(request),
                    None => return unreadable_with(line, &error),
                }
            }
            Err(error) => return unreadable_with(line, &error),
        };
        let request = match message {
            Message::Request(request) => request,
            other => return notice(session, other),
        };
        let info = self.info_json.clone();
        if let latest::ClientCall::Discover(_) = request.call {
            let answer = respond_as(request.id, Ok(self.discover()), info.as_deref());
            return Incoming::Answer(answer);
        }
        let peer = ProtocolVersion::from(latest::REVISION);
        if let latest::ClientCall::SubscriptionsListen(params) = &request.call {
            return self.listen(session, request.id, peer, params);
        }
        let mut call = request.call;
        let codec = self.codec.clone();
        if let Some(codec) = &codec {
            if let Err(refusal) = open_state(codec.as_ref(), &mut call) {
                return Incoming::Answer(error_line(Some(request.id), refusal));
            }
        }
        let convert: Convert = {
            let (id, peer) = (request.id.clone(), peer.clone());
            Box::new(move |result| {
                let result = match &codec {
                    Some(codec) => result.and_then(|r| seal_state(codec.as_ref(), r)),
                    None => result,
                };
                respond_as(id, result.map_err(|e| for_peer(e, &peer)), info.as_deref())
            })
        };
        let context = stateless_context(peer, &call);
        hand_out(session, request.id, call, context, convert, None)
    }
}

/// Takes request `id` into the session and hands its call out, or answers now why not.
/// `retry`: for a stateful client, how many times the call answered `input_required` already
/// (see [`PendingCall::new`]).
fn hand_out(
    session: &mut Session,
    id: RequestId,
    call: latest::ClientCall,
    context: Context,
    convert: Convert,
    retry: Option<u8>,
) -> Incoming {
    let mut context = context;
    match session.admit(&id) {
        Ok(cancelled) => context.cancelled = cancelled,
        Err(error) => return Incoming::Answer(error_line(Some(id), error)),
    }
    Incoming::Call(Box::new(PendingCall::new(
        call, context, id, convert, retry,
    )))
}

/// The context of `call`, a stateless request of revision `peer`: what its `_meta` asks for.
fn stateless_context(peer: ProtocolVersion, call: &latest::ClientCall) -> Context {
    let mut context = Context::new(peer);
    if let Some(meta) = call.meta() {
        context.progress_token = meta.progress_token.clone();
        context.log_level = meta.io_modelcontextprotocol_log_level;
    }
    context
}

/// What a message other than a request does: `notifications/cancelled` withdraws the answer
/// of a request still in flight; nothing else needs one.
fn notice<R: CallSet, N: MethodSet>(session: &mut Session, message: Message<R, N>) -> Incoming {
    if let Summary::Notification {
        cancels: Some(id), ..
    } = Summary::of(message)
    {
        session.cancel(&id);
    }
    Incoming::Nothing
}

/// A stateless revision other than the handlers' (the draft, when offered).
struct Stateless<'a, H: ?Sized> {
    server: &'a Server<H>,
    session: &'a mut Session,
    line: &'a str,
}

impl<H: Handler + ?Sized> Visit for Stateless<'_, H> {
    type Output = Incoming;

    fn visit<V: Revision>(self) -> Incoming {
        let message = match ClientMessage::<V>::parse(self.line) {
            Ok(message) => message,
            Err(error) => return unreadable_with(self.line, &error),
        };
        let request = match message {
            Message::Request(request) => request,
            other => return notice(self.session, other),
        };
        let id = request.id.clone();
        let method = request.call.method();
        if !latest::ClientCall::lists(method) {
            let error = RpcError::method_not_found(method);
            return Incoming::Answer(error_line(Some(id), error));
        }
        let call: latest::ClientCall = match convert_call(&request.call) {
            Ok(call) => call,
            Err(error) => return Incoming::Answer(error_line(Some(id), invalid_params(error))),
        };
        let pending = PendingRequest::of(&call);
        let peer = V::version();
        let convert: Convert = {
            let (id, peer) = (id.clone(), peer.clone());
            Box::new(move |result| {
                let fill = StatelessResult::uncached();
                let result = result.map_err(|e| for_peer(e, &peer)).and_then(|result| {
                    convert_result_with::<latest::ClientCall, V::ClientCall>(
                        &result, &pending, &fill,
                    )
                    .map_err(internal)
                });
                respond(id, result)
            })
        };
        match &call {
            latest::ClientCall::Discover(_) => {
                Incoming::Answer(convert(Ok(self.server.discover().into())))
            }
            latest::ClientCall::SubscriptionsListen(params) => {
                self.server.listen(self.session, id, peer, params)
            }
            _ => {
                let context = stateless_context(peer, &call);
                hand_out(self.session, id, call, context, convert, None)
            }
        }
    }
}

/// "Resource not found" as the peer's revision writes it, whichever code the handler used.
pub(in crate::server) fn for_peer(error: RpcError, peer: &ProtocolVersion) -> RpcError {
    let not_found = matches!(
        error.code,
        ErrorCode::ResourceNotFound | ErrorCode::InvalidParams
    ) && Some(error.message.as_str())
        == ErrorCode::ResourceNotFound.default_message();
    let uri = error
        .data
        .as_ref()
        .and_then(|data| data.get("uri"))
        .and_then(Value::as_str);
    match (not_found, uri) {
        (true, Some(uri)) => {
            let mut converted = RpcError::resource_not_found_for(peer, uri);
            converted.data = error.data;
            converted
        }
        _ => error,
    }
}

/// A request the client's revision could not express in the handlers' (-32602).
fn invalid_params(error: ConversionError) -> RpcError {
    RpcError::invalid_params(error.to_string())
}

/// An answer the client's revision cannot take (-32603): the server built what it cannot say.
fn internal(error: ConversionError) -> RpcError {
    RpcError::new(ErrorCode::InternalError, error.to_string())
}

/// The response line to request `id`: its result, or its error.
fn respond<T: Serialize>(id: RequestId, result: Result<T, RpcError>) -> String {
    respond_as(id, result, None)
}

/// [`respond`], the result carrying `server_info` (JSON) in its `_meta` when given.
fn respond_as<T: Serialize>(
    id: RequestId,
    result: Result<T, RpcError>,
    server_info: Option<&str>,
) -> String {
    let written = result.and_then(|result| {
        let text = crate::json::to_string(&result).map_err(|e| {
            let message = format!("the result cannot be written: {e}");
            RpcError::new(ErrorCode::InternalError, message)
        })?;
        let text = match server_info {
            Some(info) => with_server_info(text, info),
            None => text,
        };
        RawValue::from_string(text)
            .map_err(|e| RpcError::new(ErrorCode::InternalError, e.to_string()))
    });
    match written {
        Ok(result) => {
            let response = ResultResponse {
                id,
                result,
                extra: serde_json::Map::new(),
            };
            crate::json::to_string(&response).unwrap_or_default()
        }
        Err(error) => error_line(Some(id), error),
    }
}

/// The error response to a line that could not be read (none to a notification).
/// `line` as a request of a method the handlers' revision does not define: its id, method
/// and params as they came; `None` when it is no request (a notification, say).
fn unknown_request(line: &str) -> Option<crate::dispatch::RequestEnvelope<latest::ClientCall>> {
    #[derive(serde::Deserialize)]
    struct Unknown {
        id: RequestId,
        method: String,
        params: Option<Value>,
    }
    let Unknown { id, method, params } = crate::json::from_str(line).ok()?;
    let call = latest::ClientCall::Unknown { method, params };
    Some(crate::dispatch::RequestEnvelope::new(id, call))
}

/// Opens the `requestState` a 2026-07-28 client sent back with `call`, in place: -32602 when
/// the codec refuses it (altered, or never handed out) or it does not open to text.
fn open_state(codec: &dyn StateCodec, call: &mut latest::ClientCall) -> Result<(), RpcError> {
    let state = match call {
        latest::ClientCall::CallTool(params) => &mut params.request_state,
        latest::ClientCall::GetPrompt(params) => &mut params.request_state,
        latest::ClientCall::ReadResource(params) => &mut params.request_state,
        _ => return Ok(()),
    };
    let Some(sealed) = state.as_deref() else {
        return Ok(());
    };
    let opened = codec
        .open(sealed)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok());
    match opened {
        Some(plain) => {
            *state = Some(plain);
            Ok(())
        }
        None => Err(RpcError::invalid_params(
            "requestState is not one this server handed out",
        )),
    }
}

/// `result` with the `requestState` of an `input_required` answer sealed by `codec`.
fn seal_state(
    codec: &dyn StateCodec,
    mut result: latest::ClientCallResult,
) -> Result<latest::ClientCallResult, RpcError> {
    use latest::{
        CallToolResultOrInputRequired as Tool, ClientCallResult as R,
        GetPromptResultOrInputRequired as Prompt, ReadResourceResultOrInputRequired as Read,
    };
    let asked = match &mut result {
        R::CallTool(Tool::InputRequiredResult(asked))
        | R::GetPrompt(Prompt::InputRequiredResult(asked))
        | R::ReadResource(Read::InputRequiredResult(asked)) => asked,
        _ => return Ok(result),
    };
    if let Some(state) = &asked.request_state {
        let sealed = codec
            .seal(state.as_bytes())
            .map_err(|e| RpcError::new(ErrorCode::InternalError, format!("requestState: {e}")))?;
        asked.request_state = Some(sealed);
    }
    Ok(result)
}

/// `result`, a result object as text, with `info` (an `Implementation`, as JSON) as its
/// `_meta["io.modelcontextprotocol/serverInfo"]`, unless its `_meta` names one already.
/// Without a `_meta` (the common case) the member goes first, with no second read of the
/// result but a scan for a `_meta`; with one, its members are kept.
fn with_server_info(result: String, info: &str) -> String {
    const KEY: &str = "io.modelcontextprotocol/serverInfo";
    /// Whether the member is there at all (a `null` one is there too).
    fn present<'de, D: serde::Deserializer<'de>>(member: D) -> Result<bool, D::Error> {
        serde::Deserialize::deserialize(member).map(|_: serde::de::IgnoredAny| true)
    }
    #[derive(serde::Deserialize)]
    struct Probe {
        #[serde(rename = "_meta", default, deserialize_with = "present")]
        meta: bool,
    }
    let Ok(probe) = crate::json::from_str_strict::<Probe>(&result) else {
        return result;
    };
    if !probe.meta {
        let rest = result.strip_prefix('{').unwrap_or_default();
        let separator = if rest.trim_start().starts_with('}') {
            ""
        } else {
            ","
        };
        return format!("{{\"_meta\":{{\"{KEY}\":{info}}}{separator}{rest}");
    }
    let Ok(mut members) = crate::json::from_str::<serde_json::Map<String, Value>>(&result) else {
        return result;
    };
    let Ok(info) = crate::json::from_str::<Value>(info) else {
        return result;
    };
    // A `_meta` that is not an object (a handler's own result, written as it gave it) is
    // left as it is: there is nowhere to put the member.
    if let Some(Value::Object(meta)) = members.get_mut("_meta") {
        meta.entry(KEY).or_insert(info);
    }
    crate::json::to_string(&members).unwrap_or(result)
}

fn unreadable_with(line: &str, error: &MessageError) -> Incoming {
    match crate::answer::error_response(line, error) {
        Some(response) => Incoming::Answer(crate::json::to_string(&response).unwrap_or_default()),
        None => Incoming::Nothing,
    }
}
