//! The calls in one line: the tools, a resource, a prompt, each answered with its own
//! result type.

use super::{CallError, CallOptions, Connection};
use crate::method::method_names as names;
use crate::prelude::*;
use crate::v2026_07_28 as latest;

/// The most pages `list_tools` reads: a server whose cursors never end must not hold the
/// client in a loop.
const MAX_PAGES: usize = 10_000;

impl Connection {
    /// Every tool the server offers, page after page.
    ///
    /// # Errors
    ///
    /// See [`CallError`]; [`CallError::Unexpected`] when the server's cursors do not end.
    pub async fn list_tools(&self) -> Result<Vec<latest::Tool>, CallError> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let mut params = latest::PaginatedRequestParams::new(self.meta());
            if let Some(cursor) = cursor.take() {
                params = params.with_cursor(cursor);
            }
            let page = match self.request(latest::ClientCall::ListTools(params)).await? {
                latest::ClientCallResult::ListTools(page) => page,
                other => return Err(unexpected(names::LIST_TOOLS_REQUEST, &other)),
            };
            tools.extend(page.tools);
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return Ok(tools),
            }
        }
        Err(CallError::Unexpected(format!(
            "{} gave a cursor after {MAX_PAGES} pages",
            names::LIST_TOOLS_REQUEST
        )))
    }

    /// Calls tool `name` with `arguments` (anything that serializes as a JSON object: a
    /// struct, a map, `serde_json::json!({...})`). A tool's own failure is a result with
    /// `is_error`, as the server sent it.
    ///
    /// # Errors
    ///
    /// See [`CallError`]; [`CallError::Unexpected`] when `arguments` is not an object.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: impl serde::Serialize,
    ) -> Result<latest::CallToolResult, CallError> {
        self.call_tool_with(name, arguments, CallOptions::new())
            .await
    }

    /// [`Connection::call_tool`], watched and timed as `options` say: its progress and log
    /// messages to functions of its own, a timeout of its own. Dropping the future before it
    /// ends cancels the call at the server.
    ///
    /// ```no_run
    /// # async fn run(server: mcp_spec_types::client::Connection) -> Result<(), mcp_spec_types::client::CallError> {
    /// use mcp_spec_types::client::CallOptions;
    ///
    /// let progress = CallOptions::new().on_progress(|p| println!("{}", p.progress));
    /// let result = server.call_tool_with("count", serde_json::json!({}), progress).await?;
    /// # let _ = result; Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Connection::call_tool`].
    pub async fn call_tool_with(
        &self,
        name: &str,
        arguments: impl serde::Serialize,
        options: CallOptions,
    ) -> Result<latest::CallToolResult, CallError> {
        let arguments = match serde_json::to_value(arguments) {
            Ok(serde_json::Value::Object(arguments)) => arguments,
            Ok(serde_json::Value::Null) => serde_json::Map::new(),
            Ok(other) => {
                let why = format!("a tool's arguments are a JSON object, not {other}");
                return Err(CallError::Unexpected(why));
            }
            Err(error) => return Err(CallError::Unexpected(error.to_string())),
        };
        let params =
            latest::CallToolRequestParams::new(name, self.meta()).with_arguments(arguments);
        let call = latest::ClientCall::CallTool(params);
        match self.request_with(call, options).await? {
            latest::ClientCallResult::CallTool(
                latest::CallToolResultOrInputRequired::CallToolResult(result),
            ) => Ok(result),
            other => Err(unexpected(names::CALL_TOOL_REQUEST, &other)),
        }
    }

    /// Reads the resource at `uri`.
    ///
    /// # Errors
    ///
    /// See [`CallError`]: a resource the server does not have is [`CallError::Server`] with
    /// "resource not found".
    pub async fn read_resource(&self, uri: &str) -> Result<latest::ReadResourceResult, CallError> {
        let params = latest::ReadResourceRequestParams::new(uri, self.meta());
        match self
            .request(latest::ClientCall::ReadResource(params))
            .await?
        {
            latest::ClientCallResult::ReadResource(
                latest::ReadResourceResultOrInputRequired::ReadResourceResult(result),
            ) => Ok(result),
            other => Err(unexpected(names::READ_RESOURCE_REQUEST, &other)),
        }
    }

    /// Gets prompt `name` with `arguments`.
    ///
    /// # Errors
    ///
    /// See [`CallError`].
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: impl IntoIterator<Item = (impl Into<String>, impl Into<String>)>,
    ) -> Result<latest::GetPromptResult, CallError> {
        let arguments: alloc::collections::BTreeMap<String, String> = arguments
            .into_iter()
            .map(|(name, value)| (name.into(), value.into()))
            .collect();
        let mut params = latest::GetPromptRequestParams::new(name, self.meta());
        if !arguments.is_empty() {
            params = params.with_arguments(arguments);
        }
        match self.request(latest::ClientCall::GetPrompt(params)).await? {
            latest::ClientCallResult::GetPrompt(
                latest::GetPromptResultOrInputRequired::GetPromptResult(result),
            ) => Ok(result),
            other => Err(unexpected(names::GET_PROMPT_REQUEST, &other)),
        }
    }
}

/// A result of another kind than `method`'s, or an `input_required` left unanswered.
fn unexpected(method: &str, got: &latest::ClientCallResult) -> CallError {
    let input = matches!(
        got,
        latest::ClientCallResult::CallTool(
            latest::CallToolResultOrInputRequired::InputRequiredResult(_)
        ) | latest::ClientCallResult::ReadResource(
            latest::ReadResourceResultOrInputRequired::InputRequiredResult(_)
        ) | latest::ClientCallResult::GetPrompt(
            latest::GetPromptResultOrInputRequired::InputRequiredResult(_)
        )
    );
    CallError::Unexpected(if input {
        format!("{method}: the server asked for input the client does not give")
    } else {
        format!("{method} was answered with another kind of result")
    })
}
