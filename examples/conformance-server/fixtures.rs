//! What the conformance suite expects of a server: the `test_*` tools, prompts and `test://`
//! resources of its reference server, completion and logging, written once against revision
//! 2026-07-28's types, the crate's default. The engine brings a session's request up to them
//! and their answer down to the session's revision; what only sessions have (`initialize`,
//! `ping`, `logging/setLevel`, `resources/subscribe`) is the engine's.

use mcp_spec_types::cache::CacheHint;
use mcp_spec_types::convert::ConvertTo;
use mcp_spec_types::dispatch::MethodSet;
use mcp_spec_types::elicitation::{
    boolean, integer, legacy_titled_select, multi_select, number, single_select, string,
    titled_multi_select, titled_single_select, FormSchema, Property,
};
use mcp_spec_types::server::{Change, Context};
use mcp_spec_types::v2025_11_25 as stateful;
use mcp_spec_types::v2026_07_28::input_required::{InputRequired, InputResponseError, RoundTrip};
use mcp_spec_types::v2026_07_28::{
    self as mcp, CallToolRequestParams, CallToolResult, CallToolResultOrInputRequired, ClientCall,
    ClientCallResult, ClientCapabilities, CompleteResult, CompleteResultCompletion, ContentBlock,
    GetPromptResult, GetPromptResultOrInputRequired, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, LoggingLevel, Prompt,
    PromptArgument, PromptMessage, ReadResourceResult, ReadResourceResultOrInputRequired, Resource,
    ResourceTemplate, Role, ServerCapabilities, ServerCapabilitiesPrompts,
    ServerCapabilitiesResources, ServerCapabilitiesTools, TextResourceContents, Tool,
    ToolInputSchema,
};
use mcp_spec_types::{ErrorCode, JsonObject, RpcError};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// A 1x1 red PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A minimal WAV file.
const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";
/// How long the server's lists and resources may be reused. The lists never change (the
/// trigger tools only announce changes), and the resources are fixed texts.
const TTL_MS: u64 = 60_000;

/// The cache hints of the server's results: what it discovers and lists is the same for
/// everyone, a resource's contents are given to one client.
pub fn hint(method: &str) -> CacheHint {
    match method {
        "resources/read" => CacheHint::private(TTL_MS),
        _ => CacheHint::public(TTL_MS),
    }
}

/// The server's name and version.
pub fn server_info() -> Implementation {
    Implementation::new("mcp-spec-types-conformance-server", "1.0.0")
}

/// What the server offers (the engine converts it for each client's revision).
pub fn capabilities() -> ServerCapabilities {
    let empty = Some(JsonObject::new());
    ServerCapabilities {
        completions: empty.clone(),
        logging: empty,
        prompts: Some(ServerCapabilitiesPrompts {
            list_changed: Some(true),
            extra: Map::new(),
        }),
        resources: Some(ServerCapabilitiesResources {
            list_changed: Some(true),
            // Resource updates reach the sessions subscribed to them, and the
            // `subscriptions/listen` streams that ask for them.
            subscribe: Some(true),
            extra: Map::new(),
        }),
        tools: Some(ServerCapabilitiesTools {
            list_changed: Some(true),
            extra: Map::new(),
        }),
        ..ServerCapabilities::default()
    }
}

/// Whether `context` is a stateless request's (2026-07-28 on), which sees what a session
/// does not: the diagnostic tools of the stateless scenarios.
pub fn stateless(context: &Context) -> bool {
    mcp_spec_types::negotiation::is_stateless(&context.peer)
}

/// Answers one request of the handlers' revision. `_meta`, and a session's conversion, are
/// the engine's.
pub fn answer(request: ClientCall, context: &mut Context) -> Result<ClientCallResult, RpcError> {
    let method = request.method().to_owned();
    let ttl_ms = hint(&method).ttl_ms;
    Ok(match request {
        ClientCall::Complete(params) => {
            let values = completions(&params.ref_, &params.argument.name, &params.argument.value);
            ClientCallResult::Complete(CompleteResult {
                completion: CompleteResultCompletion {
                    has_more: Some(false),
                    total: Some(values.len() as i64),
                    values,
                    extra: Map::new(),
                },
                meta: None,
                result_type: mcp_spec_types::cache::ResultType::COMPLETE,
                extra: Map::new(),
            })
        }
        ClientCall::ListTools(_) => ClientCallResult::ListTools(ListToolsResult {
            cache_scope: hint(&method).scope,
            meta: None,
            next_cursor: None,
            result_type: mcp_spec_types::cache::ResultType::COMPLETE,
            tools: listed(context),
            ttl_ms,
            extra: Map::new(),
        }),
        ClientCall::CallTool(params) => ClientCallResult::CallTool(call_tool(&params, context)?),
        ClientCall::ListResources(_) => {
            ClientCallResult::ListResources(ListResourcesResult::complete(
                RESOURCES.iter().map(|(uri, name, mime, _)| {
                    Resource::new(*uri, *name)
                        .with_description(format!("The {name} resource"))
                        .with_mime_type(*mime)
                }),
                ttl_ms,
                hint(&method).scope,
            ))
        }
        ClientCall::ListResourceTemplates(_) => {
            ClientCallResult::ListResourceTemplates(ListResourceTemplatesResult::complete(
                [ResourceTemplate::new(TEMPLATE, "template")
                    .with_description("A resource template with parameter substitution")
                    .with_mime_type("application/json")],
                ttl_ms,
                hint(&method).scope,
            ))
        }
        ClientCall::ReadResource(params) => ClientCallResult::ReadResource(
            ReadResourceResultOrInputRequired::ReadResourceResult(read(&params.uri)?),
        ),
        ClientCall::ListPrompts(_) => {
            let mut prompts = prompts();
            if stateless(context) {
                prompts.extend(crate::input_required::prompts());
            }
            ClientCallResult::ListPrompts(ListPromptsResult {
                cache_scope: hint(&method).scope,
                meta: None,
                next_cursor: None,
                prompts,
                result_type: mcp_spec_types::cache::ResultType::COMPLETE,
                ttl_ms,
                extra: Map::new(),
            })
        }
        ClientCall::GetPrompt(params) => {
            ClientCallResult::GetPrompt(GetPromptResultOrInputRequired::GetPromptResult(
                get_prompt(&params.name, &params.arguments.unwrap_or_default())?,
            ))
        }
        other => return Err(RpcError::method_not_found(other.method())),
    })
}

fn text_result(text: impl Into<String>) -> CallToolResult {
    result(vec![ContentBlock::text(text)])
}

fn result(content: Vec<ContentBlock>) -> CallToolResult {
    CallToolResult {
        content,
        is_error: None,
        meta: None,
        result_type: mcp_spec_types::cache::ResultType::COMPLETE,
        structured_content: None,
        extra: Map::new(),
    }
}

fn image() -> Result<ContentBlock, RpcError> {
    let image = mcp::ImageContent::from_base64(PNG, "image/png").map_err(internal)?;
    Ok(ContentBlock::from(image))
}

fn internal(error: impl std::fmt::Display) -> RpcError {
    RpcError::new(mcp_spec_types::ErrorCode::InternalError, error.to_string())
}

/// The tools: name, description, and the properties of the input schema (each a string
/// argument the call requires).
const TOOLS: &[(&str, &str, &[&str])] = &[
    (
        "test_simple_text",
        "Tests simple text content response",
        &[],
    ),
    ("test_image_content", "Tests image content response", &[]),
    ("test_audio_content", "Tests audio content response", &[]),
    (
        "test_embedded_resource",
        "Tests embedded resource content response",
        &[],
    ),
    (
        "test_multiple_content_types",
        "Tests response with multiple content types (text, image, resource)",
        &[],
    ),
    (
        "test_tool_with_logging",
        "Tests tool that emits log messages during execution",
        &[],
    ),
    (
        "test_tool_with_progress",
        "Tests tool that reports progress notifications",
        &[],
    ),
    ("test_error_handling", "Tests error response handling", &[]),
    (
        "test_reconnection",
        "Closes the SSE stream mid-call; the result follows on reconnection (SEP-1699)",
        &[],
    ),
    (
        "test_sampling",
        "Tests server-initiated sampling (LLM completion request)",
        &["prompt"],
    ),
    (
        "test_elicitation",
        "Tests server-initiated elicitation (user input request)",
        &["message"],
    ),
    (
        "test_elicitation_sep1034_defaults",
        "Tests elicitation with default values per SEP-1034",
        &[],
    ),
    (
        "test_elicitation_sep1330_enums",
        "Tests elicitation with enum schema improvements per SEP-1330",
        &[],
    ),
];

/// The diagnostic tools of the stateless revisions' scenarios, listed to stateless requests
/// only: what they exercise (`_meta` capabilities and log level, listen streams) is not part of
/// a session.
const STATELESS_TOOLS: &[(&str, &str, &[&str])] = &[
    (
        "test_missing_capability",
        "Needs the client's sampling capability: refused with -32021 when it is not declared",
        &[],
    ),
    (
        "test_streaming_elicitation",
        "Needs the elicitation capability; streams progress, never a request, before its result",
        &[],
    ),
    (
        "test_logging_tool",
        "Logs at info level, which a stateless request sees only when its _meta asks for a level",
        &[],
    ),
    (
        "test_trigger_tool_change",
        "Announces a tool list change to every listener that asked for it",
        &[],
    ),
    (
        "test_trigger_prompt_change",
        "Announces a prompt list change to every listener that asked for it",
        &[],
    ),
];

/// What `completion/complete` offers for an argument of a prompt or resource template: the
/// values that start with what the client typed so far.
const COMPLETIONS: &[(&str, &str, &[&str])] = &[
    (
        "test_prompt_with_arguments",
        "arg1",
        &["alpha", "beta", "gamma"],
    ),
    (
        "test_prompt_with_arguments",
        "arg2",
        &["one", "two", "three"],
    ),
    (TEMPLATE, "id", &["1", "2", "42"]),
];

fn completions(
    reference: &mcp::CompleteRequestParamsRef,
    argument: &str,
    typed: &str,
) -> Vec<String> {
    let owner = match reference {
        mcp::CompleteRequestParamsRef::PromptReference(prompt) => prompt.name.as_str(),
        mcp::CompleteRequestParamsRef::ResourceTemplateReference(template) => template.uri.as_str(),
    };
    COMPLETIONS
        .iter()
        .filter(|(o, a, _)| *o == owner && *a == argument)
        .flat_map(|(.., values)| values.iter())
        .filter(|value| value.starts_with(typed))
        .map(|value| (*value).to_owned())
        .collect()
}

const JSON_SCHEMA_TOOL: &str = "json_schema_2020_12_tool";
const CUSTOM_HEADER_TOOL: &str = "test_custom_header";

fn simple_tools(list: &[(&str, &str, &[&str])]) -> Vec<Tool> {
    list.iter()
        .map(|(name, description, arguments)| {
            let properties: Map<String, Value> = arguments
                .iter()
                .map(|a| (a.to_string(), json!({ "type": "string" })))
                .collect();
            let schema =
                json!({ "type": "object", "properties": properties, "required": arguments });
            tool(name, description, input_schema(schema))
        })
        .collect()
}

/// The tools a request sees: a stateless request also sees the stateless scenarios' tools,
/// the SEP-2322 tools and the tasks extension's.
fn listed(context: &Context) -> Vec<Tool> {
    let mut tools = session_tools();
    if stateless(context) {
        tools.extend(stateless_tools());
        tools.extend(crate::input_required::tools());
        tools.extend(crate::tasks::tools());
    }
    tools
}

/// The tools of the suite's reference server, as every session lists them.
fn session_tools() -> Vec<Tool> {
    let mut tools = simple_tools(TOOLS);
    let string = json!({ "type": "string" });
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "name": string,
            "address": { "$ref": "#/$defs/address" },
            "contactMethod": { "type": "string", "enum": ["phone", "email"] },
            "phone": string,
            "email": string,
        },
        // SEP-1613: JSON Schema 2020-12 keywords survive in the tool listing.
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": { "street": string, "city": string },
            },
        },
        // SEP-2106: composition and conditional keywords survive too.
        "allOf": [{ "anyOf": [{ "required": ["phone"] }, { "required": ["email"] }] }],
        "if": {
            "properties": { "contactMethod": { "const": "phone" } },
            "required": ["contactMethod"],
        },
        "then": { "required": ["phone"] },
        "else": { "required": ["email"] },
        "additionalProperties": false,
    });
    tools.push(tool(
        JSON_SCHEMA_TOOL,
        "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613, SEP-2106)",
        input_schema(schema),
    ));
    tools
}

/// The tools only stateless requests see.
fn stateless_tools() -> Vec<Tool> {
    let mut tools = simple_tools(STATELESS_TOOLS);
    // SEP-2243: an argument a client mirrors into the `Mcp-Param-Region` header.
    let schema = json!({
        "type": "object",
        "properties": { "region": { "type": "string", "x-mcp-header": "Region" } },
        "required": ["region"],
    });
    tools.push(tool(
        CUSTOM_HEADER_TOOL,
        "Echoes its region, which the client also sends as the Mcp-Param-Region header (SEP-2243)",
        input_schema(schema),
    ));
    tools
}

/// The input schema of every tool, by tool name, as JSON: what the transport reads the
/// `x-mcp-header` annotations from.
pub fn input_schemas() -> Vec<(String, Value)> {
    session_tools()
        .into_iter()
        .chain(stateless_tools())
        .filter_map(|tool| Some((tool.name, serde_json::to_value(tool.input_schema).ok()?)))
        .collect()
}

/// A tool's input schema: a JSON Schema document, kept as it is written (2026-07-28 names
/// no member of it but `$schema`, and writes `"type": "object"` itself).
pub fn input_schema(schema: Value) -> ToolInputSchema {
    let mut extra = match schema {
        Value::Object(members) => members,
        _ => Map::new(),
    };
    extra.remove("type");
    let schema = match extra.remove("$schema") {
        Some(Value::String(uri)) => Some(uri),
        _ => None,
    };
    ToolInputSchema { schema, extra }
}

fn tool(name: &str, description: &str, input_schema: ToolInputSchema) -> Tool {
    Tool {
        annotations: None,
        description: Some(description.to_owned()),
        icons: None,
        input_schema,
        meta: None,
        name: name.to_owned(),
        output_schema: None,
        title: None,
        extra: Map::new(),
    }
}

fn argument<'a>(arguments: &'a Map<String, Value>, name: &str) -> Result<&'a str, RpcError> {
    arguments.get(name).and_then(Value::as_str).ok_or_else(|| {
        RpcError::invalid_params(format!("argument `{name}` (a string) is required"))
    })
}

fn call_tool(
    params: &CallToolRequestParams,
    context: &mut Context,
) -> Result<CallToolResultOrInputRequired, RpcError> {
    let name = params.name.as_str();
    let arguments = match &params.arguments {
        Some(arguments) => arguments
            .to_map()
            .map_err(|e| RpcError::invalid_params(format!("the arguments cannot be read: {e}")))?,
        None => Map::new(),
    };
    // A session has the tools it lists, and no others.
    let stateless_only =
        name == CUSTOM_HEADER_TOOL || STATELESS_TOOLS.iter().any(|(tool, ..)| *tool == name);
    if stateless_only && !stateless(context) {
        return Err(RpcError::invalid_params(format!("unknown tool {name}")));
    }
    let client = &params.meta.io_modelcontextprotocol_client_capabilities;
    Ok(CallToolResultOrInputRequired::CallToolResult(match name {
        "test_simple_text" => text_result("This is a simple text response for testing."),
        "test_image_content" => result(vec![image()?]),
        "test_audio_content" => result(vec![ContentBlock::from(
            mcp::AudioContent::from_base64(WAV, "audio/wav").map_err(internal)?,
        )]),
        "test_embedded_resource" => result(vec![ContentBlock::resource_text(
            "test://embedded-resource",
            "This is an embedded resource content.",
            "text/plain",
        )]),
        "test_multiple_content_types" => result(vec![
            ContentBlock::text("Multiple content types test:"),
            image()?,
            ContentBlock::resource_text(
                "test://mixed-content-resource",
                r#"{"test":"data","value":123}"#,
                "application/json",
            ),
        ]),
        "test_tool_with_logging" => {
            for message in [
                "Tool execution started",
                "Tool processing data",
                "Tool execution completed",
            ] {
                context.log(LoggingLevel::Info, message);
            }
            text_result("Tool with logging executed successfully")
        }
        "test_tool_with_progress" => {
            for step in [0u64, 50, 100] {
                let message = format!("Completed step {step} of 100");
                context.progress(step, Some(100.into()), Some(&message));
            }
            let token = (context.progress_token.as_ref())
                .and_then(|token| serde_json::to_value(token).ok())
                .map(|token| match token {
                    Value::String(text) => text,
                    other => other.to_string(),
                });
            text_result(token.unwrap_or_else(|| "0".to_owned()))
        }
        "test_error_handling" => {
            let mut failed = text_result("This tool intentionally returns an error for testing");
            failed.is_error = Some(true);
            failed
        }
        // Its stream is closed before the answer (`Conformance::closes_stream`): the client
        // resumes it to get this.
        "test_reconnection" => text_result("Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure."),
        "test_sampling" => {
            let prompt = argument(&arguments, "prompt")?;
            return sample(params, client, prompt);
        }
        "test_elicitation" => {
            let message = argument(&arguments, "message")?;
            let form = FormSchema::new().required("response", string().describe("User's response"));
            return elicit(params, client, form.request(message));
        }
        "test_elicitation_sep1034_defaults" => {
            let form = FormSchema::new()
                .property(
                    "name",
                    string().describe("User name").with_default("John Doe"),
                )
                .property("age", integer().describe("User age").with_default(30))
                .property("score", number().describe("User score").with_default(95.5))
                .property(
                    "status",
                    single_select(["active", "inactive", "pending"])
                        .describe("User status")
                        .with_default("active"),
                )
                .property(
                    "verified",
                    boolean().describe("Verification status").with_default(true),
                );
            let form = form.request("Please review and update the form fields with defaults");
            return elicit(params, client, form);
        }
        "test_elicitation_sep1330_enums" => {
            let titled = [
                ("value1", "First Option"),
                ("value2", "Second Option"),
                ("value3", "Third Option"),
            ];
            let choices = [
                ("value1", "First Choice"),
                ("value2", "Second Choice"),
                ("value3", "Third Choice"),
            ];
            let form = FormSchema::new()
                .property(
                    "untitledSingle",
                    single_select(["option1", "option2", "option3"]).describe("Select one option"),
                )
                .property(
                    "titledSingle",
                    titled_single_select(titled).describe("Select one option with titles"),
                )
                .property(
                    "legacyEnum",
                    legacy_titled_select(
                        ["opt1", "opt2", "opt3"],
                        ["Option One", "Option Two", "Option Three"],
                    )
                    .describe("Select one option (legacy)"),
                )
                .property(
                    "untitledMulti",
                    multi_select(["option1", "option2", "option3"], Some(1), Some(3))
                        .describe("Select multiple options"),
                )
                .property(
                    "titledMulti",
                    titled_multi_select(choices, Some(1), Some(3))
                        .describe("Select multiple options with titles"),
                );
            let form = form.request("Please select options from the enum fields");
            return elicit(params, client, form);
        }
        "test_missing_capability" => {
            require(
                client,
                &ClientCapabilities {
                    sampling: Some(Default::default()),
                    ..Default::default()
                },
            )?;
            text_result("Success")
        }
        "test_streaming_elicitation" => {
            require(
                client,
                &ClientCapabilities {
                    elicitation: Some(Default::default()),
                    ..Default::default()
                },
            )?;
            context.progress(50, Some(100.into()), Some("Streaming"));
            text_result("Streaming complete")
        }
        "test_logging_tool" => {
            context.log(LoggingLevel::Info, "Diagnostic trace logging activated");
            text_result("Logging evaluated")
        }
        "test_trigger_tool_change" => {
            context.changed(Change::ToolList);
            text_result("Mutation triggered")
        }
        "test_trigger_prompt_change" => {
            context.changed(Change::PromptList);
            text_result("Mutation triggered")
        }
        CUSTOM_HEADER_TOOL => text_result(format!("Region: {}", argument(&arguments, "region")?)),
        JSON_SCHEMA_TOOL => text_result(format!(
            "JSON Schema 2020-12 tool called with: {}",
            Value::Object(arguments.clone())
        )),
        other => return Err(RpcError::invalid_params(format!("unknown tool {other}"))),
    }))
}

/// Refuses the call unless the client declared what `needed` names: the -32021 error whose
/// data is the missing capabilities, as a `ClientCapabilities` object.
fn require(client: &ClientCapabilities, needed: &ClientCapabilities) -> Result<(), RpcError> {
    let missing = ClientCapabilities {
        sampling: needed
            .sampling
            .clone()
            .filter(|_| client.sampling.is_none()),
        elicitation: (needed.elicitation.clone()).filter(|_| client.elicitation.is_none()),
        roots: needed.roots.clone().filter(|_| client.roots.is_none()),
        ..ClientCapabilities::default()
    };
    if missing == ClientCapabilities::default() {
        return Ok(());
    }
    let data = json!({ "requiredCapabilities": missing });
    Err(RpcError::from_code(ErrorCode::MissingRequiredClientCapability).with_data(data))
}

/// The key under which the tools ask for their one input.
const INPUT: &str = "input";

/// The answer under [`INPUT`] of a retry of the call; `None` on the first attempt (or when
/// the client left it out: it is asked again).
fn answered<T>(response: Result<&T, InputResponseError>) -> Result<Option<&T>, RpcError> {
    match response {
        Ok(answer) => Ok(Some(answer)),
        Err(InputResponseError::Missing { .. }) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// `ask`, sent as `input_required` (the engine asks a session's client as a request of its
/// revision, and calls again with the answer); a client that did not declare what it needs
/// gets the tool's text saying so, as the reference server answers.
fn ask(
    ask: InputRequired,
    client: &ClientCapabilities,
    what: &str,
) -> CallToolResultOrInputRequired {
    match ask.build(client) {
        Ok(asked) => asked.into(),
        Err(e) => CallToolResultOrInputRequired::CallToolResult(text_result(format!(
            "{what} not supported or error: {e}"
        ))),
    }
}

/// `test_sampling`: asks the client's model to complete `prompt`.
fn sample(
    params: &CallToolRequestParams,
    client: &ClientCapabilities,
    prompt: &str,
) -> Result<CallToolResultOrInputRequired, RpcError> {
    let retry = RoundTrip::of(params);
    if let Some(answer) = answered(retry.sampling(INPUT))? {
        let text = match &answer.content {
            mcp::CreateMessageResultContent::TextContent(t) => t.text.as_str(),
            _ => "No response",
        };
        return Ok(text_result(format!("LLM response: {text}")).into());
    }
    let request = crate::input_required::sample(prompt, 100);
    Ok(ask(
        InputRequired::new().sample(INPUT, request),
        client,
        "Sampling",
    ))
}

/// Asks the client to fill in `form`'s fields. The crate's form builder writes 2025-11-25's
/// request, which 2026-07-28 holds unchanged.
fn elicit(
    params: &CallToolRequestParams,
    client: &ClientCapabilities,
    form: stateful::ElicitRequestParams,
) -> Result<CallToolResultOrInputRequired, RpcError> {
    let retry = RoundTrip::of(params);
    if let Some(answer) = answered(retry.elicitation(INPUT))? {
        let content =
            serde_json::to_string(&answer.content.clone().unwrap_or_default()).unwrap_or_default();
        let action = serde_json::to_value(answer.action).unwrap_or_default();
        let action = action.as_str().unwrap_or("?").to_owned();
        let text = format!("Elicitation completed: action={action}, content={content}");
        return Ok(text_result(text).into());
    }
    let form = ConvertTo::<mcp::ElicitRequestParams>::convert(&form).map_err(internal)?;
    Ok(ask(
        InputRequired::new().elicit(INPUT, form),
        client,
        "Elicitation",
    ))
}

const TEMPLATE: &str = "test://template/{id}/data";

/// The direct resources: URI, name, MIME type, and text (or base64 for a blob).
const RESOURCES: &[(&str, &str, &str, &str)] = &[
    (
        "test://static-text",
        "static-text",
        "text/plain",
        "This is the content of the static text resource.",
    ),
    ("test://static-binary", "static-binary", "image/png", PNG),
    (
        "test://watched-resource",
        "watched-resource",
        "text/plain",
        "Watched resource content",
    ),
];

fn read(uri: &str) -> Result<ReadResourceResult, RpcError> {
    let CacheHint { scope, ttl_ms } = hint("resources/read");
    let from = |item: mcp::ReadResourceResultContentsItem| {
        ReadResourceResult::complete([item], ttl_ms, scope)
    };
    if let Some((uri, _, mime, content)) = RESOURCES.iter().find(|r| r.0 == uri) {
        if *mime == "image/png" {
            let blob = mcp::BlobResourceContents::from_base64(*uri, *content).map_err(internal)?;
            let blob = blob.with_mime_type(*mime);
            return Ok(from(blob.into()));
        }
        let text = TextResourceContents::new(*uri, *content).with_mime_type(*mime);
        return Ok(from(text.into()));
    }
    let template = ResourceTemplate::new(TEMPLATE, "template");
    let matched = template
        .match_uri(uri)
        .ok()
        .flatten()
        .ok_or_else(|| RpcError::resource_not_found(uri))?;
    let id = matched
        .get("id")
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_owned();
    let data = Value::Object(Map::from_iter([
        ("id".to_owned(), Value::String(id.clone())),
        ("templateTest".to_owned(), Value::Bool(true)),
        (
            "data".to_owned(),
            Value::String(format!("Data for ID: {id}")),
        ),
    ]));
    let text = TextResourceContents::new(uri, data.to_string()).with_mime_type("application/json");
    Ok(from(text.into()))
}

/// The prompts: name, description, required arguments.
const PROMPTS: &[(&str, &str, &[&str])] = &[
    (
        "test_simple_prompt",
        "A simple prompt without arguments",
        &[],
    ),
    (
        "test_prompt_with_arguments",
        "A prompt with required arguments",
        &["arg1", "arg2"],
    ),
    (
        "test_prompt_with_embedded_resource",
        "A prompt that includes an embedded resource",
        &["resourceUri"],
    ),
    (
        "test_prompt_with_image",
        "A prompt that includes image content",
        &[],
    ),
];

fn prompts() -> Vec<Prompt> {
    PROMPTS
        .iter()
        .map(|(name, description, arguments)| Prompt {
            arguments: Some(
                arguments
                    .iter()
                    .map(|a| PromptArgument {
                        description: None,
                        name: a.to_string(),
                        required: Some(true),
                        title: None,
                        extra: Map::new(),
                    })
                    .collect(),
            ),
            description: Some(description.to_string()),
            icons: None,
            meta: None,
            name: name.to_string(),
            title: None,
            extra: Map::new(),
        })
        .collect()
}

fn user(content: ContentBlock) -> PromptMessage {
    PromptMessage {
        content,
        role: Role::User,
        extra: Map::new(),
    }
}

fn get_prompt(name: &str, args: &BTreeMap<String, String>) -> Result<GetPromptResult, RpcError> {
    let (_, _, required) = PROMPTS
        .iter()
        .find(|p| p.0 == name)
        .ok_or_else(|| RpcError::invalid_params(format!("unknown prompt {name}")))?;
    if let Some(missing) = required.iter().find(|a| !args.contains_key(**a)) {
        return Err(RpcError::invalid_params(format!(
            "argument `{missing}` is required"
        )));
    }
    let arg = |n: &str| args.get(n).cloned().unwrap_or_default();
    let messages = match name {
        "test_prompt_with_arguments" => vec![user(ContentBlock::text(format!(
            "Prompt with arguments: arg1='{}', arg2='{}'",
            arg("arg1"),
            arg("arg2")
        )))],
        "test_prompt_with_embedded_resource" => vec![
            user(ContentBlock::resource_text(
                arg("resourceUri"),
                "Embedded resource content for testing.",
                "text/plain",
            )),
            user(ContentBlock::text(
                "Please process the embedded resource above.",
            )),
        ],
        "test_prompt_with_image" => vec![
            user(image()?),
            user(ContentBlock::text("Please analyze the image above.")),
        ],
        _ => vec![user(ContentBlock::text(
            "This is a simple prompt for testing.",
        ))],
    };
    Ok(GetPromptResult {
        description: None,
        messages,
        meta: None,
        result_type: mcp_spec_types::cache::ResultType::COMPLETE,
        extra: Map::new(),
    })
}
