//! The MCP project's own conformance suite (`@modelcontextprotocol/conformance`, pinned with
//! Node 22 in `tests/conformance-suite/package.json` and `package-lock.json`, installed with
//! `npm ci`) against the example server (`examples/conformance-server/`) and client
//! (`examples/conformance-client/`), over Streamable HTTP; and bad input to the server, which
//! must get the JSON-RPC or HTTP error the specification names.
//!
//! The suite writes a `checks.json` per scenario (`-o <dir>`); every FAILURE or WARNING fails
//! the test, but for the disagreements listed in [`KNOWN`], each with its reason (and each must
//! still fail: one that passes is stale and fails the test too). A client scenario whose only
//! miss is a wall-clock check ([`TIMING`]) runs again, up to three times. Each side prints one
//! line (`<total>` counts the scenarios run; the client's `<left>` those left out):
//!
//! `conformance-suite server: <passed>/<total> scenarios, <checks> checks, <failures> failures, <warnings> warnings`
//! `conformance-suite client: <passed>/<total> scenarios, <checks> checks, <failures> failures, <warnings> warnings, <left> left out`
//!
//! The client scenarios left out test an OAuth authorization flow (`auth/...`), not MCP
//! messages: the example client has no OAuth. The test needs npm and the npm registry for
//! `npm ci`; when they are missing it fails, saying so; it never skips.

#![cfg(all(
    feature = "v2024_11_05",
    feature = "v2025_03_26",
    feature = "v2025_06_18",
    feature = "v2025_11_25",
    feature = "convert"
))]

#[path = "e2e/support.rs"]
mod support;

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
// Every command runs under a time limit (the helper the end-to-end tests share).
use support::run_limited as run;

/// Checks that fail for a reason outside the example client and server: (scenario, check id,
/// reason).
const KNOWN: &[(&str, &str, &str)] = &[];

/// Checks that measure wall-clock time.
const TIMING: &[&str] = &["client-sse-retry-timing"];

/// Whether the checks that did not pass are all timing checks (and there is one).
fn only_timing_missed(checks: &[Value]) -> bool {
    let missed: Vec<&str> = checks
        .iter()
        .filter(|c| c["status"] != "SUCCESS" && c["status"] != "INFO")
        .map(|c| c["id"].as_str().unwrap_or(""))
        .collect();
    !missed.is_empty() && missed.iter().all(|id| TIMING.contains(id))
}

/// Why client scenarios of a kind are left out.
const LEFT_OUT: &[(&str, &str)] = &[(
    "auth/",
    "tests an OAuth authorization flow, not MCP messages; the example client has no OAuth",
)];

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("conformance-suite")
}

/// Prints `line` with `println!` and straight to the stderr handle, which libtest does not
/// capture, so a plain `cargo test` shows it too.
fn show(line: &str) {
    use std::io::Write;
    println!("{line}");
    let nocapture = std::env::args().any(|a| a == "--nocapture" || a == "--show-output")
        || std::env::var_os("RUST_TEST_NOCAPTURE").is_some_and(|v| v != "0");
    if !nocapture {
        let _ = writeln!(std::io::stderr(), "{line}");
    }
}

/// `npm ci`: the suite and Node 22 at the versions the lock file pins; returns the Node binary.
fn install() -> PathBuf {
    let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
    let mut ci = Command::new(npm);
    ci.current_dir(suite_dir())
        .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
    let output = run(
        ci,
        "`npm ci` in tests/conformance-suite (needs npm and the npm registry)",
        Duration::from_secs(300),
    );
    assert!(
        output.status.success(),
        "npm ci failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let node = suite_dir().join("node_modules").join(".bin").join("node");
    assert!(
        node.exists(),
        "npm ci did not install Node 22 at {}",
        node.display()
    );
    node
}

/// The suite's command line.
fn conformance(node: &Path) -> Command {
    let mut command = Command::new(node);
    command
        .current_dir(suite_dir())
        .arg(suite_dir().join("node_modules/@modelcontextprotocol/conformance/dist/index.js"));
    command
}

/// The scenarios the suite lists for `side` (`--server`, `--client`).
fn scenarios(node: &Path, side: &str) -> Vec<String> {
    let mut list = conformance(node);
    list.args(["list", side]);
    let output = run(list, "conformance list", Duration::from_secs(60));
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let names: Vec<String> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_owned)
        .collect();
    assert!(
        !names.is_empty(),
        "conformance list {side} listed nothing:\n{text}"
    );
    names
}

/// The example server, killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start() -> Server {
        let binary = support::example_binary("conformance-server");
        let mut child = Command::new(binary)
            .args(["--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("starting the example server");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("the server did not say where it listens: {line:?}"))
            .to_owned();
        Server { child, url }
    }

    fn port(&self) -> u16 {
        let authority = self
            .url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp");
        authority
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .expect("a port in the URL")
    }

    fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one side's scenarios gave.
#[derive(Default)]
struct Tally {
    total: usize,
    passed: usize,
    checks: usize,
    failures: usize,
    warnings: usize,
    left_out: usize,
    /// Failures and warnings not in [`KNOWN`], and known ones that no longer fail.
    problems: Vec<String>,
    /// Known failures seen.
    known_seen: Vec<&'static str>,
}

impl Tally {
    /// Adds one scenario's checks (`None`: the scenario wrote none).
    fn add(&mut self, scenario: &str, checks: Option<Vec<Value>>, clean_exit: bool) {
        self.total += 1;
        let Some(checks) = checks else {
            self.problems.push(format!("{scenario}: no checks.json"));
            return;
        };
        // Passed: no FAILURE or WARNING at all, and the suite's run ended cleanly.
        let mut passed = clean_exit;
        let mut known_here = 0;
        for check in &checks {
            let status = check["status"].as_str().unwrap_or("");
            let id = check["id"].as_str().unwrap_or("?");
            if status == "INFO" {
                continue;
            }
            self.checks += 1;
            match status {
                "SUCCESS" => continue,
                "FAILURE" => self.failures += 1,
                "WARNING" => self.warnings += 1,
                _ => {}
            }
            passed = false;
            let known = KNOWN
                .iter()
                .find(|(s, c, _)| *s == scenario && *c == id && status == "FAILURE");
            match known {
                Some((_, c, _)) => {
                    known_here += 1;
                    self.known_seen.push(c);
                }
                None => {
                    let message = check["errorMessage"].as_str().unwrap_or("");
                    self.problems
                        .push(format!("{scenario}: {status} {id}: {message}"));
                }
            }
        }
        if !clean_exit && known_here == 0 {
            self.problems.push(format!(
                "{scenario}: the suite reported a failure (client exit status or timeout)"
            ));
        }
        if passed {
            self.passed += 1;
        }
    }

    fn assert_clean(&self, side: &str, scenarios: &[String]) {
        let mut problems = self.problems.clone();
        for (scenario, check, reason) in KNOWN {
            if scenarios.iter().any(|s| s == scenario) && !self.known_seen.contains(check) {
                problems.push(format!(
                    "{scenario}: {check} passes now; remove it from KNOWN ({reason})"
                ));
            }
        }
        for (scenario, check, reason) in KNOWN {
            if self.known_seen.contains(check) {
                eprintln!("known disagreement, {scenario}: {check}: {reason}");
            }
        }
        assert!(
            problems.is_empty(),
            "conformance suite, {side}:\n  {}",
            problems.join("\n  ")
        );
    }
}

/// Every `checks.json` under `dir`, with the directory holding it.
fn checks_files(dir: &Path, found: &mut Vec<(PathBuf, Vec<Value>)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            checks_files(&path, found);
        } else if path.file_name().is_some_and(|n| n == "checks.json") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let checks = serde_json::from_str::<Vec<Value>>(&text)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            found.push((dir.to_path_buf(), checks));
        }
    }
}

/// Whether `dir_name` is `<prefix><scenario>-<timestamp>`.
fn names_scenario(dir_name: &str, prefix: &str, scenario: &str) -> bool {
    dir_name
        .strip_prefix(prefix)
        .and_then(|rest| rest.strip_prefix(scenario))
        .and_then(|rest| rest.strip_prefix('-'))
        .is_some_and(|ts| ts.len() > 4 && ts[..4].bytes().all(|b| b.is_ascii_digit()))
}

#[test]
fn conformance_suite_against_the_example_server_and_client() {
    let started = Instant::now();
    let node = install();
    eprintln!("npm ci: {:?}", started.elapsed());
    let client = support::example_binary("conformance-client");
    let server = Server::start();
    eprintln!(
        "examples built, server at {}: {:?}",
        server.url,
        started.elapsed()
    );

    // The server: every scenario, pending ones included.
    let server_scenarios = scenarios(&node, "--server");
    let out = support::scratch_dir("conformance-suite-server");
    let mut suite = conformance(&node);
    suite
        .args(["server", "--url", &server.url, "--suite", "all", "-o"])
        .arg(&out);
    let output = run(suite, "conformance server", Duration::from_secs(240));
    let mut found = Vec::new();
    checks_files(&out, &mut found);
    let mut tally = Tally::default();
    for scenario in &server_scenarios {
        let checks = found
            .iter()
            .find(|(dir, _)| {
                dir.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| names_scenario(n, "server-", scenario))
            })
            .map(|(_, checks)| checks.clone());
        tally.add(scenario, checks, true);
    }
    show(&format!(
        "conformance-suite server: {}/{} scenarios, {} checks, {} failures, {} warnings",
        tally.passed, tally.total, tally.checks, tally.failures, tally.warnings
    ));
    if !tally.problems.is_empty() {
        eprintln!("{}", String::from_utf8_lossy(&output.stdout));
    }
    tally.assert_clean("server", &server_scenarios);
    eprintln!("server scenarios: {:?}", started.elapsed());

    // The client: one run per scenario, the OAuth ones left out.
    let client_scenarios = scenarios(&node, "--client");
    let out = support::scratch_dir("conformance-suite-client");
    let mut tally = Tally::default();
    for scenario in &client_scenarios {
        if let Some((_, reason)) = LEFT_OUT.iter().find(|(p, _)| scenario.starts_with(p)) {
            eprintln!("left out: {scenario}: {reason}");
            tally.left_out += 1;
            continue;
        }
        // A wall-clock check may miss its window on a loaded machine: such a scenario runs
        // again (up to three times) when that check is all that did not pass.
        let mut attempt = 0;
        let (checks, output) = loop {
            attempt += 1;
            let dir = out.join(format!("{}-{attempt}", scenario.replace('/', "_")));
            let mut suite = conformance(&node);
            suite
                .args([
                    "client",
                    "--scenario",
                    scenario,
                    "--timeout",
                    "30000",
                    "--command",
                ])
                .arg(&client)
                .arg("-o")
                .arg(&dir);
            let what = format!("conformance client {scenario}");
            let output = run(suite, &what, Duration::from_secs(60));
            let mut found = Vec::new();
            checks_files(&dir, &mut found);
            let checks = found.into_iter().next().map(|(_, checks)| checks);
            if attempt < 3 && checks.as_deref().is_some_and(only_timing_missed) {
                eprintln!("{scenario}: a timing check missed its window; running it again");
                continue;
            }
            break (checks, output);
        };
        let before = tally.problems.len();
        tally.add(scenario, checks, output.status.success());
        if tally.problems.len() > before {
            eprintln!("{}", String::from_utf8_lossy(&output.stderr));
        }
    }
    show(&format!(
        "conformance-suite client: {}/{} scenarios, {} checks, {} failures, {} warnings, {} left out",
        tally.passed,
        tally.total,
        tally.checks,
        tally.failures,
        tally.warnings,
        tally.left_out
    ));
    tally.assert_clean("client", &client_scenarios);
    eprintln!("conformance suite took {:?}", started.elapsed());
}

/// One HTTP/1.1 exchange on a fresh connection: status, `Mcp-Session-Id`, and the body as
/// JSON (`Value::Null` when it is not).
fn exchange(
    port: u16,
    method: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> (u16, Option<String>, Value) {
    use http_body_util::{BodyExt, Full};
    use hyper::body::Bytes;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connecting to the server");
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                .await
                .expect("an HTTP/1.1 connection");
        tokio::spawn(connection);
        let mut request = hyper::Request::builder().method(method).uri("/mcp");
        if !headers.iter().any(|(name, _)| *name == "host") {
            request = request.header("host", format!("127.0.0.1:{port}"));
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request
            .body(Full::new(Bytes::from(body)))
            .expect("a request");
        let response = sender
            .send_request(request)
            .await
            .expect("an answer, not a dropped connection");
        let status = response.status().as_u16();
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("the whole body")
            .to_bytes();
        (
            status,
            session,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    })
}

const JSON: (&str, &str) = ("content-type", "application/json");
const ACCEPT: (&str, &str) = ("accept", "application/json, text/event-stream");

/// POSTs `body` in session `session` (none: no header).
fn post(port: u16, session: Option<&str>, body: &str) -> (u16, Value) {
    let mut headers = vec![JSON, ACCEPT];
    if let Some(session) = session {
        headers.push(("mcp-session-id", session));
    }
    let (status, _, body) = exchange(port, "POST", &headers, body.as_bytes().to_vec());
    (status, body)
}

/// Opens a session in `version`; returns its id.
fn open_session(port: u16, version: &str) -> String {
    let initialize = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
    );
    let (status, session, body) = exchange(port, "POST", &[JSON, ACCEPT], initialize.into_bytes());
    assert_eq!(status, 200, "initialize: {body}");
    assert_eq!(body["result"]["protocolVersion"], version);
    session.expect("an Mcp-Session-Id")
}

fn code(body: &Value) -> i64 {
    body["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("no JSON-RPC error in {body}"))
}

#[test]
fn bad_input_gets_the_error_the_specification_names() {
    let mut server = Server::start();
    let port = server.port();
    let session = open_session(port, "2025-11-25");
    let s = Some(session.as_str());

    // Not JSON: -32700, with a null id, HTTP 400.
    let (status, body) = post(port, s, "{not json");
    assert_eq!((status, code(&body)), (400, -32700), "{body}");
    assert_eq!(body["id"], Value::Null);
    let (status, body) = post(port, None, "\u{1}");
    assert_eq!((status, code(&body)), (400, -32700), "{body}");
    // JSON that is not JSON-RPC: -32600.
    let (status, body) = post(port, s, r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#);
    assert_eq!((status, code(&body)), (400, -32600), "{body}");
    // A method the client does not send, and one nobody defines: -32601 with the request's id.
    let (status, body) = post(
        port,
        s,
        r#"{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}"#,
    );
    assert_eq!(
        (status, code(&body), body["id"].clone()),
        (200, -32601, Value::from(4)),
        "{body}"
    );
    let (status, body) = post(
        port,
        s,
        r#"{"jsonrpc":"2.0","id":"x","method":"no/such/method"}"#,
    );
    assert_eq!(
        (status, code(&body), body["id"].clone()),
        (200, -32601, Value::from("x")),
        "{body}"
    );
    // Params that do not fit: -32602.
    let (status, body) = post(
        port,
        s,
        r#"{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":7}}"#,
    );
    assert_eq!((status, code(&body)), (200, -32602), "{body}");
    let (status, body) = post(
        port,
        s,
        r#"{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"test://nothing"}}"#,
    );
    assert_eq!((status, code(&body)), (200, -32002), "{body}");
    // A batch where the revision has none (2025-11-25): -32600; in 2025-03-26 it is answered.
    let batch =
        r#"[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":8,"method":"ping"}]"#;
    let (status, body) = post(port, s, batch);
    assert_eq!((status, code(&body)), (400, -32600), "{body}");
    let old = open_session(port, "2025-03-26");
    let (status, body) = post(port, Some(&old), batch);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body.as_array().map(Vec::len), Some(2), "{body}");
    assert_eq!(body[1]["id"], 8);
    // Initialize again in a session: -32600.
    let again = r#"{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let (_, body) = post(port, s, again);
    assert_eq!(code(&body), -32600, "{body}");

    // Sessions: none for a request other than initialize (400), an unknown one (404).
    let ping = r#"{"jsonrpc":"2.0","id":10,"method":"ping"}"#;
    assert_eq!(post(port, None, ping).0, 400);
    assert_eq!(post(port, Some("no-such-session"), ping).0, 404);
    // A body over the stated limit (4 MiB): 413.
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":11,"method":"ping","params":{{"_meta":{{"x":"{}"}}}}}}"#,
        "a".repeat(4 * 1024 * 1024)
    );
    assert_eq!(post(port, s, &big).0, 413);
    // HTTP-level refusals.
    let (status, _, _) = exchange(
        port,
        "POST",
        &[
            JSON,
            ACCEPT,
            ("mcp-session-id", &session),
            ("host", "evil.example.com"),
        ],
        ping.into(),
    );
    assert_eq!(status, 403, "a foreign Host");
    let (status, _, _) = exchange(
        port,
        "POST",
        &[
            JSON,
            ACCEPT,
            ("mcp-session-id", &session),
            ("origin", "http://evil.example.com"),
        ],
        ping.into(),
    );
    assert_eq!(status, 403, "a foreign Origin");
    let (status, _, _) = exchange(
        port,
        "POST",
        &[
            ("content-type", "text/plain"),
            ACCEPT,
            ("mcp-session-id", &session),
        ],
        ping.into(),
    );
    assert_eq!(status, 415, "a body that is not JSON by its type");
    let (status, _, _) = exchange(
        port,
        "POST",
        &[JSON, ("accept", "text/html"), ("mcp-session-id", &session)],
        ping.into(),
    );
    assert_eq!(status, 406, "an Accept without JSON or SSE");
    let (status, _, _) = exchange(
        port,
        "POST",
        &[
            JSON,
            ACCEPT,
            ("mcp-session-id", &session),
            ("mcp-protocol-version", "1999-01-01"),
        ],
        ping.into(),
    );
    assert_eq!(status, 400, "an unsupported MCP-Protocol-Version");
    let (status, _, _) = exchange(
        port,
        "GET",
        &[("accept", "application/json"), ("mcp-session-id", &session)],
        Vec::new(),
    );
    assert_eq!(status, 406, "GET without Accept: text/event-stream");
    let (status, _, _) = exchange(
        port,
        "GET",
        &[
            ("accept", "text/event-stream"),
            ("mcp-session-id", &session),
            ("last-event-id", "99-99"),
        ],
        Vec::new(),
    );
    assert_eq!(status, 400, "an unknown Last-Event-ID");
    let (status, _, _) = exchange(port, "PUT", &[], Vec::new());
    assert_eq!(status, 405);

    // The server is still there and answers; DELETE ends the session.
    let (status, body) = post(port, s, ping);
    assert_eq!(
        (status, body["result"].clone()),
        (200, serde_json::json!({})),
        "{body}"
    );
    let (status, _, _) = exchange(port, "DELETE", &[("mcp-session-id", &session)], Vec::new());
    assert_eq!(status, 200);
    assert_eq!(post(port, s, ping).0, 404, "a request in an ended session");
    assert!(server.is_running(), "the server is still running");
}

/// Every stateful revision is negotiated, and its sessions are answered in its own types.
#[test]
fn every_stateful_revision_is_answered_in_its_own_types() {
    use mcp_spec_types::dispatch::Message;
    let server = Server::start();
    let port = server.port();
    macro_rules! check {
        ($module:ident, $version:literal, audio: $audio:literal) => {{
            use mcp_spec_types::$module as mcp;
            let session = open_session(port, $version);
            // `Accept: application/json` alone: every answer comes as JSON, tools/call too.
            let headers = [
                JSON,
                ("accept", "application/json"),
                ("mcp-session-id", &session),
            ];
            let ask = |method: &str, params: &str| {
                let body =
                    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}}}"#);
                let (status, _, reply) = exchange(port, "POST", &headers, body.into_bytes());
                assert_eq!(status, 200, "{} {method}: {reply}", $version);
                mcp::ServerMessage::parse(&reply.to_string())
                    .unwrap_or_else(|e| panic!("{} {method}: {e}: {reply}", $version))
            };
            let result = |message| match message {
                Message::Response(response) => response,
                other => panic!("{}: not a result: {other:?}", $version),
            };
            let tools = result(ask("tools/list", "{}"))
                .result_for::<mcp::ListToolsRequest>()
                .unwrap();
            assert_eq!(tools.tools.len(), 14, "{}", $version);
            let call = result(ask(
                "tools/call",
                r#"{"name":"test_simple_text","arguments":{}}"#,
            ));
            let call = call.result_for::<mcp::CallToolRequest>().unwrap();
            assert_eq!(call.content.len(), 1);
            let read = result(ask(
                "resources/read",
                r#"{"uri":"test://template/42/data"}"#,
            ));
            let read = read.result_for::<mcp::ReadResourceRequest>().unwrap();
            assert_eq!(read.contents.len(), 1);
            let prompt = result(ask("prompts/get", r#"{"name":"test_prompt_with_image"}"#));
            assert_eq!(
                prompt
                    .result_for::<mcp::GetPromptRequest>()
                    .unwrap()
                    .messages
                    .len(),
                2
            );
            let audio = ask(
                "tools/call",
                r#"{"name":"test_audio_content","arguments":{}}"#,
            );
            match (audio, $audio) {
                (Message::Response(r), true) => {
                    r.result_for::<mcp::CallToolRequest>().unwrap();
                }
                // The revision has no audio content: the answer cannot be written in its types.
                (Message::Error(e), false) => assert_eq!(e.code().code(), -32603),
                (other, _) => panic!("{}: audio: {other:?}", $version),
            }
        }};
    }
    check!(v2024_11_05, "2024-11-05", audio: false);
    check!(v2025_03_26, "2025-03-26", audio: true);
    check!(v2025_06_18, "2025-06-18", audio: true);
    check!(v2025_11_25, "2025-11-25", audio: true);
    // A version the server does not speak gets the newest stateful one.
    let session = exchange(
        port,
        "POST",
        &[JSON, ACCEPT],
        br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.to_vec(),
    );
    assert_eq!(session.2["result"]["protocolVersion"], "2025-11-25");
}

/// The example client against the example server: every tool, the server's requests answered
/// on the call's stream, and the reconnection tool's answer after resuming its stream.
#[test]
fn the_example_client_drives_the_example_server() {
    let server = Server::start();
    let client = support::example_binary("conformance-client");
    let mut command = Command::new(client);
    command.arg(&server.url);
    let output = run(command, "the example client", Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the client failed:\n{stderr}");
    for expected in [
        "session in revision 2025-11-25",
        "test_sampling: LLM response: This is a test response from the client",
        "test_elicitation_sep1034_defaults: Elicitation completed: action=accept, content={\"age\":30,\"name\":\"John Doe\",\"score\":95.5,\"status\":\"active\",\"verified\":true}",
        "test_reconnection: Reconnection test completed successfully",
        "test_tool_with_progress: 0",
    ] {
        assert!(stderr.contains(expected), "missing {expected:?} in:\n{stderr}");
    }
}
