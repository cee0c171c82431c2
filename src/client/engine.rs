//! The engine: each request in the server's revision, and what each line of the server
//! amounts to. What it sends to connect, and what the answers mean, is in `connect`.

use super::input::{self, Inputs, Retry};
use super::listed_tools::ListedTools;
use super::peer::{Answer, Answered, Read, ReadLine, RequestLine, Respond};
use super::{ClientError, Event};
use crate::collections::HashMap;
use crate::dispatch::{MethodSet, PendingRequest};
use crate::method::method_names as names;
use crate::negotiation;
use crate::prelude::*;
use crate::revision;
use crate::v2026_07_28 as latest;
use crate::{ErrorCode, ProtocolVersion, RequestId, RpcError};

mod connect;

/// Where the client is in connecting.
#[derive(Debug, Clone)]
enum Stage {
    New,
    /// `server/discover` sent, under this id; whether it is the retry in a version the server
    /// named.
    Discovering(RequestId, bool),
    /// `initialize` sent, under this id, asking for this version.
    Initializing(RequestId, ProtocolVersion),
    Connected(ProtocolVersion),
    Refused,
}

/// A client: who it is, what it can do, the revisions it speaks, and its requests in flight.
///
/// One client speaks to one server. See the [module](super) for what it does.
#[derive(Debug, Clone)]
pub struct Client {
    info: latest::Implementation,
    capabilities: latest::ClientCapabilities,
    versions: Vec<ProtocolVersion>,
    stage: Stage,
    next_id: i64,
    in_flight: HashMap<RequestId, PendingRequest>,
    /// The server's requests given to the caller ([`Event::Request`]) and not answered yet.
    asked: HashMap<RequestId, PendingRequest>,
    /// The `input_required` rounds of a stateless server.
    inputs: Inputs,
    /// What the server offers, once connected, in 2026-07-28 terms.
    server_capabilities: Option<latest::ServerCapabilities>,
    /// The `x-mcp-header` annotations of the tools the server listed.
    pub(super) tools: ListedTools,
}

impl Client {
    /// A client named by `info`, with no capabilities, speaking every released revision this
    /// build enables.
    pub fn new(info: latest::Implementation) -> Self {
        Client {
            info,
            capabilities: latest::ClientCapabilities::new(),
            versions: ProtocolVersion::SUPPORTED_RELEASED.to_vec(),
            stage: Stage::New,
            next_id: 0,
            in_flight: HashMap::default(),
            asked: HashMap::default(),
            inputs: Inputs::default(),
            server_capabilities: None,
            tools: ListedTools::default(),
        }
    }

    /// How many of the server's requests may wait for the caller's answer at once; past it, a
    /// request is refused (-32603) so that a server cannot grow the client without bound.
    pub const MAX_SERVER_REQUESTS: usize = 256;

    /// Sets the capabilities the client declares.
    #[must_use]
    pub fn with_capabilities(mut self, capabilities: latest::ClientCapabilities) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Sets the revisions the client speaks, among those this build enables.
    #[must_use]
    pub fn with_versions(mut self, versions: impl IntoIterator<Item = ProtocolVersion>) -> Self {
        self.versions = ProtocolVersion::supported_among(versions);
        self
    }

    /// The revision the client and the server speak, once connected.
    pub fn version(&self) -> Option<&ProtocolVersion> {
        match &self.stage {
            Stage::Connected(version) => Some(version),
            _ => None,
        }
    }

    /// What the server offers, once connected: its `server/discover` answer's capabilities,
    /// or its `initialize` answer's converted up to 2026-07-28 (what that revision does not
    /// define is kept as the server sent it, under `extra`).
    pub fn server_capabilities(&self) -> Option<&latest::ServerCapabilities> {
        self.version().and(self.server_capabilities.as_ref())
    }

    /// How many requests wait for their answers (a request whose input requests wait for the
    /// caller's answers among them).
    pub fn in_flight(&self) -> usize {
        self.in_flight.len() + self.inputs.waiting()
    }

    /// The `_meta` a request of 2026-07-28 carries, for building one; whatever a request's
    /// `_meta` says of these keys, [`Client::request`] sends the session's.
    pub fn meta(&self) -> latest::RequestMetaObject {
        let version = match &self.stage {
            Stage::Connected(version) => version.as_str(),
            _ => latest::REVISION,
        };
        latest::RequestMetaObject::new(self.capabilities.clone(), version)
            .with_io_modelcontextprotocol_client_info(self.info.clone())
    }

    /// The first line to send: `server/discover`, or `initialize` when the client speaks no
    /// stateless revision; `None` when it speaks no revision this build enables (see
    /// [`Client::with_versions`]): there is nothing to connect with.
    pub fn start(&mut self) -> Option<String> {
        self.in_flight.clear();
        self.asked.clear();
        self.inputs.clear();
        self.tools.clear();
        self.server_capabilities = None;
        let stateless = self.stateless().next().cloned();
        match stateless {
            Some(version) => self.discover(version, false),
            None => {
                let id = self.fresh_id();
                self.initialize(id)
            }
        }
    }

    /// `request` as a line of the server's revision, and the id its answer will carry.
    ///
    /// An answer of a 2026-07-28 server asking for input first (`input_required`) does not
    /// come as the answer: each input request comes as an [`Event::Request`], and once
    /// [`Client::respond`] has answered them all, the request goes again with the answers.
    /// The final answer carries this id.
    ///
    /// # Errors
    ///
    /// [`ClientError::NotConnected`] before [`Event::Connected`]; the conversion's or the
    /// reader's error when the server's revision cannot express the request.
    pub fn request(
        &mut self,
        request: latest::ClientCall,
    ) -> Result<(RequestId, String), ClientError> {
        // Kept where the answer may ask for the request again: a stateless server's, which may
        // ask for input or refuse the request's version (each request names its own).
        let stateless = self.version().is_some_and(negotiation::is_stateless);
        let retry = stateless.then(|| request.clone());
        let (id, line) = self.send_request(&request)?;
        if let Some(call) = retry {
            let original = id.clone();
            let retry = Retry {
                original,
                call,
                rounds: 0,
                version_retried: false,
            };
            self.inputs.retryable.insert(id.clone(), retry);
        }
        Ok((id, line))
    }

    /// Writes `request` in the server's revision under a fresh id, awaiting its answer.
    fn send_request(
        &mut self,
        request: &latest::ClientCall,
    ) -> Result<(RequestId, String), ClientError> {
        let Stage::Connected(version) = &self.stage else {
            return Err(ClientError::NotConnected);
        };
        let version = version.clone();
        let meta = negotiation::is_stateless(&version).then(|| self.meta_keys(&version));
        let id = self.fresh_id();
        let line = RequestLine::of(id.clone(), request, meta.as_ref());
        let (line, pending) =
            revision::visit(&version, line).ok_or(ClientError::NotConnected)??;
        self.in_flight.insert(id.clone(), pending);
        Ok((id, line))
    }

    /// The answer to request `id`, for the caller: the answer under the id the caller knows,
    /// or the input requests of an `input_required` answer to retry it with.
    fn answered(
        &mut self,
        id: RequestId,
        result: Result<latest::ClientCallResult, RpcError>,
    ) -> Vec<Event> {
        if let Ok(latest::ClientCallResult::ListTools(list)) = &result {
            self.tools.learn(&list.tools);
        }
        let Some(retry) = self.inputs.retryable.remove(&id) else {
            return vec![Event::Answer { id, result }];
        };
        if let Err(refusal) = &result {
            if refusal.code == ErrorCode::UnsupportedProtocolVersion && !retry.version_retried {
                let original = retry.original.clone();
                if let Some(line) = self.in_version_named(retry, refusal) {
                    return vec![Event::Send(line)];
                }
                return vec![Event::Answer {
                    id: original,
                    result,
                }];
            }
        }
        let asked = result.as_ref().ok().and_then(|r| r.input_required());
        let Some(asked) = asked else {
            let id = retry.original;
            return vec![Event::Answer { id, result }];
        };
        let requests = asked.input_requests.iter().flat_map(|r| r.0.values());
        let undeclared = requests
            .clone()
            .any(|request| !self.declares(&latest::ServerCall::from(request.clone())));
        let too_many =
            self.asked.len() + self.inputs.given() + requests.count() > Self::MAX_SERVER_REQUESTS;
        if retry.rounds >= input::MAX_ROUNDS {
            let message = format!(
                "the server asked for input more than {} times",
                input::MAX_ROUNDS
            );
            let error = RpcError::new(ErrorCode::InternalError, message);
            let id = retry.original;
            return vec![Event::Answer {
                id,
                result: Err(error),
            }];
        }
        if undeclared || too_many || asked.input_requests.is_none() {
            // Not for the engine to answer: the caller gets the result as the server sent it.
            let id = retry.original;
            return vec![Event::Answer { id, result }];
        }
        let asked = asked.clone();
        let given = self.inputs.start(retry, &asked);
        let events = given
            .into_iter()
            .map(|(id, call)| Event::Request { id, call });
        events.collect()
    }

    /// What `line`, sent by the server, amounts to: the events, in order.
    pub fn receive(&mut self, line: &str) -> Vec<Event> {
        let version = match &self.stage {
            Stage::Connected(version) | Stage::Initializing(_, version) => version.clone(),
            _ => ProtocolVersion::from(latest::REVISION),
        };
        // The answer to a request in the client's own revision: typed as it is read.
        if version.as_str() == latest::REVISION {
            if let Some((id, result)) = super::reply::read(line, &self.in_flight) {
                self.in_flight.remove(&id);
                return self.answered(id, Ok(result));
            }
        }
        let read = revision::visit(&version, ReadLine(line)).unwrap_or_default();
        read.into_iter()
            .flat_map(|read| self.on(read, &version))
            .collect()
    }

    fn on(&mut self, read: Read, version: &ProtocolVersion) -> Vec<Event> {
        match read {
            Read::Result(id, result) => match self.stage.clone() {
                Stage::Discovering(asked, ..) if asked == id => self.discovered(Ok(&result)),
                Stage::Initializing(asked, _) if asked == id => self.initialized(&result),
                _ => match self.in_flight.remove(&id) {
                    Some(request) => {
                        let answer = Answer {
                            request: &request,
                            result: &result,
                        };
                        match revision::visit(version, answer) {
                            Some(Ok(result)) => self.answered(id, Ok(result)),
                            Some(Err(why)) => vec![Event::Unreadable(why)],
                            None => vec![Event::Unpaired(Some(id))],
                        }
                    }
                    None => vec![Event::Unpaired(Some(id))],
                },
            },
            Read::Error(id, error) => match (self.stage.clone(), id) {
                (Stage::Discovering(asked, ..), Some(id)) if asked == id => {
                    self.discovered(Err(error))
                }
                (Stage::Initializing(asked, _), Some(id)) if asked == id => {
                    self.stage = Stage::Refused;
                    vec![Event::Refused(error)]
                }
                (_, Some(id)) if self.in_flight.remove(&id).is_some() => {
                    self.answered(id, Err(error))
                }
                (_, id) => vec![Event::Unpaired(id)],
            },
            Read::Notification(notification) => vec![Event::Notification(notification)],
            Read::Ping(id) => self.send(version, id, Ok(Answered::Empty)),
            // Read in the server's revision, but not expressible in 2026-07-28's terms.
            Read::Request(id, Err(why)) => {
                let error = RpcError::new(ErrorCode::InvalidParams, why);
                self.send(version, id, Err(error))
            }
            Read::Request(id, Ok((call, request))) => match self.refusal(&id, &call) {
                Some(error) => self.send(version, id, Err(error)),
                None => {
                    self.asked.insert(id.clone(), request);
                    vec![Event::Request { id, call: *call }]
                }
            },
            Read::Unreadable(why) => vec![Event::Unreadable(why)],
            Read::Reply(line) => vec![Event::Send(line)],
        }
    }

    /// The line answering the server's request `id`, as an event (none when the answer
    /// cannot be written: the server's revision has no such answer).
    fn send(
        &self,
        version: &ProtocolVersion,
        id: RequestId,
        result: Result<Answered, RpcError>,
    ) -> Vec<Event> {
        let respond = Respond { id, result };
        match revision::visit(version, respond) {
            Some(Ok(line)) => vec![Event::Send(line)],
            Some(Err(why)) => vec![Event::Unreadable(why.to_string())],
            None => Vec::new(),
        }
    }

    /// Why the engine answers a server's request itself: the client has not connected yet, a
    /// method no revision defines, a capability the client did not declare, an id already
    /// waiting, or too many waiting.
    fn refusal(&self, id: &RequestId, call: &latest::ServerCall) -> Option<RpcError> {
        // The lifecycle page: before initialization the server sends no request but `ping`
        // (which the engine answers itself); `respond` could not answer one in any revision.
        if !matches!(self.stage, Stage::Connected(_)) {
            let message = "the client has not connected yet";
            return Some(RpcError::new(ErrorCode::InvalidRequest, message));
        }
        if !self.declares(call) {
            return Some(RpcError::method_not_found(call.method()));
        }
        if self.asked.contains_key(id) || self.inputs.is_given(id) {
            let message = "a request of the server already waits under this id";
            return Some(RpcError::new(ErrorCode::InvalidRequest, message));
        }
        (self.asked.len() + self.inputs.given() >= Self::MAX_SERVER_REQUESTS).then(|| {
            let message = "too many of the server's requests wait for an answer";
            RpcError::new(ErrorCode::InternalError, message)
        })
    }

    /// Whether the client declared the capability `call` needs.
    fn declares(&self, call: &latest::ServerCall) -> bool {
        match call {
            latest::ServerCall::CreateMessage(_) => self.capabilities.sampling.is_some(),
            latest::ServerCall::Elicit(_) => self.capabilities.elicitation.is_some(),
            latest::ServerCall::ListRoots(_) => self.capabilities.roots.is_some(),
            _ => false,
        }
    }

    /// What answering the server's request `id` ([`Event::Request`]) with `result` amounts
    /// to: the line to send ([`Event::Send`]), in the server's revision and without what it
    /// does not define.
    ///
    /// For an input request of a 2026-07-28 server's `input_required` answer: nothing until
    /// every input request of that answer is answered, then the request sent again with the
    /// answers ([`Event::Send`]). An input request cannot be answered with an error: answering
    /// one so gives the request up, and its caller gets its [`Event::Answer`], an error with
    /// the refusal's code that says which input request was refused and why.
    ///
    /// # Errors
    ///
    /// [`ClientError::NotAsked`] when no request of the server waits under `id` (answered
    /// already, or never given); [`ClientError::Conversion`] when the server's revision cannot
    /// express the result (the request then still waits: answer it with an error);
    /// [`ClientError::Input`] when the result does not answer the input request (which still
    /// waits).
    pub fn respond(
        &mut self,
        id: &RequestId,
        result: Result<latest::ServerCallResult, RpcError>,
    ) -> Result<Vec<Event>, ClientError> {
        if self.inputs.is_given(id) {
            return match self.inputs.answer(id, result).map_err(ClientError::Input)? {
                input::Answered::Waiting | input::Answered::Over => Ok(Vec::new()),
                input::Answered::Refused { original, why } => Ok(vec![Event::Answer {
                    id: original,
                    result: Err(why),
                }]),
                input::Answered::Retry(retry) => {
                    let (sent, line) = self.send_request(&retry.call)?;
                    self.inputs.retryable.insert(sent, *retry);
                    Ok(vec![Event::Send(line)])
                }
            };
        }
        let (Stage::Connected(version), Some(request)) = (&self.stage, self.asked.get(id)) else {
            return Err(ClientError::NotAsked(id.clone()));
        };
        let result = result.map(|result| Answered::Result(request.clone(), Box::new(result)));
        let respond = Respond {
            id: id.clone(),
            result,
        };
        let line = revision::visit(version, respond).ok_or(ClientError::NotConnected)??;
        self.asked.remove(id);
        Ok(vec![Event::Send(line)])
    }

    /// The caller gave up request `id` (the id [`Client::request`] gave it): the engine forgets
    /// it, so that an answer that comes late finds nothing, and gives the
    /// `notifications/cancelled` that tells the server, with `reason`, when the request is in
    /// flight (every revision's, of the same shape). `None` before the client is connected or
    /// when the request is not in flight: answered already, or waiting for the caller's answers
    /// to its input requests (forgotten all the same).
    ///
    /// How the server is told depends on the transport: over stdio, and over Streamable HTTP
    /// in a session of a stateful revision, send the line; over Streamable HTTP in a stateless
    /// revision (2026-07-28), closing the request's response stream is the cancellation, and
    /// the line is not sent.
    pub fn cancel(&mut self, id: &RequestId, reason: &str) -> Option<String> {
        if !matches!(self.stage, Stage::Connected(_)) {
            return None;
        }
        let sent = self.inputs.forget(id).unwrap_or_else(|| id.clone());
        self.in_flight.remove(&sent)?;
        let line = serde_json::json!({
            "jsonrpc": "2.0",
            "method": names::CANCELLED_NOTIFICATION,
            "params": { "requestId": sent, "reason": reason },
        });
        crate::json::to_string(&line).ok()
    }

    /// What `line`, a request this client gave, amounts to when no answer to it came back:
    /// an HTTP error without a JSON-RPC body, a connection lost, a stream that ended first.
    /// `why` is then its answer:
    /// - to `server/discover`, a server without a stateless revision: the engine goes on to
    ///   `initialize` ([`Event::Send`]), as the transport's backward compatibility asks of a
    ///   client whose `server/discover` gets an HTTP error;
    /// - to `initialize`, [`Event::Refused`];
    /// - to a request in flight, its [`Event::Answer`] with `why`, under the id the caller
    ///   knows it by.
    ///
    /// Nothing for a line that is no request, or whose answer already came: the caller may say
    /// this of every request line it sent once its exchange is over.
    pub fn no_answer(&mut self, line: &str, why: RpcError) -> Vec<Event> {
        #[derive(serde::Deserialize)]
        struct Sent {
            id: Option<RequestId>,
            method: Option<serde::de::IgnoredAny>,
        }
        let sent = crate::json::from_str::<Sent>(line).ok();
        let Some(Sent {
            id: Some(id),
            method: Some(_),
        }) = sent
        else {
            return Vec::new();
        };
        match self.stage.clone() {
            Stage::Discovering(asked, ..) if asked == id => self.discovered(Err(why)),
            Stage::Initializing(asked, _) if asked == id => {
                self.stage = Stage::Refused;
                vec![Event::Refused(why)]
            }
            _ if self.in_flight.remove(&id).is_some() => self.answered(id, Err(why)),
            _ => Vec::new(),
        }
    }

    fn fresh_id(&mut self) -> RequestId {
        self.next_id += 1;
        RequestId::from(self.next_id)
    }
}
