//! The 2026-07-28 side of the client: `server/discover` first, then every request on its own
//! with the per-request `_meta` and the transport's headers, and `input_required` results
//! answered and retried.

use crate::transport::{self, is_sse, Endpoint, EventStream};
use mcp_spec_types::convert::StatelessRequestMeta;
use mcp_spec_types::dispatch::{Message, PendingRequest};
use mcp_spec_types::http_headers::{self, ToolHeaders};
use mcp_spec_types::input_required::is_input_required;
use mcp_spec_types::negotiation;
use mcp_spec_types::v2026_07_28 as modern;
use mcp_spec_types::v2026_07_28::input_required::{Answers, RoundTrip};
use mcp_spec_types::{ErrorCode, ProtocolVersion, RpcError};
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};

/// Rounds of `input_required` answered for one request before giving up: a server that keeps
/// asking is looping.
const MAX_INPUT_ROUNDS: usize = 5;
/// Pages of one list followed before giving up.
const MAX_PAGES: usize = 100;
/// Retries of one request with another version after an `UnsupportedProtocolVersionError`.
const MAX_VERSION_RETRIES: usize = 2;

/// A server that speaks a stateless revision, and what `server/discover` said about it.
pub struct Modern {
    endpoint: Endpoint,
    version: RefCell<ProtocolVersion>,
    next_id: Cell<i64>,
    capabilities: Value,
    client_info: Value,
    /// Arguments the conformance suite hands over for some tools (`MCP_CONFORMANCE_CONTEXT`).
    tool_calls: Vec<(String, Value)>,
}

/// What a request came back with.
enum Outcome {
    /// The result (after any `input_required` rounds), and what the request expects.
    Result(Box<serde_json::value::RawValue>, PendingRequest),
    /// A JSON-RPC error.
    Error(RpcError),
    /// No JSON-RPC answer for the request: the HTTP status and body.
    Nothing(u16, String),
}

/// The revision to speak after the server offered `supported`: the newest both speak, when it
/// is a stateless one (otherwise the server is to be spoken to with `initialize`).
fn choose(supported: &[String]) -> Option<ProtocolVersion> {
    negotiation::choose(supported).filter(negotiation::is_stateless)
}

/// The `supported` list of an `UnsupportedProtocolVersionError`, empty when its data is not
/// the schema's.
fn supported_of(error: &RpcError) -> Vec<String> {
    error
        .data
        .clone()
        .and_then(|d| {
            serde_json::from_value::<modern::UnsupportedProtocolVersionErrorObjectData>(d).ok()
        })
        .map(|d| d.supported)
        .unwrap_or_default()
}

impl Modern {
    /// Asks `server/discover`. `None` when the server does not answer it the way a stateless
    /// server does (the transport page's backward compatibility: a result that is no
    /// `DiscoverResult`, an HTTP error without a recognized modern JSON-RPC error, or a
    /// server that offers only stateful revisions): the caller then falls back to
    /// `initialize`.
    pub async fn discover(
        endpoint: Endpoint,
    ) -> Result<Option<(Modern, modern::DiscoverResult)>, String> {
        let version = negotiation::stateless_supported()
            .first()
            .cloned()
            .ok_or("this build speaks no stateless revision")?;
        let client = Modern {
            endpoint,
            version: RefCell::new(version),
            next_id: Cell::new(0),
            capabilities: json!({ "elicitation": { "form": {} }, "sampling": {}, "roots": {} }),
            client_info: json!({ "name": "mcp-spec-types-conformance-client", "version": "1.0.0" }),
            tool_calls: context_tool_calls(),
        };
        let outcome = client.exchange("server/discover", Map::new(), &[]).await?;
        let discovered = match outcome {
            Outcome::Result(result, pending) => {
                match modern::ClientCallResult::parse(&pending, &result) {
                    Ok(modern::ClientCallResult::Discover(discovered)) => discovered,
                    _ => {
                        eprintln!("server/discover: not a DiscoverResult ({result})");
                        return Ok(None);
                    }
                }
            }
            Outcome::Error(error) => match error.code {
                // A stateless server refusing what this client sent: falling back to
                // `initialize` would hide the client's bug.
                ErrorCode::HeaderMismatch | ErrorCode::MissingRequiredClientCapability => {
                    return Err(format!(
                        "server/discover refused: {}: {}",
                        error.code, error.message
                    ));
                }
                // Any other error, including an unsupported version the retries could not
                // cure (the server lists no stateless revision this client speaks): the
                // server is to be spoken to with `initialize`.
                _ => {
                    eprintln!("server/discover: error {}: {}", error.code, error.message);
                    return Ok(None);
                }
            },
            Outcome::Nothing(status, body) => {
                eprintln!("server/discover: HTTP {status} without an answer: {body}");
                return Ok(None);
            }
        };
        match choose(&discovered.supported_versions) {
            Some(version) => {
                *client.version.borrow_mut() = version;
                Ok(Some((client, discovered)))
            }
            None => {
                eprintln!(
                    "server/discover: no stateless revision in common ({:?})",
                    discovered.supported_versions
                );
                Ok(None)
            }
        }
    }

    /// Lists and uses what the server offers: every tool called, every resource read, every
    /// prompt got. A call that fails is reported and the others still run.
    pub async fn run(&self, discovered: &modern::DiscoverResult) -> Result<(), String> {
        eprintln!("stateless, revision {}", self.version.borrow().as_str());
        let offers = &discovered.capabilities;
        if offers.tools.is_some() {
            self.use_tools().await?;
        }
        if offers.resources.is_some() {
            self.use_resources().await?;
        }
        if offers.prompts.is_some() {
            self.use_prompts().await?;
        }
        Ok(())
    }

    async fn use_tools(&self) -> Result<(), String> {
        let tools = self
            .pages("tools/list", |r| match r {
                modern::ClientCallResult::ListTools(l) => Some((l.tools, l.next_cursor)),
                _ => None,
            })
            .await?;
        let echoed = crate::echoed_schema(
            tools
                .iter()
                .map(|t| (t.name.as_str(), serde_json::to_value(&t.input_schema))),
        );
        for tool in tools {
            let schema = serde_json::to_value(&tool.input_schema).map_err(|e| e.to_string())?;
            // A tool whose x-mcp-header annotations break the rules is left out (the
            // transport page: the client MUST exclude it, SHOULD log why).
            let headers = match ToolHeaders::from_input_schema(&schema) {
                Ok(headers) => headers,
                Err(e) => {
                    eprintln!("tool {} left out: {e}", tool.name);
                    continue;
                }
            };
            let calls: Vec<Value> = match self
                .tool_calls
                .iter()
                .filter(|(name, _)| *name == tool.name)
                .map(|(_, arguments)| arguments.clone())
                .collect::<Vec<_>>()
            {
                given if !given.is_empty() => given,
                _ => match (tool.name.as_str(), &echoed) {
                    (crate::ECHO_TOOL, Some(echoed)) => vec![json!({ "schema": echoed })],
                    _ => vec![arguments_for(&schema)],
                },
            };
            for arguments in calls {
                match self.call_tool(&tool.name, &arguments, &headers).await {
                    Ok(modern::ClientCallResult::CallTool(
                        modern::CallToolResultOrInputRequired::CallToolResult(result),
                    )) => {
                        let texts: Vec<&str> =
                            result.content.iter().filter_map(|c| c.as_text()).collect();
                        eprintln!("{}: {}", tool.name, texts.join(" "));
                    }
                    Ok(_) => eprintln!("{}: still asking for input", tool.name),
                    Err(e) => eprintln!("tools/call {}: {e}", tool.name),
                }
            }
        }
        Ok(())
    }

    async fn use_resources(&self) -> Result<(), String> {
        let resources = self
            .pages("resources/list", |r| match r {
                modern::ClientCallResult::ListResources(l) => Some((l.resources, l.next_cursor)),
                _ => None,
            })
            .await?;
        for resource in resources {
            let params = object(json!({ "uri": resource.uri }));
            match self.call("resources/read", params, &[]).await {
                Ok(_) => eprintln!("read {}", resource.uri),
                Err(e) => eprintln!("resources/read {}: {e}", resource.uri),
            }
        }
        Ok(())
    }

    async fn use_prompts(&self) -> Result<(), String> {
        let prompts = self
            .pages("prompts/list", |r| match r {
                modern::ClientCallResult::ListPrompts(l) => Some((l.prompts, l.next_cursor)),
                _ => None,
            })
            .await?;
        for prompt in prompts {
            let arguments: Map<String, Value> = prompt
                .arguments
                .iter()
                .flatten()
                .map(|a| (a.name.clone(), Value::from("test")))
                .collect();
            let params = object(json!({ "name": prompt.name, "arguments": arguments }));
            match self.call("prompts/get", params, &[]).await {
                Ok(_) => eprintln!("got prompt {}", prompt.name),
                Err(e) => eprintln!("prompts/get {}: {e}", prompt.name),
            }
        }
        Ok(())
    }

    /// Every page of a list: `take` splits a result into its items and `nextCursor`.
    async fn pages<T>(
        &self,
        method: &str,
        take: impl Fn(modern::ClientCallResult) -> Option<(Vec<T>, Option<String>)>,
    ) -> Result<Vec<T>, String> {
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        // A server that hands out cursors forever is not followed forever.
        for _ in 0..MAX_PAGES {
            let mut params = Map::new();
            if let Some(cursor) = cursor.take() {
                params.insert("cursor".to_owned(), Value::from(cursor));
            }
            let result = self.call(method, params, &[]).await?;
            let (page, next) =
                take(result).ok_or_else(|| format!("{method} was answered with another result"))?;
            items.extend(page);
            match next {
                Some(next) => cursor = Some(next),
                None => return Ok(items),
            }
        }
        Err(format!("{method}: more than {MAX_PAGES} pages"))
    }

    /// Calls a tool with its `Mcp-Param-*` headers. A `HeaderMismatch` answer may mean the
    /// tool's definition changed: the tools are listed again and the call is retried once with
    /// the headers the new definition asks for (the transport page, client behavior).
    async fn call_tool(
        &self,
        name: &str,
        arguments: &Value,
        headers: &ToolHeaders,
    ) -> Result<modern::ClientCallResult, String> {
        let mut headers = Cow::Borrowed(headers);
        for attempt in 0..2 {
            let extra = headers
                .headers(Some(arguments))
                .map_err(|e| format!("not sent: {e}"))?;
            let params = object(json!({ "name": name, "arguments": arguments }));
            match self.exchange("tools/call", params, &extra).await? {
                Outcome::Error(error)
                    if error.code == ErrorCode::HeaderMismatch && attempt == 0 =>
                {
                    eprintln!(
                        "tools/call {name}: {}; listing the tools again",
                        error.message
                    );
                    headers = Cow::Owned(self.tool_headers(name).await?);
                }
                outcome => return result_of(outcome),
            }
        }
        Err("the headers still do not match".to_owned())
    }

    /// The `x-mcp-header` annotations of tool `name`, as `tools/list` gives them now.
    async fn tool_headers(&self, name: &str) -> Result<ToolHeaders, String> {
        let tools = self
            .pages("tools/list", |r| match r {
                modern::ClientCallResult::ListTools(l) => Some((l.tools, l.next_cursor)),
                _ => None,
            })
            .await?;
        let tool = tools
            .into_iter()
            .find(|t| t.name == name)
            .ok_or_else(|| format!("tool {name} is no longer listed"))?;
        let schema = serde_json::to_value(&tool.input_schema).map_err(|e| e.to_string())?;
        ToolHeaders::from_input_schema(&schema).map_err(|e| format!("tool {name} left out: {e}"))
    }

    /// A request whose answer must be a result.
    async fn call(
        &self,
        method: &str,
        params: Map<String, Value>,
        extra_headers: &[(String, String)],
    ) -> Result<modern::ClientCallResult, String> {
        result_of(self.exchange(method, params, extra_headers).await?)
    }

    /// Sends `method` with `params` (without `_meta`, which is added here) until it has a
    /// final answer: retried with another version when the server names the ones it
    /// supports, and with the input it asks for while the result is `input_required`. Each
    /// attempt is a new request with a new id.
    async fn exchange(
        &self,
        method: &str,
        mut params: Map<String, Value>,
        extra_headers: &[(String, String)],
    ) -> Result<Outcome, String> {
        let mut version_retries = 0;
        let mut input_rounds = 0;
        loop {
            let id = self.next_id.get() + 1;
            self.next_id.set(id);
            let version = self.version.borrow().as_str().to_owned();
            let mut sent = params.clone();
            StatelessRequestMeta {
                protocol_version: version.clone(),
                client_capabilities: self.capabilities.clone(),
                client_info: Some(self.client_info.clone()),
            }
            .insert_into(&mut sent);
            let sent = Value::Object(sent);
            let text =
                json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": sent }).to_string();
            // What is sent is first read back as this revision's request: a client bug shows
            // here rather than at the server.
            let message = modern::ClientMessage::parse(&text).map_err(|e| e.to_string())?;
            let Message::Request(request) = &message else {
                return Err(format!("{method} is not a request"));
            };
            let pending = PendingRequest::of(&request.call);
            let mut headers = http_headers::request_headers(&version, method, Some(&sent));
            headers.extend(extra_headers.iter().cloned());
            let answer = match self.post(&headers, message.to_json(), id).await? {
                Ok(answer) => answer,
                Err((status, body)) => return Ok(Outcome::Nothing(status, body)),
            };
            match answer {
                Message::Error(error) => {
                    let error = error.error;
                    if error.code == ErrorCode::UnsupportedProtocolVersion
                        && version_retries < MAX_VERSION_RETRIES
                    {
                        if let Some(next) = choose(&supported_of(&error)) {
                            eprintln!("{method}: retrying in {}", next.as_str());
                            *self.version.borrow_mut() = next;
                            version_retries += 1;
                            continue;
                        }
                    }
                    return Ok(Outcome::Error(error));
                }
                Message::Response(response) => {
                    let result: Map<String, Value> =
                        serde_json::from_str(response.result.get()).map_err(|e| e.to_string())?;
                    if is_input_required(&result) && input_rounds < MAX_INPUT_ROUNDS {
                        input_rounds += 1;
                        let result: modern::InputRequiredResult =
                            serde_json::from_value(Value::Object(result))
                                .map_err(|e| e.to_string())?;
                        // Replaces what an earlier round carried; the state goes back exactly
                        // as it came, and only when it came.
                        answer_input_required(&result)?
                            .apply_to_object(&mut params)
                            .map_err(|e| e.to_string())?;
                        continue;
                    }
                    return Ok(Outcome::Result(response.result, pending));
                }
                _ => return Err(format!("{method}: the answer is not a response")),
            }
        }
    }

    /// POSTs one request and reads its answer, from a JSON body or an SSE stream (whose
    /// notifications are only logged). `Err((status, body))` when no JSON-RPC answer came.
    async fn post(
        &self,
        headers: &[(String, String)],
        text: String,
        id: i64,
    ) -> Result<Result<modern::ServerMessage, (u16, String)>, String> {
        let response = self
            .endpoint
            .send(hyper::Method::POST, headers, Some(text))
            .await?;
        let status = response.status().as_u16();
        if is_sse(&response) {
            let mut stream = EventStream::new(response);
            while let Some(data) = stream.next().await {
                match read_answer(&data, id) {
                    Some(answer) => return Ok(Ok(answer)),
                    None => eprintln!("on the stream: {data}"),
                }
            }
            return Ok(Err((
                status,
                "the stream ended without an answer".to_owned(),
            )));
        }
        let body = transport::text(response).await?;
        Ok(read_answer(&body, id).ok_or((status, body)))
    }
}

/// The typed result of an outcome, or what went wrong.
fn result_of(outcome: Outcome) -> Result<modern::ClientCallResult, String> {
    match outcome {
        Outcome::Result(result, pending) => {
            modern::ClientCallResult::parse(&pending, &result).map_err(|e| e.to_string())
        }
        Outcome::Error(error) => Err(format!("error {}: {}", error.code, error.message)),
        Outcome::Nothing(status, body) => Err(format!("HTTP {status}: {body}")),
    }
}

/// The response or error for request `id` in `text`, if that is what `text` is. A result
/// without `resultType` is `complete` (the schema: a client MUST treat the absent field so),
/// which is written in before the typed read.
fn read_answer(text: &str, id: i64) -> Option<modern::ServerMessage> {
    let mut value: Value = serde_json::from_str(text).ok()?;
    if value.get("id").and_then(Value::as_i64) != Some(id) {
        return None;
    }
    if let Some(Value::Object(result)) = value.get_mut("result") {
        result
            .entry("resultType")
            .or_insert_with(|| Value::from("complete"));
    }
    match modern::ServerMessage::parse(&value.to_string()) {
        Ok(message @ (Message::Response(_) | Message::Error(_))) => Some(message),
        Ok(_) => None,
        Err(e) => {
            eprintln!("unreadable answer ({e}): {text}");
            None
        }
    }
}

/// The retry of an `input_required` result: every input request answered (elicitation
/// accepted with the requested schema's defaults, sampling with a fixed text, roots with none)
/// and the `requestState` echoed, both checked by the crate's [`Answers`].
fn answer_input_required(result: &modern::InputRequiredResult) -> Result<RoundTrip, String> {
    let mut answers = Answers::new(result);
    for (key, request) in result.input_requests.iter().flat_map(|r| r.iter()) {
        let response = match request {
            modern::InputRequest::ElicitRequest(elicit) => {
                let content: Map<String, Value> = match &elicit.params {
                    modern::ElicitRequestParams::FormParams(form) => {
                        let schema = serde_json::to_value(&form.requested_schema)
                            .map_err(|e| e.to_string())?;
                        schema
                            .get("properties")
                            .and_then(Value::as_object)
                            .into_iter()
                            .flatten()
                            .filter_map(|(name, field)| {
                                Some((name.clone(), field.get("default")?.clone()))
                            })
                            .collect()
                    }
                    modern::ElicitRequestParams::UrlParams(_) => Map::new(),
                };
                let result = json!({ "action": "accept", "content": content });
                modern::InputResponse::ElicitResult(
                    serde_json::from_value(result).map_err(|e| e.to_string())?,
                )
            }
            modern::InputRequest::CreateMessageRequest(_) => {
                let result = json!({
                    "role": "assistant",
                    "content": { "type": "text", "text": "This is a test response from the client" },
                    "model": "conformance-client-model",
                    "stopReason": "endTurn"
                });
                modern::InputResponse::CreateMessageResult(
                    serde_json::from_value(result).map_err(|e| e.to_string())?,
                )
            }
            modern::InputRequest::ListRootsRequest(_) => {
                modern::InputResponse::ListRootsResult(modern::ListRootsResult {
                    roots: Vec::new(),
                    extra: Map::new(),
                })
            }
        };
        answers.answer(key, response).map_err(|e| e.to_string())?;
    }
    answers.finish().map_err(|e| e.to_string())
}

/// Arguments made from an input schema: a value of each property's type.
fn arguments_for(schema: &Value) -> Value {
    let arguments: Map<String, Value> = schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(name, property)| {
            let value = match property.get("type")?.as_str()? {
                "number" | "integer" => Value::from(1),
                "string" => Value::from("test"),
                "boolean" => Value::Bool(true),
                _ => return None,
            };
            Some((name.clone(), value))
        })
        .collect();
    Value::Object(arguments)
}

/// The tool calls the suite's context names (`{"toolCalls": [{"name", "arguments"}]}`).
fn context_tool_calls() -> Vec<(String, Value)> {
    let Ok(context) = std::env::var("MCP_CONFORMANCE_CONTEXT") else {
        return Vec::new();
    };
    let Ok(context) = serde_json::from_str::<Value>(&context) else {
        return Vec::new();
    };
    context
        .get("toolCalls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|call| {
            let name = call.get("name")?.as_str()?.to_owned();
            let arguments = call.get("arguments").cloned().unwrap_or_else(|| json!({}));
            Some((name, arguments))
        })
        .collect()
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}
