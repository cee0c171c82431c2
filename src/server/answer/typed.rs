//! Tools, prompts and resource templates whose arguments are a Rust type: the type's schema
//! (derived with schemars) is what the router lists, the arguments a client sends are read
//! into the type before the handler runs, and what fails to read is answered for the handler.
//!
//! What a bad argument gets: a tool answers with a result whose `isError` is true, naming the
//! argument's JSON path and what was expected, so that the model that called it can correct
//! itself. The tools pages of 2025-11-25 and 2026-07-28 say so ("Input validation errors" are
//! tool execution errors, SEP-1303), and every official SDK answers that way. The 2026-07-28
//! schema's description of `InvalidParamsError` (and its `invalid-tool-arguments.json`
//! example) says -32602 instead; the crate follows the pages, which are the normative text of
//! the tools feature, and keeps -32602 for a call that names no tool. A prompt's arguments
//! have no such result: a prompt that cannot be read is -32602, the error the prompts page
//! names for "missing required arguments". A resource URI that matches no template, or whose
//! variables do not read, is "resource not found" in the client's revision.

use super::keywords::Keywords;
use crate::json_object::JsonObject;
use crate::prelude::*;
use crate::server::engine::Context;
use crate::uri_template::{VarValue, Variables};
use crate::v2026_07_28::{
    CallToolRequestParams, CallToolResult, CallToolResultOrInputRequired,
    ElicitRequestFormParamsRequestedSchema, ElicitResult, ElicitResultAction,
    GetPromptRequestParams, InputRequiredResult, Prompt, PromptArgument, StringSchemaFormat, Tool,
    ToolInputSchema, ToolOutputSchema,
};
use crate::RpcError;
use core::fmt;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// Why a Rust type cannot be the schema the router lists for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    type_name: &'static str,
    what: &'static str,
    problem: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} as {}: {}", self.type_name, self.what, self.problem)
    }
}

impl core::error::Error for SchemaError {}

/// The JSON Schema of `T`, as a tool's `inputSchema` or `outputSchema` takes it: JSON Schema
/// 2020-12 (the dialect MCP assumes when a schema names none), subschemas inlined where they
/// are not recursive, and no `$schema` member (it would only repeat the default). The root
/// must be `"type": "object"`: a struct, or a map.
///
/// # Errors
///
/// [`SchemaError`] when `T`'s schema is not an object's.
pub fn object_schema<T: JsonSchema>() -> Result<Map<String, Value>, SchemaError> {
    schema_of::<T>("a JSON object")
}

/// [`object_schema`], whose error says what `T` was to be.
fn schema_of<T: JsonSchema>(what: &'static str) -> Result<Map<String, Value>, SchemaError> {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|settings| {
            settings.inline_subschemas = true;
            settings.meta_schema = None;
        })
        .into_generator();
    let schema = generator.into_root_schema_for::<T>();
    let error = |problem: &str| SchemaError {
        type_name: core::any::type_name::<T>(),
        what,
        problem: problem.into(),
    };
    let Value::Object(mut members) = schema.to_value() else {
        return Err(error("its schema is `true` or `false`, not an object's"));
    };
    if members.get("type").and_then(Value::as_str) != Some("object") {
        return Err(error(
            "its schema's root is not `\"type\": \"object\"` (use a struct)",
        ));
    }
    members.remove("$schema");
    Ok(members)
}

/// A tool's `inputSchema` from `A`'s schema.
///
/// # Errors
///
/// [`SchemaError`] when `A` is not an object ([`object_schema`]).
pub fn input_schema<A: JsonSchema>() -> Result<ToolInputSchema, SchemaError> {
    let mut members = schema_of::<A>("a tool's arguments")?;
    // The type writes `"type": "object"` itself.
    members.remove("type");
    let mut schema = ToolInputSchema::new();
    schema.extra = members;
    Ok(schema)
}

/// A tool's `outputSchema` from `T`'s schema.
///
/// # Errors
///
/// [`SchemaError`] when `T` is not an object ([`object_schema`]).
pub fn output_schema<T: JsonSchema>() -> Result<ToolOutputSchema, SchemaError> {
    // 2026-07-28 takes any schema here, so `"type": "object"` stays a member of it (the
    // revisions before require it, and the conversion down reads it).
    let members = schema_of::<T>("a tool's structured result")?;
    let mut schema = ToolOutputSchema::new();
    schema.extra = members;
    Ok(schema)
}

/// A prompt's `arguments` from `A`'s schema: one a property, with the property's description
/// and whether the type requires it, in the order of their names (serde_json's map order; in
/// the order `A` declares them when a crate of the build turns on serde_json's
/// `preserve_order`).
///
/// # Errors
///
/// [`SchemaError`] when `A` is not an object, or a property is not a string (a prompt's
/// arguments are strings: `prompts/get` sends them so).
pub fn prompt_arguments<A: JsonSchema>() -> Result<Vec<PromptArgument>, SchemaError> {
    let members = schema_of::<A>("a prompt's arguments")?;
    let required: Vec<&str> = members
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = members.get("properties").and_then(Value::as_object) else {
        return Ok(Vec::new());
    };
    let mut arguments = Vec::with_capacity(properties.len());
    for (name, property) in properties {
        if !is_string_schema(property) {
            return Err(SchemaError {
                type_name: core::any::type_name::<A>(),
                what: "a prompt's arguments",
                problem: format!("`{name}` is not a string (prompt arguments are strings)"),
            });
        }
        let mut argument = PromptArgument::new(name.clone());
        argument.description = property
            .get("description")
            .and_then(Value::as_str)
            .map(Into::into);
        argument.title = property
            .get("title")
            .and_then(Value::as_str)
            .map(Into::into);
        argument.required = Some(required.contains(&name.as_str()));
        arguments.push(argument);
    }
    Ok(arguments)
}

/// Whether `schema` takes strings alone (`"string"`, or `["string", "null"]` for an
/// `Option<String>`, or an enum of strings).
fn is_string_schema(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(kind)) => kind == "string",
        Some(Value::Array(kinds)) => kinds
            .iter()
            .all(|k| k.as_str().is_some_and(|k| k == "string" || k == "null")),
        None => schema
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| values.iter().all(|v| v.is_string() || v.is_null())),
        Some(_) => false,
    }
}

/// A value that could not be written as JSON: the server's own fault.
fn internal(error: serde_json::Error) -> RpcError {
    RpcError::new(crate::ErrorCode::InternalError, error.to_string())
}

/// A call's arguments read into an `A`, for a handler of one's own (the
/// [`Router`](crate::server::Router)'s typed tools read them so). Arguments that do not read give an
/// [`InvalidArguments`], whose answer is a tool error (`isError: true`) naming the argument's
/// path and what was expected, which the model can correct. No arguments read as an empty
/// object.
///
/// ```
/// use mcp_spec_types::server::arguments;
/// use mcp_spec_types::v2026_07_28::{CallToolRequestParams, CallToolResult};
///
/// #[derive(serde::Deserialize)]
/// struct Wait {
///     ms: u64,
/// }
///
/// let call: CallToolRequestParams = serde_json::from_str(r#"{"name": "wait",
///     "arguments": {"ms": -1},
///     "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
///               "io.modelcontextprotocol/clientCapabilities": {}}}"#)?;
/// let refused = arguments::<Wait>(&call).err().expect("-1 is no u64");
/// assert_eq!(refused.to_string(), "invalid arguments for tool `wait`: ms: invalid value: \
///     integer `-1`, expected u64");
/// let answer = CallToolResult::from(refused);
/// assert_eq!(answer.is_error, Some(true));
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// # Errors
///
/// [`InvalidArguments`] when the arguments are not an `A`.
pub fn arguments<A: DeserializeOwned>(call: &CallToolRequestParams) -> Result<A, InvalidArguments> {
    let text = call.arguments.as_ref().map_or("{}", JsonObject::as_str);
    crate::located::read(text).map_err(|problem| InvalidArguments {
        tool: call.name.clone(),
        problem,
    })
}

/// A tool's arguments that did not read ([`arguments`]): answered as a tool error
/// (`CallToolResult::from`), which the model sees and can correct, as the tools page asks for
/// input validation errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidArguments {
    tool: String,
    problem: String,
}

impl InvalidArguments {
    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// What did not read: the argument's JSON path, then what was wrong there.
    pub fn problem(&self) -> &str {
        &self.problem
    }
}

impl fmt::Display for InvalidArguments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid arguments for tool `{}`: {}",
            self.tool, self.problem
        )
    }
}

impl core::error::Error for InvalidArguments {}

impl From<InvalidArguments> for CallToolResult {
    fn from(invalid: InvalidArguments) -> Self {
        CallToolResult::error(invalid.to_string())
    }
}

impl From<InvalidArguments> for CallToolResultOrInputRequired {
    fn from(invalid: InvalidArguments) -> Self {
        CallToolResult::from(invalid).into()
    }
}

/// Reads a prompt's arguments (strings by name; none read as an empty object) as an `A`.
pub(in crate::server) fn read_prompt_arguments<A: DeserializeOwned>(
    get: &GetPromptRequestParams,
) -> Result<A, RpcError> {
    let text = match &get.arguments {
        Some(arguments) => crate::json::to_string(arguments).map_err(internal)?,
        None => "{}".into(),
    };
    crate::located::read(&text).map_err(|problem| {
        RpcError::invalid_params(format!(
            "invalid arguments for prompt `{}`: {problem}",
            get.name
        ))
    })
}

/// A URI template's variables as a JSON object (a list as an array, an associative value as
/// an object), for reading into a type.
pub(in crate::server) fn variables_text(
    variables: &Variables,
) -> Result<String, serde_json::Error> {
    let mut object = Map::new();
    for (name, value) in variables.iter() {
        let value = match value {
            VarValue::String(text) => Value::String(text.clone()),
            VarValue::List(items) => items.iter().cloned().map(Value::String).collect(),
            VarValue::Map(pairs) => Value::Object(
                pairs
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                    .collect(),
            ),
        };
        object.insert(name.into(), value);
    }
    crate::json::to_string(&object)
}

/// An elicitation form's `requestedSchema` from `T`'s schema, for
/// [`InputRequired::elicit_form`](crate::v2026_07_28::input_required::InputRequired::elicit_form):
/// one property a member, each a primitive the form schema defines (a string, with its
/// length bounds and one of the formats `date`, `date-time`, `email`, `uri`; a number or an
/// integer, with its bounds; a boolean; an enum of strings; an array of an enum of strings,
/// for several choices), with the member's doc comment as its description. An `Option`
/// member is one the user may leave out. Read the answer back with [`elicited`].
///
/// ```
/// use mcp_spec_types::server::form_schema;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Login {
///     /// Your GitHub login.
///     login: String,
///     remember: Option<bool>,
/// }
///
/// let form = form_schema::<Login>()?;
/// assert_eq!(form.required, Some(vec!["login".to_string()]));
/// assert_eq!(form.properties.len(), 2);
/// # Ok::<(), mcp_spec_types::server::SchemaError>(())
/// ```
///
/// # Errors
///
/// [`SchemaError`] naming the member the form schema cannot express: a nested object, an
/// array of anything but an enum of strings, a value that may be of several types.
pub fn form_schema<T: JsonSchema>() -> Result<ElicitRequestFormParamsRequestedSchema, SchemaError> {
    let what = "an elicitation form";
    let members = schema_of::<T>(what)?;
    let error = |problem: String| SchemaError {
        type_name: core::any::type_name::<T>(),
        what,
        problem,
    };
    let mut properties = Map::new();
    if let Some(declared) = members.get("properties").and_then(Value::as_object) {
        for (name, property) in declared {
            let primitive = form_property(property).ok_or_else(|| {
                error(format!("`{name}` is not a string, number, boolean or enum"))
            })?;
            properties.insert(name.clone(), primitive);
        }
    }
    let mut form = Map::new();
    form.insert("type".into(), "object".into());
    form.insert("properties".into(), Value::Object(properties));
    if let Some(required) = members.get("required") {
        form.insert("required".into(), required.clone());
    }
    let text = crate::json::to_string(&form).map_err(|e| error(e.to_string()))?;
    crate::json::from_str(&text).map_err(|e| error(e.to_string()))
}

/// One member of a form: the primitive schema the form takes for `property`, with only the
/// keywords it defines (`format: "uint8"` and the like are schemars' own), or `None`.
fn form_property(property: &Value) -> Option<Value> {
    // `Option<T>` is `T` or null: the form says optional with `required` instead.
    let kinds: Vec<&str> = match property.get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    let kinds: Vec<&str> = kinds.into_iter().filter(|k| *k != "null").collect();
    let [kind] = kinds.as_slice() else {
        return None;
    };
    let mut out = Map::new();
    out.insert("type".into(), (*kind).into());
    let keep = |out: &mut Map<String, Value>, keys: &[&str]| {
        for key in keys {
            if let Some(value) = property.get(*key) {
                out.insert((*key).into(), value.clone());
            }
        }
    };
    keep(&mut out, &["title", "description"]);
    match *kind {
        "string" => {
            if let Some(values) = property.get("enum").and_then(Value::as_array) {
                let values: Vec<Value> = values.iter().filter(|v| !v.is_null()).cloned().collect();
                if !values.iter().all(Value::is_string) {
                    return None;
                }
                out.insert("enum".into(), Value::Array(values));
            } else {
                keep(&mut out, &["minLength", "maxLength", "default"]);
                // The formats the form defines are the schema's (`StringSchema.format`).
                let format = property.get("format").and_then(Value::as_str);
                if let Some(format) = format.filter(|f| f.parse::<StringSchemaFormat>().is_ok()) {
                    out.insert("format".into(), format.into());
                }
            }
        }
        "integer" | "number" => keep(&mut out, &["minimum", "maximum", "default"]),
        "boolean" => keep(&mut out, &["default"]),
        "array" => {
            let items = property.get("items")?;
            let choices = form_property(items)?;
            choices.get("enum")?;
            let mut items = Map::new();
            items.insert("type".into(), "string".into());
            items.insert("enum".into(), choices["enum"].clone());
            out.insert("items".into(), Value::Object(items));
            keep(&mut out, &["minItems", "maxItems"]);
        }
        _ => return None,
    }
    Some(Value::Object(out))
}

/// What the user entered in a form, read into the `T` whose [`form_schema`] asked for it:
/// `None` when they declined or cancelled.
///
/// # Errors
///
/// What did not read, with the member's name (a client that sent a value of another type).
pub fn elicited<T: DeserializeOwned>(answer: &ElicitResult) -> Result<Option<T>, String> {
    if answer.action != ElicitResultAction::Accept {
        return Ok(None);
    }
    let text = match &answer.content {
        Some(content) => crate::json::to_string(content).map_err(|e| e.to_string())?,
        None => "{}".into(),
    };
    crate::located::read(&text).map(Some)
}

/// What a typed tool's function may answer: a result as it is, or a value whose schema the
/// tool lists as its `outputSchema` ([`Structured`]).
pub trait ToolOutput {
    /// The `outputSchema` the tool lists, if its answers have one.
    ///
    /// # Errors
    ///
    /// [`SchemaError`] when the answers' type is not an object.
    fn output_schema() -> Result<Option<ToolOutputSchema>, SchemaError>;

    /// The answer the client gets.
    ///
    /// # Errors
    ///
    /// An internal error (-32603) when the value cannot be written as JSON.
    fn into_answer(self) -> Result<CallToolResultOrInputRequired, RpcError>;
}

impl ToolOutput for CallToolResult {
    fn output_schema() -> Result<Option<ToolOutputSchema>, SchemaError> {
        Ok(None)
    }

    fn into_answer(self) -> Result<CallToolResultOrInputRequired, RpcError> {
        Ok(self.into())
    }
}

impl ToolOutput for CallToolResultOrInputRequired {
    fn output_schema() -> Result<Option<ToolOutputSchema>, SchemaError> {
        Ok(None)
    }

    fn into_answer(self) -> Result<CallToolResultOrInputRequired, RpcError> {
        Ok(self)
    }
}

impl ToolOutput for InputRequiredResult {
    fn output_schema() -> Result<Option<ToolOutputSchema>, SchemaError> {
        Ok(None)
    }

    fn into_answer(self) -> Result<CallToolResultOrInputRequired, RpcError> {
        Ok(self.into())
    }
}

/// A typed tool's answer with a structure: the tool lists `T`'s schema as its `outputSchema`,
/// and the result carries the value as `structuredContent` and, for clients that read only
/// content, the same JSON as a text block (the tools page: a tool that returns structured
/// content SHOULD also return it serialized in a text block). A client of a revision before
/// 2025-06-18, which has neither, gets the text alone.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Structured<T>(pub T);

impl<T: Serialize + JsonSchema> ToolOutput for Structured<T> {
    fn output_schema() -> Result<Option<ToolOutputSchema>, SchemaError> {
        output_schema::<T>().map(Some)
    }

    fn into_answer(self) -> Result<CallToolResultOrInputRequired, RpcError> {
        let text = crate::json::to_string(&self.0).map_err(internal)?;
        let value: Value = crate::json::from_str(&text).map_err(internal)?;
        let mut result = CallToolResult::text(text);
        result.structured_content = Some(value);
        Ok(result.into())
    }
}

/// A tool's function as the router keeps it: the raw call in, the answer out, now or later.
pub(in crate::server) enum ToolFn {
    /// Answers on the caller's thread.
    Now(Box<NowFn>),
    /// Gives a future that owns its context ([`Router::tool_async`](crate::server::Router::tool_async)).
    #[cfg(feature = "std")]
    Later(Box<LaterFn>),
}

pub(in crate::server) type NowFn = dyn Fn(CallToolRequestParams, &mut Context) -> Result<CallToolResultOrInputRequired, RpcError>
    + Send
    + Sync;

/// A tool's answer still being worked out.
#[cfg(feature = "std")]
pub(in crate::server) type ToolFuture = core::pin::Pin<
    Box<dyn core::future::Future<Output = Result<CallToolResultOrInputRequired, RpcError>> + Send>,
>;

#[cfg(feature = "std")]
pub(in crate::server) type LaterFn =
    dyn Fn(CallToolRequestParams, Context) -> ToolFuture + Send + Sync;

/// A typed tool's registration: the tool with its schemas, and its function over the raw
/// call.
pub(in crate::server) fn tool<A, R, F>(tool: Tool, call: F) -> Result<(Tool, ToolFn), SchemaError>
where
    A: DeserializeOwned + JsonSchema + 'static,
    R: ToolOutput,
    F: Fn(A, &mut Context) -> Result<R, RpcError> + Send + Sync + 'static,
{
    let tool = with_schemas::<A, R>(tool)?;
    let keywords = keywords_of(&tool);
    let call = move |params: CallToolRequestParams, context: &mut Context| match checked::<A>(
        &params,
        keywords.as_ref(),
    ) {
        Ok(arguments) => call(arguments, context)?.into_answer(),
        Err(refused) => Ok(refused.into()),
    };
    Ok((tool, ToolFn::Now(Box::new(call))))
}

/// An async typed tool's registration, as [`tool`]'s: arguments that do not read are refused
/// before `call` is.
#[cfg(feature = "std")]
pub(in crate::server) fn tool_async<A, R, F, Fut>(
    tool: Tool,
    call: F,
) -> Result<(Tool, ToolFn), SchemaError>
where
    A: DeserializeOwned + JsonSchema + 'static,
    R: ToolOutput,
    F: Fn(A, Context) -> Fut + Send + Sync + 'static,
    Fut: core::future::Future<Output = Result<R, RpcError>> + Send + 'static,
{
    let tool = with_schemas::<A, R>(tool)?;
    let keywords = keywords_of(&tool);
    let call = move |params: CallToolRequestParams, context: Context| -> ToolFuture {
        match checked::<A>(&params, keywords.as_ref()) {
            Ok(arguments) => {
                let answer = call(arguments, context);
                Box::pin(async move { answer.await?.into_answer() })
            }
            Err(refused) => Box::pin(core::future::ready(Ok(refused.into()))),
        }
    };
    Ok((tool, ToolFn::Later(Box::new(call))))
}

/// The keywords of `tool`'s `inputSchema` that reading its arguments' type leaves unchecked.
fn keywords_of(tool: &Tool) -> Option<Keywords> {
    serde_json::to_value(&tool.input_schema)
        .ok()
        .and_then(Keywords::of)
}

/// A call's arguments read into an `A` ([`arguments`]), then checked against the keywords of
/// the tool's schema: a value out of its bounds is refused as one that does not read.
fn checked<A: DeserializeOwned>(
    params: &CallToolRequestParams,
    keywords: Option<&Keywords>,
) -> Result<A, InvalidArguments> {
    let arguments = arguments::<A>(params)?;
    if let Some(keywords) = keywords {
        let text = params.arguments.as_ref().map(JsonObject::as_str);
        keywords.check(text).map_err(|problem| InvalidArguments {
            tool: params.name.clone(),
            problem,
        })?;
    }
    Ok(arguments)
}

/// `tool` with `A`'s schema as its `inputSchema`, and `R`'s as its `outputSchema`.
fn with_schemas<A: JsonSchema, R: ToolOutput>(mut tool: Tool) -> Result<Tool, SchemaError> {
    tool.input_schema = input_schema::<A>()?;
    tool.output_schema = R::output_schema()?;
    Ok(tool)
}

/// What names a typed tool: its name alone, or a [`Tool`] with a description, a title,
/// annotations. Its `inputSchema` and `outputSchema` are the types', whatever it held.
pub trait IntoTool {
    /// The tool, with an empty input schema for the router to fill.
    fn into_tool(self) -> Tool;
}

impl IntoTool for Tool {
    fn into_tool(self) -> Tool {
        self
    }
}

impl IntoTool for &str {
    fn into_tool(self) -> Tool {
        Tool::new(self, ToolInputSchema::new())
    }
}

impl IntoTool for String {
    fn into_tool(self) -> Tool {
        Tool::new(self, ToolInputSchema::new())
    }
}

/// What names a typed prompt: its name alone, or a [`Prompt`] with a description and a
/// title. Its `arguments` are the type's, whatever it held.
pub trait IntoPrompt {
    /// The prompt, for the router to fill its arguments.
    fn into_prompt(self) -> Prompt;
}

impl IntoPrompt for Prompt {
    fn into_prompt(self) -> Prompt {
        self
    }
}

impl IntoPrompt for &str {
    fn into_prompt(self) -> Prompt {
        Prompt::new(self)
    }
}

impl IntoPrompt for String {
    fn into_prompt(self) -> Prompt {
        Prompt::new(self)
    }
}
