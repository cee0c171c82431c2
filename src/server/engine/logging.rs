//! `logging/setLevel`, the stateful revisions' way to choose which log messages a session
//! hears (2026-07-28 asks in each request's `_meta` instead: see [`Context::log_level`]).

use super::{Handler, Server, Session};
use crate::dispatch::{CallSet, MethodSet};
use crate::revision::Revision;
use crate::v2026_07_28 as latest;
use crate::RpcError;

#[cfg(doc)]
use super::Context;

impl<H: Handler + ?Sized> Server<H> {
    /// `logging/setLevel` of a stateful session of revision `V`: the level its later
    /// requests' log messages must reach. Refused (-32601) when the server does not announce
    /// `logging`, as for any method it does not offer.
    pub(in crate::server) fn set_level<V: Revision>(
        &self,
        session: &mut Session,
        call: &V::ClientCall,
    ) -> Result<<V::ClientCall as CallSet>::Result, RpcError> {
        let method = call.method();
        if self.capabilities().logging.is_none() {
            return Err(RpcError::method_not_found(method));
        }
        let params = super::lifecycle::params(call);
        // The revision's reader required one of its levels: every revision has the same eight.
        let level = params.get("level").cloned();
        let level =
            level.and_then(|level| serde_json::from_value::<latest::LoggingLevel>(level).ok());
        let Some(level) = level else {
            return Err(RpcError::invalid_params("`level` is not a logging level"));
        };
        session.log_level = Some(level);
        super::lifecycle::empty_result::<V>(method)
    }
}
