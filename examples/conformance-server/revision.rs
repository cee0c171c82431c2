//! The stateful revisions a session may negotiate. Every message of a session is read and
//! written in its own revision's types. The session layer reads and writes 2025-11-25's (the
//! newest revision with `initialize`), the handlers answer in 2026-07-28's, and the crate's
//! conversions (`mcp_spec_types::convert`) carry each message between them: what the client
//! sent, losslessly; what the server sends, *for a peer*, without the members the session's
//! revision does not define (a 2024-11-05 client is not told of `completions`, no stateful
//! client of `resultType` or the cache hints).

use mcp_spec_types::convert::{convert_result_for_peer, ConversionError};
use mcp_spec_types::dispatch::{CallSet, Message, PendingRequest, ResultResponse};
use mcp_spec_types::revision::{self, ClientMessage, Revision, Visit};
use mcp_spec_types::v2025_11_25 as latest;
use mcp_spec_types::v2026_07_28 as handlers;
use mcp_spec_types::{negotiation, MessageError, ProtocolVersion, RequestId};

/// The stateful revision a session negotiated: one this build has, with `initialize`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Negotiated(ProtocolVersion);

impl Negotiated {
    /// `"2025-06-18"`.
    pub fn version(&self) -> &str {
        self.0.as_str()
    }

    /// Reads what a client sent (a batch where the revision has them) as 2025-11-25 messages.
    pub fn read(&self, text: &str) -> Result<Vec<latest::ClientMessage>, MessageError> {
        struct Read<'a>(&'a str);
        impl Visit for Read<'_> {
            type Output = Result<Vec<latest::ClientMessage>, MessageError>;
            fn visit<V: Revision>(self) -> Self::Output {
                let items = match ClientMessage::<V>::parse(self.0)? {
                    Message::Batch(items) => items,
                    one => vec![one],
                };
                items
                    .iter()
                    .map(|item| {
                        // What 2025-11-25 cannot hold is reported as its reader reports it
                        // (the same reading the conversion does), so the client gets the usual
                        // JSON-RPC error.
                        item.convert()
                            .or_else(|_| latest::ClientMessage::parse(&item.to_json()))
                    })
                    .collect()
            }
        }
        self.run(Read(text))
    }

    /// The response carrying `result`, the answer to `method`, in this revision's result type.
    pub fn answer(
        &self,
        id: RequestId,
        method: &str,
        result: &latest::ClientCallResult,
    ) -> Result<ResultResponse, String> {
        self.run(ForPeer::<latest::ClientCall>(id, method, result))
    }

    /// The response carrying the handlers' `result`, the answer to `method`.
    pub fn answer_handlers(
        &self,
        id: RequestId,
        method: &str,
        result: &handlers::ClientCallResult,
    ) -> Result<ResultResponse, String> {
        self.run(ForPeer::<handlers::ClientCall>(id, method, result))
    }

    /// A request or notification of the server, written in this revision's types.
    pub fn write(&self, message: &latest::ServerMessage) -> Result<String, ConversionError> {
        struct Write<'a>(&'a latest::ServerMessage);
        impl Visit for Write<'_> {
            type Output = Result<String, ConversionError>;
            fn visit<V: Revision>(self) -> Self::Output {
                let sent = self
                    .0
                    .convert_for_peer::<V::ServerCall, V::ServerNotify>()?;
                Ok(sent.value.to_json())
            }
        }
        self.run(Write(message))
    }

    fn run<W: Visit>(&self, work: W) -> W::Output {
        revision::visit(&self.0, work).expect("a negotiated revision is one this build has")
    }
}

/// The response carrying `result` of `A`, converted for a peer of the visited revision.
struct ForPeer<'a, A: CallSet>(RequestId, &'a str, &'a A::Result);

impl<A: CallSet> Visit for ForPeer<'_, A> {
    type Output = Result<ResultResponse, String>;
    fn visit<V: Revision>(self) -> Self::Output {
        let ForPeer(id, method, result) = self;
        let request = PendingRequest::without_task(method);
        let typed = convert_result_for_peer::<A, V::ClientCall>(result, &request)
            .map_err(|e| e.to_string())?
            .value;
        ResultResponse::new(id, &typed).map_err(|e| e.to_string())
    }
}

/// The revision a server answers to a client's `initialize` asking for `requested`: the
/// crate's negotiation rule over the stateful revisions (a stateless or unknown request gets
/// the newest stateful one).
pub fn negotiate(requested: &str) -> Negotiated {
    Negotiated(ProtocolVersion::negotiate(requested).unwrap_or(ProtocolVersion::V2025_11_25))
}

/// The stateful revision named `version`, if this server speaks it.
pub fn named(version: &str) -> Option<Negotiated> {
    let version = ProtocolVersion::from(version);
    (version.is_supported() && !negotiation::is_stateless(&version)).then_some(Negotiated(version))
}
