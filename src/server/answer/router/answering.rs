//! The [`Router`] as the engine's [`Handler`]: the capabilities it derives, and each request
//! answered by the entry it names (lists in pages, with cursors), or with the error the
//! specification gives when none does.

#[cfg(feature = "std")]
use super::super::typed::LaterFn;
use super::super::typed::ToolFn;
use super::Router;
use crate::dispatch::MethodSet;
use crate::http_headers::ToolHeaders;
use crate::method::method_names as names;
use crate::prelude::*;
use crate::server::engine::{CallFuture, Context, Handler};
#[cfg(feature = "std")]
use crate::v2026_07_28::{CallToolRequestParams, CallToolResultOrInputRequired};
use crate::v2026_07_28::{
    ClientCall, ClientCallResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, ResourceTemplate, ServerCapabilities,
    ServerCapabilitiesPrompts, ServerCapabilitiesResources, ServerCapabilitiesTools,
};
use crate::RpcError;

/// An async tool's answer: its future owns a context of its own, whose reports and changes
/// come back to the request's `context` once it has answered.
#[cfg(feature = "std")]
async fn later(
    tool: &LaterFn,
    params: CallToolRequestParams,
    context: &mut Context,
) -> Result<CallToolResultOrInputRequired, RpcError> {
    let (owned, kept) = context.detach();
    let answer = tool(params, owned).await;
    context.rejoin(&kept);
    answer
}

/// `result` with the next page's cursor, when there is a next page.
fn with_cursor<R>(result: R, next: Option<String>, set: impl FnOnce(R, String) -> R) -> R {
    match next {
        Some(cursor) => set(result, cursor),
        None => result,
    }
}

/// The entries of a page.
fn entries<T: Clone, F>(page: &[(T, F)]) -> Vec<T> {
    page.iter().map(|(entry, _)| entry.clone()).collect()
}

impl Handler for Router {
    fn capabilities(&self) -> ServerCapabilities {
        let mut capabilities = ServerCapabilities::new();
        let list_changed = self.list_changed.then_some(true);
        if !self.tools.is_empty() {
            let mut tools = ServerCapabilitiesTools::new();
            tools.list_changed = list_changed;
            capabilities = capabilities.with_tools(tools);
        }
        let offers_resources = !self.resources.is_empty() || !self.templates.is_empty();
        if offers_resources {
            let mut resources = ServerCapabilitiesResources::new();
            resources.list_changed = list_changed;
            resources.subscribe = self.subscribe.is_some().then_some(true);
            capabilities = capabilities.with_resources(resources);
        }
        if !self.prompts.is_empty() {
            let mut prompts = ServerCapabilitiesPrompts::new();
            prompts.list_changed = list_changed;
            capabilities = capabilities.with_prompts(prompts);
        }
        if self.logging {
            capabilities.logging = Some(Default::default());
        }
        if self.complete.is_some() {
            capabilities.completions = Some(Default::default());
        }
        capabilities
    }

    fn tool_headers(&self, name: &str) -> Option<&ToolHeaders> {
        self.tool_headers.get(name)
    }

    fn subscribe(&self, uri: &str, _context: &Context) -> Result<(), RpcError> {
        match &self.subscribe {
            Some(check) => check(uri),
            None => Err(RpcError::method_not_found(names::SUBSCRIBE_REQUEST)),
        }
    }

    fn is_async(&self, call: &ClientCall) -> bool {
        match call {
            #[cfg(feature = "std")]
            ClientCall::CallTool(params) => self.async_tool(&params.name).is_some(),
            _ => false,
        }
    }

    fn call_async<'a>(&'a self, call: ClientCall, context: &'a mut Context) -> CallFuture<'a> {
        #[cfg(feature = "std")]
        {
            let tool = match &call {
                ClientCall::CallTool(params) => self.async_tool(&params.name),
                _ => None,
            };
            match (call, tool) {
                (ClientCall::CallTool(params), Some(tool)) => {
                    let answer = later(tool, params, context);
                    Box::pin(async move { answer.await.map(Into::into) })
                }
                (call, _) => Box::pin(core::future::ready(self.call(call, context))),
            }
        }
        #[cfg(not(feature = "std"))]
        Box::pin(core::future::ready(self.call(call, context)))
    }

    fn call(&self, call: ClientCall, context: &mut Context) -> Result<ClientCallResult, RpcError> {
        let hint = self.hint();
        Ok(match call {
            ClientCall::ListTools(params) => {
                let (page, next) = self.page(&self.tools, &params)?;
                let result = ListToolsResult::complete(entries(page), hint.ttl_ms, hint.scope);
                with_cursor(result, next, |r, n| r.with_next_cursor(n)).into()
            }
            ClientCall::CallTool(params) => match self.tool_fn(&params.name) {
                Some(ToolFn::Now(call)) => call(params, context)?.into(),
                #[cfg(feature = "std")]
                Some(ToolFn::Later(call)) => {
                    let answer = later(call, params, context);
                    crate::server::engine::later::block_on(answer)?.into()
                }
                None => {
                    let message = format!("Unknown tool: {}", params.name);
                    return Err(RpcError::invalid_params(message));
                }
            },
            ClientCall::ListResources(params) => {
                let (page, next) = self.page(&self.resources, &params)?;
                let result = ListResourcesResult::complete(entries(page), hint.ttl_ms, hint.scope);
                with_cursor(result, next, |r, n| r.with_next_cursor(n)).into()
            }
            ClientCall::ListResourceTemplates(params) => {
                let (page, next) = self.page(&self.templates, &params)?;
                let templates: Vec<ResourceTemplate> = page
                    .iter()
                    .map(|(template, _, _)| template.clone())
                    .collect();
                let result =
                    ListResourceTemplatesResult::complete(templates, hint.ttl_ms, hint.scope);
                with_cursor(result, next, |r, n| r.with_next_cursor(n)).into()
            }
            ClientCall::ReadResource(params) => self.read(params)?.into(),
            ClientCall::ListPrompts(params) => {
                let (page, next) = self.page(&self.prompts, &params)?;
                let result = ListPromptsResult::complete(entries(page), hint.ttl_ms, hint.scope);
                with_cursor(result, next, |r, n| r.with_next_cursor(n)).into()
            }
            ClientCall::GetPrompt(params) => {
                match self
                    .prompts
                    .iter()
                    .find(|(prompt, _)| prompt.name == params.name)
                {
                    Some((_, get)) => get(params)?.into(),
                    None => {
                        let message = format!("Unknown prompt: {}", params.name);
                        return Err(RpcError::invalid_params(message));
                    }
                }
            }
            ClientCall::Complete(params) => match &self.complete {
                Some(complete) => complete(params)?.into(),
                None => return Err(RpcError::method_not_found(names::COMPLETE_REQUEST)),
            },
            other => return Err(RpcError::method_not_found(other.method())),
        })
    }
}
