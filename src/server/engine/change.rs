//! What changed on the server, as a handler or the application says it.

use crate::prelude::*;

/// Something that changed on the server, which clients may have asked to be told of.
///
/// Written as replicas tell it to each other ([`Broadcast`](crate::server::Broadcast)):
/// `{"kind":"resourceUpdated","uri":"..."}`, `{"kind":"toolList"}`, and so on.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", content = "uri", rename_all = "camelCase")]
#[non_exhaustive]
pub enum Change {
    /// The resource at this URI changed: `notifications/resources/updated`, to the clients
    /// subscribed to it.
    ResourceUpdated(String),
    /// Resources came or went: `notifications/resources/list_changed`.
    ResourceList,
    /// Tools came or went: `notifications/tools/list_changed`.
    ToolList,
    /// Prompts came or went: `notifications/prompts/list_changed`.
    PromptList,
}
