//! The multi round-trip tools and prompt of the suite's reference server (the
//! `input-required-result-*` scenarios, SEP-2322), on revision 2026-07-28, written with the
//! crate's `input_required` helpers.
//!
//! Every tool asks through an `InputRequiredResult` that respects the capabilities the request
//! declares, reads the retry's answers by key, and asks again for what is missing. Request
//! state is always sealed with an HMAC-SHA256 under a key drawn when the process starts, and
//! names the tool it was issued for: state from the client that fails the check, or that was
//! issued for another tool, is refused with -32602.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use hmac::{Hmac, Mac};
use mcp_spec_types::v2026_07_28::input_required::{
    missing_capabilities, InputRequired, InputResponseError, RoundTrip, StateCodec, StateError,
};
use mcp_spec_types::v2026_07_28::{
    BooleanSchema, CallToolRequest, CallToolResult, ClientCapabilities, ContentBlock,
    CreateMessageRequestParams, CreateMessageResultContent, ElicitRequestFormParamsRequestedSchema,
    ElicitResult, ElicitResultAction, ElicitResultContentValue, ElicitResultContentValueVariant1,
    GetPromptRequest, GetPromptResult, InputRequest, PrimitiveSchemaDefinition, Prompt,
    PromptMessage, Role, SamplingMessage, SamplingMessageContent, StringSchema, TextContent, Tool,
    ToolInputSchema,
};
use mcp_spec_types::RpcError;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use sha2::Sha256;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

const ELICITATION: &str = "test_input_required_result_elicitation";
const SAMPLING: &str = "test_input_required_result_sampling";
const LIST_ROOTS: &str = "test_input_required_result_list_roots";
const REQUEST_STATE: &str = "test_input_required_result_request_state";
const MULTIPLE_INPUTS: &str = "test_input_required_result_multiple_inputs";
const MULTI_ROUND: &str = "test_input_required_result_multi_round";
const TAMPERED_STATE: &str = "test_input_required_result_tampered_state";
const CAPABILITIES: &str = "test_input_required_result_capabilities";
const PROMPT: &str = "test_input_required_result_prompt";

/// The tools, with the descriptions of the reference server.
const TOOLS: &[(&str, &str)] = &[
    (
        ELICITATION,
        "MRTR: returns InputRequiredResult with elicitation request",
    ),
    (
        SAMPLING,
        "MRTR: returns InputRequiredResult with sampling request",
    ),
    (
        LIST_ROOTS,
        "MRTR: returns InputRequiredResult with roots/list request",
    ),
    (
        REQUEST_STATE,
        "MRTR: returns InputRequiredResult with requestState",
    ),
    (
        MULTIPLE_INPUTS,
        "MRTR: returns InputRequiredResult with multiple input requests",
    ),
    (
        MULTI_ROUND,
        "MRTR: multi-round InputRequiredResult workflow",
    ),
    (
        TAMPERED_STATE,
        "MRTR: HMAC-signed requestState integrity test",
    ),
    (
        CAPABILITIES,
        "MRTR: respects client capabilities in inputRequests",
    ),
];

/// The `tools/list` entries of the tools answered here (none takes arguments).
pub fn tools() -> Vec<Tool> {
    TOOLS
        .iter()
        .map(|&(name, description)| Tool {
            annotations: None,
            description: Some(description.to_owned()),
            icons: None,
            // `"type": "object"` is the constant the struct writes itself.
            input_schema: ToolInputSchema {
                schema: None,
                extra: object(json!({ "properties": {} })),
            },
            meta: None,
            name: name.to_owned(),
            output_schema: None,
            title: None,
            extra: Map::new(),
        })
        .collect()
}

/// The `prompts/list` entries of the prompts answered here.
pub fn prompts() -> Vec<Prompt> {
    vec![Prompt {
        arguments: None,
        description: Some("MRTR: prompt that requires elicitation input".to_owned()),
        icons: None,
        meta: None,
        name: PROMPT.to_owned(),
        title: None,
        extra: Map::new(),
    }]
}

/// Answers `tools/call` of the tools above and `prompts/get` of the prompt above, with the
/// complete 2026-07-28 result object (an `InputRequiredResult` or the complete result);
/// `None` for any other request.
pub fn answer(
    method: &str,
    params: &Map<String, Value>,
    client_capabilities: &ClientCapabilities,
) -> Option<Result<Map<String, Value>, RpcError>> {
    let name = params.get("name").and_then(Value::as_str)?;
    let tool = match method {
        "tools/call" => TOOLS.iter().find(|(tool, _)| *tool == name)?.0,
        "prompts/get" if name == PROMPT => PROMPT,
        _ => return None,
    };
    let client = client_capabilities;
    Some(
        RoundTrip::from_params(params)
            .map_err(RpcError::from)
            .and_then(|retry| {
                let step = match tool {
                    ELICITATION => elicitation(&retry),
                    SAMPLING => sampling(&retry),
                    LIST_ROOTS => list_roots(&retry),
                    REQUEST_STATE => confirmed(tool, &retry, "state-ok: requestState validated"),
                    TAMPERED_STATE => confirmed(tool, &retry, "integrity-ok: state verified"),
                    MULTIPLE_INPUTS => multiple_inputs(&retry),
                    MULTI_ROUND => multi_round(&retry),
                    CAPABILITIES => capabilities(&retry, client),
                    _ => prompt(&retry),
                }?;
                match (step, tool) {
                    (Step::Ask(ask), PROMPT) => {
                        to_object(&ask.result_for::<GetPromptRequest>(client)?)
                    }
                    (Step::Ask(ask), _) => to_object(&ask.result_for::<CallToolRequest>(client)?),
                    (Step::Done(text), PROMPT) => to_object(&GetPromptResult {
                        description: None,
                        messages: vec![PromptMessage {
                            content: text_block(text),
                            role: Role::User,
                            extra: Map::new(),
                        }],
                        meta: None,
                        result_type: mcp_spec_types::cache::ResultType::COMPLETE,
                        extra: Map::new(),
                    }),
                    (Step::Done(text), _) => to_object(&CallToolResult {
                        content: vec![text_block(text)],
                        is_error: None,
                        meta: None,
                        result_type: mcp_spec_types::cache::ResultType::COMPLETE,
                        structured_content: None,
                        extra: Map::new(),
                    }),
                }
            }),
    )
}

/// What a handler decided: ask the client (again), or answer with this text.
// One per request, moved once: boxing the larger arm would buy nothing.
#[allow(clippy::large_enum_variant)]
enum Step {
    Ask(InputRequired),
    Done(String),
}

/// The state handed to the client between rounds, sealed.
#[derive(Serialize, Deserialize)]
struct State {
    /// The tool it was issued for: state from one tool is not accepted by another.
    tool: String,
    /// The round that issued it.
    round: u8,
    /// The name given in round 1 of the multi-round tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    /// Makes every state handed out distinct.
    nonce: u64,
}

fn seal(tool: &str, round: u8, name: Option<String>) -> State {
    static NONCE: AtomicU64 = AtomicU64::new(0);
    State {
        tool: tool.to_owned(),
        round,
        name,
        nonce: NONCE.fetch_add(1, Ordering::Relaxed),
    }
}

/// The request state of `retry`, opened and checked to be `tool`'s; `None` when there is none.
fn state(tool: &str, retry: &RoundTrip) -> Result<Option<State>, RpcError> {
    match retry.open_state::<_, State>(codec())? {
        Some(state) if state.tool != tool => Err(RpcError::invalid_params(format!(
            "requestState was issued for {:?}, not {tool:?}",
            state.tool
        ))),
        state => Ok(state),
    }
}

/// `Some` answer, `None` when the key was not answered (the tool then asks again); any other
/// misfit is the client's error.
fn answered<T>(response: Result<T, InputResponseError>) -> Result<Option<T>, RpcError> {
    match response {
        Ok(response) => Ok(Some(response)),
        Err(InputResponseError::Missing { .. }) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

fn elicitation(retry: &RoundTrip) -> Result<Step, RpcError> {
    Ok(match answered(retry.elicitation("user_name"))? {
        Some(answer) => Step::Done(format!("Hello, {}!", field(answer, "name"))),
        None => Step::Ask(ask_name(
            InputRequired::new(),
            "user_name",
            "What is your name?",
        )),
    })
}

fn sampling(retry: &RoundTrip) -> Result<Step, RpcError> {
    Ok(match answered(retry.sampling("capital_question"))? {
        Some(answer) => Step::Done(format!(
            "Sampling result: {}",
            match &answer.content {
                CreateMessageResultContent::TextContent(text) => text.text.as_str(),
                _ => "(not text)",
            }
        )),
        None => Step::Ask(InputRequired::new().sample(
            "capital_question",
            sample("What is the capital of France?", 100),
        )),
    })
}

fn list_roots(retry: &RoundTrip) -> Result<Step, RpcError> {
    Ok(match answered(retry.roots("client_roots"))? {
        Some(answer) => Step::Done(format!("Found {} root(s)", answer.roots.len())),
        None => Step::Ask(InputRequired::new().list_roots("client_roots")),
    })
}

/// A confirmation carried with sealed state: complete once both came back.
fn confirmed(tool: &str, retry: &RoundTrip, done: &str) -> Result<Step, RpcError> {
    let state = state(tool, retry)?;
    if let (Some(_), Some(answer)) = (state, answered(retry.elicitation("confirm"))?) {
        let ok = matches!(
            answer
                .content
                .as_ref()
                .and_then(|content| content.get("ok")),
            Some(ElicitResultContentValue::Variant1(
                ElicitResultContentValueVariant1::Boolean(true)
            ))
        );
        return Ok(Step::Done(format!("{done}; confirmed: {ok}")));
    }
    let ask =
        InputRequired::new().elicit_form("confirm", "Please confirm", schema("ok", boolean()));
    Ok(Step::Ask(ask.seal_state(codec(), &seal(tool, 1, None))?))
}

fn multiple_inputs(retry: &RoundTrip) -> Result<Step, RpcError> {
    let state = state(MULTIPLE_INPUTS, retry)?;
    let name = answered(retry.elicitation("user_name"))?;
    let greeting = answered(retry.sampling("greeting"))?;
    let roots = answered(retry.roots("client_roots"))?;
    if let (Some(_), Some(name), Some(greeting), Some(roots)) = (state, name, greeting, roots) {
        let greeting = match &greeting.content {
            CreateMessageResultContent::TextContent(text) => text.text.as_str(),
            _ => "(not text)",
        };
        return Ok(Step::Done(format!(
            "Name: {}; Greeting: {greeting}; Roots: {}",
            field(name, "name"),
            roots.roots.len()
        )));
    }
    // Asks again only for what did not come back.
    let mut ask = InputRequired::new();
    if name.is_none() {
        ask = ask_name(ask, "user_name", "What is your name?");
    }
    if greeting.is_none() {
        ask = ask.sample("greeting", sample("Generate a greeting", 50));
    }
    if roots.is_none() {
        ask = ask.list_roots("client_roots");
    }
    Ok(Step::Ask(
        ask.seal_state(codec(), &seal(MULTIPLE_INPUTS, 1, None))?,
    ))
}

fn multi_round(retry: &RoundTrip) -> Result<Step, RpcError> {
    let state = state(MULTI_ROUND, retry)?;
    let step1 = || ask_name(InputRequired::new(), "step1", "Step 1: What is your name?");
    let ask = match state {
        Some(State { round: 1, .. }) => match answered(retry.elicitation("step1"))? {
            Some(answer) => {
                let name = field(answer, "name").to_owned();
                let ask = InputRequired::new().elicit_form(
                    "step2",
                    "Step 2: What is your favorite color?",
                    schema("color", string()),
                );
                ask.seal_state(codec(), &seal(MULTI_ROUND, 2, Some(name)))?
            }
            None => step1().seal_state(codec(), &seal(MULTI_ROUND, 1, None))?,
        },
        Some(State {
            round: 2,
            name: Some(name),
            ..
        }) => match answered(retry.elicitation("step2"))? {
            Some(answer) => {
                return Ok(Step::Done(format!(
                    "Multi-round complete for {name} who likes {}",
                    field(answer, "color")
                )))
            }
            None => InputRequired::new()
                .elicit_form(
                    "step2",
                    "Step 2: What is your favorite color?",
                    schema("color", string()),
                )
                .seal_state(codec(), &seal(MULTI_ROUND, 2, Some(name)))?,
        },
        // No state (a first call), or state of a round this tool never issues: start over.
        _ => step1().seal_state(codec(), &seal(MULTI_ROUND, 1, None))?,
    };
    Ok(Step::Ask(ask))
}

/// Asks only for what the request's capabilities allow.
fn capabilities(retry: &RoundTrip, client: &ClientCapabilities) -> Result<Step, RpcError> {
    let wanted = InputRequired::new()
        .elicit_form(
            "elicit_input",
            "Elicitation input",
            schema("value", string()),
        )
        .sample("sample_input", sample("Sample request", 50));
    let mut ask = InputRequired::new();
    for (key, request) in wanted.requests() {
        if missing_capabilities(client, request).is_none() {
            ask = ask.request(key.clone(), request.clone());
        }
    }
    if ask.requests().is_empty() {
        return Ok(Step::Done("No supported capabilities declared".to_owned()));
    }
    let mut received = Vec::new();
    let mut again = InputRequired::new();
    for (key, request) in ask.requests() {
        let answer = match request {
            InputRequest::ElicitRequest(_) => answered(retry.elicitation(key))?.map(|_| ()),
            InputRequest::CreateMessageRequest(_) => answered(retry.sampling(key))?.map(|_| ()),
            InputRequest::ListRootsRequest(_) => answered(retry.roots(key))?.map(|_| ()),
        };
        match answer {
            Some(()) => received.push(key.as_str()),
            None => again = again.request(key.clone(), request.clone()),
        }
    }
    if again.requests().is_empty() {
        return Ok(Step::Done(format!(
            "capabilities-ok: received {}",
            received.join(",")
        )));
    }
    Ok(Step::Ask(again))
}

fn prompt(retry: &RoundTrip) -> Result<Step, RpcError> {
    Ok(match answered(retry.elicitation("user_context"))? {
        Some(answer) => Step::Done(format!("Prompt with context: {}", field(answer, "context"))),
        None => Step::Ask(InputRequired::new().elicit_form(
            "user_context",
            "What context should the prompt use?",
            schema("context", string()),
        )),
    })
}

fn ask_name(ask: InputRequired, key: &str, message: &str) -> InputRequired {
    ask.elicit_form(key, message, schema("name", string()))
}

/// A form with one required property (the tasks extension's tools ask with it too).
pub(crate) fn schema(
    property: &str,
    kind: impl Into<PrimitiveSchemaDefinition>,
) -> ElicitRequestFormParamsRequestedSchema {
    ElicitRequestFormParamsRequestedSchema {
        properties: BTreeMap::from([(property.to_owned(), kind.into())]),
        required: Some(vec![property.to_owned()]),
        schema: None,
        extra: Map::new(),
    }
}

pub(crate) fn string() -> StringSchema {
    StringSchema {
        default: None,
        description: None,
        format: None,
        max_length: None,
        min_length: None,
        title: None,
        extra: Map::new(),
    }
}

pub(crate) fn boolean() -> BooleanSchema {
    BooleanSchema {
        default: None,
        description: None,
        title: None,
        extra: Map::new(),
    }
}

/// A sampling request of one user message, `text`.
pub(crate) fn sample(text: &str, max_tokens: i64) -> CreateMessageRequestParams {
    CreateMessageRequestParams {
        include_context: None,
        max_tokens,
        messages: vec![SamplingMessage {
            content: SamplingMessageContent::TextContent(TextContent::new(text)),
            meta: None,
            role: Role::User,
            extra: Map::new(),
        }],
        metadata: None,
        model_preferences: None,
        stop_sequences: None,
        system_prompt: None,
        temperature: None,
        tool_choice: None,
        tools: None,
        extra: Map::new(),
    }
}

/// A string member of an accepted form, "unknown" when the user gave none.
pub(crate) fn field<'a>(answer: &'a ElicitResult, name: &str) -> &'a str {
    if answer.action != ElicitResultAction::Accept {
        return "unknown";
    }
    match answer
        .content
        .as_ref()
        .and_then(|content| content.get(name))
    {
        Some(ElicitResultContentValue::Variant1(ElicitResultContentValueVariant1::String(s))) => s,
        _ => "unknown",
    }
}

fn text_block(text: String) -> ContentBlock {
    ContentBlock::TextContent(TextContent::new(text))
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A result written as the JSON object the stateless path answers with.
pub(crate) fn to_object<T: Serialize>(result: &T) -> Result<Map<String, Value>, RpcError> {
    match serde_json::to_value(result) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(RpcError::new(
            mcp_spec_types::ErrorCode::InternalError,
            "a result is not an object",
        )),
        Err(e) => Err(RpcError::new(
            mcp_spec_types::ErrorCode::InternalError,
            e.to_string(),
        )),
    }
}

// ---------------------------------------------------------------------------------------------
// The request-state codec
// ---------------------------------------------------------------------------------------------

type HmacSha256 = Hmac<Sha256>;

/// Seals state as `base64url(state) "." base64url(HMAC-SHA256(key, state))`: readable by the
/// client, but not changeable without the key.
struct HmacCodec {
    key: [u8; 32],
}

/// The process's codec. Its key is drawn at start-up, so state does not outlive the process; a
/// server behind a load balancer shares one configured secret between its instances instead.
fn codec() -> &'static HmacCodec {
    static CODEC: OnceLock<HmacCodec> = OnceLock::new();
    CODEC.get_or_init(|| {
        use std::hash::{BuildHasher, Hasher};
        // std's hasher keys are drawn from the operating system's random source; four of them
        // make 256 unpredictable bits without a dependency for randomness.
        let mut key = [0u8; 32];
        for (i, chunk) in key.chunks_mut(8).enumerate() {
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_usize(i);
            chunk.copy_from_slice(&hasher.finish().to_le_bytes());
        }
        HmacCodec { key }
    })
}

impl HmacCodec {
    fn mac(&self, state: &[u8]) -> Result<HmacSha256, StateError> {
        let mut mac = HmacSha256::new_from_slice(&self.key)
            .map_err(|e| StateError::Unsealable(e.to_string()))?;
        mac.update(state);
        Ok(mac)
    }
}

impl StateCodec for HmacCodec {
    fn seal(&self, state: &[u8]) -> Result<String, StateError> {
        let tag = self.mac(state)?.finalize().into_bytes();
        Ok(format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(state),
            URL_SAFE_NO_PAD.encode(tag)
        ))
    }

    fn open(&self, sealed: &str) -> Result<Vec<u8>, StateError> {
        let (state, tag) = sealed.split_once('.').ok_or(StateError::Tampered)?;
        let state = URL_SAFE_NO_PAD
            .decode(state)
            .map_err(|_| StateError::Tampered)?;
        let tag = URL_SAFE_NO_PAD
            .decode(tag)
            .map_err(|_| StateError::Tampered)?;
        // Constant-time comparison.
        self.mac(&state)?
            .verify_slice(&tag)
            .map_err(|_| StateError::Tampered)?;
        Ok(state)
    }
}
