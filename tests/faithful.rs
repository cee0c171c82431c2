//! Faithful on the wire: a server answers each client in the client's revision's vocabulary,
//! with no member that revision does not define.
//!
//! For every stateful revision (2024-11-05 to 2025-11-25) the example server is driven through
//! a full session covering every method it implements (and its errors and notifications), and
//! each message it sends is checked against that revision's official schema, and against the
//! same schema *closed* (`common::closed`: an object that lists `properties` and says nothing
//! of `additionalProperties` admits nothing else; `_meta` and the JSON Schemas of tools and
//! elicitations stay open). A result is checked as the result of the method it answers, a
//! notification as its own definition, an error as the revision's error response. Printed:
//! `faithful <revision>: <messages> server messages, <n> with undefined members`.
#![cfg(all(feature = "all-revisions", feature = "server"))]

use crate::common;
use crate::support;

use common::closed::closed_document;
use common::{definition_pointer, definitions, load_schema, validator, violations};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const STATEFUL: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

fn show(line: &str) {
    println!("{line}");
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// How the test speaks to a server: one JSON-RPC message out, the server's messages in.
trait Transport {
    fn send(&mut self, message: &Value);
    /// The server's next message, or `None` after `timeout`.
    fn next(&mut self, timeout: Duration) -> Option<Value>;
}

/// The resource server, over stdio.
struct StdioServer {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
}

impl StdioServer {
    fn resource_server(dir: &Path) -> Self {
        let binary = support::example_binary("resource-server");
        let mut child = Command::new(binary)
            .args(["--page-size", "2"])
            .arg(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting the resource server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, incoming) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let value = serde_json::from_str(&line).unwrap_or_else(|e| {
                    panic!("the server wrote a line that is not JSON ({e}): {line}")
                });
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        StdioServer {
            child,
            stdin,
            incoming,
        }
    }
}

impl Transport for StdioServer {
    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").expect("writing to the server");
        self.stdin.flush().expect("flushing");
    }

    fn next(&mut self, timeout: Duration) -> Option<Value> {
        match self.incoming.recv_timeout(timeout) {
            Ok(value) => Some(value),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[allow(dead_code)]
#[path = "conformance_suite/server.rs"]
mod conformance_server;

/// The conformance server, over Streamable HTTP: each message is POSTed in the session, and
/// what the answer carries (a JSON body, or the events of an SSE body) is queued.
struct HttpServer {
    server: conformance_server::Server,
    session: Option<String>,
    version: String,
    queue: std::collections::VecDeque<Value>,
}

impl HttpServer {
    fn conformance_server(version: &str) -> Self {
        HttpServer {
            server: conformance_server::Server::start(),
            session: None,
            version: version.to_owned(),
            queue: Default::default(),
        }
    }

    /// One POST: the session header and the body's messages.
    fn post(&self, body: &Value) -> (Option<String>, Vec<Value>) {
        use http_body_util::{BodyExt, Full};
        use hyper::body::Bytes;
        let port = self.server.port();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .expect("connecting");
            let (mut sender, connection) =
                hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                    .await
                    .expect("an HTTP/1.1 connection");
            tokio::spawn(connection);
            let mut request = hyper::Request::builder()
                .method("POST")
                .uri("/mcp")
                .header("host", format!("127.0.0.1:{port}"))
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream");
            if let Some(session) = &self.session {
                request = request
                    .header("mcp-session-id", session)
                    .header("mcp-protocol-version", &self.version);
            }
            let request = request
                .body(Full::new(Bytes::from(body.to_string())))
                .expect("a request");
            let response = sender.send_request(request).await.expect("an answer");
            let header = |name: &str| {
                response
                    .headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned)
            };
            let session = header("mcp-session-id");
            let sse = header("content-type").is_some_and(|t| t.starts_with("text/event-stream"));
            let bytes = response
                .into_body()
                .collect()
                .await
                .expect("the whole body")
                .to_bytes();
            let text = String::from_utf8_lossy(&bytes);
            let messages = if sse {
                text.lines()
                    .filter_map(|line| line.strip_prefix("data:"))
                    .filter_map(|data| serde_json::from_str(data.trim()).ok())
                    .collect()
            } else {
                match serde_json::from_str(&text) {
                    Ok(Value::Array(items)) => items,
                    Ok(value) => vec![value],
                    Err(_) => Vec::new(),
                }
            };
            (session, messages)
        })
    }
}

impl Transport for HttpServer {
    fn send(&mut self, message: &Value) {
        let (session, messages) = self.post(message);
        if self.session.is_none() {
            self.session = session;
        }
        self.queue.extend(messages);
    }

    fn next(&mut self, _timeout: Duration) -> Option<Value> {
        self.queue.pop_front()
    }
}

/// What one revision's schema says a server message must be.
struct Checker {
    revision: String,
    root: Value,
    /// Request definition by method, to find a result's definition.
    requests: BTreeMap<String, String>,
    /// Notification definition by method.
    notifications: BTreeMap<String, String>,
    open: BTreeMap<String, jsonschema::Validator>,
    closed: BTreeMap<String, jsonschema::Validator>,
}

impl Checker {
    fn new(revision: &str) -> Self {
        let root = load_schema(revision);
        let mut requests = BTreeMap::new();
        let mut notifications = BTreeMap::new();
        for (name, def) in definitions(&root) {
            let Some(method) = def
                .pointer("/properties/method/const")
                .and_then(Value::as_str)
            else {
                continue;
            };
            if name.ends_with("Request") {
                requests.insert(method.to_owned(), name.clone());
            } else {
                notifications.insert(method.to_owned(), name.clone());
            }
        }
        Checker {
            revision: revision.to_owned(),
            root,
            requests,
            notifications,
            open: BTreeMap::new(),
            closed: BTreeMap::new(),
        }
    }

    /// The definition a request's result must be (`ListResourcesResult`; the empty result
    /// where the schema names none).
    fn result_definition(&self, method: &str) -> String {
        let request = &self.requests[method];
        let named = format!("{}Result", request.trim_end_matches("Request"));
        if definitions(&self.root).contains_key(&named) {
            named
        } else {
            "EmptyResult".to_owned()
        }
    }

    fn first_defined(&self, names: &[&str]) -> String {
        names
            .iter()
            .find(|n| definitions(&self.root).contains_key(**n))
            .map(|n| (*n).to_owned())
            .unwrap_or_else(|| panic!("{}: none of {names:?} is defined", self.revision))
    }

    /// The definitions `message` is checked against, each with the part of it checked: the
    /// JSON-RPC envelope, and the notification or the result of the method answered.
    fn subjects(
        &self,
        message: &Value,
        methods: &BTreeMap<String, String>,
    ) -> Vec<(String, Value)> {
        if let Some(method) = message.get("method").and_then(Value::as_str) {
            let definition = self
                .notifications
                .get(method)
                .unwrap_or_else(|| panic!("{}: the server sent {method}", self.revision));
            // Before 2025-11-25 the notification's definition names `method` and `params`
            // only, and the envelope adds `jsonrpc`.
            let mut inner = message.clone();
            let names_jsonrpc = definitions(&self.root)[definition]
                .pointer("/properties/jsonrpc")
                .is_some();
            if let (Some(object), false) = (inner.as_object_mut(), names_jsonrpc) {
                object.remove("jsonrpc");
            }
            return vec![
                ("JSONRPCNotification".to_owned(), message.clone()),
                (definition.clone(), inner),
            ];
        }
        if message.get("error").is_some() {
            let envelope = self.first_defined(&["JSONRPCErrorResponse", "JSONRPCError"]);
            return vec![(envelope, message.clone())];
        }
        let id = message["id"].to_string();
        let method = methods
            .get(&id)
            .unwrap_or_else(|| panic!("a response to no request: {message}"));
        let envelope = self.first_defined(&["JSONRPCResultResponse", "JSONRPCResponse"]);
        vec![
            (envelope, message.clone()),
            (self.result_definition(method), message["result"].clone()),
        ]
    }

    /// Violations of the official schema, and of the closed one.
    fn check(&mut self, definition: &str, value: &Value) -> (Vec<String>, Vec<String>) {
        let root = &self.root;
        let open = self
            .open
            .entry(definition.to_owned())
            .or_insert_with(|| validator(root, &definition_pointer(root, definition)));
        let invalid = violations(open, value);
        let closed = self.closed.entry(definition.to_owned()).or_insert_with(|| {
            let closed = closed_document(root, definition);
            validator(&closed, &definition_pointer(&closed, definition))
        });
        (invalid, violations(closed, value))
    }
}

/// A session with one server, recording every message it sends.
struct Session<T: Transport> {
    transport: T,
    next_id: i64,
    /// Request methods by id (as JSON text), to check each result as its method's.
    methods: BTreeMap<String, String>,
    received: Vec<Value>,
}

impl<T: Transport> Session<T> {
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.methods
            .insert(json!(id).to_string(), method.to_owned());
        self.transport.send(&json!({
            "jsonrpc": "2.0", "id": id, "method": method, "params": params
        }));
        let deadline = Instant::now() + Duration::from_secs(10);
        while let Some(message) = self
            .transport
            .next(deadline.saturating_duration_since(Instant::now()))
        {
            self.received.push(message.clone());
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                return message;
            }
        }
        panic!("no response to {method}");
    }

    fn notify(&mut self, method: &str) {
        self.transport
            .send(&json!({ "jsonrpc": "2.0", "method": method }));
    }

    /// Waits for a notification `method` (received already or within 5 s).
    fn notification(&mut self, method: &str) -> Value {
        if let Some(found) = self.received.iter().find(|m| m["method"] == method) {
            return found.clone();
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while let Some(message) = self
            .transport
            .next(deadline.saturating_duration_since(Instant::now()))
        {
            self.received.push(message.clone());
            if message["method"] == method {
                return message;
            }
        }
        panic!("no {method} within 5 s");
    }
}

fn result(reply: &Value) -> &Value {
    reply
        .get("result")
        .unwrap_or_else(|| panic!("not a result: {reply}"))
}

fn error_code(reply: &Value) -> i64 {
    reply["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("not an error: {reply}"))
}

/// Every method the resource server implements, its errors and its notifications, in one
/// session of `revision`.
fn resource_server_session<T: Transport>(session: &mut Session<T>, revision: &str, dir: &Path) {
    let init = session.request(
        "initialize",
        json!({
            "protocolVersion": revision,
            "capabilities": {},
            "clientInfo": { "name": "faithful", "version": "1" }
        }),
    );
    assert_eq!(result(&init)["protocolVersion"], revision, "{init}");
    session.notify("notifications/initialized");
    result(&session.request("ping", json!({})));

    // Every page of the listing, then a cursor the server did not issue.
    let mut cursor = Value::Null;
    let mut listed = 0;
    loop {
        let params = if cursor.is_null() {
            json!({})
        } else {
            json!({ "cursor": cursor })
        };
        let page = session.request("resources/list", params);
        listed += result(&page)["resources"].as_array().map_or(0, Vec::len);
        cursor = result(&page)["nextCursor"].clone();
        if cursor.is_null() {
            break;
        }
    }
    assert!(listed >= 3, "{listed} resources listed");
    let forged = session.request("resources/list", json!({ "cursor": "forged" }));
    assert_eq!(error_code(&forged), -32602, "{forged}");
    result(&session.request("resources/templates/list", json!({})));

    let uri = |name: &str| format!("file://{}", dir.join(name).display());
    let text = session.request("resources/read", json!({ "uri": uri("hello.txt") }));
    assert!(result(&text)["contents"][0]["text"].is_string(), "{text}");
    let blob = session.request("resources/read", json!({ "uri": uri("pixel.png") }));
    assert!(result(&blob)["contents"][0]["blob"].is_string(), "{blob}");
    let missing = session.request("resources/read", json!({ "uri": uri("missing.txt") }));
    assert_eq!(error_code(&missing), -32002, "{missing}");
    let refused = session.request("resources/read", json!({ "uri": "file:///etc/passwd" }));
    assert_eq!(error_code(&refused), -32602, "{refused}");

    result(&session.request("resources/subscribe", json!({ "uri": uri("hello.txt") })));
    std::fs::write(dir.join("hello.txt"), format!("changed for {revision}\n")).expect("write");
    session.notification("notifications/resources/updated");
    std::fs::write(dir.join(format!("new-{revision}.txt")), "new\n").expect("write");
    session.notification("notifications/resources/list_changed");
    result(&session.request("resources/unsubscribe", json!({ "uri": uri("hello.txt") })));

    let unknown = session.request("tools/list", json!({}));
    assert_eq!(error_code(&unknown), -32601, "{unknown}");
}

/// Every method the conformance server implements that needs no answer from the client (the
/// sampling and elicitation tools ask the client, which this driver does not answer), in one
/// session of `revision`.
fn conformance_server_session<T: Transport>(session: &mut Session<T>, revision: &str) {
    let init = session.request(
        "initialize",
        json!({
            "protocolVersion": revision,
            "capabilities": {},
            "clientInfo": { "name": "faithful", "version": "1" }
        }),
    );
    assert_eq!(result(&init)["protocolVersion"], revision, "{init}");
    session.notify("notifications/initialized");
    for (method, params) in [
        ("ping", json!({})),
        ("tools/list", json!({})),
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        ("resources/read", json!({ "uri": "test://static-text" })),
        ("resources/read", json!({ "uri": "test://static-binary" })),
        ("resources/read", json!({ "uri": "test://template/7/data" })),
        (
            "resources/subscribe",
            json!({ "uri": "test://watched-resource" }),
        ),
        (
            "resources/unsubscribe",
            json!({ "uri": "test://watched-resource" }),
        ),
        ("prompts/list", json!({})),
        ("prompts/get", json!({ "name": "test_simple_prompt" })),
        (
            "prompts/get",
            json!({ "name": "test_prompt_with_arguments", "arguments": { "arg1": "a", "arg2": "b" } }),
        ),
        (
            "prompts/get",
            json!({ "name": "test_prompt_with_embedded_resource", "arguments": { "resourceUri": "test://static-text" } }),
        ),
        ("prompts/get", json!({ "name": "test_prompt_with_image" })),
        (
            "completion/complete",
            json!({ "ref": { "type": "ref/prompt", "name": "test_prompt_with_arguments" }, "argument": { "name": "arg1", "value": "a" } }),
        ),
        ("logging/setLevel", json!({ "level": "info" })),
    ] {
        session.request(method, params);
    }
    for tool in [
        "test_simple_text",
        "test_image_content",
        "test_audio_content",
        "test_embedded_resource",
        "test_multiple_content_types",
        "test_tool_with_logging",
        "test_tool_with_progress",
        "test_error_handling",
    ] {
        session.request(
            "tools/call",
            json!({ "name": tool, "arguments": {}, "_meta": { "progressToken": tool } }),
        );
    }
}

/// Checks every message of a session: `(messages, with undefined members, failures)`.
fn check_session<T: Transport>(
    session: &Session<T>,
    checker: &mut Checker,
) -> (usize, usize, Vec<String>) {
    let mut undefined = 0;
    let mut failures = Vec::new();
    for message in &session.received {
        let mut extra = false;
        for (definition, part) in checker.subjects(message, &session.methods) {
            let (invalid, closed) = checker.check(&definition, &part);
            if !invalid.is_empty() {
                failures.push(format!(
                    "{} {definition}: invalid: {invalid:?}\n  {message}",
                    checker.revision
                ));
            } else if !closed.is_empty() {
                extra = true;
                failures.push(format!(
                    "{} {definition}: members the revision does not define: {closed:?}\n  {message}",
                    checker.revision
                ));
            }
        }
        undefined += usize::from(extra);
    }
    (session.received.len(), undefined, failures)
}

fn fixture(name: &str) -> std::path::PathBuf {
    let dir = support::scratch_dir(name);
    std::fs::create_dir_all(dir.join("notes")).expect("mkdir");
    std::fs::write(dir.join("hello.txt"), "hello\n").expect("write");
    std::fs::write(dir.join("notes").join("inner.md"), "# inner\n").expect("write");
    std::fs::write(
        dir.join("pixel.png"),
        [0x89, b'P', b'N', b'G', 0, 1, 2, 255],
    )
    .expect("write");
    dir.canonicalize().expect("canonical")
}

#[test]
fn the_resource_server_sends_each_revision_only_what_it_defines() {
    let mut failures = Vec::new();
    let mut lines = Vec::new();
    for revision in STATEFUL {
        let dir = fixture(&format!("faithful-{revision}"));
        let mut session = Session {
            transport: StdioServer::resource_server(&dir),
            next_id: 1,
            methods: BTreeMap::new(),
            received: Vec::new(),
        };
        resource_server_session(&mut session, revision, &dir);
        let mut checker = Checker::new(revision);
        let (messages, undefined, mut found) = check_session(&session, &mut checker);
        lines.push(format!(
            "faithful {revision}: {messages} server messages, {undefined} with undefined members"
        ));
        failures.append(&mut found);
    }
    for line in &lines {
        show(line);
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The conformance server's half: its session replies go through the for-a-peer conversion.
#[test]
fn the_conformance_server_sends_each_revision_only_what_it_defines() {
    let mut failures = Vec::new();
    let mut lines = Vec::new();
    for revision in STATEFUL {
        let mut session = Session {
            transport: HttpServer::conformance_server(revision),
            next_id: 1,
            methods: BTreeMap::new(),
            received: Vec::new(),
        };
        conformance_server_session(&mut session, revision);
        let mut checker = Checker::new(revision);
        let (messages, undefined, mut found) = check_session(&session, &mut checker);
        lines.push(format!(
            "faithful {revision} (conformance server): {messages} server messages, {undefined} with undefined members"
        ));
        failures.append(&mut found);
    }
    for line in &lines {
        show(line);
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
