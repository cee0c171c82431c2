//! The HTTP client against hostile servers (`client::HttpOptions`): each server is written here
//! by hand, raw HTTP/1.1 over a `TcpListener` on 127.0.0.1, and each test asserts the bound
//! the connection documents: an endless JSON answer ends in `Bound::AnswerSize`, an endless
//! event in `Bound::EventSize`, a stream of keep-alive comments in `Bound::IdleTimeout` or
//! `CallError::Timeout`, a redirect to another origin in `Bound::OtherOrigin` with nothing
//! sent there, and a server that answers each answer with another request in
//! `Bound::ServerRequests`, after exactly that many answers.
#![cfg(feature = "http-client")]

use mcp_spec_types::client::{Bound, CallError, Client, Connection, HttpOptions};
use mcp_spec_types::v2026_07_28::Implementation;
use serde_json::{json, Value};
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};

/// A multi-thread runtime of two workers, as the tests of a transport run on.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

fn client() -> Client {
    Client::new(Implementation::new("bounded", "1"))
}

/// One request as the hand-written server read it: its path, and its body's JSON (`Null` for
/// a `GET`).
struct Request {
    path: String,
    body: Value,
}

impl Request {
    fn method(&self) -> &str {
        self.body["method"].as_str().unwrap_or_default()
    }

    fn id(&self) -> Value {
        self.body["id"].clone()
    }

    /// Whether it is an answer to the server's request (a JSON-RPC response).
    fn is_answer(&self) -> bool {
        self.body.get("method").is_none() && self.body.get("id").is_some()
    }
}

/// Reads what the socket has, waiting for it (tokio's `net` alone, without its I/O
/// extensions).
async fn read_some(socket: &mut TcpStream, buffer: &mut [u8]) -> std::io::Result<usize> {
    loop {
        socket.readable().await?;
        match socket.try_read(buffer) {
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => continue,
            read => return read,
        }
    }
}

/// Writes all of `bytes`, waiting as the socket takes them.
async fn write_all(socket: &mut TcpStream, mut bytes: &[u8]) -> std::io::Result<()> {
    while !bytes.is_empty() {
        socket.writable().await?;
        match socket.try_write(bytes) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(written) => bytes = &bytes[written..],
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// Reads one request: its head, then as many bytes of body as its `Content-Length` says.
async fn read_request(socket: &mut TcpStream) -> Option<Request> {
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        let read = read_some(socket, &mut buffer).await.ok()?;
        if read == 0 {
            return None;
        }
        bytes.extend_from_slice(&buffer[..read]);
    };
    let head = String::from_utf8_lossy(&bytes[..head_end]).into_owned();
    let path = head.split(' ').nth(1).unwrap_or_default().to_owned();
    let length = head
        .lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse::<usize>().ok())
        .unwrap_or(0);
    while bytes.len() < head_end + length {
        let read = read_some(socket, &mut buffer).await.ok()?;
        if read == 0 {
            return None;
        }
        bytes.extend_from_slice(&buffer[..read]);
    }
    let body = serde_json::from_slice(&bytes[head_end..head_end + length]).unwrap_or(Value::Null);
    Some(Request { path, body })
}

/// Serves on `ip` (port chosen by the system), one request a connection, each answered by
/// `answer` writing on the socket itself; the address served.
async fn serve<F, Fut>(ip: &str, answer: F) -> std::net::SocketAddr
where
    F: Fn(Request, TcpStream) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let listener = TcpListener::bind((ip, 0)).await.expect("a port");
    let address = listener.local_addr().expect("its address");
    let answer = Arc::new(answer);
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let answer = Arc::clone(&answer);
            tokio::spawn(async move {
                if let Some(request) = read_request(&mut socket).await {
                    answer(request, socket).await;
                }
            });
        }
    });
    address
}

fn url(address: std::net::SocketAddr) -> String {
    format!("http://{address}/mcp")
}

/// Writes a whole JSON response.
async fn json_response(mut socket: TcpStream, body: Value) {
    let body = body.to_string();
    let head = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n",
        body.len()
    );
    let _ = write_all(&mut socket, head.as_bytes()).await;
    let _ = write_all(&mut socket, body.as_bytes()).await;
}

/// Writes the head of an event stream that lasts until the connection closes.
async fn start_stream(socket: &mut TcpStream) {
    let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n\
                connection: close\r\n\r\n";
    let _ = write_all(socket, head.as_bytes()).await;
}

async fn accepted(mut socket: TcpStream) {
    let head = "HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
    let _ = write_all(&mut socket, head.as_bytes()).await;
}

/// Answers `server/discover` as a 2026-07-28 server does, and a notification with 202; any
/// other request's socket is given back, for the test's own answer.
async fn connecting(request: &Request, socket: TcpStream) -> Option<TcpStream> {
    match request.method() {
        "server/discover" => {
            let result = json!({
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "hostile", "version": "1"}},
                "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {}},
                "resultType": "complete",
                "ttlMs": 0,
                "cacheScope": "private"
            });
            let answer = json!({"jsonrpc": "2.0", "id": request.id(), "result": result});
            json_response(socket, answer).await;
            None
        }
        method if method.starts_with("notifications/") => {
            accepted(socket).await;
            None
        }
        _ => Some(socket),
    }
}

/// Keeps the connection open a long while: a server that never ends what it started.
async fn linger(socket: TcpStream) {
    tokio::time::sleep(Duration::from_secs(60)).await;
    drop(socket);
}

/// Writes `chunk` again and again until the client goes away.
async fn endless(mut socket: TcpStream, chunk: &[u8]) {
    while write_all(&mut socket, chunk).await.is_ok() {
        tokio::task::yield_now().await;
    }
}

/// `call`'s error, and how long it took to come; a call with no verdict long after every
/// bound the tests set fails the test rather than hang it.
async fn failed<T: std::fmt::Debug>(
    call: impl Future<Output = Result<T, CallError>>,
) -> (CallError, Duration) {
    let started = Instant::now();
    let called = tokio::time::timeout(SOON + SOON / 2, call).await;
    let took = started.elapsed();
    match called {
        Ok(Err(error)) => (error, took),
        Ok(Ok(ok)) => panic!("no error: {ok:?}"),
        Err(_) => panic!("no verdict within {took:?}"),
    }
}

/// The call timeout of the tests that bound something else: far above each bound they set, so
/// that a verdict that comes before it is that bound's.
const SOON: Duration = Duration::from_secs(10);

const CAP: usize = 64 << 10;

#[test]
fn an_answer_past_its_cap_is_refused_whether_declared_or_as_it_comes() {
    runtime().block_on(async {
        let address = serve("127.0.0.1", |request, socket| async move {
            let Some(mut socket) = connecting(&request, socket).await else {
                return;
            };
            // `declared`: a Content-Length far past the cap; `chunked`: an answer that never
            // ends.
            let declared = request.body["params"]["name"] == "declared";
            let head = match declared {
                true => {
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                         content-length: 1073741824\r\n\r\n"
                }
                false => {
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                          transfer-encoding: chunked\r\n\r\n"
                }
            };
            if write_all(&mut socket, head.as_bytes()).await.is_err() {
                return;
            }
            let filler = "a".repeat(8 << 10);
            match declared {
                true => {
                    let _ = write_all(&mut socket, b"{\"jsonrpc\":\"2.0\",\"x\":\"").await;
                    endless(socket, filler.as_bytes()).await;
                }
                false => {
                    let chunk = format!("{:x}\r\n{filler}\r\n", filler.len());
                    let _ = write_all(&mut socket, b"e\r\n{\"jsonrpc\":\"2.\r\n").await;
                    endless(socket, chunk.as_bytes()).await;
                }
            }
        })
        .await;
        let options = HttpOptions::new()
            .with_max_answer(CAP)
            .with_call_timeout(SOON);
        let server = options
            .connect(url(address), client())
            .await
            .expect("connected");
        for name in ["declared", "chunked"] {
            let (error, took) = failed(server.call_tool(name, json!({}))).await;
            assert_eq!(error, CallError::Bound(Bound::AnswerSize(CAP)), "{name}");
            assert!(took < SOON, "{name}: {took:?}");
        }
        let said = CallError::Bound(Bound::AnswerSize(CAP)).to_string();
        assert!(
            said.contains("answer") && said.contains("65536 bytes"),
            "{said}"
        );
    });
}

#[test]
fn an_event_past_its_cap_is_refused_whether_one_line_or_many() {
    runtime().block_on(async {
        let address = serve("127.0.0.1", |request, socket| async move {
            let Some(mut socket) = connecting(&request, socket).await else {
                return;
            };
            start_stream(&mut socket).await;
            let filler = "a".repeat(1 << 10);
            match request.body["params"]["name"].as_str() {
                // One `data` line that never ends.
                Some("line") => {
                    let _ = write_all(&mut socket, b"data: {\"jsonrpc\":\"2.0\",\"x\":\"").await;
                    endless(socket, filler.as_bytes()).await;
                }
                // An event of short `data` lines that never ends.
                _ => {
                    let line = format!("data: {filler}\n");
                    endless(socket, line.as_bytes()).await;
                }
            }
        })
        .await;
        let options = HttpOptions::new()
            .with_max_event(CAP)
            .with_call_timeout(SOON);
        let server = options
            .connect(url(address), client())
            .await
            .expect("connected");
        for name in ["line", "lines"] {
            let (error, took) = failed(server.call_tool(name, json!({}))).await;
            assert_eq!(error, CallError::Bound(Bound::EventSize(CAP)), "{name}");
            assert!(took < SOON, "{name}: {took:?}");
        }
    });
}

#[test]
fn a_stream_of_keep_alive_comments_ends_at_the_idle_or_the_call_timeout() {
    runtime().block_on(async {
        let address = serve("127.0.0.1", |request, socket| async move {
            let Some(mut socket) = connecting(&request, socket).await else {
                return;
            };
            if request.body["params"]["name"] == "silent" {
                return linger(socket).await; // not even the response's head
            }
            start_stream(&mut socket).await;
            // A priming event (an id, no data), then comments only.
            let _ = write_all(&mut socket, b"id: 1\n\n").await;
            while write_all(&mut socket, b":\n\n").await.is_ok() {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
        .await;
        let short = Duration::from_millis(300);
        let idle = HttpOptions::new()
            .with_idle_timeout(short)
            .with_call_timeout(SOON);
        let server = idle
            .connect(url(address), client())
            .await
            .expect("connected");
        for name in ["comments", "silent"] {
            let (error, took) = failed(server.call_tool(name, json!({}))).await;
            assert_eq!(error, CallError::Bound(Bound::IdleTimeout(short)), "{name}");
            assert!(took >= short && took < SOON, "{name}: {took:?}");
        }
        // Without an idle timeout, the call's own ends it.
        let call = HttpOptions::new()
            .with_idle_timeout(None)
            .with_call_timeout(short);
        let server = call
            .connect(url(address), client())
            .await
            .expect("connected");
        let (error, took) = failed(server.call_tool("comments", json!({}))).await;
        assert_eq!(error, CallError::Timeout(short));
        assert!(took >= short && took < SOON, "{took:?}");
    });
}

#[test]
fn a_redirect_to_another_origin_is_refused_and_nothing_is_sent_there() {
    runtime().block_on(async {
        // The other origin: another address of the loopback network.
        let reached = Arc::new(AtomicUsize::new(0));
        let seen = Arc::clone(&reached);
        let elsewhere = serve("127.0.0.2", move |request, socket| {
            seen.fetch_add(1, Ordering::SeqCst);
            async move {
                let _ = connecting(&request, socket).await;
            }
        })
        .await;
        let address = serve("127.0.0.1", move |_, socket| {
            redirect(socket, format!("http://{elsewhere}/mcp"))
        })
        .await;
        let (error, took) = failed(Connection::http(url(address), client())).await;
        let to = format!("http://{elsewhere}/mcp");
        assert_eq!(error, CallError::Bound(Bound::OtherOrigin(to)));
        assert!(took < SOON, "{took:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(
            reached.load(Ordering::SeqCst),
            0,
            "a request reached the other origin"
        );

        // A redirect to the same origin, another path, is followed, with the request's body.
        let address = serve("127.0.0.1", |request, socket| async move {
            match request.path.as_str() {
                "/mcp" => redirect(socket, "/moved".to_owned()).await,
                _ => drop(connecting(&request, socket).await),
            }
        })
        .await;
        let server = Connection::http(url(address), client()).await;
        let version = server.map(|server| server.version().map(|v| v.as_str().to_owned()));
        assert_eq!(version, Ok(Some("2026-07-28".to_owned())));
    });
}

/// Answers with a 307 to `to`.
async fn redirect(mut socket: TcpStream, to: String) {
    let head = format!(
        "HTTP/1.1 307 Temporary Redirect\r\nlocation: {to}\r\ncontent-length: 0\r\n\
         connection: close\r\n\r\n"
    );
    let _ = write_all(&mut socket, head.as_bytes()).await;
}

#[test]
fn a_server_that_answers_each_answer_with_a_request_is_answered_up_to_the_bound() {
    runtime().block_on(async {
        let answers = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&answers);
        let address = serve("127.0.0.1", move |request, socket| {
            if request.is_answer() {
                counted.fetch_add(1, Ordering::SeqCst);
            }
            async move {
                let Some(mut socket) = connecting(&request, socket).await else {
                    return;
                };
                // A `tools/call`, or an answer to a `ping`: another `ping`, on a stream
                // kept open.
                start_stream(&mut socket).await;
                let ping = json!({"jsonrpc": "2.0", "id": "again", "method": "ping"});
                let event = format!("data: {ping}\n\n");
                let _ = write_all(&mut socket, event.as_bytes()).await;
                linger(socket).await;
            }
        })
        .await;
        let server = HttpOptions::new()
            .with_call_timeout(SOON)
            .connect(url(address), client())
            .await
            .expect("connected");
        // The call runs in a task of its own: its future can be sent to one.
        let called = tokio::spawn(async move { failed(server.call_tool("ping", json!({}))).await });
        let (error, took) = called.await.expect("the call's task");
        let max = HttpOptions::MAX_SERVER_REQUESTS;
        assert_eq!(error, CallError::Bound(Bound::ServerRequests(max)));
        assert!(took < SOON, "{took:?}");
        assert_eq!(
            answers.load(Ordering::SeqCst),
            max,
            "the server's requests answered"
        );
    });
}
