//! The HTTP server facing clients that are not friendly: served by `StreamableHttp::serve` on a
//! runtime of two workers, used from 127.0.0.1 while another client works against it from
//! 127.0.0.2. No clock decides a verdict: calls are held by a gate the test opens, and what
//! was answered while they were held is asserted; the one bound that is a time (a body that
//! stops arriving) is the one the service documents, set short.
#![cfg(feature = "http-server")]

use crate::http_service::{header, request_on, serve_itself, stateless, whole_body, Serving};
use mcp_spec_types::http_headers::MCP_SESSION_ID;
use mcp_spec_types::server::{Router, Server, StreamableHttp};
use mcp_spec_types::v2026_07_28::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::Duration;

fn serve(service: StreamableHttp<Router>) -> Serving {
    serve_itself(service)
}

fn service(router: Router) -> StreamableHttp<Router> {
    StreamableHttp::new(Server::new(Implementation::new("safe", "0.1.0"), router))
}

/// A connection to `to` from the address `from` (the loopback interface has all of
/// 127.0.0.0/8).
pub fn connect_from(from: &str, to: SocketAddr) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    let local: IpAddr = from.parse().expect("an address");
    socket.bind(SocketAddr::new(local, 0)).expect("bound");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let stream = runtime.block_on(socket.connect(to)).expect("connected");
    let stream = stream.into_std().expect("a std stream");
    stream.set_nonblocking(false).expect("blocking");
    stream
}

/// A POST from `from` of `body`, with `headers`: its status, headers and JSON body.
fn post_from(
    from: &str,
    to: SocketAddr,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, Vec<(String, String)>, Value) {
    let stream = connect_from(from, to);
    let (status, headers, mut reader) = request_on(stream, to, "POST", "/mcp", headers, body);
    let text = whole_body(&headers, &mut reader);
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    (status, headers, json)
}

/// A stateless request of 2026-07-28 from `from`.
fn stateless_from(from: &str, to: SocketAddr, id: u64, method: &str, params: Value) -> Value {
    let (headers, body) = stateless(id, method, params);
    let pairs: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let (status, _, answer) = post_from(from, to, &pairs, &body);
    assert_eq!(status, 200, "{method}: {answer}");
    assert_eq!(answer["id"], id, "{answer}");
    answer
}

fn initialize_body(capabilities: Value) -> String {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": capabilities,
        "clientInfo": {"name": "test", "version": "1"}}})
    .to_string()
}

/// A 2025-11-25 session opened from `from`, with `extra` headers: its id.
fn open_session(from: &str, to: SocketAddr, extra: &[(&str, &str)]) -> Option<String> {
    let (status, headers, answer) = post_from(from, to, extra, &initialize_body(json!({})));
    assert_eq!(status, 200, "{answer}");
    header(&headers, &MCP_SESSION_ID.to_ascii_lowercase()).map(str::to_owned)
}

/// A `ping` in session `id` from `from`: its status.
fn ping_in(from: &str, to: SocketAddr, id: &str, extra: &[(&str, &str)]) -> u16 {
    let mut headers = vec![(MCP_SESSION_ID, id), ("MCP-Protocol-Version", "2025-11-25")];
    headers.extend_from_slice(extra);
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "ping"}).to_string();
    let (status, _, answer) = post_from(from, to, &headers, &body);
    if status == 200 {
        assert_eq!(answer["result"], json!({}), "{answer}");
    }
    status
}

/// A gate that holds every handler that reaches it until the test opens it, and says each
/// time one arrives.
#[derive(Clone)]
struct Gate {
    open: Arc<(Mutex<bool>, Condvar)>,
    arrived: mpsc::Sender<()>,
}

impl Gate {
    fn new() -> (Gate, mpsc::Receiver<()>) {
        let (arrived, arrivals) = mpsc::channel();
        let open = Arc::new((Mutex::new(false), Condvar::new()));
        (Gate { open, arrived }, arrivals)
    }

    /// Waits, as a blocking handler does, until the gate opens.
    fn pass(&self) {
        let _ = self.arrived.send(());
        let (open, opened) = &*self.open;
        let mut is_open = open.lock().unwrap_or_else(|p| p.into_inner());
        while !*is_open {
            is_open = opened.wait(is_open).unwrap_or_else(|p| p.into_inner());
        }
    }

    fn open(&self) {
        let (open, opened) = &*self.open;
        *open.lock().unwrap_or_else(|p| p.into_inner()) = true;
        opened.notify_all();
    }
}

/// Opens its gate when dropped: a test that fails while calls are held fails, rather than
/// hang on the held calls (declared after the server, it is dropped before it).
struct OpenOnDrop(Gate);

impl Drop for OpenOnDrop {
    fn drop(&mut self) {
        self.0.open();
    }
}

#[test]
fn blocking_calls_hold_no_worker_stateless_or_in_a_session() {
    let (gate, arrivals) = Gate::new();
    let held = gate.clone();
    let router = Router::new().tool(Tool::new("block", ToolInputSchema::new()), move |_| {
        held.pass(); // a blocking database driver, say
        Ok(CallToolResult::text("done"))
    });
    let serving = serve(service(router));
    let _release = OpenOnDrop(gate.clone());
    let to = serving.address;
    let session = open_session("127.0.0.1", to, &[]).expect("a session id");
    // Three calls that block, each asking for no reports (as every SDK's client does by
    // default): two stateless, one in the session. Two workers' worth and more.
    let mut blocked = Vec::new();
    for id in [1, 2] {
        blocked.push(std::thread::spawn(move || {
            stateless_from("127.0.0.2", to, id, "tools/call", json!({"name": "block"}))
        }));
    }
    let in_session = session.clone();
    blocked.push(std::thread::spawn(move || {
        let headers = [
            (MCP_SESSION_ID, in_session.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        let body = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "block"}});
        post_from("127.0.0.2", to, &headers, &body.to_string()).2
    }));
    for _ in 0..3 {
        arrivals
            .recv_timeout(Duration::from_secs(30))
            .expect("each blocking call reaches its handler");
    }
    // While all three are held: every other kind of request is answered.
    let discovered = stateless_from("127.0.0.1", to, 10, "server/discover", json!({}));
    assert!(
        discovered["result"]["supportedVersions"].is_array(),
        "{discovered}"
    );
    let listed = stateless_from("127.0.0.1", to, 11, "tools/list", json!({}));
    assert_eq!(listed["result"]["tools"][0]["name"], "block", "{listed}");
    assert_eq!(ping_in("127.0.0.1", to, &session, &[]), 200);
    assert!(open_session("127.0.0.1", to, &[]).is_some());
    assert!(
        blocked.iter().all(|call| !call.is_finished()),
        "a blocking call was answered before the gate opened"
    );
    gate.open();
    for call in blocked {
        let answer = call.join().expect("the call's thread");
        assert_eq!(answer["result"]["content"][0]["text"], "done", "{answer}");
    }
}

#[test]
fn a_batch_with_a_blocking_call_holds_no_lock_and_no_worker() {
    let (gate, arrivals) = Gate::new();
    let held = gate.clone();
    let router = Router::new().tool(Tool::new("block", ToolInputSchema::new()), move |_| {
        held.pass();
        Ok(CallToolResult::text("done"))
    });
    let serving = serve(service(router));
    let _release = OpenOnDrop(gate.clone());
    let to = serving.address;
    // Batches are 2025-03-26's alone.
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    let (_, headers, _) = post_from("127.0.0.2", to, &[], &initialize.to_string());
    let batching = header(&headers, "mcp-session-id")
        .expect("a session")
        .to_owned();
    let in_batch = batching.clone();
    let batch = std::thread::spawn(move || {
        let headers = [
            (MCP_SESSION_ID, in_batch.as_str()),
            ("MCP-Protocol-Version", "2025-03-26"),
        ];
        let body = json!([
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "block"}},
            {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        ]);
        post_from("127.0.0.2", to, &headers, &body.to_string()).2
    });
    arrivals
        .recv_timeout(Duration::from_secs(30))
        .expect("the batch's call reaches its handler");
    // While it is held: another session, a new one, a stateless call are all answered.
    let other = open_session("127.0.0.1", to, &[]).expect("a session id");
    assert_eq!(ping_in("127.0.0.1", to, &other, &[]), 200);
    let listed = stateless_from("127.0.0.1", to, 11, "tools/list", json!({}));
    assert_eq!(listed["result"]["tools"][0]["name"], "block", "{listed}");
    assert!(
        !batch.is_finished(),
        "the batch was answered before the gate opened"
    );
    gate.open();
    let answers = batch.join().expect("the batch's thread");
    assert_eq!(answers[0]["id"], 1, "{answers}");
    assert_eq!(
        answers[0]["result"]["content"][0]["text"], "done",
        "{answers}"
    );
    assert_eq!(answers[1], json!({"jsonrpc": "2.0", "id": 2, "result": {}}));
}

#[test]
fn one_client_opening_sessions_evicts_no_other_clients_session() {
    let router = Router::new();
    // 8 sessions at most, 2 a client.
    let limited = service(router).with_session_limits(8, Duration::from_secs(600), 2);
    let serving = serve(limited);
    let to = serving.address;
    let mine = open_session("127.0.0.1", to, &[]).expect("a session id");
    // Five times the table's size, from one other address.
    for _ in 0..40 {
        open_session("127.0.0.2", to, &[]).expect("the flood's session");
    }
    assert_eq!(ping_in("127.0.0.1", to, &mine, &[]), 200);
    assert!(open_session("127.0.0.1", to, &[]).is_some());
    assert!(
        serving.service.sessions() <= 4,
        "{} sessions",
        serving.service.sessions()
    );
}

#[test]
fn one_client_holding_streams_open_locks_no_other_client_out() {
    let limited = service(Router::new()).with_session_limits(8, Duration::from_secs(600), 2);
    let serving = serve(limited);
    let to = serving.address;
    let mine = open_session("127.0.0.1", to, &[]).expect("a session id");
    // More sessions than the table holds, each with its own stream held open.
    let mut held = Vec::new();
    for _ in 0..12 {
        let id = open_session("127.0.0.2", to, &[]).expect("the flood's session");
        let headers = [
            (MCP_SESSION_ID, id.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
            ("Accept", "text/event-stream"),
        ];
        let stream = connect_from("127.0.0.2", to);
        let (status, _, reader) = request_on(stream, to, "GET", "/mcp", &headers, "");
        assert_eq!(status, 200);
        held.push(reader);
    }
    assert_eq!(ping_in("127.0.0.1", to, &mine, &[]), 200);
    assert!(open_session("127.0.0.1", to, &[]).is_some());
    // The flood's streams beyond its share were ended with their sessions: the first one's
    // body ends (its last chunk comes).
    let mut first = held.remove(0);
    assert!(stream_ends(&mut first));
}

/// Whether the chunked event stream `reader` is on ends (its last chunk, or the connection
/// closed) before anything but comments and empty events come; a read that fails (the
/// socket's 30 s timeout) is a stream that did not end.
fn stream_ends(reader: &mut BufReader<TcpStream>) -> bool {
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) => return true,
            Ok(_) if line.trim_end() == "0" => return true,
            Ok(_) if line.starts_with("data: ") && line.trim_end().len() > 6 => return false,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
}

#[test]
fn an_initialize_with_megabytes_of_capabilities_is_refused() {
    let serving = serve(service(Router::new()));
    let to = serving.address;
    let fat = json!({"experimental": {"padding": {"text": "x".repeat(4_000_000)}}});
    let (status, headers, answer) = post_from("127.0.0.2", to, &[], &initialize_body(fat));
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("65536"), "{message}");
    assert_eq!(header(&headers, "mcp-session-id"), None);
    assert_eq!(serving.service.sessions(), 0);
    // A client of ordinary size is served.
    assert!(open_session("127.0.0.1", to, &[]).is_some());
}

#[test]
fn a_body_that_stops_arriving_is_answered_408_and_its_connection_closed() {
    let slow = service(Router::new()).with_body_timeout(Duration::from_millis(300));
    let serving = serve(slow);
    let mut stream = connect_from("127.0.0.2", serving.address);
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a timeout");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Accept: application/json\r\nContent-Length: 1000\r\n\r\n{{\"jsonrpc\"",
        serving.address
    );
    stream.write_all(head.as_bytes()).expect("sent");
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).expect("a status line");
    assert!(status.starts_with("HTTP/1.1 408"), "{status:?}");
    let mut rest = Vec::new();
    reader
        .read_to_end(&mut rest)
        .expect("the connection closes");
    let rest = String::from_utf8_lossy(&rest).to_ascii_lowercase();
    assert!(rest.contains("connection: close"), "{rest}");
}

#[test]
fn headers_that_stop_arriving_close_their_connection() {
    let slow = service(Router::new()).with_header_timeout(Duration::from_millis(300));
    let serving = serve(slow);
    let mut stream = connect_from("127.0.0.2", serving.address);
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a timeout");
    stream
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-")
        .expect("sent");
    // The server closes the connection (after a 408 of its own, or none): the read ends, where
    // a server without the bound would leave it waiting until the socket's 30 s ran out.
    let mut rest = Vec::new();
    let read = stream.read_to_end(&mut rest);
    assert!(read.is_ok(), "{read:?}");
    let rest = String::from_utf8_lossy(&rest);
    assert!(
        rest.is_empty() || rest.starts_with("HTTP/1.1 408"),
        "{rest}"
    );
}

#[test]
fn a_session_answers_the_principal_that_opened_it_alone() {
    let keyed = service(Router::new()).with_client_key(|parts| {
        let authorization = parts.headers.get("authorization")?.to_str().ok()?;
        Some(authorization.strip_prefix("Bearer ")?.to_owned())
    });
    let serving = serve(keyed);
    let to = serving.address;
    let alice = [("Authorization", "Bearer alice")];
    let bob = [("Authorization", "Bearer bob")];
    let session = open_session("127.0.0.1", to, &alice).expect("alice's session");
    assert_eq!(ping_in("127.0.0.1", to, &session, &bob), 404);
    assert_eq!(ping_in("127.0.0.2", to, &session, &bob), 404);
    assert_eq!(ping_in("127.0.0.2", to, &session, &alice), 200);
}

#[test]
fn session_ids_are_128_random_bits() {
    let serving = serve(service(Router::new()));
    let ids: Vec<String> = (0..8)
        .filter_map(|_| open_session("127.0.0.1", serving.address, &[]))
        .collect();
    assert_eq!(ids.len(), 8);
    for id in &ids {
        assert_eq!(id.len(), 32, "{id}");
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    }
    let mut distinct = ids.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), ids.len());
}

/// Sends on its channel when dropped: says that the future holding it was dropped.
struct SendOnDrop(mpsc::Sender<()>);

impl Drop for SendOnDrop {
    fn drop(&mut self) {
        let _ = self.0.send(());
    }
}

/// An async call in a session whose client hangs up (a client that takes JSON alone, so the
/// call is answered in its request's own task) leaves nothing of itself in the session: its
/// future goes with the connection, and its id is free for the client's next request, as a
/// call that answered leaves it.
#[test]
fn an_async_call_whose_client_hangs_up_leaves_its_id_free() {
    let (arrived_tx, arrived) = mpsc::channel();
    let (dropped_tx, dropped) = mpsc::channel();
    let router = Router::new()
        .tool_async(Tool::new("hold", ToolInputSchema::new()), move |_, _| {
            let (arrived, dropped) = (arrived_tx.clone(), SendOnDrop(dropped_tx.clone()));
            async move {
                let _dropped = dropped;
                let _ = arrived.send(());
                core::future::pending::<Result<CallToolResult, mcp_spec_types::RpcError>>().await
            }
        })
        .tool(Tool::new("quick", ToolInputSchema::new()), |_| {
            Ok(CallToolResult::text("quick"))
        });
    let serving = serve(service(router));
    let to = serving.address;
    let session = open_session("127.0.0.1", to, &[]).expect("a session");
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "hold", "arguments": {}}})
    .to_string();
    let mut stream = connect_from("127.0.0.1", to);
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {to}\r\nContent-Type: application/json\r\n\
         Accept: application/json\r\n{MCP_SESSION_ID}: {session}\r\n\
         MCP-Protocol-Version: 2025-11-25\r\nContent-Length: {}\r\n\r\n{call}",
        call.len()
    );
    stream.write_all(head.as_bytes()).expect("sent");
    arrived.recv().expect("the call reached its handler");
    // The client hangs up before the answer.
    drop(stream);
    dropped
        .recv_timeout(Duration::from_secs(30))
        .expect("the call's future goes with its connection");
    // The same id again, for another tool: answered, not refused as still in flight.
    let headers = [
        (MCP_SESSION_ID, session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
        ("Accept", "application/json"),
    ];
    let quick = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "quick", "arguments": {}}})
    .to_string();
    let (status, _, answer) = post_from("127.0.0.1", to, &headers, &quick);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "quick", "{answer}");
}
