//! An MCP server over stdio that serves a folder as resources, built only on this crate's
//! types, `serde_json` and the standard library.
//!
//! ```text
//! cargo run --example resource-server --features all-revisions,convert -- [--page-size <n>] [<dir>]
//! ```
//!
//! Messages are newline-delimited JSON-RPC on stdin/stdout; diagnostics go to stderr. The
//! folder defaults to `examples/data/resources/`.
//!
//! * The handlers are written once, against revision 2026-07-28, the crate's default
//!   (`mod core`); the stateful lifecycle that revision does not have (`initialize`, `ping`,
//!   `resources/subscribe`) once, against 2025-11-25 (`mod session`). Every enabled revision
//!   is served through the crate's conversions (`mcp_spec_types::convert`): a message is read
//!   in the client's revision and converted to the handlers', and the answer is converted back
//!   *for a peer*, so a client never receives a member its revision does not define
//!   (`resultType`, `ttlMs`, `cacheScope` for a stateful client). The server names no
//!   revision but the two it is written against: a line is handled in the revision its
//!   session or `_meta` names through the crate's one revision face
//!   (`mcp_spec_types::revision::visit`), generic over `Revision`.
//! * Revisions with `initialize` (2024-11-05 to 2025-11-25) negotiate it with
//!   [`ProtocolVersion::negotiate`]; every later message of the session is then parsed with the
//!   negotiated revision's module. Stateless revisions (2026-07-28, the draft) are picked per
//!   request from `params._meta["io.modelcontextprotocol/protocolVersion"]` and answer
//!   `server/discover`; an unsupported version gets -32022 with the supported ones.
//! * `resources/list` pages by `--page-size` (default 10) with opaque cursors; a cursor the
//!   server did not issue is refused with -32602.
//! * `resources/read` sends UTF-8 text as `text` and anything else as a base64 `blob`, with a
//!   MIME type guessed from the extension; `resources/templates/list` offers `file:///{+path}`,
//!   and read URIs are matched against it with the crate's `UriTemplate::match_uri`.
//! * `resources/subscribe`/`unsubscribe` (stateless revisions: `subscriptions/listen`) with
//!   `notifications/resources/updated` when a subscribed file changes, and
//!   `notifications/resources/list_changed` when files appear or vanish, from a thread polling
//!   every 100 ms.
//! * "Resource not found" with `data.uri` for a resource that does not exist, with the code of
//!   the client's revision (-32002 before 2026-07-28, -32602 from it); -32602 for bad params
//!   (the parse error's message, with its JSON path) and for refused URIs; -32601 for methods
//!   the server does not implement or that the client cannot send.
//!
//! Every URI is validated before anything is read (`resource_server/files.rs`): other
//! schemes, `..` segments (also percent-encoded), encoded separators, paths outside the folder
//! and symlinks resolving outside it are refused.

#[path = "resource_server/files.rs"]
mod files;

use files::{Contents, Cursors, Entry, Root, Stamp, UriError};
use mcp_spec_types::convert::{
    convert_call, convert_call_for_peer, convert_call_with, convert_result_for_peer,
    convert_result_with, ConversionError, ConvertTo, StatelessRequestMeta, StatelessResult,
};
use mcp_spec_types::dispatch::{
    CallSet, ErrorResponse, Message, MethodSet, NotificationEnvelope, PendingRequest,
    ResultResponse,
};
use mcp_spec_types::revision::{self, ClientMessage, Revision, ServerMessage, Visit};
use mcp_spec_types::{negotiation, ErrorCode, MessageError, ProtocolVersion, RequestId, RpcError};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

const SERVER_NAME: &str = "mcp-spec-types-resource-server";
const DEFAULT_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/resources");
const INSTRUCTIONS: &str =
    "Serves the files of one folder as resources: list them, read them, subscribe to changes.";
const POLL: Duration = Duration::from_millis(100);
const USAGE: &str = "usage: resource-server [--page-size <n>] [<dir>]";

fn main() -> ExitCode {
    let mut page_size = 10;
    let mut dir = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => {
                eprintln!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "--page-size" => match args.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n > 0 => page_size = n,
                _ => {
                    eprintln!("--page-size needs a positive integer\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            _ if arg.starts_with('-') => {
                eprintln!("unknown option {arg}\n{USAGE}");
                return ExitCode::from(2);
            }
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    let dir = dir.unwrap_or_else(|| PathBuf::from(DEFAULT_DIR));
    let root = match Root::new(&dir) {
        Ok(root) => root,
        Err(e) => {
            eprintln!("resource-server: cannot serve {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    };
    if ProtocolVersion::SUPPORTED.is_empty() {
        eprintln!("resource-server: this build enables no protocol revision");
        return ExitCode::from(2);
    }
    eprintln!(
        "resource-server: serving {} (revisions {})",
        root.path().display(),
        ProtocolVersion::SUPPORTED
            .iter()
            .map(ProtocolVersion::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let server = Arc::new(Server {
        cursors: Cursors::new(root.path()),
        root,
        page_size,
        out: Mutex::new(std::io::stdout()),
        state: Mutex::new(State::default()),
    });
    let watcher = Arc::clone(&server);
    std::thread::spawn(move || watch(&watcher));

    for line in std::io::stdin().lock().split(b'\n') {
        let Ok(bytes) = line else { break };
        let reply = match std::str::from_utf8(&bytes) {
            Ok(text) => {
                let text = text.strip_suffix('\r').unwrap_or(text);
                if text.trim().is_empty() {
                    continue;
                }
                server.dispatch(text)
            }
            Err(e) => Some(error_line(
                None,
                RpcError::new(ErrorCode::ParseError, format!("the line is not UTF-8: {e}")),
            )),
        };
        if let Some(reply) = reply {
            server.send(&reply);
        }
    }
    ExitCode::SUCCESS
}

/// The server: the folder, and what the session has asked for.
struct Server {
    root: Root,
    cursors: Cursors,
    page_size: usize,
    out: Mutex<std::io::Stdout>,
    state: Mutex<State>,
}

struct State {
    /// The negotiated revision, once `initialize` has been answered.
    session: Option<ProtocolVersion>,
    /// Whether the client sent `notifications/initialized`.
    initialized: bool,
    /// `resources/subscribe` subscriptions of the session.
    subscriptions: Watches,
    /// Open `subscriptions/listen` streams (stateless revisions).
    listens: Vec<Listen>,
    /// What the session's requests carry into the handlers (see `session::call`).
    request_meta: StatelessRequestMeta,
}

impl Default for State {
    fn default() -> Self {
        State {
            session: None,
            initialized: false,
            subscriptions: Watches::default(),
            listens: Vec::new(),
            request_meta: StatelessRequestMeta {
                protocol_version: handlers_rev::REVISION.to_owned(),
                client_capabilities: Value::Object(Default::default()),
                client_info: None,
            },
        }
    }
}

/// A `subscriptions/listen` stream.
struct Listen {
    revision: ProtocolVersion,
    id: RequestId,
    files: Watches,
    list_changed: bool,
}

/// Subscribed files, by canonical path, with the URIs they were subscribed by.
#[derive(Default)]
struct Watches {
    files: BTreeMap<PathBuf, Watched>,
}

struct Watched {
    uris: BTreeSet<String>,
    last: Stamp,
}

impl Watches {
    fn add(&mut self, path: PathBuf, uri: String) {
        let stamp = files::stamp(&path);
        self.files
            .entry(path)
            .or_insert(Watched {
                uris: BTreeSet::new(),
                last: stamp,
            })
            .uris
            .insert(uri);
    }

    fn remove(&mut self, uri: &str) {
        for watched in self.files.values_mut() {
            watched.uris.remove(uri);
        }
        self.files.retain(|_, w| !w.uris.is_empty());
    }

    /// The URIs of the files that changed since the last poll.
    fn poll(&mut self) -> Vec<String> {
        let mut changed = Vec::new();
        for (path, watched) in &mut self.files {
            let now = files::stamp(path);
            if now != watched.last {
                watched.last = now;
                changed.extend(watched.uris.iter().cloned());
            }
        }
        changed
    }
}

impl Server {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes one message line; a client that went away ends the server.
    fn send(&self, line: &str) {
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
            std::process::exit(0);
        }
    }

    /// Picks the revision a line is read with: the session's, the one `initialize` negotiates,
    /// or (stateless revisions) the one the request's `_meta` names.
    fn dispatch(&self, line: &str) -> Option<String> {
        let session = self.state().session.clone();
        if let Some(version) = session {
            return handle(self, &version, line);
        }
        let peek: Value = match serde_json::from_str(line) {
            Ok(value) => value,
            Err(e) => {
                return Some(error_line(
                    None,
                    RpcError::new(ErrorCode::ParseError, e.to_string()),
                ))
            }
        };
        if peek.is_array() {
            return Some(error_line(
                None,
                RpcError::new(ErrorCode::InvalidRequest, "a batch cannot open a session"),
            ));
        }
        let method = peek.get("method").and_then(Value::as_str);
        let id = peek
            .get("id")
            .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
        if method == Some("initialize") {
            let requested = peek
                .pointer("/params/protocolVersion")
                .and_then(Value::as_str)
                .unwrap_or_default();
            return match ProtocolVersion::negotiate(requested) {
                Some(version) => handle(self, &version, line),
                None => id.map(|id| error_line(Some(id), unsupported_version(requested))),
            };
        }
        let version = peek
            .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
            .and_then(Value::as_str);
        if let Some(version) = version {
            let version = ProtocolVersion::from(version);
            return match negotiation::is_stateless(&version) && version.is_supported() {
                true => handle(self, &version, line),
                false => id.map(|id| error_line(Some(id), unsupported_version(version.as_str()))),
            };
        }
        match (method, id) {
            // Stateless notifications (`notifications/cancelled`) carry no version.
            (Some(_), None) => negotiation::stateless_supported()
                .first()
                .and_then(|version| handle(self, version, line)),
            (Some(_), Some(id)) => Some(error_line(
                Some(id),
                RpcError::new(
                    ErrorCode::InvalidRequest,
                    "no session: send `initialize` first, or give the request's protocol version in params._meta[\"io.modelcontextprotocol/protocolVersion\"]",
                ),
            )),
            // Responses: this server sends no requests, so there is nothing to pair them with.
            (None, _) => None,
        }
    }

    /// The page of entries a cursor points at, and the cursor of the next page.
    fn page(&self, cursor: Option<&str>) -> Result<(Vec<Entry>, Option<String>), RpcError> {
        let start = match cursor {
            None => 0,
            Some(cursor) => self
                .cursors
                .decode(cursor)
                .map_err(RpcError::invalid_params)?,
        };
        let entries = self.root.entries();
        let end = entries.len().min(start.saturating_add(self.page_size));
        let next = (end < entries.len()).then(|| self.cursors.encode(end));
        let page = entries
            .into_iter()
            .skip(start)
            .take(end.saturating_sub(start));
        Ok((page.collect(), next))
    }

    /// Refuses a cursor on a list that has a single page.
    fn single_page(&self, cursor: Option<&str>) -> Result<(), RpcError> {
        match cursor {
            None => Ok(()),
            Some(cursor) => Err(RpcError::invalid_params(format!(
                "invalid cursor {cursor:?}: not one this server issued"
            ))),
        }
    }

    /// Validates a URI: the canonical path of its file, or the error to answer a client of
    /// `version` with.
    fn resolve(&self, uri: &str, version: &ProtocolVersion) -> Result<PathBuf, RpcError> {
        self.root
            .resolve(uri)
            .map_err(|e| uri_error(uri, &e, version))
    }

    fn read(&self, uri: &str, version: &ProtocolVersion) -> Result<Contents, RpcError> {
        let path = self.resolve(uri, version)?;
        files::read_contents(&path).map_err(|_| RpcError::resource_not_found_for(version, uri))
    }
}

/// "Resource not found" as `version`'s page has it (-32002 before 2026-07-28, -32602 from it)
/// for a URI that names nothing; -32602 for a URI refused by validation.
fn uri_error(uri: &str, error: &UriError, version: &ProtocolVersion) -> RpcError {
    if error.is_not_found() {
        RpcError::resource_not_found_for(version, uri)
    } else {
        RpcError::invalid_params(format!("refused URI {uri:?}: {error}"))
            .with_data(serde_json::json!({ "uri": uri }))
    }
}

fn unsupported_version(requested: &str) -> RpcError {
    RpcError::from_code(ErrorCode::UnsupportedProtocolVersion).with_data(serde_json::json!({
        "requested": requested,
        "supported": stateless_versions(),
    }))
}

fn error_line(id: Option<RequestId>, error: RpcError) -> String {
    let response = match id {
        Some(id) => ErrorResponse::new(id, error),
        None => ErrorResponse::without_id(error),
    };
    serde_json::to_string(&response).unwrap_or_default()
}

/// The reply to a line the revision's parser refused (-32700, -32600, -32601 or -32602, to
/// the request's id when it can be read); nothing for a notification or a response.
fn parse_failure(line: &str, error: &MessageError) -> Option<String> {
    let response = mcp_spec_types::answer::error_response(line, error)?;
    Some(serde_json::to_string(&response).unwrap_or_default())
}

/// The newest revision with `initialize`: what the stateful lifecycle (`initialize`, `ping`,
/// `resources/subscribe`), which the handlers' revision does not have, is written against.
use mcp_spec_types::v2025_11_25 as session_rev;
/// The revision the handlers are written against: the crate's default.
use mcp_spec_types::v2026_07_28 as handlers_rev;

/// Handles one line in the revision `version` names: every revision is served by the same
/// handlers (`core`, and `session` for what only revisions with `initialize` have) through
/// the crate's conversions. `None`: no reply.
fn handle(server: &Server, version: &ProtocolVersion, line: &str) -> Option<String> {
    struct Handle<'a>(&'a Server, &'a str);
    impl Visit for Handle<'_> {
        type Output = Option<String>;
        fn visit<V: Revision>(self) -> Option<String> {
            let message = match ClientMessage::<V>::parse(self.1) {
                Ok(message) => message,
                Err(error) => return parse_failure(self.1, &error),
            };
            if V::is_stateless() {
                reply_stateless::<V>(self.0, message)
            } else {
                reply_stateful::<V>(self.0, message)
            }
        }
    }
    revision::visit(version, Handle(server, line)).flatten()
}

/// A notification built by the handlers, as a line of revision `version`: for a peer, so
/// without what that revision does not define.
fn notification_line(
    version: &ProtocolVersion,
    notification: &handlers_rev::ServerNotify,
) -> Option<String> {
    struct Line<'a>(&'a handlers_rev::ServerNotify);
    impl Visit for Line<'_> {
        type Output = Option<String>;
        fn visit<V: Revision>(self) -> Option<String> {
            let converted = convert_call_for_peer::<_, V::ServerNotify>(self.0).ok()?;
            let envelope = NotificationEnvelope::new(converted.value);
            Some(ServerMessage::<V>::Notification(envelope).to_json())
        }
    }
    revision::visit(version, Line(notification)).flatten()
}

/// Answers a request: the result as JSON text, nothing (answered later, on a stream), or the
/// error to answer with.
fn respond<T: serde::Serialize>(
    id: RequestId,
    result: Result<Option<T>, RpcError>,
) -> Option<String> {
    Some(match result {
        Ok(Some(result)) => match ResultResponse::new(id.clone(), &result) {
            Ok(response) => serde_json::to_string(&response).unwrap_or_default(),
            Err(e) => error_line(
                Some(id),
                RpcError::new(ErrorCode::InternalError, e.to_string()),
            ),
        },
        Ok(None) => return None,
        Err(error) => error_line(Some(id), error),
    })
}

/// A conversion the client's revision cannot take: the client asked for what its revision
/// cannot express (-32602), or the server built what it cannot (-32603).
fn conversion(error: ConversionError, code: ErrorCode) -> RpcError {
    RpcError::new(code, error.to_string())
}

/// Replies to a message of a session of stateful revision `V`.
fn reply_stateful<V: Revision>(server: &Server, message: ClientMessage<V>) -> Option<String> {
    match message {
        Message::Request(request) => {
            let result = answer_stateful::<V::ClientCall>(server, &request.call);
            respond(request.id, result)
        }
        Message::Notification(notification) => {
            if let Ok(n) = convert_call::<_, session_rev::ClientNotify>(&notification.notification)
            {
                session::notify(server, n);
            }
            None
        }
        Message::Batch(items) => {
            let replies: Vec<String> = items
                .into_iter()
                .filter_map(|m| reply_stateful::<V>(server, m))
                .collect();
            (!replies.is_empty()).then(|| format!("[{}]", replies.join(",")))
        }
        // This server sends no requests: responses have nothing to answer.
        Message::Response(_) | Message::Error(_) => None,
    }
}

/// Answers a request of a client of stateful revision `C`: what the handlers' revision has
/// goes to `core` (with the session's version and capabilities in `_meta`, as a stateless
/// request carries them), the lifecycle it lacks to `session`; either result reaches the
/// client converted *for a peer*, without what `C` does not define.
fn answer_stateful<C: CallSet>(server: &Server, call: &C) -> Result<Option<C::Result>, RpcError> {
    let method = call.method();
    if !C::lists(method) {
        return Err(RpcError::method_not_found(method));
    }
    let back = |e| conversion(e, ErrorCode::InternalError);
    if handlers_rev::ClientCall::lists(method) {
        let meta = server.state().request_meta.clone();
        let call: handlers_rev::ClientCall =
            convert_call_with(call, &meta).map_err(|e| conversion(e, ErrorCode::InvalidParams))?;
        let pending = PendingRequest::of(&call);
        let Some(result) = core::call(server, None, &call)? else {
            return Ok(None);
        };
        let sent = convert_result_for_peer::<handlers_rev::ClientCall, C>(&result, &pending)
            .map_err(back)?;
        return Ok(Some(sent.value));
    }
    let call: session_rev::ClientCall =
        convert_call(call).map_err(|e| conversion(e, ErrorCode::InvalidParams))?;
    let pending = PendingRequest::of(&call);
    let result = session::call(server, C::REVISION, call)?;
    convert_result_for_peer::<session_rev::ClientCall, C>(&result, &pending)
        .map(|sent| Some(sent.value))
        .map_err(back)
}

/// Replies to a message of stateless revision `V`.
fn reply_stateless<V: Revision>(server: &Server, message: ClientMessage<V>) -> Option<String> {
    match message {
        Message::Request(request) => {
            let id = request.id.clone();
            let result = convert_call::<_, handlers_rev::ClientCall>(&request.call)
                .map_err(|e| conversion(e, ErrorCode::InvalidParams))
                .and_then(|call| {
                    let pending = PendingRequest::of(&call);
                    let Some(result) = core::call(server, Some((V::version(), &id)), &call)? else {
                        return Ok(None);
                    };
                    convert_result_with::<handlers_rev::ClientCall, V::ClientCall>(
                        &result,
                        &pending,
                        &core::result_fill(),
                    )
                    .map(Some)
                    .map_err(|e| conversion(e, ErrorCode::InternalError))
                });
            respond(request.id, result)
        }
        Message::Notification(notification) => {
            let converted =
                convert_call::<_, handlers_rev::ClientNotify>(&notification.notification);
            if let Ok(handlers_rev::ClientNotify::Cancelled(params)) = converted {
                server.state().listens.retain(|l| l.id != params.request_id);
            }
            None
        }
        _ => None,
    }
}

/// The handlers, written once against revision 2026-07-28, the crate's default: every
/// revision's clients reach them through the conversions.
mod core {
    use super::*;
    use handlers_rev::{ClientCall as C, ClientCallResult as R};

    /// How long a result may be reused: not at all (the folder changes under the server), and
    /// only by the client that asked.
    const TTL_MS: u64 = 0;

    pub fn resource(entry: &Entry) -> handlers_rev::Resource {
        let size = i64::try_from(entry.size).unwrap_or(i64::MAX);
        let resource =
            handlers_rev::Resource::new(entry.uri.clone(), entry.relative.clone()).with_size(size);
        match entry.mime {
            Some(mime) => resource.with_mime_type(mime),
            None => resource,
        }
    }

    pub fn capabilities() -> handlers_rev::ServerCapabilities {
        handlers_rev::ServerCapabilities {
            resources: Some(handlers_rev::ServerCapabilitiesResources {
                list_changed: Some(true),
                subscribe: Some(true),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    pub fn server_info() -> handlers_rev::Implementation {
        handlers_rev::Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"))
    }

    /// What a stateless result carries besides: the server's name in `_meta`.
    pub fn result_fill() -> StatelessResult {
        let info = serde_json::to_value(server_info()).unwrap_or_default();
        StatelessResult::uncached().with_meta("io.modelcontextprotocol/serverInfo", info)
    }

    /// Answers `call`; `stream` is the stateless revision and request id a
    /// `subscriptions/listen` stream is opened for (stateful sessions subscribe with
    /// `resources/subscribe` instead).
    pub fn call(
        server: &Server,
        stream: Option<(ProtocolVersion, &RequestId)>,
        call: &C,
    ) -> Result<Option<R>, RpcError> {
        // The client's revision, for the errors whose code differs between revisions.
        let version = match &stream {
            Some((version, _)) => version.clone(),
            None => (server.state().session.clone())
                .unwrap_or_else(|| ProtocolVersion::from(handlers_rev::REVISION)),
        };
        Ok(Some(match call {
            C::Discover(_) => R::Discover(handlers_rev::DiscoverResult {
                cache_scope: handlers_rev::CacheScope::Public,
                capabilities: capabilities(),
                instructions: Some(INSTRUCTIONS.to_owned()),
                meta: None,
                result_type: handlers_rev::ResultType::COMPLETE,
                supported_versions: stateless_versions(),
                ttl_ms: TTL_MS,
                extra: Default::default(),
            }),
            C::SubscriptionsListen(params) => {
                let Some((revision, id)) = stream else {
                    return Err(RpcError::method_not_found(call.method()));
                };
                listen(server, revision, id, params.notifications.clone())?;
                return Ok(None);
            }
            C::ListResources(params) => {
                let (page, next) = server.page(params.cursor.as_deref())?;
                let result = handlers_rev::ListResourcesResult::complete(
                    page.iter().map(resource),
                    TTL_MS,
                    handlers_rev::CacheScope::Private,
                );
                R::ListResources(match next {
                    Some(next) => result.with_next_cursor(next),
                    None => result,
                })
            }
            C::ListResourceTemplates(params) => {
                server.single_page(params.cursor.as_deref())?;
                R::ListResourceTemplates(handlers_rev::ListResourceTemplatesResult::complete(
                    [
                        handlers_rev::ResourceTemplate::new(files::TEMPLATE, "files")
                            .with_description(
                                "Any file under the served folder, by its absolute path",
                            ),
                    ],
                    TTL_MS,
                    handlers_rev::CacheScope::Public,
                ))
            }
            C::ReadResource(params) => {
                let item = match server.read(&params.uri, &version)? {
                    Contents::Text { text, mime } => {
                        handlers_rev::ReadResourceResultContentsItem::TextResourceContents(
                            handlers_rev::TextResourceContents::new(&params.uri, text)
                                .with_mime_type(mime),
                        )
                    }
                    Contents::Blob { base64, mime } => {
                        handlers_rev::ReadResourceResultContentsItem::BlobResourceContents(
                            handlers_rev::BlobResourceContents::new(&params.uri, base64)
                                .with_mime_type(mime),
                        )
                    }
                };
                R::ReadResource(
                    handlers_rev::ReadResourceResultOrInputRequired::ReadResourceResult(
                        handlers_rev::ReadResourceResult::complete(
                            [item],
                            TTL_MS,
                            handlers_rev::CacheScope::Private,
                        ),
                    ),
                )
            }
            other => return Err(RpcError::method_not_found(other.method())),
        }))
    }

    /// Opens a stream: validates every URI, acknowledges what it will honour, then starts
    /// delivering.
    fn listen(
        server: &Server,
        revision: ProtocolVersion,
        id: &RequestId,
        filter: handlers_rev::SubscriptionFilter,
    ) -> Result<(), RpcError> {
        let mut files = Watches::default();
        for uri in filter.resource_subscriptions.iter().flatten() {
            files.add(server.resolve(uri, &revision)?, uri.clone());
        }
        let list_changed = filter.resources_list_changed == Some(true);
        let honoured = handlers_rev::SubscriptionFilter {
            resource_subscriptions: filter.resource_subscriptions,
            resources_list_changed: list_changed.then_some(true),
            ..Default::default()
        };
        let ack = handlers_rev::ServerNotify::SubscriptionsAcknowledged(
            handlers_rev::SubscriptionsAcknowledgedNotificationParams {
                meta: stream_meta(Some(id)),
                notifications: honoured,
                extra: Default::default(),
            },
        );
        let mut state = server.state();
        state.listens.retain(|l| l.id != *id);
        // Under the state lock: no notification of the stream can overtake it.
        if let Some(line) = notification_line(&revision, &ack) {
            server.send(&line);
        }
        state.listens.push(Listen {
            revision,
            id: id.clone(),
            files,
            list_changed,
        });
        Ok(())
    }

    fn stream_meta(
        subscription: Option<&RequestId>,
    ) -> Option<handlers_rev::NotificationMetaObject> {
        subscription.map(|id| handlers_rev::NotificationMetaObject {
            io_modelcontextprotocol_subscription_id: Some(id.clone()),
            ..Default::default()
        })
    }

    /// `notifications/resources/updated`, on a stream (stateless) or in the session.
    pub fn updated(uri: &str, subscription: Option<&RequestId>) -> handlers_rev::ServerNotify {
        let params = handlers_rev::ResourceUpdatedNotificationParams::new(uri);
        let params = match stream_meta(subscription) {
            Some(meta) => params.with_meta(meta),
            None => params,
        };
        handlers_rev::ServerNotify::ResourceUpdated(params)
    }

    /// `notifications/resources/list_changed`, on a stream (stateless) or in the session.
    pub fn list_changed(subscription: Option<&RequestId>) -> handlers_rev::ServerNotify {
        handlers_rev::ServerNotify::ResourceListChanged(stream_meta(subscription).map(|meta| {
            handlers_rev::NotificationParams {
                meta: Some(meta),
                ..Default::default()
            }
        }))
    }
}

/// The stateful lifecycle, which the handlers' revision does not have: `initialize`, `ping`
/// and `resources/subscribe`/`unsubscribe`, written once against revision 2025-11-25.
mod session {
    use super::*;
    use session_rev::{ClientCall as C, ClientCallResult as R};

    fn empty() -> session_rev::EmptyResult {
        session_rev::EmptyResult(session_rev::BaseResult {
            meta: None,
            extra: Default::default(),
        })
    }

    /// Answers `call` for a session of revision `version`.
    pub fn call(server: &Server, version: &str, call: C) -> Result<R, RpcError> {
        let internal = |e: ConversionError| conversion(e, ErrorCode::InternalError);
        Ok(match call {
            C::Initialize(params) => {
                let mut state = server.state();
                if state.session.is_some() {
                    return Err(RpcError::new(
                        ErrorCode::InvalidRequest,
                        "the session is already initialized",
                    ));
                }
                state.session = Some(ProtocolVersion::from(version));
                // What every later request of the session carries into the handlers, as a
                // stateless request would carry it.
                state.request_meta = StatelessRequestMeta {
                    protocol_version: handlers_rev::REVISION.to_owned(),
                    client_capabilities: serde_json::to_value(&params.capabilities)
                        .unwrap_or_default(),
                    client_info: serde_json::to_value(&params.client_info).ok(),
                };
                let capabilities = ConvertTo::<session_rev::ServerCapabilities>::convert_for_peer(
                    &core::capabilities(),
                )
                .map_err(internal)?;
                let server_info = ConvertTo::<session_rev::Implementation>::convert_for_peer(
                    &core::server_info(),
                )
                .map_err(internal)?;
                R::Initialize(session_rev::InitializeResult {
                    capabilities: capabilities.value,
                    instructions: Some(INSTRUCTIONS.to_owned()),
                    meta: None,
                    protocol_version: version.to_owned(),
                    server_info: server_info.value,
                    extra: Default::default(),
                })
            }
            C::Ping(_) => R::Ping(empty()),
            C::Subscribe(params) => {
                let path = server.resolve(&params.uri, &ProtocolVersion::from(version))?;
                server.state().subscriptions.add(path, params.uri);
                R::Subscribe(empty())
            }
            C::Unsubscribe(params) => {
                server.state().subscriptions.remove(&params.uri);
                R::Unsubscribe(empty())
            }
            other => return Err(RpcError::method_not_found(other.method())),
        })
    }

    pub fn notify(server: &Server, notification: session_rev::ClientNotify) {
        if let session_rev::ClientNotify::Initialized(_) = notification {
            server.state().initialized = true;
        }
    }
}

fn stateless_versions() -> Vec<String> {
    negotiation::stateless_supported_strings()
}

fn watch(server: &Server) {
    let mut listed = server.root.uris();
    loop {
        std::thread::sleep(POLL);
        let now = server.root.uris();
        let list_changed = now != listed;
        listed = now;
        let mut state = server.state();
        let state = &mut *state;
        let mut out = Vec::new();
        let updated = state.subscriptions.poll();
        if let (Some(session), true) = (&state.session, state.initialized) {
            if list_changed {
                out.extend(notification_line(session, &core::list_changed(None)));
            }
            out.extend(
                updated
                    .iter()
                    .filter_map(|uri| notification_line(session, &core::updated(uri, None))),
            );
        }
        for listen in &mut state.listens {
            if list_changed && listen.list_changed {
                let changed = core::list_changed(Some(&listen.id));
                out.extend(notification_line(&listen.revision, &changed));
            }
            for uri in listen.files.poll() {
                let updated = core::updated(&uri, Some(&listen.id));
                out.extend(notification_line(&listen.revision, &updated));
            }
        }
        // Sent under the state lock, so a stream's acknowledgement always comes first.
        for line in out {
            server.send(&line);
        }
    }
}
