//! The client side of Streamable HTTP: POST a message, read the answer as JSON or as an SSE
//! stream, and resume a stream that closes early with GET and `Last-Event-ID` after the
//! `retry` delay the server asked for.

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, ACCEPT, CONTENT_TYPE, HOST};
use hyper::{Method, Request, Response};
use hyper_util::rt::TokioIo;
use std::time::Duration;

/// Where the server listens.
pub struct Endpoint {
    authority: String,
    path: String,
}

impl Endpoint {
    /// Reads `http://host:port/path`.
    pub fn parse(url: &str) -> Result<Self, String> {
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| format!("not an http:// URL: {url}"))?;
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        Ok(Endpoint {
            authority: authority.to_owned(),
            path: path.to_owned(),
        })
    }

    /// Sends one request on a fresh connection. `Accept` (both types) and, with a body,
    /// `Content-Type: application/json` are added unless `headers` has them.
    pub async fn send<K: AsRef<str>, V: AsRef<str>>(
        &self,
        method: Method,
        headers: &[(K, V)],
        body: Option<String>,
    ) -> Result<Response<Incoming>, String> {
        let stream = tokio::net::TcpStream::connect(&self.authority)
            .await
            .map_err(|e| format!("connecting to {}: {e}", self.authority))?;
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
        tokio::spawn(connection);
        let has = |name: &str| {
            headers
                .iter()
                .any(|(k, _)| k.as_ref().eq_ignore_ascii_case(name))
        };
        let mut request = Request::builder()
            .method(method)
            .uri(&self.path)
            .header(HOST, &self.authority);
        if !has(ACCEPT.as_str()) {
            request = request.header(ACCEPT, "application/json, text/event-stream");
        }
        if body.is_some() && !has(CONTENT_TYPE.as_str()) {
            request = request.header(CONTENT_TYPE, "application/json");
        }
        for (name, value) in headers {
            request = request.header(name.as_ref(), value.as_ref());
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| e.to_string())?;
        sender
            .send_request(request)
            .await
            .map_err(|e| e.to_string())
    }
}

/// Whether a response is an SSE stream.
pub fn is_sse(response: &Response<Incoming>) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v: &HeaderValue| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/event-stream"))
}

/// The whole body as text.
pub async fn text(response: Response<Incoming>) -> Result<String, String> {
    let bytes = response
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    String::from_utf8(bytes.to_vec()).map_err(|e| e.to_string())
}

/// An SSE stream being read: events as they come, with the last event id and retry delay.
pub struct EventStream {
    body: Incoming,
    buffer: Vec<u8>,
    /// The id of the last event read.
    pub last_id: Option<String>,
    /// The reconnection delay the server asked for.
    pub retry: Option<Duration>,
}

impl EventStream {
    /// Reads the events of `response`.
    pub fn new(response: Response<Incoming>) -> Self {
        EventStream {
            body: response.into_body(),
            buffer: Vec::new(),
            last_id: None,
            retry: None,
        }
    }

    /// The data of the next event that has some; `None` when the stream ends.
    pub async fn next(&mut self) -> Option<String> {
        loop {
            while let Some(end) = self.buffer.windows(2).position(|w| w == b"\n\n") {
                let block: Vec<u8> = self.buffer.drain(..end + 2).collect();
                // Events are decoded whole, so a character split across frames survives.
                let block = String::from_utf8_lossy(&block);
                let mut data = Vec::new();
                for line in block.lines() {
                    let (field, value) = line.split_once(':').unwrap_or((line, ""));
                    let value = value.strip_prefix(' ').unwrap_or(value);
                    match field {
                        "id" => self.last_id = Some(value.to_owned()),
                        "retry" => self.retry = value.parse().ok().map(Duration::from_millis),
                        "data" => data.push(value),
                        _ => {}
                    }
                }
                let data = data.join("\n");
                if !data.trim().is_empty() {
                    return Some(data);
                }
            }
            let frame = self.body.frame().await?.ok()?;
            if let Ok(bytes) = frame.into_data() {
                // CRLF line ends become LF.
                self.buffer.extend(bytes.iter().filter(|b| **b != b'\r'));
            }
        }
    }
}
