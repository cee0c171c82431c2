//! An MCP client over Streamable HTTP, for the client mode of the MCP conformance suite
//! (`conformance client --command '<this binary>'`), every message read and written with this
//! crate's types.
//!
//! ```text
//! cargo run --example conformance-client --features all-revisions,convert -- <server URL>
//! ```
//!
//! It speaks 2026-07-28 first (`stateless.rs`): it asks `server/discover` and picks the newest
//! stateless revision in the server's `supportedVersions` (and, when a request is refused with
//! `UnsupportedProtocolVersionError`, retries it in one of the versions the error lists). Every
//! request then carries the per-request `_meta` (protocol version, client info, capabilities)
//! and the transport's headers from [`mcp_spec_types::http_headers`]: `MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name`, and on `tools/call` the `Mcp-Param-*` headers the tool's
//! `x-mcp-header` annotations ask for; a tool whose annotations break the spec's rules is left
//! out. It lists and calls the tools, reads the resources and gets the prompts the server
//! offers; a tool's arguments come from the suite's `MCP_CONFORMANCE_CONTEXT` when it names
//! the tool, otherwise from its input schema. An `input_required` result is answered
//! (elicitation with the requested schema's defaults, sampling with a fixed text, roots with
//! none) and the request retried under a new id with `inputResponses` and the `requestState`
//! exactly as it came.
//!
//! A server that does not answer `server/discover` as a stateless server does (no
//! `DiscoverResult` and no recognized 2026-07-28 error, or only stateful revisions offered)
//! gets the stateful handshake instead: it initializes (asking for 2025-11-25, declaring
//! sampling and form elicitation), follows the revision the server answers (any stateful one:
//! the session's messages are then read and written in that revision's types), sends
//! `notifications/initialized`, lists the tools and calls each one with arguments made from
//! its input schema. Requests of the server on a call's SSE stream are answered: elicitation
//! with the requested schema's defaults (SEP-1034), sampling with a fixed text, ping, roots. A
//! stream that ends before the answer is resumed with GET and `Last-Event-ID` once the
//! server's `retry` delay has passed (SEP-1699).
//!
//! A request the server refuses for want of authorization (401, or 403 `insufficient_scope`)
//! is authorized and sent again (`oauth.rs`, with the crate's `auth` types): the protected
//! resource metadata (the challenge's `resource_metadata`, else the well-known URLs; its
//! `resource` must be this server), the authorization server's metadata (its `issuer` must be
//! the one looked up), a client identity there (the suite's pre-registered one, the client ID
//! metadata document's URL where the server takes it, else dynamic registration), and a token:
//! the authorization code grant with PKCE S256, `state` and RFC 9207 `iss` checked, the scope
//! the challenge names (else `scopes_supported`, plus `offline_access` where the server lists
//! it), the resource indicator as the metadata publishes it. A step-up asks for the scopes
//! asked before and the new ones; one request costs at most three authorizations. Where the
//! server offers no authorization code grant, the suite's context picks another: client
//! credentials (secret or `private_key_jwt`), a workload's JWT, or an enterprise ID token
//! exchanged for an ID-JAG (`jose.rs` signs with `jsonwebtoken`). A server that lists DPoP
//! proof algorithms gets DPoP-bound tokens, a fresh proof on every request and the nonces it
//! asks for. Tokens, secrets and codes are never written to the log.

mod jose;
mod oauth;
mod revision;
mod stateless;
mod transport;

use hyper::Method;
use mcp_spec_types::dispatch::{
    Message, NotificationEnvelope, PendingRequest, PendingRequests, RequestEnvelope,
};
use mcp_spec_types::v2025_11_25::{
    self as latest, CallToolRequestParams, ClientCall, ClientCallResult, ClientCapabilities,
    ClientCapabilitiesElicitation, ClientCapabilitiesSampling, ClientMessage, ClientNotify,
    CreateMessageResult, ElicitRequestParams, ElicitResult, ElicitResultAction,
    ElicitResultContentValue as Value, ElicitResultContentValueVariant1 as One, Implementation,
    InitializeRequestParams, PrimitiveSchemaDefinition as Field, Role, ServerCall,
    ServerCallResult,
};
use mcp_spec_types::{Direction, ErrorCode, JsonObject, RequestId, RpcError};
use revision::Negotiated;
use serde_json::Map;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use transport::{is_sse, Endpoint, EventStream};

const REQUESTED: &str = "2025-11-25";

struct Client {
    endpoint: Endpoint,
    session: Mutex<Option<String>>,
    revision: Mutex<Negotiated>,
    next_id: Mutex<i64>,
    pending: Mutex<PendingRequests>,
}

fn main() -> ExitCode {
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("usage: conformance-client <server URL>");
        return ExitCode::from(2);
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("conformance-client: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(&url)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("conformance-client ({scenario}): {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(url: &str) -> Result<(), String> {
    // One authorization for both ways of speaking: a token got while asking
    // `server/discover` serves the stateful session too.
    let endpoint = Endpoint::new(url, Some(Arc::new(oauth::Authorizer::new(url))))?;
    if let Some((client, discovered)) = stateless::Modern::discover(endpoint.clone()).await? {
        return client.run(&discovered).await;
    }
    eprintln!("no stateless revision: falling back to initialize");
    let client = Arc::new(Client {
        endpoint,
        session: Mutex::new(None),
        revision: Mutex::new(Negotiated::LATEST),
        next_id: Mutex::new(0),
        pending: Mutex::new(PendingRequests::new()),
    });
    let capabilities = ClientCapabilities {
        elicitation: Some(ClientCapabilitiesElicitation {
            form: Some(JsonObject::new()),
            ..ClientCapabilitiesElicitation::default()
        }),
        sampling: Some(ClientCapabilitiesSampling::default()),
        ..ClientCapabilities::default()
    };
    let initialize = ClientCall::Initialize(InitializeRequestParams {
        capabilities,
        client_info: Implementation::new("mcp-spec-types-conformance-client", "1.0.0"),
        meta: None,
        protocol_version: REQUESTED.to_owned(),
        extra: Map::new(),
    });
    let ClientCallResult::Initialize(init) = client.request(initialize).await? else {
        return Err("initialize was answered with another result".to_owned());
    };
    let revision = Negotiated::named(&init.protocol_version).ok_or_else(|| {
        format!(
            "the server chose {}, which this client does not speak",
            init.protocol_version
        )
    })?;
    eprintln!("session in revision {}", revision.version());
    *lock(&client.revision) = revision;
    client.notify(ClientNotify::Initialized(None)).await?;
    // The server's own stream, for what relates to no request of the client.
    tokio::spawn(listen(Arc::clone(&client)));

    let ClientCallResult::ListTools(list) = client.request(ClientCall::ListTools(None)).await?
    else {
        return Err("tools/list was answered with another result".to_owned());
    };
    let echoed = echoed_schema(
        list.tools
            .iter()
            .map(|t| (t.name.as_str(), serde_json::to_value(&t.input_schema))),
    );
    for tool in list.tools {
        let mut arguments: Map<String, serde_json::Value> = tool
            .input_schema
            .properties
            .iter()
            .flatten()
            .filter_map(|(name, schema)| {
                let kind: String = schema.get("type")?.ok()?;
                let value = match kind.as_str() {
                    "number" | "integer" => serde_json::Value::from(1),
                    "string" => serde_json::Value::from("test"),
                    "boolean" => serde_json::Value::Bool(true),
                    _ => return None,
                };
                Some((name.clone(), value))
            })
            .collect();
        if let (ECHO_TOOL, Some(schema)) = (tool.name.as_str(), &echoed) {
            arguments.insert("schema".to_owned(), schema.clone());
        }
        let call = ClientCall::CallTool(CallToolRequestParams {
            arguments: Some(JsonObject::from(arguments)),
            meta: None,
            name: tool.name.clone(),
            task: None,
            extra: Map::new(),
        });
        match client.request(call).await? {
            ClientCallResult::CallTool(result) => {
                let texts: Vec<&str> = result.content.iter().filter_map(|c| c.as_text()).collect();
                eprintln!("{}: {}", tool.name, texts.join(" "));
            }
            _ => {
                return Err(format!(
                    "tools/call {} was answered with another result",
                    tool.name
                ))
            }
        }
    }
    Ok(())
}

/// Reads the GET stream (when the server offers one), answering the requests on it.
async fn listen(client: Arc<Client>) {
    let Ok(response) = client.send(None, None).await else {
        return;
    };
    if !is_sse(&response) {
        return;
    }
    let mut stream = EventStream::new(response);
    let none = RequestId::from("");
    while let Some(data) = stream.next().await {
        if let Err(e) = client.answer_in(&data, &none).await {
            eprintln!("on the GET stream: {e}");
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl Client {
    fn revision(&self) -> Negotiated {
        lock(&self.revision).clone()
    }

    /// POSTs `text` (GETs the stream after `resume`, without a body).
    async fn send(
        &self,
        text: Option<String>,
        resume: Option<&str>,
    ) -> Result<hyper::Response<hyper::body::Incoming>, String> {
        let mut headers = Vec::new();
        if let Some(session) = lock(&self.session).clone() {
            headers.push(("mcp-session-id", session));
            headers.push(("mcp-protocol-version", self.revision().version().to_owned()));
        }
        if let Some(last) = resume {
            headers.push(("last-event-id", last.to_owned()));
        }
        let method = if text.is_some() {
            Method::POST
        } else {
            Method::GET
        };
        let response = self.endpoint.send(method, &headers, text).await?;
        if !response.status().is_success() {
            return Err(format!("HTTP {}", response.status()));
        }
        if let Some(id) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            lock(&self.session).get_or_insert_with(|| id.to_owned());
        }
        Ok(response)
    }

    async fn notify(&self, notification: ClientNotify) -> Result<(), String> {
        let message = Message::Notification(NotificationEnvelope::new(notification));
        let text = self.revision().write(&message).map_err(|e| e.to_string())?;
        self.send(Some(text), None).await.map(drop)
    }

    /// Sends a request and waits for its answer, answering the server's requests meanwhile.
    async fn request(&self, call: ClientCall) -> Result<ClientCallResult, String> {
        let id = {
            let mut next = lock(&self.next_id);
            *next += 1;
            RequestId::from(*next)
        };
        lock(&self.pending).insert(
            Direction::ClientToServer,
            id.clone(),
            PendingRequest::of(&call),
        );
        let message = Message::Request(RequestEnvelope::new(id.clone(), call));
        let text = self.revision().write(&message).map_err(|e| e.to_string())?;
        let response = self.send(Some(text), None).await?;
        if !is_sse(&response) {
            let body = transport::text(response).await?;
            return self
                .answer_in(&body, &id)
                .await?
                .ok_or_else(|| "no answer in the response".to_owned());
        }
        let mut stream = EventStream::new(response);
        for _ in 0..5 {
            while let Some(data) = stream.next().await {
                if let Some(answer) = self.answer_in(&data, &id).await? {
                    return Ok(answer);
                }
            }
            // The stream closed before the answer: resume it after the delay the server set.
            let last = stream
                .last_id
                .clone()
                .ok_or("the stream ended without an answer")?;
            let retry = stream.retry;
            tokio::time::sleep(retry.unwrap_or(Duration::from_secs(1))).await;
            stream = EventStream::new(self.send(None, Some(&last)).await?);
            stream.retry = retry;
        }
        Err("no answer after five reconnections".to_owned())
    }

    /// Handles the messages of `text`; the answer to request `id` if one of them is.
    async fn answer_in(
        &self,
        text: &str,
        id: &RequestId,
    ) -> Result<Option<ClientCallResult>, String> {
        for message in self.revision().read(text).map_err(|e| e.to_string())? {
            match message {
                Message::Response(response) if &response.id == id => {
                    let answer = lock(&self.pending).answer::<ClientCall>(&response);
                    return match answer {
                        Some(result) => result.map(Some).map_err(|e| e.to_string()),
                        None => Err("an answer to no request".to_owned()),
                    };
                }
                Message::Error(error) if error.id.as_ref() == Some(id) => {
                    return Err(format!(
                        "error {}: {}",
                        error.error.code, error.error.message
                    ));
                }
                Message::Request(request) => self.serve(request).await?,
                Message::Notification(n) => eprintln!(
                    "notification {}",
                    mcp_spec_types::dispatch::MethodSet::method(&n.notification)
                ),
                _ => {}
            }
        }
        Ok(None)
    }

    /// Answers a request of the server.
    async fn serve(&self, request: RequestEnvelope<ServerCall>) -> Result<(), String> {
        let method = mcp_spec_types::dispatch::MethodSet::method(&request.call).to_owned();
        let result = match request.call {
            ServerCall::Elicit(ElicitRequestParams::FormParams(form)) => {
                let content = form
                    .requested_schema
                    .properties
                    .iter()
                    .filter_map(|(name, field)| Some((name.clone(), default_of(field)?)))
                    .collect();
                Ok(ServerCallResult::Elicit(ElicitResult {
                    action: ElicitResultAction::Accept,
                    content: Some(content),
                    meta: None,
                    extra: Map::new(),
                }))
            }
            ServerCall::CreateMessage(_) => {
                Ok(ServerCallResult::CreateMessage(CreateMessageResult {
                    content: latest::TextContent::new("This is a test response from the client")
                        .into(),
                    meta: None,
                    model: "conformance-client-model".to_owned(),
                    role: Role::Assistant,
                    stop_reason: Some("endTurn".to_owned()),
                    extra: Map::new(),
                }))
            }
            ServerCall::Ping(_) => Ok(ServerCallResult::Ping(latest::EmptyResult(
                latest::BaseResult {
                    meta: None,
                    extra: Map::new(),
                },
            ))),
            ServerCall::ListRoots(_) => Ok(ServerCallResult::ListRoots(latest::ListRootsResult {
                meta: None,
                roots: Vec::new(),
                extra: Map::new(),
            })),
            _ => Err(RpcError::method_not_found(&method)),
        };
        let reply: ClientMessage = match result
            .map(|r| self.revision().answer(request.id.clone(), &method, &r))
        {
            Ok(Ok(response)) => Message::Response(response),
            Ok(Err(e)) => Message::Error(mcp_spec_types::dispatch::ErrorResponse::new(
                request.id,
                RpcError::new(ErrorCode::InternalError, e),
            )),
            Err(e) => Message::Error(mcp_spec_types::dispatch::ErrorResponse::new(request.id, e)),
        };
        self.send(Some(reply.to_json()), None).await.map(drop)
    }
}

/// The default of a form field (SEP-1034), when it has one this revision's answer can carry:
/// the schema admits strings, integers, booleans and string lists, so a fractional number
/// default is left for the user.
fn default_of(field: &Field) -> Option<Value> {
    Some(match field {
        Field::StringSchema(s) => Value::Variant1(One::String(s.default.clone()?)),
        Field::NumberSchema(s) => Value::Variant1(One::Number(s.default.clone()?)),
        Field::BooleanSchema(s) => Value::Variant1(One::Boolean(s.default?)),
        Field::UntitledSingleSelectEnumSchema(s) => {
            Value::Variant1(One::String(s.default.clone()?))
        }
        Field::TitledSingleSelectEnumSchema(s) => Value::Variant1(One::String(s.default.clone()?)),
        Field::LegacyTitledEnumSchema(s) => Value::Variant1(One::String(s.default.clone()?)),
        Field::UntitledMultiSelectEnumSchema(s) => Value::Variant0(s.default.clone()?),
        Field::TitledMultiSelectEnumSchema(s) => Value::Variant0(s.default.clone()?),
    })
}

/// The echo tool of the suite's schema-preservation scenario (SEP-1613, SEP-2106): the client
/// sends back, verbatim as its `schema` argument, the input schema it read for
/// [`ECHO_SOURCE`], so the suite sees whether reading the schema kept every keyword.
pub const ECHO_TOOL: &str = "json_schema_echo";
/// The tool whose input schema the echo tool gets.
pub const ECHO_SOURCE: &str = "json_schema_2020_12_tool";

/// The input schema of [`ECHO_SOURCE`] among `tools` (name, schema as written back out).
pub fn echoed_schema<'a, E>(
    mut tools: impl Iterator<Item = (&'a str, Result<serde_json::Value, E>)>,
) -> Option<serde_json::Value> {
    tools
        .find(|(name, _)| *name == ECHO_SOURCE)
        .and_then(|(_, schema)| schema.ok())
}
