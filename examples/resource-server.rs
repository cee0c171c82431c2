//! An MCP server over stdio that serves a folder as resources, built only on this crate's
//! types, `serde_json` and the standard library.
//!
//! ```text
//! cargo run --example resource-server --all-features -- [--page-size <n>] [<dir>]
//! ```
//!
//! Messages are newline-delimited JSON-RPC on stdin/stdout; diagnostics go to stderr. The
//! folder defaults to `examples/data/resources/`.
//!
//! * Every enabled revision is served. Revisions with `initialize` (2024-11-05 to 2025-11-25)
//!   negotiate it with [`ProtocolVersion::negotiate`]; every later message of the session is
//!   then parsed with the negotiated revision's module. Stateless revisions (2026-07-28, the
//!   draft) are picked per request from `params._meta["io.modelcontextprotocol/protocolVersion"]`
//!   and answer `server/discover`; an unsupported version gets -32022 with the supported ones.
//! * `resources/list` pages by `--page-size` (default 10) with opaque cursors; a cursor the
//!   server did not issue is refused with -32602.
//! * `resources/read` sends UTF-8 text as `text` and anything else as a base64 `blob`, with a
//!   MIME type guessed from the extension; `resources/templates/list` offers `file:///{+path}`,
//!   and read URIs are matched against it with the crate's `UriTemplate::match_uri`.
//! * `resources/subscribe`/`unsubscribe` (stateless revisions: `subscriptions/listen`) with
//!   `notifications/resources/updated` when a subscribed file changes, and
//!   `notifications/resources/list_changed` when files appear or vanish, from a thread polling
//!   every 100 ms.
//! * -32002 with `data.uri` for a resource that does not exist; -32602 for bad params
//!   (the parse error's message, with its JSON path) and for refused URIs; -32601 for methods
//!   the server does not implement or that the client cannot send.
//!
//! Every URI is validated before anything is read (`resource_server/files.rs`): other
//! schemes, `..` segments (also percent-encoded), encoded separators, paths outside the folder
//! and symlinks resolving outside it are refused.

#[path = "resource_server/files.rs"]
mod files;

use files::{Contents, Cursors, Entry, Root, Stamp, UriError};
use mcp_spec_types::dispatch::ErrorResponse;
use mcp_spec_types::{
    ErrorCode, MessageError, MessageErrorKind, ProtocolVersion, RequestId, RpcError,
};
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

#[derive(Default)]
struct State {
    /// The negotiated revision, once `initialize` has been answered.
    session: Option<&'static dyn Revision>,
    /// Whether the client sent `notifications/initialized`.
    initialized: bool,
    /// `resources/subscribe` subscriptions of the session.
    subscriptions: Watches,
    /// Open `subscriptions/listen` streams (stateless revisions).
    listens: Vec<Listen>,
}

/// A `subscriptions/listen` stream.
struct Listen {
    module: &'static dyn Revision,
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

/// One revision's handling, behind a revision-independent face.
trait Revision: Sync {
    /// Handles one line of the session in this revision; returns the reply, if any.
    fn handle(&self, server: &Server, line: &str) -> Option<String>;
    /// `notifications/resources/updated` for `uri`, on `subscription` when there is one.
    fn updated(&self, uri: &str, subscription: Option<&RequestId>) -> String;
    /// `notifications/resources/list_changed`, on `subscription` when there is one.
    fn list_changed(&self, subscription: Option<&RequestId>) -> String;
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
        let session = self.state().session;
        if let Some(module) = session {
            return module.handle(self, line);
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
            return match negotiate_stateful(requested) {
                Some(module) => module.handle(self, line),
                None => id.map(|id| error_line(Some(id), unsupported_version(requested))),
            };
        }
        let version = peek
            .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
            .and_then(Value::as_str);
        if let Some(version) = version {
            return match stateless_module(&ProtocolVersion::from(version)) {
                Some(module) => module.handle(self, line),
                None => id.map(|id| error_line(Some(id), unsupported_version(version))),
            };
        }
        match (method, id) {
            // Stateless notifications (`notifications/cancelled`) carry no version.
            (Some(_), None) => newest_stateless().and_then(|m| m.handle(self, line)),
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

    /// Validates a URI: the canonical path of its file, or the error to answer with.
    fn resolve(&self, uri: &str) -> Result<PathBuf, RpcError> {
        self.root.resolve(uri).map_err(|e| uri_error(uri, &e))
    }

    fn read(&self, uri: &str) -> Result<Contents, RpcError> {
        let path = self.resolve(uri)?;
        files::read_contents(&path).map_err(|_| RpcError::resource_not_found(uri))
    }
}

/// -32002 for a URI that names nothing; -32602 for a URI refused by validation.
fn uri_error(uri: &str, error: &UriError) -> RpcError {
    if error.is_not_found() {
        RpcError::resource_not_found(uri)
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

/// The reply to a line the revision's parser refused: -32700 for JSON, -32600 for the
/// envelope, -32601 for a method the client cannot send, -32602 for params; nothing for a
/// notification or a response.
fn parse_failure(line: &str, error: &MessageError) -> Option<String> {
    if error.kind() == MessageErrorKind::Json {
        return Some(error_line(
            None,
            RpcError::new(ErrorCode::ParseError, error.to_string()),
        ));
    }
    let peek: Value = serde_json::from_str(line).unwrap_or(Value::Null);
    let id = peek
        .get("id")
        .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    let rpc = match error.kind() {
        MessageErrorKind::WrongDirection
        | MessageErrorKind::WrongKind
        | MessageErrorKind::WrongRevision => {
            let mut rpc = RpcError::method_not_found(error.method().unwrap_or_default());
            rpc.message = error.to_string();
            rpc
        }
        MessageErrorKind::Params => RpcError::invalid_params(error.to_string()),
        _ => RpcError::new(ErrorCode::InvalidRequest, error.to_string()),
    };
    let has_method = peek.get("method").is_some();
    let is_notification = has_method && peek.get("id").is_none();
    let is_response = !has_method && (peek.get("result").is_some() || peek.get("error").is_some());
    if is_notification || is_response {
        return None;
    }
    Some(error_line(id, rpc))
}

/// The revision `initialize` settles on: the negotiated one, or the newest revision with
/// `initialize` when negotiation picks a stateless one.
fn negotiate_stateful(requested: &str) -> Option<&'static dyn Revision> {
    ProtocolVersion::negotiate(requested)
        .and_then(|v| stateful_module(&v))
        .or_else(|| ProtocolVersion::SUPPORTED.iter().find_map(stateful_module))
}

fn newest_stateless() -> Option<&'static dyn Revision> {
    ProtocolVersion::SUPPORTED.iter().find_map(stateless_module)
}

fn stateless_versions() -> Vec<String> {
    ProtocolVersion::SUPPORTED
        .iter()
        .filter(|v| stateless_module(v).is_some())
        .map(|v| v.as_str().to_owned())
        .collect()
}

/// Watches the folder: list changes, and changes of subscribed files.
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
        if let (Some(session), true) = (state.session, state.initialized) {
            if list_changed {
                out.push(session.list_changed(None));
            }
            out.extend(updated.iter().map(|uri| session.updated(uri, None)));
        }
        for listen in &mut state.listens {
            if list_changed && listen.list_changed {
                out.push(listen.module.list_changed(Some(&listen.id)));
            }
            for uri in listen.files.poll() {
                out.push(listen.module.updated(&uri, Some(&listen.id)));
            }
        }
        // Sent under the state lock, so a stream's acknowledgement always comes first.
        for line in out {
            server.send(&line);
        }
    }
}

/// What every revision builds the same way from its own types.
macro_rules! resource_builders {
    () => {
        fn resource(entry: &Entry) -> mcp::Resource {
            let size = i64::try_from(entry.size).unwrap_or(i64::MAX);
            let resource =
                mcp::Resource::new(entry.uri.clone(), entry.relative.clone()).with_size(size);
            match entry.mime {
                Some(mime) => resource.with_mime_type(mime),
                None => resource,
            }
        }

        fn template() -> mcp::ResourceTemplate {
            mcp::ResourceTemplate::new(files::TEMPLATE, "files")
                .with_description("Any file under the served folder, by its absolute path")
        }

        fn item(uri: &str, contents: Contents) -> mcp::ReadResourceResultContentsItem {
            match contents {
                Contents::Text { text, mime } => {
                    mcp::ReadResourceResultContentsItem::TextResourceContents(
                        mcp::TextResourceContents::new(uri, text).with_mime_type(mime),
                    )
                }
                Contents::Blob { base64, mime } => {
                    mcp::ReadResourceResultContentsItem::BlobResourceContents(
                        mcp::BlobResourceContents::new(uri, base64).with_mime_type(mime),
                    )
                }
            }
        }

        fn capabilities() -> mcp::ServerCapabilities {
            mcp::ServerCapabilities {
                resources: Some(mcp::ServerCapabilitiesResources {
                    list_changed: Some(true),
                    subscribe: Some(true),
                    ..Default::default()
                }),
                ..Default::default()
            }
        }

        fn server_info() -> mcp::Implementation {
            mcp::Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"))
        }

        fn reply(server: &Server, message: mcp::ClientMessage) -> Option<mcp::ServerMessage> {
            match message {
                Message::Request(request) => Some(match call(server, &request.id, request.call) {
                    Ok(Some(result)) => match ResultResponse::new(request.id.clone(), &result) {
                        Ok(response) => Message::Response(response),
                        Err(e) => Message::Error(ErrorResponse::new(
                            request.id,
                            RpcError::new(ErrorCode::InternalError, e.to_string()),
                        )),
                    },
                    // Answered later (a subscription stream).
                    Ok(None) => return None,
                    Err(error) => Message::Error(ErrorResponse::new(request.id, error)),
                }),
                Message::Notification(notification) => {
                    notify(server, notification.notification);
                    None
                }
                Message::Batch(items) => {
                    let replies: Vec<_> =
                        items.into_iter().filter_map(|m| reply(server, m)).collect();
                    (!replies.is_empty()).then_some(Message::Batch(replies))
                }
                // This server sends no requests: responses have nothing to answer.
                Message::Response(_) | Message::Error(_) => None,
            }
        }

        impl Revision for Rev {
            fn handle(&self, server: &Server, line: &str) -> Option<String> {
                match mcp::ClientMessage::parse(line) {
                    Ok(message) => reply(server, message).map(|m| m.to_json()),
                    Err(error) => parse_failure(line, &error),
                }
            }

            fn updated(&self, uri: &str, subscription: Option<&RequestId>) -> String {
                let params = mcp::ResourceUpdatedNotificationParams::new(uri);
                let params = on_stream(params, subscription);
                mcp::ServerMessage::Notification(NotificationEnvelope::new(
                    mcp::ServerNotify::ResourceUpdated(params),
                ))
                .to_json()
            }

            fn list_changed(&self, subscription: Option<&RequestId>) -> String {
                mcp::ServerMessage::Notification(NotificationEnvelope::new(
                    mcp::ServerNotify::ResourceListChanged(list_changed_params(subscription)),
                ))
                .to_json()
            }
        }
    };
}

/// A revision with `initialize`, `ping` and `resources/subscribe`.
macro_rules! stateful_revision {
    ($feature:literal, $module:ident) => {
        #[cfg(feature = $feature)]
        mod $module {
            use super::*;
            use mcp_spec_types::dispatch::{
                Message, MethodSet, NotificationEnvelope, ResultResponse,
            };
            use mcp_spec_types::$module as mcp;

            pub struct Rev;
            pub static REV: Rev = Rev;

            resource_builders!();

            fn empty() -> mcp::EmptyResult {
                mcp::EmptyResult(mcp::BaseResult {
                    meta: None,
                    extra: Default::default(),
                })
            }

            fn on_stream(
                params: mcp::ResourceUpdatedNotificationParams,
                _subscription: Option<&RequestId>,
            ) -> mcp::ResourceUpdatedNotificationParams {
                params
            }

            fn list_changed_params<T>(_subscription: Option<&RequestId>) -> Option<T> {
                None
            }

            fn call(
                server: &Server,
                _id: &RequestId,
                call: mcp::ClientCall,
            ) -> Result<Option<mcp::ClientCallResult>, RpcError> {
                use mcp::{ClientCall as C, ClientCallResult as R};
                Ok(Some(match call {
                    C::Initialize(_) => {
                        let mut state = server.state();
                        if state.session.is_some() {
                            return Err(RpcError::new(
                                ErrorCode::InvalidRequest,
                                "the session is already initialized",
                            ));
                        }
                        state.session = Some(&REV);
                        R::Initialize(mcp::InitializeResult {
                            capabilities: capabilities(),
                            instructions: Some(INSTRUCTIONS.to_owned()),
                            meta: None,
                            protocol_version: mcp::REVISION.to_owned(),
                            server_info: server_info(),
                            extra: Default::default(),
                        })
                    }
                    C::Ping(_) => R::Ping(empty()),
                    C::ListResources(params) => {
                        let cursor = params.and_then(|p| p.cursor);
                        let (page, next) = server.page(cursor.as_deref())?;
                        let result = mcp::ListResourcesResult::new(
                            page.iter().map(resource).collect::<Vec<_>>(),
                        );
                        R::ListResources(match next {
                            Some(next) => result.with_next_cursor(next),
                            None => result,
                        })
                    }
                    C::ListResourceTemplates(params) => {
                        server.single_page(params.and_then(|p| p.cursor).as_deref())?;
                        R::ListResourceTemplates(mcp::ListResourceTemplatesResult::new(vec![
                            template(),
                        ]))
                    }
                    C::ReadResource(params) => {
                        let contents = server.read(&params.uri)?;
                        R::ReadResource(mcp::ReadResourceResult::new(vec![item(
                            &params.uri,
                            contents,
                        )]))
                    }
                    C::Subscribe(params) => {
                        let path = server.resolve(&params.uri)?;
                        server.state().subscriptions.add(path, params.uri);
                        R::Subscribe(empty())
                    }
                    C::Unsubscribe(params) => {
                        server.state().subscriptions.remove(&params.uri);
                        R::Unsubscribe(empty())
                    }
                    other => return Err(RpcError::method_not_found(other.method())),
                }))
            }

            fn notify(server: &Server, notification: mcp::ClientNotify) {
                if let mcp::ClientNotify::Initialized(_) = notification {
                    server.state().initialized = true;
                }
            }
        }
    };
}

/// A stateless revision: the version on every request, `server/discover`, and
/// `subscriptions/listen` streams instead of `resources/subscribe`.
macro_rules! stateless_revision {
    ($feature:literal, $module:ident) => {
        #[cfg(feature = $feature)]
        mod $module {
            use super::*;
            use mcp_spec_types::dispatch::{
                Message, MethodSet, NotificationEnvelope, ResultResponse,
            };
            use mcp_spec_types::$module as mcp;

            pub struct Rev;
            pub static REV: Rev = Rev;

            resource_builders!();

            fn stream_meta(
                subscription: Option<&RequestId>,
            ) -> Option<mcp::NotificationMetaObject> {
                subscription.map(|id| mcp::NotificationMetaObject {
                    io_modelcontextprotocol_subscription_id: Some(id.clone()),
                    ..Default::default()
                })
            }

            fn on_stream(
                params: mcp::ResourceUpdatedNotificationParams,
                subscription: Option<&RequestId>,
            ) -> mcp::ResourceUpdatedNotificationParams {
                match stream_meta(subscription) {
                    Some(meta) => params.with_meta(meta),
                    None => params,
                }
            }

            fn list_changed_params(
                subscription: Option<&RequestId>,
            ) -> Option<mcp::NotificationParams> {
                stream_meta(subscription).map(|meta| mcp::NotificationParams {
                    meta: Some(meta),
                    ..Default::default()
                })
            }

            fn result_meta() -> mcp::ResultMetaObject {
                mcp::ResultMetaObject {
                    io_modelcontextprotocol_server_info: Some(server_info()),
                    extra: Default::default(),
                }
            }

            const COMPLETE: &str = "complete";

            fn call(
                server: &Server,
                id: &RequestId,
                call: mcp::ClientCall,
            ) -> Result<Option<mcp::ClientCallResult>, RpcError> {
                use mcp::{ClientCall as C, ClientCallResult as R};
                Ok(Some(match call {
                    C::Discover(_) => R::Discover(mcp::DiscoverResult {
                        cache_scope: mcp::DiscoverResultCacheScope::Public,
                        capabilities: capabilities(),
                        instructions: Some(INSTRUCTIONS.to_owned()),
                        meta: Some(result_meta()),
                        result_type: COMPLETE.to_owned(),
                        supported_versions: stateless_versions(),
                        ttl_ms: 0,
                        extra: Default::default(),
                    }),
                    C::ListResources(params) => {
                        let (page, next) = server.page(params.cursor.as_deref())?;
                        let result = mcp::ListResourcesResult::new(
                            mcp::ListResourcesResultCacheScope::Private,
                            page.iter().map(resource).collect::<Vec<_>>(),
                            COMPLETE,
                            0u64,
                        )
                        .with_meta(result_meta());
                        R::ListResources(match next {
                            Some(next) => result.with_next_cursor(next),
                            None => result,
                        })
                    }
                    C::ListResourceTemplates(params) => {
                        server.single_page(params.cursor.as_deref())?;
                        R::ListResourceTemplates(
                            mcp::ListResourceTemplatesResult::new(
                                mcp::ListResourceTemplatesResultCacheScope::Public,
                                vec![template()],
                                COMPLETE,
                                0u64,
                            )
                            .with_meta(result_meta()),
                        )
                    }
                    C::ReadResource(params) => {
                        let contents = server.read(&params.uri)?;
                        R::ReadResource(mcp::ReadResourceResultResponseResult::ReadResourceResult(
                            mcp::ReadResourceResult::new(
                                mcp::ReadResourceResultCacheScope::Private,
                                vec![item(&params.uri, contents)],
                                COMPLETE,
                                0u64,
                            )
                            .with_meta(result_meta()),
                        ))
                    }
                    C::SubscriptionsListen(params) => {
                        listen(server, id, params.notifications)?;
                        return Ok(None);
                    }
                    other => return Err(RpcError::method_not_found(other.method())),
                }))
            }

            /// Opens a stream: validates every URI, acknowledges what it will honour, then
            /// starts delivering.
            fn listen(
                server: &Server,
                id: &RequestId,
                filter: mcp::SubscriptionFilter,
            ) -> Result<(), RpcError> {
                let mut files = Watches::default();
                for uri in filter.resource_subscriptions.iter().flatten() {
                    let path = server.resolve(uri)?;
                    files.add(path, uri.clone());
                }
                let list_changed = filter.resources_list_changed == Some(true);
                let honoured = mcp::SubscriptionFilter {
                    resource_subscriptions: filter.resource_subscriptions,
                    resources_list_changed: list_changed.then_some(true),
                    ..Default::default()
                };
                let ack = mcp::ServerMessage::Notification(NotificationEnvelope::new(
                    mcp::ServerNotify::SubscriptionsAcknowledged(
                        mcp::SubscriptionsAcknowledgedNotificationParams {
                            meta: stream_meta(Some(id)),
                            notifications: honoured,
                            extra: Default::default(),
                        },
                    ),
                ));
                let mut state = server.state();
                state.listens.retain(|l| l.id != *id);
                // Under the state lock: no notification of the stream can overtake it.
                server.send(&ack.to_json());
                state.listens.push(Listen {
                    module: &REV,
                    id: id.clone(),
                    files,
                    list_changed,
                });
                Ok(())
            }

            fn notify(server: &Server, notification: mcp::ClientNotify) {
                if let mcp::ClientNotify::Cancelled(params) = notification {
                    server.state().listens.retain(|l| l.id != params.request_id);
                }
            }
        }
    };
}

stateful_revision!("v2024_11_05", v2024_11_05);
stateful_revision!("v2025_03_26", v2025_03_26);
stateful_revision!("v2025_06_18", v2025_06_18);
stateful_revision!("v2025_11_25", v2025_11_25);
stateless_revision!("v2026_07_28", v2026_07_28);
stateless_revision!("unstable-draft", draft);

fn stateful_module(version: &ProtocolVersion) -> Option<&'static dyn Revision> {
    match version {
        #[cfg(feature = "v2024_11_05")]
        ProtocolVersion::V2024_11_05 => Some(&v2024_11_05::REV),
        #[cfg(feature = "v2025_03_26")]
        ProtocolVersion::V2025_03_26 => Some(&v2025_03_26::REV),
        #[cfg(feature = "v2025_06_18")]
        ProtocolVersion::V2025_06_18 => Some(&v2025_06_18::REV),
        #[cfg(feature = "v2025_11_25")]
        ProtocolVersion::V2025_11_25 => Some(&v2025_11_25::REV),
        _ => None,
    }
}

fn stateless_module(version: &ProtocolVersion) -> Option<&'static dyn Revision> {
    match version {
        #[cfg(feature = "v2026_07_28")]
        ProtocolVersion::V2026_07_28 => Some(&v2026_07_28::REV),
        #[cfg(feature = "unstable-draft")]
        ProtocolVersion::Draft => Some(&draft::REV),
        _ => None,
    }
}
