//! An MCP client over Streamable HTTP, for the client mode of the MCP conformance suite
//! (`conformance client --command '<this binary>'`), every message read and written with this
//! crate's types.
//!
//! ```text
//! cargo run --example conformance-client --features all-revisions,oauth -- <server URL>
//! ```
//!
//! The protocol is the crate's client engine ([`mcp_spec_types::client::Client`]), carried over
//! HTTP by the crate's own connection (`client::Connection::http_via`, feature `http-client`),
//! whose requests go out through the provider (which authorizes them): `server/discover` first, then `initialize` for a server without a
//! stateless revision in common (any stateful one: the engine reads and writes that revision,
//! and hands everything on in 2026-07-28's terms, which this client is written against); each
//! request with the per-request `_meta` and the headers the engine names (`MCP-Protocol-Version`,
//! `Mcp-Method`, `Mcp-Name`, a listed tool's `Mcp-Param-*`); answers paired with their requests;
//! `input_required` rounds and a stateful server's requests answered alike (`answers.rs`:
//! elicitation with the requested schema's defaults, SEP-1034; sampling with a fixed text;
//! roots with none). The connection keeps the session's id, reads event streams, resumes a
//! stream that ends before its answer with GET and `Last-Event-ID` after the server's `retry`
//! delay (SEP-1699), and opens the session's own GET stream.
//!
//! Once connected it uses what the server offers: every tool called (arguments from the
//! suite's `MCP_CONFORMANCE_CONTEXT` when it names the tool, otherwise from its input schema;
//! a tool whose `x-mcp-header` annotations break the transport's rules is left out, and a
//! call refused with `HeaderMismatch` is retried once after listing the tools again), every
//! resource read, every prompt got.
//!
//! A request the server refuses for want of authorization (401, or 403 `insufficient_scope`)
//! is authorized by the library's provider (`client::oauth::OAuth`, feature `oauth`) and sent
//! again: discovery, a client identity (the suite's pre-registered one, the client ID
//! metadata document's URL where the server takes it, else dynamic registration), the grant
//! (the authorization code with PKCE, or what the suite's context equips the client for:
//! client credentials, a workload's JWT, an enterprise ID token), step-ups and DPoP.
//! `auth.rs` is the suite's glue: it reads the context and answers the authorization page
//! at once. Tokens, secrets and codes are never written to the log.

mod answers;
mod auth;

use mcp_spec_types::client::{CallError, Client, Connection};
use mcp_spec_types::dispatch::MethodSet;
use mcp_spec_types::http_headers::ToolHeaders;
use mcp_spec_types::v2026_07_28::{
    CallToolRequestParams, CallToolResultOrInputRequired, ClientCall, ClientCallResult,
    ClientCapabilities, ClientCapabilitiesElicitation, ClientCapabilitiesSampling,
    GetPromptRequestParams, Implementation, PaginatedRequestParams, ReadResourceRequestParams,
    Tool,
};
use mcp_spec_types::{negotiation, ErrorCode, JsonObject, RpcError};
use serde_json::{json, Map, Value};
use std::process::ExitCode;

/// Pages of one list followed before giving up: a server that hands out cursors forever is
/// not followed forever.
const MAX_PAGES: usize = 100;

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
    let oauth = auth::provider(url);
    let capabilities = ClientCapabilities::new()
        .with_elicitation(ClientCapabilitiesElicitation::new().with_form(JsonObject::new()))
        .with_sampling(ClientCapabilitiesSampling::new())
        .with_roots(JsonObject::new());
    let info = Implementation::new("mcp-spec-types-conformance-client", "1.0.0");
    let engine = Client::new(info).with_capabilities(capabilities);
    let connection = Connection::http_via(url, engine, oauth.sender())
        .await
        .map_err(|e| e.to_string())?;
    connection.on_request(|call| answers::answer(&call));
    connection.on_notification(|notification| {
        eprintln!("notification {}", notification.method());
    });
    let version = connection.version().ok_or("not connected")?;
    if negotiation::is_stateless(&version) {
        eprintln!("stateless, revision {}", version.as_str());
    } else {
        // The connection opened the session's own stream before the first call.
        eprintln!("session in revision {}", version.as_str());
    }
    let user = User {
        connection,
        tool_calls: context_tool_calls(),
    };
    let offers = user.connection.server_capabilities().unwrap_or_default();
    if offers.tools.is_some() {
        user.use_tools().await?;
    }
    if offers.resources.is_some() {
        user.use_resources().await?;
    }
    if offers.prompts.is_some() {
        user.use_prompts().await?;
    }
    Ok(())
}

/// A request's answer: its result, or the server's error.
type Answer = Result<ClientCallResult, RpcError>;

/// The client's user: lists and uses what the server offers. A call that fails is reported
/// and the others still run.
struct User {
    connection: Connection,
    /// Arguments the conformance suite hands over for some tools (`MCP_CONFORMANCE_CONTEXT`).
    tool_calls: Vec<(String, Value)>,
}

impl User {
    /// Sends `call`: the server's error (or an answer the engine could not take) is the
    /// call's, reported; the transport's ends the run.
    async fn request(&self, call: ClientCall) -> Result<Answer, String> {
        match self.connection.request(call).await {
            Ok(result) => Ok(Ok(result)),
            Err(CallError::Server(error)) => Ok(Err(error)),
            Err(CallError::Unexpected(why)) => {
                Ok(Err(RpcError::new(ErrorCode::InternalError, why)))
            }
            Err(other) => Err(other.to_string()),
        }
    }

    async fn use_tools(&self) -> Result<(), String> {
        let tools = self.tools().await?;
        let echoed = echoed_schema(
            tools
                .iter()
                .map(|t| (t.name.as_str(), serde_json::to_value(&t.input_schema))),
        );
        for tool in tools {
            let schema = serde_json::to_value(&tool.input_schema).map_err(|e| e.to_string())?;
            // A tool whose x-mcp-header annotations break the rules is left out (the
            // transport page: the client MUST exclude it, SHOULD log why).
            if let Err(e) = ToolHeaders::from_input_schema(&schema) {
                eprintln!("tool {} left out: {e}", tool.name);
                continue;
            }
            let given: Vec<Value> = self
                .tool_calls
                .iter()
                .filter(|(name, _)| *name == tool.name)
                .map(|(_, arguments)| arguments.clone())
                .collect();
            let calls = match (tool.name.as_str(), &echoed) {
                _ if !given.is_empty() => given,
                (ECHO_TOOL, Some(echoed)) => vec![json!({ "schema": echoed })],
                _ => vec![arguments_for(&schema)],
            };
            for arguments in calls {
                match self.call_tool(&tool.name, arguments).await? {
                    Ok(ClientCallResult::CallTool(
                        CallToolResultOrInputRequired::CallToolResult(result),
                    )) => {
                        let texts: Vec<&str> =
                            result.content.iter().filter_map(|c| c.as_text()).collect();
                        eprintln!("{}: {}", tool.name, texts.join(" "));
                    }
                    Ok(_) => eprintln!("{}: still asking for input", tool.name),
                    Err(e) => {
                        eprintln!("tools/call {}: error {}: {}", tool.name, e.code, e.message)
                    }
                }
            }
        }
        Ok(())
    }

    /// Calls a tool. A `HeaderMismatch` answer may mean the tool's definition changed: the
    /// tools are listed again (the engine learns their annotations from the list) and the call
    /// is retried once (the transport page, client behavior).
    async fn call_tool(&self, name: &str, arguments: Value) -> Result<Answer, String> {
        let arguments = match arguments {
            Value::Object(arguments) => JsonObject::from(arguments),
            _ => JsonObject::new(),
        };
        let call = || {
            let params = CallToolRequestParams::new(name, self.connection.meta())
                .with_arguments(arguments.clone());
            ClientCall::CallTool(params)
        };
        match self.request(call()).await? {
            Err(error) if error.code == ErrorCode::HeaderMismatch => {
                eprintln!(
                    "tools/call {name}: {}; listing the tools again",
                    error.message
                );
                self.tools().await?;
                self.request(call()).await
            }
            answer => Ok(answer),
        }
    }

    /// Every tool the server lists, page after page.
    async fn tools(&self) -> Result<Vec<Tool>, String> {
        self.pages(ClientCall::ListTools, |r| match r {
            ClientCallResult::ListTools(l) => Some((l.tools, l.next_cursor)),
            _ => None,
        })
        .await
    }

    async fn use_resources(&self) -> Result<(), String> {
        let resources = self
            .pages(ClientCall::ListResources, |r| match r {
                ClientCallResult::ListResources(l) => Some((l.resources, l.next_cursor)),
                _ => None,
            })
            .await?;
        for resource in resources {
            let read = ReadResourceRequestParams::new(resource.uri.clone(), self.connection.meta());
            match self.request(ClientCall::ReadResource(read)).await? {
                Ok(_) => eprintln!("read {}", resource.uri),
                Err(e) => eprintln!(
                    "resources/read {}: error {}: {}",
                    resource.uri, e.code, e.message
                ),
            }
        }
        Ok(())
    }

    async fn use_prompts(&self) -> Result<(), String> {
        let prompts = self
            .pages(ClientCall::ListPrompts, |r| match r {
                ClientCallResult::ListPrompts(l) => Some((l.prompts, l.next_cursor)),
                _ => None,
            })
            .await?;
        for prompt in prompts {
            let arguments = prompt.arguments.iter().flatten();
            let arguments = arguments.map(|a| (a.name.clone(), "test".to_owned()));
            let get = GetPromptRequestParams::new(prompt.name.clone(), self.connection.meta())
                .with_arguments(arguments.collect::<std::collections::BTreeMap<_, _>>());
            match self.request(ClientCall::GetPrompt(get)).await? {
                Ok(_) => eprintln!("got prompt {}", prompt.name),
                Err(e) => eprintln!(
                    "prompts/get {}: error {}: {}",
                    prompt.name, e.code, e.message
                ),
            }
        }
        Ok(())
    }

    /// Every page of a list: `list` makes the request, `take` splits its result into its
    /// items and `nextCursor`.
    async fn pages<T>(
        &self,
        list: impl Fn(PaginatedRequestParams) -> ClientCall,
        take: impl Fn(ClientCallResult) -> Option<(Vec<T>, Option<String>)>,
    ) -> Result<Vec<T>, String> {
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let mut params = PaginatedRequestParams::new(self.connection.meta());
            if let Some(cursor) = cursor.take() {
                params = params.with_cursor(cursor);
            }
            let call = list(params);
            let method = mcp_spec_types::dispatch::MethodSet::method(&call).to_owned();
            let result = self
                .request(call)
                .await?
                .map_err(|e| format!("{method}: error {}: {}", e.code, e.message))?;
            let (page, next) =
                take(result).ok_or_else(|| format!("{method} was answered with another result"))?;
            items.extend(page);
            match next {
                Some(next) => cursor = Some(next),
                None => return Ok(items),
            }
        }
        Err(format!("more than {MAX_PAGES} pages"))
    }
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
