//! Each revision's typed dispatch behind one revision-independent face.

use super::Side;
use crate::dispatch::{CallSet, Message, MethodSet, PendingRequest};
use crate::error::MessageError;
use crate::jsonrpc::RequestId;
use crate::method::{Direction, MethodKind};
use crate::version::ProtocolVersion;
use serde_json::value::RawValue;

/// What a parsed message amounts to, whatever its revision.
pub(super) enum Parsed {
    Request {
        id: RequestId,
        request: PendingRequest,
    },
    Notification {
        method: String,
        cancels: Option<RequestId>,
    },
    Response {
        id: RequestId,
        result: Box<RawValue>,
    },
    Error {
        id: Option<RequestId>,
    },
    Batch(Vec<Parsed>),
}

/// One revision's typed dispatch, behind a revision-independent face.
pub(super) trait Revision: Sync {
    /// Who sends `method` and what kind it is; `None` when the revision does not define it.
    fn method(&self, name: &str) -> Option<(Option<Direction>, Option<MethodKind>)>;
    /// Parses a message `sender` sent.
    fn parse(&self, sender: Side, text: &str) -> Result<Parsed, MessageError>;
    /// Checks the result of `request`, which `requester` sent.
    fn check_result(
        &self,
        requester: Side,
        request: &PendingRequest,
        result: &RawValue,
    ) -> Result<(), MessageError>;
}

pub(super) fn summarize<R: CallSet, N: MethodSet>(message: Message<R, N>) -> Parsed {
    match message {
        Message::Request(r) => Parsed::Request {
            id: r.id,
            request: PendingRequest::of(&r.call),
        },
        Message::Notification(n) => {
            let method = n.notification.method().to_owned();
            let cancels = if method == "notifications/cancelled" {
                cancelled_request(&n.notification)
            } else {
                None
            };
            Parsed::Notification { method, cancels }
        }
        Message::Response(r) => Parsed::Response {
            id: r.id,
            result: r.result,
        },
        Message::Error(e) => Parsed::Error { id: e.id },
        Message::Batch(items) => Parsed::Batch(items.into_iter().map(summarize).collect()),
    }
}

/// The `requestId` of a `notifications/cancelled`, read back through its params.
pub(super) fn cancelled_request<N: MethodSet>(notification: &N) -> Option<RequestId> {
    use serde::ser::{SerializeMap, Serializer};
    let mut map = serde_json::value::Serializer.serialize_map(None).ok()?;
    notification.serialize_params(&mut map).ok()?;
    let params = map.end().ok()?;
    let id = params.get("params")?.get("requestId")?.clone();
    serde_json::from_value(id).ok()
}

macro_rules! revision_module {
    ($feature:literal, $module:ident, $unit:ident) => {
        #[cfg(feature = $feature)]
        struct $unit;

        #[cfg(feature = $feature)]
        impl Revision for $unit {
            fn method(&self, name: &str) -> Option<(Option<Direction>, Option<MethodKind>)> {
                crate::$module::Method::known(name).map(|m| (m.direction(), m.kind()))
            }

            fn parse(&self, sender: Side, text: &str) -> Result<Parsed, MessageError> {
                match sender {
                    Side::Client => crate::$module::ClientMessage::parse(text).map(summarize),
                    Side::Server => crate::$module::ServerMessage::parse(text).map(summarize),
                }
            }

            fn check_result(
                &self,
                requester: Side,
                request: &PendingRequest,
                result: &RawValue,
            ) -> Result<(), MessageError> {
                match requester {
                    Side::Client => {
                        crate::$module::ClientCallResult::parse(request, result).map(drop)
                    }
                    Side::Server => {
                        crate::$module::ServerCallResult::parse(request, result).map(drop)
                    }
                }
            }
        }
    };
}

revision_module!("v2024_11_05", v2024_11_05, Rev2024_11_05);
revision_module!("v2025_03_26", v2025_03_26, Rev2025_03_26);
revision_module!("v2025_06_18", v2025_06_18, Rev2025_06_18);
revision_module!("v2025_11_25", v2025_11_25, Rev2025_11_25);
revision_module!("v2026_07_28", v2026_07_28, Rev2026_07_28);
revision_module!("unstable-draft", draft, RevDraft);

/// The typed dispatch of `version`, when this build has it.
pub(super) fn module_for(version: &ProtocolVersion) -> Option<&'static dyn Revision> {
    match version {
        #[cfg(feature = "v2024_11_05")]
        ProtocolVersion::V2024_11_05 => Some(&Rev2024_11_05),
        #[cfg(feature = "v2025_03_26")]
        ProtocolVersion::V2025_03_26 => Some(&Rev2025_03_26),
        #[cfg(feature = "v2025_06_18")]
        ProtocolVersion::V2025_06_18 => Some(&Rev2025_06_18),
        #[cfg(feature = "v2025_11_25")]
        ProtocolVersion::V2025_11_25 => Some(&Rev2025_11_25),
        #[cfg(feature = "v2026_07_28")]
        ProtocolVersion::V2026_07_28 => Some(&Rev2026_07_28),
        #[cfg(feature = "unstable-draft")]
        ProtocolVersion::Draft => Some(&RevDraft),
        _ => None,
    }
}
