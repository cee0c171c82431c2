//! The crate's client engine over Streamable HTTP: each line the engine gives is POSTed with
//! the headers it names (and the session's `Mcp-Session-Id`), and every message that comes
//! back, in a JSON body or on an event stream, goes back to the engine. The server's requests
//! are answered as they come (`answers.rs`); a stream that ends before its answer is resumed
//! with GET and `Last-Event-ID` once the server's `retry` delay has passed (SEP-1699).

use crate::answers;
use crate::transport::{self, is_sse, Endpoint, EventStream};
use hyper::Method;
use mcp_spec_types::client::{Client, Event};
use mcp_spec_types::http_headers::{LAST_EVENT_ID, MCP_PROTOCOL_VERSION, MCP_SESSION_ID};
use mcp_spec_types::v2026_07_28::{
    ClientCall, ClientCallResult, RequestMetaObject, ServerCapabilities,
};
use mcp_spec_types::{ErrorCode, ProtocolVersion, RequestId, RpcError};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// How many times a stream that ended before its answer is resumed.
const MAX_RESUMPTIONS: usize = 5;

/// What a request came back with: its result, or the server's error (or the transport's, as
/// the engine words it).
pub type Answer = Result<ClientCallResult, RpcError>;

/// One client, connected to one server.
pub struct Connection {
    endpoint: Endpoint,
    engine: Mutex<Client>,
    /// The stateful session's id, once the server gave one.
    session: Mutex<Option<String>>,
    /// Answers come back to the caller through here, by request id.
    answers: Mutex<HashMap<RequestId, Answer>>,
    /// How connecting ended: the revision both speak, or the server's refusal.
    connected: Mutex<Option<Result<ProtocolVersion, RpcError>>>,
}

type Exchange<'a> = Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'a>>;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl Connection {
    /// Connects `engine` to the server at `endpoint`: `server/discover`, or `initialize`
    /// where the server has no stateless revision in common.
    pub async fn connect(endpoint: Endpoint, mut engine: Client) -> Result<Arc<Self>, String> {
        let first = engine.start().ok_or("this build speaks no revision")?;
        let connection = Arc::new(Connection {
            endpoint,
            engine: Mutex::new(engine),
            session: Mutex::new(None),
            answers: Mutex::new(HashMap::new()),
            connected: Mutex::new(None),
        });
        connection.post(first, None).await?;
        let connected = lock(&connection.connected).take();
        match connected {
            Some(Ok(version)) => {
                eprintln!("connected in revision {}", version.as_str());
                Ok(connection)
            }
            Some(Err(e)) => Err(format!("refused: {} {}", e.code, e.message)),
            None => Err("connecting got no answer".to_owned()),
        }
    }

    /// The revision both speak.
    pub fn version(&self) -> Option<ProtocolVersion> {
        lock(&self.engine).version().cloned()
    }

    /// The `_meta` a request is built with (the engine sends the session's whatever it says).
    pub fn meta(&self) -> RequestMetaObject {
        lock(&self.engine).meta()
    }

    /// What the server offers.
    pub fn server_capabilities(&self) -> Option<ServerCapabilities> {
        lock(&self.engine).server_capabilities().cloned()
    }

    /// Sends `call` and waits for its answer, answering the server's requests meanwhile.
    pub async fn request(&self, call: ClientCall) -> Result<Answer, String> {
        let sent = lock(&self.engine).request(call);
        let (id, line) = sent.map_err(|e| e.to_string())?;
        self.post(line, Some(&id)).await?;
        let answer = lock(&self.answers).remove(&id);
        answer.ok_or_else(|| "no answer came".to_owned())
    }

    /// Opens the server's own stream (GET) of a stateful session; `None` when the server
    /// offers none.
    pub async fn open_server_stream(&self) -> Option<EventStream> {
        let response = self.get(None).await.ok()?;
        is_sse(&response).then(|| EventStream::new(response))
    }

    /// Reads the server's own stream, answering the requests on it, until it ends.
    pub async fn listen(self: Arc<Self>, mut stream: EventStream) {
        while let Some(data) = stream.next().await {
            if let Err(e) = self.feed(&data, None).await {
                eprintln!("on the GET stream: {e}");
            }
        }
    }

    /// POSTs `line` and hands what comes back to the engine, until the exchange is over;
    /// `awaited` is the request whose answer the caller waits for.
    fn post<'a>(&'a self, line: String, awaited: Option<&'a RequestId>) -> Exchange<'a> {
        Box::pin(async move {
            let mut headers = lock(&self.engine).http_headers(&line);
            if let Some(session) = lock(&self.session).clone() {
                headers.push((MCP_SESSION_ID.to_owned(), session));
            }
            let response = self
                .endpoint
                .send(Method::POST, &headers, Some(line.clone()))
                .await;
            let why = match response {
                Ok(response) => self.read(response, awaited).await?,
                Err(e) => format!("not sent: {e}"),
            };
            // Said of every line: the engine does something only for a request still
            // without its answer.
            let events = lock(&self.engine).no_answer(&line, internal(why));
            self.handle(events, awaited).await
        })
    }

    /// Reads the answer to a POST; what to say if it held no answer.
    async fn read(
        &self,
        response: hyper::Response<hyper::body::Incoming>,
        awaited: Option<&RequestId>,
    ) -> Result<String, String> {
        let status = response.status();
        if let Some(id) = response
            .headers()
            .get(MCP_SESSION_ID)
            .and_then(|v| v.to_str().ok())
        {
            lock(&self.session).get_or_insert_with(|| id.to_owned());
        }
        if !is_sse(&response) {
            // JSON, even with an error status: a stateless server's refusals carry their
            // JSON-RPC error in a 400.
            let body = transport::text(response).await?;
            if !body.trim().is_empty() {
                self.feed(&body, awaited).await?;
            }
            return Ok(format!("HTTP {status} without the answer: {body}"));
        }
        let mut stream = EventStream::new(response);
        for _ in 0..MAX_RESUMPTIONS {
            while let Some(data) = stream.next().await {
                self.feed(&data, awaited).await?;
                if awaited.is_some_and(|id| lock(&self.answers).contains_key(id)) {
                    return Ok(String::new());
                }
            }
            let Some(last) = stream.last_id.clone() else {
                break;
            };
            if awaited.is_none_or(|id| lock(&self.answers).contains_key(id)) {
                break;
            }
            // The stream closed before the answer: resumed after the delay the server set.
            let retry = stream.retry;
            tokio::time::sleep(retry.unwrap_or(Duration::from_secs(1))).await;
            stream = EventStream::new(self.get(Some(&last)).await?);
            stream.retry = retry;
        }
        Ok("the stream ended without the answer".to_owned())
    }

    /// GETs the session's stream, from after event `last` when given.
    async fn get(
        &self,
        last: Option<&str>,
    ) -> Result<hyper::Response<hyper::body::Incoming>, String> {
        // The version a stateful session names on every request; a GET has no body.
        let mut headers: Vec<(String, String)> = lock(&self.engine)
            .http_headers("")
            .into_iter()
            .filter(|(name, _)| name.eq_ignore_ascii_case(MCP_PROTOCOL_VERSION))
            .collect();
        if let Some(session) = lock(&self.session).clone() {
            headers.push((MCP_SESSION_ID.to_owned(), session));
        }
        if let Some(last) = last {
            headers.push((LAST_EVENT_ID.to_owned(), last.to_owned()));
        }
        let response = self.endpoint.send(Method::GET, &headers, None).await?;
        if !response.status().is_success() {
            return Err(format!("GET: HTTP {}", response.status()));
        }
        Ok(response)
    }

    /// Hands one message of the server to the engine and does what it says.
    async fn feed(&self, text: &str, awaited: Option<&RequestId>) -> Result<(), String> {
        let events = lock(&self.engine).receive(text);
        self.handle(events, awaited).await
    }

    async fn handle(&self, events: Vec<Event>, awaited: Option<&RequestId>) -> Result<(), String> {
        for event in events {
            match event {
                Event::Send(line) => self.post(line, awaited).await?,
                Event::Connected(version) => *lock(&self.connected) = Some(Ok(version)),
                Event::Refused(error) => *lock(&self.connected) = Some(Err(error)),
                Event::Answer { id, result } => {
                    lock(&self.answers).insert(id, result);
                }
                Event::Notification(notification) => {
                    let method = mcp_spec_types::dispatch::MethodSet::method(&notification);
                    eprintln!("notification {method}");
                }
                Event::Request { id, call } => {
                    let result = answers::answer(&call);
                    let answered = lock(&self.engine).respond(&id, result);
                    for event in answered.map_err(|e| e.to_string())? {
                        match event {
                            Event::Send(line) => self.post(line, awaited).await?,
                            Event::Answer { id, result } => {
                                lock(&self.answers).insert(id, result);
                            }
                            other => eprintln!("{other:?}"),
                        }
                    }
                }
                Event::Unpaired(id) => eprintln!("an answer to no request ({id:?})"),
                Event::Unreadable(why) => eprintln!("unreadable: {why}"),
                other => eprintln!("{other:?}"),
            }
        }
        Ok(())
    }
}

fn internal(why: String) -> RpcError {
    RpcError::new(ErrorCode::InternalError, why)
}
