//! The official Python SDK (`mcp` 2.x, pinned with everything it installs in
//! `tests/sdk_python/requirements.txt`), over stdio, installed into a virtual environment under
//! the target directory (once per set of pins):
//! - its client against the example resource server, in both of its modes: discovering the
//!   server and speaking 2026-07-28, and opening a session with `initialize` at 2025-11-25
//!   (`tests/sdk_python/client.py` lists, reads, subscribes and prints what it saw);
//! - its client calling the async example's `roots` tool, whose handler asks for the client's
//!   roots (`input_required`): answered and retried by the client on 2026-07-28, relayed as a
//!   `roots/list` request by the engine on 2025-11-25 (`tests/sdk_python/roots.py`), and the
//!   same over Streamable HTTP against the crate's tower service (`tests/http_service.rs`),
//!   where 2025-11-25's request goes on the call's event stream;
//! - its client calling the tower service's `count` tool, which reports progress and logs
//!   with gaps between its steps (each report arrives a gap after the one before), and the
//!   async example's `wait` tool, which reports progress from its task as it goes
//!   (`tests/sdk_python/reports.py`), on both revisions;
//! - its server (`tests/sdk_python/server.py`) driven by the crate's client engine, which
//!   discovers it (2026-07-28), or initializes it when told to speak 2025-11-25 only, and
//!   answers the `roots/list` it sends.
#![cfg(all(feature = "all-revisions", feature = "server", feature = "client"))]

use crate::support;

use mcp_spec_types::client::{Client, Event};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::{ProtocolVersion, RpcError};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::OnceLock;
use std::time::Duration;

pub(crate) const SCRIPT_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk_python");

/// Runs `command`, panicking with its output when it fails.
fn run(command: &mut Command, what: &str) -> String {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {command:?}: {e}"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{stderr}",
        output.status
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The virtual environment's Python, with the pinned SDK installed: made anew when the pins
/// changed since it was made.
pub(crate) fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let scratch = support::scratch_dir("sdk-python-env");
        let venv = scratch
            .parent()
            .expect("a scratch parent")
            .join("sdk-python-venv");
        let pins = std::fs::read_to_string(Path::new(SCRIPT_DIR).join("requirements.txt"))
            .expect("the pinned requirements");
        let stamp = venv.join("installed-requirements.txt");
        let python = venv.join("bin").join("python");
        if std::fs::read_to_string(&stamp).ok().as_deref() != Some(pins.as_str()) {
            let _ = std::fs::remove_dir_all(&venv);
            run(
                Command::new("python3").args(["-m", "venv"]).arg(&venv),
                "creating a virtual environment",
            );
            run(
                Command::new(&python)
                    .args([
                        "-m",
                        "pip",
                        "install",
                        "--quiet",
                        "--disable-pip-version-check",
                    ])
                    .args(["--no-deps", "-r"])
                    .arg(Path::new(SCRIPT_DIR).join("requirements.txt")),
                "installing the Python SDK",
            );
            std::fs::write(&stamp, &pins).expect("recording what was installed");
        }
        python
    })
}

/// A served folder: two files at the top, one in a subfolder.
fn folder(name: &str) -> PathBuf {
    let root = support::scratch_dir(name).join("root");
    std::fs::create_dir_all(root.join("notes")).expect("the folder");
    std::fs::write(root.join("a.txt"), "a\n").expect("a file");
    std::fs::write(root.join("hello.txt"), "hello\n").expect("a file");
    std::fs::write(root.join("notes").join("inner.md"), "# inner\n").expect("a file");
    root.canonicalize().expect("a canonical path")
}

/// What the Python client saw of the resource server in `mode`.
fn session(mode: &str) -> (Value, PathBuf) {
    let root = folder(&format!("sdk-python-{mode}"));
    let server = support::example_binary("resource-server");
    let printed = run(
        Command::new(python())
            .arg(Path::new(SCRIPT_DIR).join("client.py"))
            .arg(&server)
            .arg(&root)
            .arg(mode),
        &format!("the Python client ({mode})"),
    );
    let seen = serde_json::from_str(printed.trim())
        .unwrap_or_else(|e| panic!("the client printed no JSON ({e}): {printed}"));
    (seen, root)
}

/// The `file:` URI of `path`, as the server lists it and Python's `Path.as_uri` writes it
/// (the scratch paths need no escaping).
fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn expected(root: &Path, version: &str, missing: i64) -> Value {
    json!({
        "version": version,
        "names": ["a.txt", "hello.txt", "notes/inner.md"],
        "pages": 2,
        "text": "hello\n",
        "missing": missing,
        "updated": uri(&root.join("hello.txt")),
    })
}

#[test]
fn the_python_client_discovers_the_server_and_listens_on_2026_07_28() {
    let (seen, root) = session("auto");
    let mut expected = expected(&root, "2026-07-28", -32602);
    expected["honored"] = json!([uri(&root.join("hello.txt"))]);
    assert_eq!(seen, expected);
}

/// What the Python client saw of the `roots` tool of `server` (a binary over stdio, or a URL)
/// in `mode`.
fn roots_of(server: &std::ffi::OsStr, mode: &str) -> Value {
    let printed = run(
        Command::new(python())
            .arg(Path::new(SCRIPT_DIR).join("roots.py"))
            .arg(server)
            .arg(mode),
        &format!("the Python client of the roots tool ({mode})"),
    );
    serde_json::from_str(printed.trim())
        .unwrap_or_else(|e| panic!("the client printed no JSON ({e}): {printed}"))
}

/// What the Python client saw of the async example's `roots` tool in `mode`.
fn roots(mode: &str) -> Value {
    roots_of(support::example_binary("async-server").as_os_str(), mode)
}

/// Over Streamable HTTP (the crate's tower service, served by axum in this process):
/// 2026-07-28's `input_required` in a plain response; 2025-11-25's `roots/list` on the call's
/// event stream, the client's answer in a POST of its own, and the tool's answer last on the
/// same stream.
#[cfg(feature = "http-server")]
#[test]
fn the_http_service_asks_the_python_client_for_roots_in_both_revisions() {
    let serving = crate::http_service::serve(crate::http_service::tour(0));
    let url = std::ffi::OsStr::new(&serving.url);
    assert_eq!(
        roots_of(url, "auto"),
        json!({"version": "2026-07-28", "text": "file:///work"})
    );
    assert_eq!(
        roots_of(url, "legacy"),
        json!({"version": "2025-11-25", "text": "file:///work"})
    );
}

/// Over Streamable HTTP, the `count` tool's progress and log messages reach the Python
/// client as the handler makes them, on the call's event stream: on 2026-07-28 for a request
/// whose `_meta` asks for them, on 2025-11-25 after `logging/setLevel`. The handler waits
/// `GAP_MS` between its steps; each report reaches the client's callback before the next
/// step's, and the last before the answer, with the handler's gaps between them (a transport
/// that sent the reports with the answer would have them all arrive at once).
#[cfg(feature = "http-server")]
#[test]
fn the_python_client_hears_the_http_services_progress_and_logs_as_they_are_made() {
    const GAP_MS: u64 = 400;
    let serving = crate::http_service::serve(crate::http_service::tour(GAP_MS));
    let url = std::ffi::OsStr::new(&serving.url);
    let heard = |version: &str| {
        json!({
            "version": version,
            "progress": [[1.0, 3.0, "step 1"], [2.0, 3.0, "step 2"], [3.0, 3.0, "step 3"]],
            "logs": [["info", "counted 1"], ["info", "counted 2"], ["info", "counted 3"]],
            "text": "3"
        })
    };
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let (seen, arrived, order) = reports_ordered_of(url, mode, "count", "{}", "log");
        assert_eq!(seen, heard(version));
        // Every report and log message reached the client before the answer.
        let reports: Vec<&str> = order
            .iter()
            .map(String::as_str)
            .filter(|e| *e != "log")
            .collect();
        assert_eq!(
            reports,
            ["progress 1", "progress 2", "progress 3", "answer"],
            "{mode}"
        );
        assert_eq!(
            order.last().map(String::as_str),
            Some("answer"),
            "{mode}: {order:?}"
        );
        // The three reports, then the answer: steps 2 and 3 each come a gap after the one
        // before. A lower bound only: a loaded machine delays everything, never shortens the
        // handler's sleeps. The answer comes right after step 3, with no gap to check.
        let [first, second, third, _answer] = arrived[..] else {
            panic!("{mode}: {arrived:?}")
        };
        for (before, after) in [(first, second), (second, third)] {
            assert!(
                after - before >= GAP_MS / 2,
                "{mode}: reports came together, not as made: {arrived:?}"
            );
        }
    }
}

/// What the Python client saw of `tool` of `server` (a binary over stdio, or a URL) called with
/// `arguments` in `mode`, asking for progress, and for log messages when `log` is `"log"`.
fn reports_of(
    server: &std::ffi::OsStr,
    mode: &str,
    tool: &str,
    arguments: &str,
    log: &str,
) -> Value {
    let printed = run(
        Command::new(python())
            .arg(Path::new(SCRIPT_DIR).join("reports.py"))
            .arg(server)
            .args([mode, tool, arguments, log]),
        &format!("the Python client of the {tool} tool ({mode})"),
    );
    serde_json::from_str(printed.trim())
        .unwrap_or_else(|e| panic!("the client printed no JSON ({e}): {printed}"))
}

/// [`reports_of`], with when each report and the answer arrived (milliseconds after the call)
/// and the order in which the reports (`progress <n>`), the log messages (`log`) and the
/// answer (`answer`) reached the client.
fn reports_ordered_of(
    server: &std::ffi::OsStr,
    mode: &str,
    tool: &str,
    arguments: &str,
    log: &str,
) -> (Value, Vec<u64>, Vec<String>) {
    let mut seen = reports_of(server, mode, tool, arguments, log);
    let mut take = |member: &str| {
        seen.as_object_mut()
            .and_then(|seen| seen.remove(member))
            .unwrap_or_default()
    };
    let arrived = serde_json::from_value(take("arrived")).expect("the arrival times");
    let order = serde_json::from_value(take("order")).expect("the arrival order");
    (seen, arrived, order)
}

/// Over stdio, the async example's `wait` tool runs in a task and reports its progress as it
/// goes (`Responder::notes`), before its answer, in both revisions.
#[test]
fn the_python_client_hears_the_async_examples_progress_as_it_waits() {
    let binary = support::example_binary("async-server");
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        let wait = r#"{"ms": 40}"#;
        let (seen, _, order) = reports_ordered_of(binary.as_os_str(), mode, "wait", wait, "");
        let quarters = [[1.0, 4.0], [2.0, 4.0], [3.0, 4.0], [4.0, 4.0]];
        let progress: Vec<Value> = quarters.iter().map(|[d, t]| json!([d, t, null])).collect();
        assert_eq!(
            seen,
            json!({"version": version, "progress": progress, "logs": [], "text": "waited 40 ms"})
        );
        // Each report reached the client's callback before the answer did, in order.
        assert_eq!(
            order,
            [
                "progress 1",
                "progress 2",
                "progress 3",
                "progress 4",
                "answer"
            ],
            "{mode}"
        );
    }
}

#[test]
fn one_handler_asks_the_python_client_for_roots_in_both_revisions() {
    // 2026-07-28: `input_required`, answered and retried by the client.
    assert_eq!(
        roots("auto"),
        json!({"version": "2026-07-28", "text": "file:///work"})
    );
    // 2025-11-25: the engine asks `roots/list` and calls the handler again with the answer.
    assert_eq!(
        roots("legacy"),
        json!({"version": "2025-11-25", "text": "file:///work"})
    );
}

#[test]
fn the_python_client_initializes_2025_11_25_and_subscribes() {
    let (seen, root) = session("legacy");
    // "Resource not found" is -32002 in the revisions with `initialize`.
    assert_eq!(seen, expected(&root, "2025-11-25", -32002));
}

/// The Python SDK's server, spoken to by the crate's client engine.
struct PythonServer {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    client: Client,
}

impl PythonServer {
    fn start(client: Client) -> PythonServer {
        let mut child = Command::new(python())
            .arg(Path::new(SCRIPT_DIR).join("server.py"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the Python server starts");
        let input = child.stdin.take().expect("its input");
        let output = BufReader::new(child.stdout.take().expect("its output"));
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in output.lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        PythonServer {
            child,
            input,
            lines,
            client,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("writing to the server");
        self.input.flush().expect("flushing");
    }

    /// The events of the server's next line, the lines they ask for sent.
    fn next(&mut self) -> Vec<Event> {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(20))
            .expect("a line from the server");
        let events = self.client.receive(&line);
        for event in &events {
            if let Event::Send(line) = event {
                let line = line.clone();
                self.send(&line);
            }
        }
        events
    }

    fn connect(&mut self) -> ProtocolVersion {
        let first = self.client.start().expect("a revision to speak");
        self.send(&first);
        loop {
            for event in self.next() {
                match event {
                    Event::Connected(version) => return version,
                    Event::Send(_) => {}
                    other => panic!("while connecting: {other:?}"),
                }
            }
        }
    }

    fn ask(&mut self, call: ClientCall) -> Result<ClientCallResult, RpcError> {
        let (id, line) = self.client.request(call).expect("the request is sent");
        self.send(&line);
        loop {
            for event in self.next() {
                match event {
                    Event::Answer {
                        id: answered,
                        result,
                    } if answered == id => return result,
                    Event::Notification(_) | Event::Send(_) => {}
                    // The one request the Python server sends: `roots/list`.
                    Event::Request { id: asked, call } => {
                        assert!(matches!(call, ServerCall::ListRoots(_)), "{call:?}");
                        let root = Root::new("file:///work").with_name("work");
                        let roots = ServerCallResult::ListRoots(ListRootsResult::new([root]));
                        let events = self.client.respond(&asked, Ok(roots)).expect("answered");
                        let [Event::Send(line)] = events.as_slice() else {
                            panic!("a line to send: {events:?}")
                        };
                        self.send(line);
                    }
                    other => panic!("waiting for {id:?}: {other:?}"),
                }
            }
        }
    }
}

impl Drop for PythonServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the engine's client makes of the Python server: the revision, the echoed text, the
/// resource's text.
fn drive(client: Client) -> (String, Value, Value) {
    let mut server = PythonServer::start(client);
    let version = server.connect();
    let meta = server.client.meta();
    let arguments: mcp_spec_types::JsonObject =
        serde_json::from_str(r#"{"text":"hi there"}"#).expect("arguments");
    let call = CallToolRequestParams::new("echo", meta.clone()).with_arguments(arguments);
    let echoed = match server.ask(ClientCall::CallTool(call)) {
        Ok(ClientCallResult::CallTool(result)) => serde_json::to_value(result).expect("JSON"),
        other => panic!("tools/call: {other:?}"),
    };
    let read = ReadResourceRequestParams::new("memo://hi", meta);
    let read = match server.ask(ClientCall::ReadResource(read)) {
        Ok(ClientCallResult::ReadResource(result)) => serde_json::to_value(result).expect("JSON"),
        other => panic!("resources/read: {other:?}"),
    };
    (version.as_str().to_owned(), echoed, read)
}

#[test]
fn the_client_engine_discovers_the_python_server() {
    let client = Client::new(Implementation::new("engine", "1"));
    let (version, echoed, read) = drive(client);
    assert_eq!(version, "2026-07-28");
    assert_eq!(echoed["content"][0]["text"], "hi there", "{echoed}");
    assert_eq!(echoed["resultType"], "complete", "{echoed}");
    assert_eq!(read["contents"][0]["text"], "Hi!", "{read}");
}

#[test]
fn the_python_server_asks_the_client_engine_for_its_roots_at_2025_11_25() {
    let only = [ProtocolVersion::from("2025-11-25")];
    let capabilities = ClientCapabilities::new().with_roots(mcp_spec_types::JsonObject::new());
    let client = Client::new(Implementation::new("engine", "1"))
        .with_versions(only)
        .with_capabilities(capabilities);
    let mut server = PythonServer::start(client);
    assert_eq!(server.connect().as_str(), "2025-11-25");
    let call = CallToolRequestParams::new("roots", server.client.meta());
    match server.ask(ClientCall::CallTool(call)) {
        Ok(ClientCallResult::CallTool(result)) => {
            let result = serde_json::to_value(result).expect("JSON");
            assert_eq!(
                result["content"][0]["text"], "work=file:///work",
                "{result}"
            );
        }
        other => panic!("tools/call: {other:?}"),
    }
}

#[test]
fn the_client_engine_initializes_the_python_server_at_2025_11_25() {
    let only = [ProtocolVersion::from("2025-11-25")];
    let client = Client::new(Implementation::new("engine", "1")).with_versions(only);
    let (version, echoed, read) = drive(client);
    assert_eq!(version, "2025-11-25");
    assert_eq!(echoed["content"][0]["text"], "hi there", "{echoed}");
    // Converted up to 2026-07-28: complete, though the server's revision has no `resultType`.
    assert_eq!(echoed["resultType"], "complete", "{echoed}");
    assert_eq!(read["contents"][0]["text"], "Hi!", "{read}");
}

/// Over Streamable HTTP, the example's typed tools: `sum`'s structured result reaches the
/// Python client as `structuredContent` (checked by the SDK against the listed
/// `outputSchema`) with its JSON as text, and `add` without `a` is a tool error naming the
/// argument, on 2026-07-28 and on 2025-11-25.
#[cfg(feature = "http-server")]
#[test]
fn the_python_client_reads_the_http_examples_typed_tools_in_both_revisions() {
    let server = support::Listening::start_example("http-server");
    let typed = |mode: &str| {
        let printed = run(
            Command::new(python())
                .arg(Path::new(SCRIPT_DIR).join("typed.py"))
                .arg(&server.url)
                .arg(mode),
            &format!("the Python client of the typed tools ({mode})"),
        );
        serde_json::from_str::<Value>(printed.trim())
            .unwrap_or_else(|e| panic!("the client printed no JSON ({e}): {printed}"))
    };
    for (mode, version) in [("auto", "2026-07-28"), ("legacy", "2025-11-25")] {
        assert_eq!(
            typed(mode),
            json!({
                "version": version,
                "structured": {"sum": 5.5},
                "text": "{\"sum\":5.5}",
                "bad": {
                    "isError": true,
                    "text": "invalid arguments for tool `add`: missing field `a`"
                }
            }),
            "{mode}"
        );
    }
}
