//! The stateful revisions a session may negotiate. Every message of a session is read and
//! written in its own revision's types; the handlers work on 2025-11-25's, and each message is
//! moved between the two by writing it in one revision's types and reading it in the other's.

use mcp_spec_types::dispatch::{CallSet, Message, PendingRequest, ResultResponse};
use mcp_spec_types::v2025_11_25 as latest;
use mcp_spec_types::{MessageError, ProtocolVersion, RequestId};

/// One stateful revision.
pub trait Revision: Send + Sync {
    /// `"2025-06-18"`.
    fn version(&self) -> &'static str;
    /// Reads what a client sent (a batch where the revision has them) as 2025-11-25 messages.
    fn read(&self, text: &str) -> Result<Vec<latest::ClientMessage>, MessageError>;
    /// The response carrying `result`, the answer to `method`, in this revision's result type.
    fn answer(
        &self,
        id: RequestId,
        method: &str,
        result: &latest::ClientCallResult,
    ) -> Result<ResultResponse, String>;
    /// A request or notification of the server, written in this revision's types.
    fn write(&self, message: &latest::ServerMessage) -> Result<String, MessageError>;
}

macro_rules! revision {
    ($name:ident, $module:ident, $version:literal) => {
        struct $name;
        impl Revision for $name {
            fn version(&self) -> &'static str {
                $version
            }
            fn read(&self, text: &str) -> Result<Vec<latest::ClientMessage>, MessageError> {
                use mcp_spec_types::$module as m;
                let items = match m::ClientMessage::parse(text)? {
                    Message::Batch(items) => items,
                    one => vec![one],
                };
                items
                    .iter()
                    .map(|item| latest::ClientMessage::parse(&item.to_json()))
                    .collect()
            }
            fn answer(
                &self,
                id: RequestId,
                method: &str,
                result: &latest::ClientCallResult,
            ) -> Result<ResultResponse, String> {
                use mcp_spec_types::$module as m;
                let raw = ResultResponse::new(id.clone(), result).map_err(|e| e.to_string())?;
                let request = PendingRequest::without_task(method);
                let typed = <m::ClientCall as CallSet>::parse_result(&request, &raw.result)
                    .map_err(|e| e.to_string())?;
                ResultResponse::new(id, &typed).map_err(|e| e.to_string())
            }
            fn write(&self, message: &latest::ServerMessage) -> Result<String, MessageError> {
                use mcp_spec_types::$module as m;
                Ok(m::ServerMessage::parse(&message.to_json())?.to_json())
            }
        }
    };
}

revision!(V20241105, v2024_11_05, "2024-11-05");
revision!(V20250326, v2025_03_26, "2025-03-26");
revision!(V20250618, v2025_06_18, "2025-06-18");
revision!(V20251125, v2025_11_25, "2025-11-25");

/// Every revision with `initialize`, oldest first.
pub const STATEFUL: [&dyn Revision; 4] = [&V20241105, &V20250326, &V20250618, &V20251125];

/// The revision a server answers to a client's `initialize` asking for `requested`: the
/// crate's negotiation rule over the stateful revisions (a stateless or unknown request gets
/// the newest stateful one).
pub fn negotiate(requested: &str) -> &'static dyn Revision {
    let chosen = ProtocolVersion::negotiate(requested);
    STATEFUL
        .into_iter()
        .find(|r| chosen.as_ref().is_some_and(|c| c.as_str() == r.version()))
        .unwrap_or(&V20251125)
}

/// The stateful revision named `version`, if this server speaks it.
pub fn named(version: &str) -> Option<&'static dyn Revision> {
    STATEFUL.into_iter().find(|r| r.version() == version)
}
