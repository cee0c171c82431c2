//! What the server engine tells clients unasked (`Server::notify`): a resource update to the
//! clients subscribed to it (`resources/subscribe` in a stateful session, a
//! `subscriptions/listen` stream from 2026-07-28 on), a list change to those whose revision or
//! stream asks for it, each in the client's revision, and nothing to anyone else.
#![cfg(all(feature = "server", feature = "v2025_11_25"))]

use mcp_spec_types::server::{Change, Router, Server, Session};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::RpcError;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

/// One tool and one resource; subscriptions to `memo://` URIs only, when `subscribing`.
fn server(subscribing: bool) -> Server<Router> {
    let router = Router::new()
        .tool(Tool::new("echo", ToolInputSchema::new()), |_| {
            Ok(CallToolResult::text("echo"))
        })
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        });
    let router = match subscribing {
        true => router
            .with_list_changed()
            .subscriptions(|uri| match uri.starts_with("memo://") {
                true => Ok(()),
                false => Err(RpcError::resource_not_found(uri)),
            }),
        false => router,
    };
    Server::new(Implementation::new("memo", "1.0.0"), router)
}

fn send(server: &Server<Router>, session: &mut Session, message: Value) -> Value {
    match server.handle(session, &message.to_string()).pop() {
        Some(answer) => serde_json::from_str(&answer).expect("the answer is JSON"),
        None => Value::Null,
    }
}

/// The lines `change` gives the session's client, as JSON.
fn told(server: &Server<Router>, session: &Session, change: Change) -> Vec<Value> {
    let lines = server.notify(session, &change);
    lines
        .iter()
        .map(|line| serde_json::from_str(line).expect("a notification is JSON"))
        .collect()
}

fn initialized(server: &Server<Router>, version: &str) -> Session {
    let mut session = Session::new();
    let answer = send(
        server,
        &mut session,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}}),
    );
    assert_eq!(answer["result"]["protocolVersion"], version, "{answer}");
    send(
        server,
        &mut session,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    session
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Sends request `id` and reads its answer.
fn ask(
    server: &Server<Router>,
    session: &mut Session,
    id: i64,
    method: &str,
    params: Value,
) -> Value {
    send(server, session, request(id, method, params))
}

/// Asserts that the session's client is told nothing of `change`.
fn silent(server: &Server<Router>, session: &Session, change: Change) {
    let lines = server.notify(session, &change);
    assert!(lines.is_empty(), "told of {change:?}: {lines:?}");
}

fn hi_changed() -> Change {
    Change::ResourceUpdated("memo://hi".into())
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

fn updated(uri: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": uri}})
}

#[test]
fn a_stateful_client_is_told_of_what_it_subscribed_to_until_it_unsubscribes() {
    let server = server(true);
    let mut session = initialized(&server, "2025-11-25");
    let resources = server.capabilities().resources.expect("resources");
    assert_eq!(
        (resources.subscribe, resources.list_changed),
        (Some(true), Some(true))
    );
    silent(&server, &session, hi_changed());

    let answer = ask(
        &server,
        &mut session,
        1,
        "resources/subscribe",
        json!({"uri": "memo://hi"}),
    );
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    assert_eq!(session.subscriptions().collect::<Vec<_>>(), ["memo://hi"]);
    assert_eq!(
        told(&server, &session, hi_changed()),
        [updated("memo://hi")]
    );
    silent(
        &server,
        &session,
        Change::ResourceUpdated("memo://other".into()),
    );
    // The lists whose changes the capabilities announce: the router's tools and resources.
    let list_changed = |method: &str| json!({"jsonrpc": "2.0", "method": method});
    assert_eq!(
        told(&server, &session, Change::ResourceList),
        [list_changed("notifications/resources/list_changed")]
    );
    assert_eq!(
        told(&server, &session, Change::ToolList),
        [list_changed("notifications/tools/list_changed")]
    );
    silent(&server, &session, Change::PromptList);

    let answer = ask(
        &server,
        &mut session,
        2,
        "resources/unsubscribe",
        json!({"uri": "memo://hi"}),
    );
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
    silent(&server, &session, hi_changed());
}

#[test]
fn a_subscription_the_handler_refuses_gets_its_error_in_the_clients_code() {
    let server = server(true);
    let mut session = initialized(&server, "2025-11-25");
    let uri = json!({"uri": "file:///etc/passwd"});
    let answer = ask(&server, &mut session, 1, "resources/subscribe", uri);
    assert_eq!(answer["error"]["code"], -32002, "{answer}");
    assert_eq!(
        answer["error"]["data"]["uri"], "file:///etc/passwd",
        "{answer}"
    );
    assert_eq!(session.subscriptions().count(), 0);
}

#[test]
fn without_the_capability_subscriptions_are_refused_and_nobody_is_told() {
    let server = server(false);
    let mut session = initialized(&server, "2025-11-25");
    let answer = ask(
        &server,
        &mut session,
        1,
        "resources/subscribe",
        json!({"uri": "memo://hi"}),
    );
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    silent(&server, &session, hi_changed());
    silent(&server, &session, Change::ResourceList);

    // A stream asking for what the server does not announce is acknowledged without it.
    let mut stateless = Session::new();
    let asked = json!({"resourceSubscriptions": ["memo://hi"], "resourcesListChanged": true});
    let params = json!({"_meta": meta(), "notifications": asked});
    let ack = ask(&server, &mut stateless, 1, "subscriptions/listen", params);
    assert_eq!(ack["params"]["notifications"], json!({}), "{ack}");
    silent(&server, &stateless, hi_changed());
}

#[test]
fn a_stateless_client_is_told_on_its_stream_what_the_stream_asked_for() {
    let server = server(true);
    let mut session = Session::new();
    let asked = json!({
        "resourceSubscriptions": ["memo://hi"],
        "resourcesListChanged": true,
        // The router has no prompts: not honoured.
        "promptsListChanged": true
    });
    let params = json!({"_meta": meta(), "notifications": asked});
    let ack = ask(&server, &mut session, 7, "subscriptions/listen", params);
    let on_stream = json!({"io.modelcontextprotocol/subscriptionId": 7});
    let honoured = json!({"resourceSubscriptions": ["memo://hi"], "resourcesListChanged": true});
    assert_eq!(
        ack,
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": {"_meta": on_stream, "notifications": honoured}})
    );
    assert_eq!(session.in_flight(), 1, "the stream's request stays open");
    assert_eq!(session.streams(), 1);
    assert_eq!(
        told(&server, &session, hi_changed()),
        [
            json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
            "params": {"uri": "memo://hi", "_meta": on_stream}})
        ]
    );
    assert_eq!(
        told(&server, &session, Change::ResourceList),
        [
            json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed",
            "params": {"_meta": on_stream}})
        ]
    );
    // Tools changes were not asked for on this stream.
    silent(&server, &session, Change::ToolList);

    // A URI the handler refuses refuses the whole stream.
    let params =
        json!({"_meta": meta(), "notifications": {"resourceSubscriptions": ["file:///x"]}});
    let refused = ask(&server, &mut session, 8, "subscriptions/listen", params);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["id"], 8, "{refused}");
    assert_eq!(session.streams(), 1);

    // Cancelling the stream's request closes it.
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 7, "_meta": meta()}});
    assert_eq!(send(&server, &mut session, cancel), Value::Null);
    assert_eq!((session.in_flight(), session.streams()), (0, 0));
    silent(&server, &session, hi_changed());
}

#[test]
fn a_session_subscribes_to_at_most_its_limit() {
    let server = server(true);
    let mut session = initialized(&server, "2025-11-25");
    let subscribe = |session: &mut Session, uri: &str| {
        ask(
            &server,
            session,
            1,
            "resources/subscribe",
            json!({"uri": uri}),
        )
    };
    for n in 0..Session::MAX_SUBSCRIPTIONS {
        let answer = subscribe(&mut session, &format!("memo://{n}"));
        assert_eq!(answer["result"], json!({}), "{answer}");
    }
    let past = subscribe(&mut session, "memo://past");
    assert_eq!(past["error"]["code"], -32603, "{past}");
    // A URI already subscribed to takes no more room.
    let again = subscribe(&mut session, "memo://0");
    assert_eq!(again["result"], json!({}), "{again}");
    assert_eq!(session.subscriptions().count(), Session::MAX_SUBSCRIPTIONS);
}

/// Input the test writes line by line, read by the loop as it comes.
struct Lines(Receiver<String>, Vec<u8>);

impl Read for Lines {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.1.is_empty() {
            match self.0.recv() {
                Ok(line) => self.1 = format!("{line}\n").into_bytes(),
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.1.len());
        out[..n].copy_from_slice(&self.1[..n]);
        self.1.drain(..n);
        Ok(n)
    }
}

/// Output the test reads line by line as the loop writes it.
struct Written(Sender<String>, Vec<u8>);

impl Write for Written {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.1.extend_from_slice(bytes);
        while let Some(end) = self.1.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.1.drain(..=end).collect();
            let _ = self
                .0
                .send(String::from_utf8_lossy(&line).trim_end().to_owned());
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_stdio_loop_sends_a_change_between_answers() {
    let server = server(true);
    let (input, lines) = mpsc::channel();
    let (written, output) = mpsc::channel::<String>();
    let (changes, received) = mpsc::channel();
    let next = || -> Value {
        let line = output
            .recv_timeout(Duration::from_secs(10))
            .expect("a line from the loop");
        serde_json::from_str(&line).expect("JSON")
    };
    std::thread::scope(|scope| {
        let serving = scope.spawn(|| {
            let reader = std::io::BufReader::new(Lines(lines, Vec::new()));
            server.serve_with(reader, Written(written, Vec::new()), received)
        });
        let listen = request(
            1,
            "subscriptions/listen",
            json!({
                "_meta": meta(), "notifications": {"resourceSubscriptions": ["memo://hi"]}
            }),
        );
        input.send(listen.to_string()).unwrap();
        assert_eq!(next()["method"], "notifications/subscriptions/acknowledged");
        changes
            .send(Change::ResourceUpdated("memo://hi".into()))
            .unwrap();
        let told = next();
        assert_eq!(told["params"]["uri"], "memo://hi", "{told}");
        assert_eq!(
            told["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            1
        );
        let read = request(
            2,
            "resources/read",
            json!({"_meta": meta(), "uri": "memo://hi"}),
        );
        input.send(read.to_string()).unwrap();
        assert_eq!(next()["result"]["contents"][0]["text"], "Hi!");
        drop(input);
        serving
            .join()
            .expect("the loop ends")
            .expect("without an error");
    });
}

/// Runs the stdio loop (`Server::serve`) of `server` while `drive` writes it lines and reads
/// what it writes (each line as JSON, waiting at most 10 s); the loop must then end, without an
/// error, once its input ends.
fn drive_loop(server: &Server<Router>, drive: impl FnOnce(&Sender<String>, &dyn Fn() -> Value)) {
    drive_loop_in(None, server, drive);
}

/// [`drive_loop`], the loop started inside `runtime`'s context (as `#[tokio::main]` starts it)
/// when there is one.
pub fn drive_loop_in(
    runtime: Option<tokio::runtime::Handle>,
    server: &Server<Router>,
    drive: impl FnOnce(&Sender<String>, &dyn Fn() -> Value),
) {
    let (input, lines) = mpsc::channel();
    let (written, output) = mpsc::channel::<String>();
    let next = || -> Value {
        let line = output
            .recv_timeout(Duration::from_secs(10))
            .expect("a line from the loop");
        serde_json::from_str(&line).expect("JSON")
    };
    std::thread::scope(|scope| {
        let serving = scope.spawn(move || {
            let _entered = runtime.as_ref().map(tokio::runtime::Handle::enter);
            let reader = std::io::BufReader::new(Lines(lines, Vec::new()));
            server.serve(reader, Written(written, Vec::new()))
        });
        drive(&input, &next);
        drop(input);
        serving
            .join()
            .expect("the loop ends")
            .expect("without an error");
    });
}

/// Opens a 2025-11-25 session on a loop `drive_loop` runs.
pub fn initialize_session(input: &Sender<String>, next: &dyn Fn() -> Value) {
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}});
    input.send(initialize.to_string()).unwrap();
    assert_eq!(next()["id"], 0);
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    input.send(initialized.to_string()).unwrap();
}

/// Cancels request `id` of a session on a loop `drive_loop` runs.
pub fn cancel(input: &Sender<String>, id: i64) {
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "no longer needed"}});
    input.send(cancel.to_string()).unwrap();
}

#[test]
fn the_stdio_loop_answers_a_quick_call_while_a_slow_one_reports_and_waits() {
    let (release, held) = mpsc::channel::<()>();
    let held = std::sync::Mutex::new(held);
    let router = Router::new().tool_with(
        Tool::new("slow", ToolInputSchema::new()),
        move |_, context| {
            context.progress(1, Some(2.into()), Some("half"));
            // Held until the test has seen the quick call answered and this report.
            if let Ok(held) = held.lock() {
                let _ = held.recv_timeout(Duration::from_secs(30));
            }
            Ok(CallToolResult::text("slow"))
        },
    );
    let server = Server::new(Implementation::new("t", "1"), router);
    drive_loop(&server, |input, next| {
        let mut slow_meta = meta();
        slow_meta["progressToken"] = json!("p");
        let slow = request(1, "tools/call", json!({"name": "slow", "_meta": slow_meta}));
        input.send(slow.to_string()).unwrap();
        // The report comes while the handler is still held: it was written as it was made.
        let report = next();
        assert_eq!(report["params"]["message"], "half", "{report}");
        let quick = request(2, "tools/list", json!({"_meta": meta()}));
        input.send(quick.to_string()).unwrap();
        let answered = next();
        assert_eq!(answered["id"], 2, "the quick call first: {answered}");
        release.send(()).unwrap();
        let answered = next();
        assert_eq!(answered["id"], 1, "{answered}");
        assert_eq!(answered["result"]["content"][0]["text"], "slow");
    });
}

#[test]
fn a_cancel_reaches_the_running_handler_and_its_answer_is_not_sent() {
    let (saw, seen) = mpsc::channel::<bool>();
    let saw = std::sync::Mutex::new(saw);
    let router = Router::new().tool_with(
        Tool::new("long", ToolInputSchema::new()),
        move |_, context| {
            // Runs until the client cancels it (or a bound no test reaches).
            let started = std::time::Instant::now();
            while !context.is_cancelled() && started.elapsed() < Duration::from_secs(30) {
                std::thread::sleep(Duration::from_millis(1));
            }
            if let Ok(saw) = saw.lock() {
                let _ = saw.send(context.is_cancelled());
            }
            Ok(CallToolResult::text("too late"))
        },
    );
    let server = Server::new(Implementation::new("t", "1"), router);
    drive_loop(&server, |input, next| {
        initialize_session(input, next);
        let call = request(1, "tools/call", json!({"name": "long"}));
        input.send(call.to_string()).unwrap();
        cancel(input, 1);
        let cancelled = seen
            .recv_timeout(Duration::from_secs(20))
            .expect("the handler ended");
        assert!(cancelled, "the handler did not see the cancel");
        // The cancelled call's answer is never written: the next line is the ping's.
        let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
        input.send(ping.to_string()).unwrap();
        assert_eq!(next()["id"], 2);
    });
}
