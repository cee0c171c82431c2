//! A [`Handler`] made of what the server offers: tools, resources, resource templates,
//! prompts and completion, each with the function that answers it. The router lists them (in pages, with
//! cursors, when asked to), finds the one a request names, derives the capabilities, and
//! answers what no entry names with the error the specification gives.

#[cfg(feature = "std")]
use super::typed::LaterFn;
use super::typed::{self, IntoPrompt, IntoTool, ToolFn, ToolOutput};
use crate::cache::CacheHint;
use crate::http_headers::ToolHeaders;
use crate::prelude::*;
use crate::server::engine::Context;
#[cfg(doc)]
use crate::server::engine::Handler;
use crate::uri_template::{UriTemplate, Variables};
use crate::v2026_07_28::{
    CallToolRequestParams, CallToolResultOrInputRequired, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResult, PaginatedRequestParams, Prompt,
    ReadResourceRequestParams, ReadResourceResult, Resource, ResourceTemplate, Tool,
};
use crate::RpcError;
use alloc::collections::BTreeMap;
#[cfg(feature = "std")]
use core::future::Future;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;

mod answering;

type ReadFn =
    Box<dyn Fn(ReadResourceRequestParams) -> Result<ReadResourceResult, RpcError> + Send + Sync>;
type TemplateFn = Box<
    dyn Fn(ReadResourceRequestParams, Variables) -> Result<ReadResourceResult, RpcError>
        + Send
        + Sync,
>;
type PromptFn =
    Box<dyn Fn(GetPromptRequestParams) -> Result<GetPromptResult, RpcError> + Send + Sync>;
type SubscribeFn = Box<dyn Fn(&str) -> Result<(), RpcError> + Send + Sync>;
type CompleteFn =
    Box<dyn Fn(CompleteRequestParams) -> Result<CompleteResult, RpcError> + Send + Sync>;

/// Tools, resources, resource templates, prompts and completion, each answered by its own
/// function.
///
/// ```
/// use mcp_spec_types::server::Router;
/// use mcp_spec_types::v2026_07_28::*;
///
/// let router = Router::new()
///     .tool(Tool::new("hello", ToolInputSchema::new()), |_| {
///         Ok(CallToolResult::text("Hello!"))
///     })
///     .template(ResourceTemplate::new("note:///{id}", "note"), |read, vars| {
///         let id = vars.get_str("id").unwrap_or_default().to_owned();
///         Ok(ReadResourceResult::text(read.uri, id))
///     });
/// ```
#[derive(Default)]
pub struct Router {
    tools: Vec<(Tool, ToolFn)>,
    /// The `x-mcp-header` annotations of the tools that have some, by name.
    tool_headers: BTreeMap<String, ToolHeaders>,
    resources: Vec<(Resource, ReadFn)>,
    templates: Vec<(ResourceTemplate, UriTemplate, TemplateFn)>,
    prompts: Vec<(Prompt, PromptFn)>,
    subscribe: Option<SubscribeFn>,
    complete: Option<CompleteFn>,
    list_changed: bool,
    logging: bool,
    page_size: Option<usize>,
    list_cache: Option<CacheHint>,
}

impl core::fmt::Debug for Router {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The functions have no `Debug`: the counts say what the router holds.
        f.debug_struct("Router")
            .field("tools", &self.tools.len())
            .field("resources", &self.resources.len())
            .field("templates", &self.templates.len())
            .field("prompts", &self.prompts.len())
            .field("subscribe", &self.subscribe.is_some())
            .field("complete", &self.complete.is_some())
            .field("list_changed", &self.list_changed)
            .field("logging", &self.logging)
            .field("page_size", &self.page_size)
            .finish_non_exhaustive()
    }
}

impl Router {
    /// A router that offers nothing yet.
    pub fn new() -> Self {
        Router::default()
    }

    /// Offers `tool`, answered by `call`. A `tools/call` that names no tool the router
    /// offers is refused with -32602 ("Unknown tool").
    ///
    /// `call` answers with a [`CallToolResult`](crate::v2026_07_28::CallToolResult), or asks
    /// the client for input first with an
    /// [`InputRequiredResult`](crate::v2026_07_28::InputRequiredResult) (in a
    /// [`CallToolResultOrInputRequired`]): the engine relays
    /// its requests to a client of a stateful revision and calls again with the answers, as a
    /// 2026-07-28 client retries (see `input_required::RoundTrip`).
    #[must_use]
    pub fn tool<F, R>(self, tool: Tool, call: F) -> Self
    where
        F: Fn(CallToolRequestParams) -> Result<R, RpcError> + Send + Sync + 'static,
        R: Into<CallToolResultOrInputRequired>,
    {
        let call = move |params, _: &mut Context| call(params).map(Into::into);
        self.offer(tool, ToolFn::Now(Box::new(call)))
    }

    /// [`Router::tool`], whose function also gets the request's [`Context`]: to report
    /// progress, or log, while it works.
    ///
    /// ```
    /// use mcp_spec_types::server::Router;
    /// use mcp_spec_types::v2026_07_28::*;
    ///
    /// let router = Router::new().with_logging().tool_with(
    ///     Tool::new("index", ToolInputSchema::new()),
    ///     |_, context| {
    ///         context.log(LoggingLevel::Info, "indexing");
    ///         context.progress(1, Some(1.into()), Some("indexed"));
    ///         Ok(CallToolResult::text("done"))
    ///     },
    /// );
    /// ```
    #[must_use]
    pub fn tool_with<F, R>(self, tool: Tool, call: F) -> Self
    where
        F: Fn(CallToolRequestParams, &mut Context) -> Result<R, RpcError> + Send + Sync + 'static,
        R: Into<CallToolResultOrInputRequired>,
    {
        let call = move |params, context: &mut Context| call(params, context).map(Into::into);
        self.offer(tool, ToolFn::Now(Box::new(call)))
    }

    /// Offers `tool`, answered by an async function: `call` gives a future, which a transport
    /// that runs an async runtime awaits there (the `http-server` feature's service spawns it
    /// as a task of the runtime the service runs in). Elsewhere (the stdio loop,
    /// [`Server::handle`](crate::server::Server::handle)) it is run to its end on the call's thread,
    /// inside the tokio runtime the caller was in, if any. A synchronous caller on the one
    /// thread of a current-thread runtime waits for a future that needs that runtime's timers
    /// or sockets forever (nothing else drives them): there, await
    /// [`Handler::call_async`] instead.
    ///
    /// The future owns the request's [`Context`]: what it reports goes out as it is made
    /// where the transport carries reports live, and with the answer otherwise; what it says
    /// changed is told once it has answered.
    ///
    /// ```
    /// use mcp_spec_types::server::Router;
    /// use mcp_spec_types::v2026_07_28::*;
    ///
    /// let router = Router::new().tool_async(
    ///     Tool::new("fetch", ToolInputSchema::new()),
    ///     |_, mut context| async move {
    ///         context.progress(1, Some(2.into()), Some("asked"));
    ///         let page = async { "<html>" }.await; // an HTTP client's request, say
    ///         Ok(CallToolResult::text(page))
    ///     },
    /// );
    /// ```
    #[cfg(feature = "std")]
    #[must_use]
    pub fn tool_async<F, Fut, R>(self, tool: Tool, call: F) -> Self
    where
        F: Fn(CallToolRequestParams, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, RpcError>> + Send + 'static,
        R: Into<CallToolResultOrInputRequired>,
    {
        let call = move |params, context| -> typed::ToolFuture {
            let answer = call(params, context);
            Box::pin(async move { answer.await.map(Into::into) })
        };
        self.offer(tool, ToolFn::Later(Box::new(call)))
    }

    /// Offers a tool whose arguments are an `A`: the tool lists `A`'s schema as its
    /// `inputSchema` (JSON Schema 2020-12, derived with schemars), and `call` gets the
    /// arguments read into an `A`. Arguments that do not read never reach `call`: the client
    /// gets a result with `isError` true that names the argument's path and what was
    /// expected (``unit: unknown variant `k`, expected `c` or `f` ``), so that the model can
    /// correct itself (the tools page's input validation errors). `call` answers with a
    /// [`CallToolResult`](crate::v2026_07_28::CallToolResult), or a [`Structured`](crate::server::Structured) value whose
    /// schema the tool then lists as its `outputSchema` ([`ToolOutput`]).
    ///
    /// `tool` is the tool's name, or a [`Tool`] with a description, title or annotations,
    /// whose schemas are replaced with the types'.
    ///
    /// ```
    /// use mcp_spec_types::server::{Router, Structured};
    /// use mcp_spec_types::v2026_07_28::*;
    /// use schemars::JsonSchema;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Deserialize, JsonSchema)]
    /// struct Add {
    ///     a: f64,
    ///     b: f64,
    /// }
    ///
    /// #[derive(Serialize, JsonSchema)]
    /// struct Sum {
    ///     sum: f64,
    /// }
    ///
    /// let router = Router::new()
    ///     .typed_tool("add", |Add { a, b }| Ok(CallToolResult::text((a + b).to_string())))
    ///     .typed_tool("sum", |Add { a, b }| Ok(Structured(Sum { sum: a + b })));
    /// ```
    ///
    /// # Panics
    ///
    /// When `A`'s schema, or the output's, is not an object's (a tool's arguments and
    /// structured results are JSON objects): `A` is a struct or a map. The types are the
    /// program's own, so this shows on the first run, at registration, not on a client's
    /// input.
    #[must_use]
    pub fn typed_tool<A, R, F>(self, tool: impl IntoTool, call: F) -> Self
    where
        A: DeserializeOwned + JsonSchema + 'static,
        R: ToolOutput,
        F: Fn(A) -> Result<R, RpcError> + Send + Sync + 'static,
    {
        self.typed_tool_with(tool, move |arguments, _: &mut Context| call(arguments))
    }

    /// [`Router::typed_tool`], whose function also gets the request's [`Context`].
    ///
    /// # Panics
    ///
    /// As [`Router::typed_tool`].
    #[must_use]
    pub fn typed_tool_with<A, R, F>(self, tool: impl IntoTool, call: F) -> Self
    where
        A: DeserializeOwned + JsonSchema + 'static,
        R: ToolOutput,
        F: Fn(A, &mut Context) -> Result<R, RpcError> + Send + Sync + 'static,
    {
        match typed::tool(tool.into_tool(), call) {
            Ok((tool, call)) => self.offer(tool, call),
            Err(error) => panic!("Router::typed_tool: {error}"),
        }
    }

    /// [`Router::typed_tool`], answered by an async function that also gets the request's
    /// [`Context`], as [`Router::tool_async`]'s.
    ///
    /// ```
    /// use mcp_spec_types::server::Router;
    /// use mcp_spec_types::v2026_07_28::*;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Wait {
    ///     ms: u64,
    /// }
    ///
    /// let router = Router::new().typed_tool_async("wait", |Wait { ms }, _| async move {
    ///     // tokio::time::sleep(Duration::from_millis(ms)).await, say
    ///     Ok(CallToolResult::text(format!("waited {ms} ms")))
    /// });
    /// ```
    ///
    /// # Panics
    ///
    /// As [`Router::typed_tool`].
    #[cfg(feature = "std")]
    #[must_use]
    pub fn typed_tool_async<A, R, F, Fut>(self, tool: impl IntoTool, call: F) -> Self
    where
        A: DeserializeOwned + JsonSchema + 'static,
        R: ToolOutput,
        F: Fn(A, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, RpcError>> + Send + 'static,
    {
        match typed::tool_async(tool.into_tool(), call) {
            Ok((tool, call)) => self.offer(tool, call),
            Err(error) => panic!("Router::typed_tool_async: {error}"),
        }
    }

    /// Adds `tool` with its function, and its `x-mcp-header` annotations. A tool whose
    /// annotations break the transport's rules gets none checked: a client does not call it
    /// (it leaves the tool out, as the transport asks).
    fn offer(mut self, tool: Tool, call: ToolFn) -> Self {
        match ToolHeaders::from_schema_members(&tool.input_schema.extra) {
            Ok(headers) if !headers.is_empty() => {
                self.tool_headers.insert(tool.name.clone(), headers);
            }
            _ => {
                self.tool_headers.remove(&tool.name);
            }
        }
        self.tools.push((tool, call));
        self
    }

    /// Offers `resource`, read by `read`. A `resources/read` of a URI no resource or template
    /// names is "resource not found", in the code of the client's revision.
    #[must_use]
    pub fn resource<F>(mut self, resource: Resource, read: F) -> Self
    where
        F: Fn(ReadResourceRequestParams) -> Result<ReadResourceResult, RpcError>
            + Send
            + Sync
            + 'static,
    {
        self.resources.push((resource, Box::new(read)));
        self
    }

    /// Offers the resources `template` describes (RFC 6570), read by `read` with the
    /// template's variables as the URI gives them. A URI that a resource names exactly is that
    /// resource's, before any template.
    ///
    /// # Panics
    ///
    /// When `uriTemplate` is not an RFC 6570 template (the [`UriTemplateError`](crate::uri_template::UriTemplateError) in the
    /// message), as [`Router::typed_tool`] does on a schema it cannot use: the template is the
    /// program's own, so this shows on the first run, at registration, and the builder stays
    /// one chain. A template read from elsewhere can be checked first with
    /// [`UriTemplate::parse`].
    #[must_use]
    pub fn template<F>(mut self, template: ResourceTemplate, read: F) -> Self
    where
        F: Fn(ReadResourceRequestParams, Variables) -> Result<ReadResourceResult, RpcError>
            + Send
            + Sync
            + 'static,
    {
        let parsed = match UriTemplate::parse(&template.uri_template) {
            Ok(parsed) => parsed,
            Err(error) => panic!("Router::template: {}: {error}", template.uri_template),
        };
        self.templates.push((template, parsed, Box::new(read)));
        self
    }

    /// Offers `prompt`, answered by `get`. A `prompts/get` that names no prompt the router
    /// offers is refused with -32602.
    #[must_use]
    pub fn prompt<F>(mut self, prompt: Prompt, get: F) -> Self
    where
        F: Fn(GetPromptRequestParams) -> Result<GetPromptResult, RpcError> + Send + Sync + 'static,
    {
        self.prompts.push((prompt, Box::new(get)));
        self
    }

    /// Offers a prompt whose arguments are an `A`: the prompt lists one argument per member
    /// of `A` (its name, its doc comment as the description, whether it is required), and
    /// `get` gets them read into an `A`. Arguments that do not read (a required one missing)
    /// are refused with -32602, the error the prompts page gives for missing arguments.
    ///
    /// ```
    /// use mcp_spec_types::server::Router;
    /// use mcp_spec_types::v2026_07_28::*;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Review {
    ///     /// The code to review.
    ///     code: String,
    ///     /// What to look for.
    ///     focus: Option<String>,
    /// }
    ///
    /// let router = Router::new().typed_prompt("review", |Review { code, focus }| {
    ///     let focus = focus.unwrap_or_else(|| "anything".into());
    ///     let text = format!("Review for {focus}:\n{code}");
    ///     Ok(GetPromptResult::complete(vec![PromptMessage::new(
    ///         ContentBlock::text(text),
    ///         Role::User,
    ///     )]))
    /// });
    /// ```
    ///
    /// # Panics
    ///
    /// When `A` is not a struct whose members are strings (prompt arguments are strings).
    #[must_use]
    pub fn typed_prompt<A, F>(self, prompt: impl IntoPrompt, get: F) -> Self
    where
        A: DeserializeOwned + JsonSchema + 'static,
        F: Fn(A) -> Result<GetPromptResult, RpcError> + Send + Sync + 'static,
    {
        let mut prompt = prompt.into_prompt();
        match typed::prompt_arguments::<A>() {
            Ok(arguments) => prompt.arguments = Some(arguments),
            Err(error) => panic!("Router::typed_prompt: {error}"),
        }
        self.prompt(prompt, move |params| {
            get(typed::read_prompt_arguments::<A>(&params)?)
        })
    }

    /// [`Router::template`], with the template's variables read into a `V` (a struct of
    /// strings, or of lists of strings for the list-valued variables: `note:///{name}` gives
    /// `Note { name }`). A URI whose variables do not read into a `V` is "resource not found",
    /// in the code of the client's revision, as a URI no template matches.
    ///
    /// ```
    /// use mcp_spec_types::server::Router;
    /// use mcp_spec_types::v2026_07_28::*;
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Note {
    ///     name: String,
    /// }
    ///
    /// let router = Router::new().typed_template(
    ///     ResourceTemplate::new("note:///{name}", "note"),
    ///     |read, Note { name }| Ok(ReadResourceResult::text(read.uri, name)),
    /// );
    /// ```
    ///
    /// # Panics
    ///
    /// As [`Router::template`], when `uriTemplate` is not a template.
    #[must_use]
    pub fn typed_template<V, F>(self, template: ResourceTemplate, read: F) -> Self
    where
        V: DeserializeOwned + 'static,
        F: Fn(ReadResourceRequestParams, V) -> Result<ReadResourceResult, RpcError>
            + Send
            + Sync
            + 'static,
    {
        self.template(template, move |params, variables| {
            let read_as = typed::variables_text(&variables)
                .ok()
                .and_then(|text| crate::located::read::<V>(&text).ok());
            match read_as {
                Some(variables) => read(params, variables),
                None => Err(RpcError::resource_not_found(params.uri)),
            }
        })
    }

    /// Lets clients subscribe to the resources whose URIs `check` accepts, and announces it
    /// (`resources.subscribe`): `check` refuses a URI with the error to answer ("resource not
    /// found" gets the code of the client's revision). Tell the engine what changed with
    /// [`Server::notify`](crate::server::Server::notify).
    #[must_use]
    pub fn subscriptions<F>(mut self, check: F) -> Self
    where
        F: Fn(&str) -> Result<(), RpcError> + Send + Sync + 'static,
    {
        self.subscribe = Some(Box::new(check));
        self
    }

    /// Offers completion of prompt arguments and resource template variables
    /// (`completion/complete`), answered by `complete`, and announces it (`completions`).
    /// Without it, `completion/complete` is refused with -32601.
    ///
    /// `complete` gets the reference (a prompt or a template) and the argument being
    /// completed, and answers with the values (the schema bounds how many one answer holds:
    /// say `hasMore` for the rest).
    ///
    /// ```
    /// use mcp_spec_types::server::Router;
    /// use mcp_spec_types::v2026_07_28::*;
    ///
    /// let router = Router::new().completion(|asked| {
    ///     let languages = ["python", "pytorch", "rust"];
    ///     let values = languages.iter().filter(|l| l.starts_with(&asked.argument.value));
    ///     Ok(CompleteResult::complete(CompleteResultCompletion::new(values.copied())))
    /// });
    /// ```
    #[must_use]
    pub fn completion<F>(mut self, complete: F) -> Self
    where
        F: Fn(CompleteRequestParams) -> Result<CompleteResult, RpcError> + Send + Sync + 'static,
    {
        self.complete = Some(Box::new(complete));
        self
    }

    /// Announces `listChanged` for each list the router offers: the server then tells its
    /// clients when the list changes ([`Change`](crate::server::Change)).
    #[must_use]
    pub fn with_list_changed(mut self) -> Self {
        self.list_changed = true;
        self
    }

    /// Announces `logging`: the server's handlers send log messages
    /// ([`Context::log`]), and a client of a stateful revision may choose which with
    /// `logging/setLevel` (refused with -32601 when the server does not announce it).
    #[must_use]
    pub fn with_logging(mut self) -> Self {
        self.logging = true;
        self
    }

    /// Lists at most `size` entries a page (at least one), with a cursor to the next page;
    /// by default each list is one page.
    #[must_use]
    pub fn with_page_size(mut self, size: usize) -> Self {
        self.page_size = Some(size.max(1));
        self
    }

    /// How long, and for whom, a client may cache a list (default: not at all).
    #[must_use]
    pub fn with_list_cache(mut self, hint: CacheHint) -> Self {
        self.list_cache = Some(hint);
        self
    }

    fn page<'a, T>(
        &self,
        entries: &'a [T],
        params: &PaginatedRequestParams,
    ) -> Result<(&'a [T], Option<String>), RpcError> {
        let size = self.page_size.unwrap_or(usize::MAX);
        super::page(entries, params.cursor.as_deref(), size)
    }

    /// The function of the tool named `name`.
    fn tool_fn(&self, name: &str) -> Option<&ToolFn> {
        let found = self.tools.iter().find(|(tool, _)| tool.name == name);
        found.map(|(_, call)| call)
    }

    /// The function of the tool named `name`, when it is async.
    #[cfg(feature = "std")]
    fn async_tool(&self, name: &str) -> Option<&LaterFn> {
        match self.tool_fn(name) {
            Some(ToolFn::Later(tool)) => Some(tool),
            _ => None,
        }
    }

    fn hint(&self) -> CacheHint {
        self.list_cache.unwrap_or(CacheHint::UNCACHED)
    }

    fn read(&self, params: ReadResourceRequestParams) -> Result<ReadResourceResult, RpcError> {
        if let Some((_, read)) = self.resources.iter().find(|(r, _)| r.uri == params.uri) {
            return read(params);
        }
        for (_, template, read) in &self.templates {
            if let Some(variables) = template.match_uri(&params.uri) {
                return read(params, variables);
            }
        }
        Err(RpcError::resource_not_found(params.uri))
    }
}
