//! A tool's structured result read into the caller's own type.

use crate::prelude::*;
use crate::v2026_07_28::{CallToolResult, ContentBlock};
use core::fmt;
use serde::de::DeserializeOwned;

/// Why [`structured`] read no value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StructuredError {
    /// The tool answered with an error (`isError: true`): its text, for the model to read.
    ToolError(String),
    /// The result has no `structuredContent`: the tool lists no `outputSchema`, or the server
    /// speaks a revision before 2025-06-18, which has none.
    Missing,
    /// `structuredContent` is not a `T`: where (a JSON path, empty at the top) and what.
    Mismatch {
        /// The JSON path of the value that did not read.
        path: String,
        /// What was wrong there.
        problem: String,
    },
}

impl fmt::Display for StructuredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StructuredError::ToolError(text) => {
                write!(f, "the tool answered with an error: {text}")
            }
            StructuredError::Missing => f.write_str("the result has no structuredContent"),
            StructuredError::Mismatch { path, problem } if path.is_empty() => {
                write!(f, "structuredContent: {problem}")
            }
            StructuredError::Mismatch { path, problem } => {
                write!(f, "structuredContent.{path}: {problem}")
            }
        }
    }
}

impl core::error::Error for StructuredError {}

/// The `structuredContent` of a `tools/call` result read into a `T`: the type the tool's
/// `outputSchema` describes (with schemars, the same `T` a typed server answers with).
///
/// ```
/// use mcp_spec_types::client::{structured, StructuredError};
/// use mcp_spec_types::v2026_07_28::CallToolResult;
///
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Sum {
///     sum: f64,
/// }
///
/// let result: CallToolResult = serde_json::from_str(
///     r#"{"content": [], "structuredContent": {"sum": 5.5}, "resultType": "complete"}"#,
/// )?;
/// assert_eq!(structured::<Sum>(&result), Ok(Sum { sum: 5.5 }));
/// let wrong: CallToolResult = serde_json::from_str(
///     r#"{"content": [], "structuredContent": {"sum": "5.5"}, "resultType": "complete"}"#,
/// )?;
/// assert_eq!(
///     structured::<Sum>(&wrong).unwrap_err().to_string(),
///     "structuredContent.sum: invalid type: string \"5.5\", expected f64"
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// # Errors
///
/// [`StructuredError`]: the tool's error, no structured content, or content that is not a `T`
/// (with its path).
pub fn structured<T: DeserializeOwned>(result: &CallToolResult) -> Result<T, StructuredError> {
    if result.is_error == Some(true) {
        let text: Vec<&str> = result
            .content
            .iter()
            .filter_map(|block| match block {
                ContentBlock::TextContent(text) => Some(text.text.as_str()),
                _ => None,
            })
            .collect();
        return Err(StructuredError::ToolError(text.join("\n")));
    }
    let Some(content) = &result.structured_content else {
        return Err(StructuredError::Missing);
    };
    let text = crate::json::to_string(content).map_err(|e| StructuredError::Mismatch {
        path: String::new(),
        problem: e.to_string(),
    })?;
    crate::located::read_at(&text)
        .map_err(|(path, problem)| StructuredError::Mismatch { path, problem })
}
