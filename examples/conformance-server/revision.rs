//! The stateful revisions a session may negotiate. Every message of a session is read and
//! written in its own revision's types. The session layer reads and writes 2025-11-25's (the
//! newest revision with `initialize`), the handlers answer in 2026-07-28's, and the crate's
//! conversions (`mcp_spec_types::convert`) carry each message between them: what the client
//! sent, losslessly; what the server sends, *for a peer*, without the members the session's
//! revision does not define (a 2024-11-05 client is not told of `completions`, no stateful
//! client of `resultType` or the cache hints).

use mcp_spec_types::convert::{convert_result_for_peer, ConversionError};
use mcp_spec_types::dispatch::{CallSet, Message, MethodSet, PendingRequest, ResultResponse};
use mcp_spec_types::v2025_11_25 as latest;
use mcp_spec_types::v2026_07_28 as handlers;
use mcp_spec_types::{MessageError, ProtocolVersion, RequestId};
use std::marker::PhantomData;

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
    /// The response carrying the handlers' `result`, the answer to `method`.
    fn answer_handlers(
        &self,
        id: RequestId,
        method: &str,
        result: &handlers::ClientCallResult,
    ) -> Result<ResultResponse, String>;
    /// A request or notification of the server, written in this revision's types.
    fn write(&self, message: &latest::ServerMessage) -> Result<String, ConversionError>;
}

/// The types of a revision, named but never held.
type Types<C, N, SC, SN> = PhantomData<fn() -> (C, N, SC, SN)>;

/// The revision whose client sends `C`/`N` and whose server sends `SC`/`SN`.
struct Rev<C, N, SC, SN>(Types<C, N, SC, SN>);

impl<C, N, SC, SN> Revision for Rev<C, N, SC, SN>
where
    C: CallSet,
    N: MethodSet,
    SC: MethodSet,
    SN: MethodSet,
{
    fn version(&self) -> &'static str {
        C::REVISION
    }

    fn read(&self, text: &str) -> Result<Vec<latest::ClientMessage>, MessageError> {
        let items = match Message::<C, N>::parse(text)? {
            Message::Batch(items) => items,
            one => vec![one],
        };
        items
            .iter()
            .map(|item| {
                // What 2025-11-25 cannot hold is reported as its reader reports it (the same
                // reading the conversion does), so the client gets the usual JSON-RPC error.
                item.convert()
                    .or_else(|_| latest::ClientMessage::parse(&item.to_json()))
            })
            .collect()
    }

    fn answer(
        &self,
        id: RequestId,
        method: &str,
        result: &latest::ClientCallResult,
    ) -> Result<ResultResponse, String> {
        for_peer::<latest::ClientCall, C>(id, method, result)
    }

    fn answer_handlers(
        &self,
        id: RequestId,
        method: &str,
        result: &handlers::ClientCallResult,
    ) -> Result<ResultResponse, String> {
        for_peer::<handlers::ClientCall, C>(id, method, result)
    }

    fn write(&self, message: &latest::ServerMessage) -> Result<String, ConversionError> {
        Ok(message.convert_for_peer::<SC, SN>()?.value.to_json())
    }
}

/// The response carrying `result` of `A`, converted for a peer of `C`.
fn for_peer<A: CallSet, C: CallSet>(
    id: RequestId,
    method: &str,
    result: &A::Result,
) -> Result<ResultResponse, String> {
    let request = PendingRequest::without_task(method);
    let typed = convert_result_for_peer::<A, C>(result, &request)
        .map_err(|e| e.to_string())?
        .value;
    ResultResponse::new(id, &typed).map_err(|e| e.to_string())
}

macro_rules! rev {
    ($module:ident) => {
        Rev::<
            mcp_spec_types::$module::ClientCall,
            mcp_spec_types::$module::ClientNotify,
            mcp_spec_types::$module::ServerCall,
            mcp_spec_types::$module::ServerNotify,
        >(PhantomData)
    };
}

/// Every revision with `initialize`, oldest first.
pub const STATEFUL: [&dyn Revision; 4] = [
    &rev!(v2024_11_05),
    &rev!(v2025_03_26),
    &rev!(v2025_06_18),
    &rev!(v2025_11_25),
];

/// The revision a server answers to a client's `initialize` asking for `requested`: the
/// crate's negotiation rule over the stateful revisions (a stateless or unknown request gets
/// the newest stateful one).
pub fn negotiate(requested: &str) -> &'static dyn Revision {
    let chosen = ProtocolVersion::negotiate(requested);
    STATEFUL
        .into_iter()
        .find(|r| chosen.as_ref().is_some_and(|c| c.as_str() == r.version()))
        .unwrap_or(STATEFUL[3])
}

/// The stateful revision named `version`, if this server speaks it.
pub fn named(version: &str) -> Option<&'static dyn Revision> {
    STATEFUL.into_iter().find(|r| r.version() == version)
}
