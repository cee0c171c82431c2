//! The stateful revision a session negotiated, seen from the client: what the server sends is
//! read in that revision's types and handed on as 2025-11-25's (the revision the client is
//! written against), and what the client sends is written in the session's revision.

use mcp_spec_types::dispatch::{CallSet, Message, PendingRequest, ResultResponse};
use mcp_spec_types::revision::{self, ClientMessage, Revision, ServerMessage, Visit};
use mcp_spec_types::v2025_11_25 as latest;
use mcp_spec_types::{negotiation, MessageError, ProtocolVersion, RequestId};

/// A stateful revision this build has (one with `initialize`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Negotiated(ProtocolVersion);

impl Negotiated {
    /// The revision the client asks for and is written against.
    pub const LATEST: Negotiated = Negotiated(ProtocolVersion::V2025_11_25);

    /// The stateful revision named `version`, if this client speaks it.
    pub fn named(version: &str) -> Option<Negotiated> {
        let version = ProtocolVersion::from(version);
        (version.is_supported() && !negotiation::is_stateless(&version))
            .then_some(Negotiated(version))
    }

    /// `"2025-06-18"`.
    pub fn version(&self) -> &str {
        self.0.as_str()
    }

    /// Reads what the server sent as 2025-11-25 messages.
    pub fn read(&self, text: &str) -> Result<Vec<latest::ServerMessage>, MessageError> {
        struct Read<'a>(&'a str);
        impl Visit for Read<'_> {
            type Output = Result<Vec<latest::ServerMessage>, MessageError>;
            fn visit<V: Revision>(self) -> Self::Output {
                let items = match ServerMessage::<V>::parse(self.0)? {
                    Message::Batch(items) => items,
                    one => vec![one],
                };
                items
                    .iter()
                    .map(|item| latest::ServerMessage::parse(&item.to_json()))
                    .collect()
            }
        }
        self.run(Read(text))
    }

    /// Writes a request or notification of the client in this revision's types.
    pub fn write(&self, message: &latest::ClientMessage) -> Result<String, MessageError> {
        struct Write<'a>(&'a latest::ClientMessage);
        impl Visit for Write<'_> {
            type Output = Result<String, MessageError>;
            fn visit<V: Revision>(self) -> Self::Output {
                Ok(ClientMessage::<V>::parse(&self.0.to_json())?.to_json())
            }
        }
        self.run(Write(message))
    }

    /// The response carrying `result`, the answer to the server's `method`.
    pub fn answer(
        &self,
        id: RequestId,
        method: &str,
        result: &latest::ServerCallResult,
    ) -> Result<ResultResponse, String> {
        struct Answer<'a>(RequestId, &'a str, &'a latest::ServerCallResult);
        impl Visit for Answer<'_> {
            type Output = Result<ResultResponse, String>;
            fn visit<V: Revision>(self) -> Self::Output {
                let Answer(id, method, result) = self;
                let raw = ResultResponse::new(id.clone(), result).map_err(|e| e.to_string())?;
                let request = PendingRequest::without_task(method);
                let typed = <V::ServerCall as CallSet>::parse_result(&request, &raw.result)
                    .map_err(|e| e.to_string())?;
                ResultResponse::new(id, &typed).map_err(|e| e.to_string())
            }
        }
        self.run(Answer(id, method, result))
    }

    fn run<W: Visit>(&self, work: W) -> W::Output {
        revision::visit(&self.0, work).expect("a negotiated revision is one this build has")
    }
}
