//! The example server as a child process, and plain HTTP/1.1 exchanges with it.

use serde_json::Value;

/// The example server, killed when dropped.
pub use crate::support::Listening as Server;

impl Server {
    pub fn start() -> Server {
        Server::start_example("conformance-server")
    }

    pub fn port(&self) -> u16 {
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
}

/// One HTTP/1.1 exchange on a fresh connection: status, `Mcp-Session-Id`, and the body as
/// JSON (`Value::Null` when it is not).
pub fn exchange(
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

pub const JSON: (&str, &str) = ("content-type", "application/json");
pub const ACCEPT: (&str, &str) = ("accept", "application/json, text/event-stream");

/// POSTs `body` in session `session` (none: no header).
pub fn post(port: u16, session: Option<&str>, body: &str) -> (u16, Value) {
    let mut headers = vec![JSON, ACCEPT];
    if let Some(session) = session {
        headers.push(("mcp-session-id", session));
    }
    let (status, _, body) = exchange(port, "POST", &headers, body.as_bytes().to_vec());
    (status, body)
}

/// Opens a session in `version`; returns its id.
pub fn open_session(port: u16, version: &str) -> String {
    let initialize = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
    );
    let (status, session, body) = exchange(port, "POST", &[JSON, ACCEPT], initialize.into_bytes());
    assert_eq!(status, 200, "initialize: {body}");
    assert_eq!(body["result"]["protocolVersion"], version);
    session.expect("an Mcp-Session-Id")
}

pub fn code(body: &Value) -> i64 {
    body["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("no JSON-RPC error in {body}"))
}
