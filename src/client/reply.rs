//! The answer to one of the client's requests, read in one pass when the server speaks the
//! client's own revision: the envelope's `id` names the request, so its `result` is typed as
//! that request's answer while it is read, with no raw copy to read again and nothing to
//! convert.

use crate::collections::HashMap;
use crate::dispatch::PendingRequest;
use crate::v2026_07_28 as latest;
use crate::RequestId;

/// `line` read as a plain result response to a request in `in_flight`: its id and typed
/// result. `None` for anything else, and for anything the one pass cannot settle (the
/// `result` before the `id`, a member twice, a result that is not its request's), which the
/// engine's general path then reads and explains. Envelope members JSON-RPC does not name are
/// read and left: the engine's answer does not carry them.
pub(super) fn read(
    line: &str,
    in_flight: &HashMap<RequestId, PendingRequest>,
) -> Option<(RequestId, latest::ClientCallResult)> {
    let lookup = |id: &RequestId| in_flight.get(id);
    let (id, result, _) =
        crate::dispatch::answering::read_answer::<latest::ClientCall>(line, &lookup)?;
    Some((id, result))
}
