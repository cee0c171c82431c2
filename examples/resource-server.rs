//! An MCP server over stdio that serves a folder as resources, on the crate's server engine:
//!
//! ```text
//! cargo run --example resource-server --features server,all-revisions -- [--page-size <n>] [<dir>]
//! ```
//!
//! The handler ([`Folder`]) is written once, against 2026-07-28; the engine ([`Server`]) serves
//! it to clients of every enabled revision, and keeps their subscriptions (a thread polling the
//! folder every 100 ms tells it what changed). Lists are paged by `--page-size` (default 10);
//! text is read as `text`, anything else as a base64 `blob`. Every URI is validated before
//! anything is read (`resource_server/files.rs`): other schemes, `..` segments (also
//! percent-encoded), encoded separators, paths outside the folder and symlinks resolving
//! outside it are refused with -32602. The folder defaults to `examples/data/resources/`.

#[path = "resource_server/files.rs"]
mod files;

use files::{Root, UriError};
use mcp_spec_types::cache::CacheHint;
use mcp_spec_types::dispatch::MethodSet;
use mcp_spec_types::server::{page, Change, Context, Handler, Server};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::RpcError;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::Sender;
use std::time::Duration;

const DEFAULT_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/resources");

/// The served folder, as a handler of the engine.
struct Folder {
    root: Root,
    page_size: usize,
}

impl Folder {
    /// The file `uri` names, or the error to answer: "resource not found" for a file that
    /// does not exist, -32602 for a URI the folder refuses.
    fn resolve(&self, uri: &str) -> Result<PathBuf, RpcError> {
        self.root.resolve(uri).map_err(|error| match error {
            UriError::NotFound => RpcError::resource_not_found(uri),
            refused => RpcError::invalid_params(format!("refused URI {uri:?}: {refused}"))
                .with_data(serde_json::json!({ "uri": uri })),
        })
    }
}

impl Handler for Folder {
    fn capabilities(&self) -> ServerCapabilities {
        let resources = ServerCapabilitiesResources::new()
            .with_subscribe(true)
            .with_list_changed(true);
        ServerCapabilities::new().with_resources(resources)
    }

    fn subscribe(&self, uri: &str, _: &Context) -> Result<(), RpcError> {
        self.resolve(uri).map(drop)
    }

    fn call(&self, call: ClientCall, _: &mut Context) -> Result<ClientCallResult, RpcError> {
        let fresh = CacheHint::UNCACHED;
        Ok(match call {
            ClientCall::ListResources(params) => {
                let entries = self.root.entries();
                let (entries, next) = page(&entries, params.cursor.as_deref(), self.page_size)?;
                let resources = entries.iter().map(|entry| {
                    let size = i64::try_from(entry.size).unwrap_or(i64::MAX);
                    let resource = Resource::new(&entry.uri, &entry.relative).with_size(size);
                    match entry.mime {
                        Some(mime) => resource.with_mime_type(mime),
                        None => resource,
                    }
                });
                let list = ListResourcesResult::complete(resources, fresh.ttl_ms, fresh.scope);
                match next {
                    Some(next) => list.with_next_cursor(next).into(),
                    None => list.into(),
                }
            }
            ClientCall::ListResourceTemplates(_) => {
                let template = ResourceTemplate::new(files::TEMPLATE, "files")
                    .with_description("Any file under the served folder, by its absolute path");
                ListResourceTemplatesResult::complete([template], fresh.ttl_ms, fresh.scope).into()
            }
            ClientCall::ReadResource(params) => {
                let (uri, path) = (&params.uri, self.resolve(&params.uri)?);
                // A file gone between the check and the read is not found.
                let not_found = |_| RpcError::resource_not_found(uri);
                let (contents, mime) = files::read_contents(&path).map_err(not_found)?;
                let read = match contents {
                    Ok(text) => TextResourceContents::new(uri, text).with_mime_type(mime),
                    Err(bytes) => return Ok(ReadResourceResult::blob(uri, bytes, mime).into()),
                };
                ReadResourceResult::from_contents([read]).into()
            }
            other => return Err(RpcError::method_not_found(other.method())),
        })
    }
}

/// Tells the engine, every 100 ms, which files changed and whether files came or went.
fn watch(root: &Root, changes: &Sender<Change>) {
    // What each file looks like now: its modification time and size.
    let stamps = || -> BTreeMap<String, _> {
        let modified = |path: &PathBuf| std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let stamp = |e: files::Entry| (e.uri, (modified(&e.path), e.size));
        root.entries().into_iter().map(stamp).collect()
    };
    let mut before = stamps();
    loop {
        std::thread::sleep(Duration::from_millis(100));
        let now = stamps();
        let mut told: Vec<Change> = now
            .iter()
            .filter(|(uri, stamp)| before.get(*uri).is_some_and(|old| old != *stamp))
            .map(|(uri, _)| Change::ResourceUpdated(uri.clone()))
            .collect();
        if !now.keys().eq(before.keys()) {
            told.push(Change::ResourceList);
        }
        if told.into_iter().any(|change| changes.send(change).is_err()) {
            return;
        }
        before = now;
    }
}

fn main() -> ExitCode {
    let mut page_size = 10;
    let mut dir = PathBuf::from(DEFAULT_DIR);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--page-size" => match args.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n > 0 => page_size = n,
                _ => return usage("--page-size needs a positive integer"),
            },
            _ if arg.starts_with('-') => return usage(&format!("unknown option {arg}")),
            _ => dir = PathBuf::from(arg),
        }
    }
    let root = match Root::new(&dir) {
        Ok(root) => root,
        Err(e) => return usage(&format!("cannot serve {}: {e}", dir.display())),
    };
    eprintln!("resource-server: serving {}", root.path().display());
    let (changes, received) = std::sync::mpsc::channel();
    let watched = root.clone();
    std::thread::spawn(move || watch(&watched, &changes));
    let info = Implementation::new("mcp-spec-types-resource-server", env!("CARGO_PKG_VERSION"));
    let server = Server::new(info, Folder { root, page_size }).with_instructions(
        "Serves the files of one folder as resources: list them, read them, subscribe to changes.",
    );
    match server.serve_stdio_with(received) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("resource-server: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage(problem: &str) -> ExitCode {
    eprintln!("resource-server: {problem}\nusage: resource-server [--page-size <n>] [<dir>]");
    ExitCode::from(2)
}
