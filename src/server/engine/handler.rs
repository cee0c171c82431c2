//! What answers a server's requests: the [`Handler`] trait the engine calls.

use super::context::Context;
use crate::http_headers::ToolHeaders;
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::RpcError;
use core::future::Future;
use core::pin::Pin;

/// A handler's answer to one request, still being worked out ([`Handler::call_async`]): a
/// transport that runs an async runtime awaits it there.
pub type CallFuture<'a> =
    Pin<Box<dyn Future<Output = Result<latest::ClientCallResult, RpcError>> + Send + 'a>>;

/// What a server does with the requests a client sends, written against 2026-07-28 (the
/// handlers' revision, whatever revision the client speaks).
///
/// The engine answers `server/discover`, `initialize` and `ping` itself; every other request of
/// 2026-07-28 reaches [`Handler::call`]. So does a stateless request of a method 2026-07-28
/// does not define, as `ClientCall::Unknown` with its params as they came: an extension's
/// (the tasks extension defines `tasks/get` again, which 2025-11-25 had), whose result the
/// handler gives as `ClientCallResult::Unknown`, written as it is; a defined request may be
/// answered so too (a `tools/call` answered with the tasks extension's task handle). A
/// [`Router`](crate::server::Router) answers what it does not know with -32601. A function
/// `Fn(ClientCall) -> Result<ClientCallResult, RpcError>` is a handler with no capabilities
/// (give them with [`Server::with_capabilities`](crate::server::Server::with_capabilities)); a [`Router`](crate::server::Router) derives its own.
pub trait Handler {
    /// What the server offers: `server/discover` and `initialize` answer with it.
    fn capabilities(&self) -> latest::ServerCapabilities {
        latest::ServerCapabilities::new()
    }

    /// Answers one request. An error is sent as the request's error response; "resource not
    /// found" ([`RpcError::resource_not_found`]) gets the code of the client's revision.
    fn call(
        &self,
        call: latest::ClientCall,
        context: &mut Context,
    ) -> Result<latest::ClientCallResult, RpcError>;

    /// Whether `call` is answered by [`Handler::call_async`]: a transport that runs an async
    /// runtime (the `http-server` feature's service) then awaits its future there, rather than
    /// give [`Handler::call`] a thread that may block. `false` by default; a [`Router`](crate::server::Router) says
    /// `true` for a tool it was given as an async function ([`Router::tool_async`](crate::server::Router::tool_async)).
    fn is_async(&self, call: &latest::ClientCall) -> bool {
        let _ = call;
        false
    }

    /// Answers one request as a future, for a transport that awaits it (see
    /// [`Handler::is_async`]). By default, [`Handler::call`]'s answer, ready at once. A call
    /// that is async is still answered through [`Handler::call`] where nothing awaits (the
    /// stdio loop, [`Server::handle`](crate::server::Server::handle)): a [`Router`](crate::server::Router) then runs the future to its end on the
    /// caller's thread.
    fn call_async<'a>(
        &'a self,
        call: latest::ClientCall,
        context: &'a mut Context,
    ) -> CallFuture<'a> {
        Box::pin(core::future::ready(self.call(call, context)))
    }

    /// The `x-mcp-header` annotations of tool `name`'s input schema, which a 2026-07-28
    /// client mirrors into `Mcp-Param-*` headers over Streamable HTTP: the engine refuses a
    /// stateless `tools/call` whose headers disagree with its arguments (`-32020`, status
    /// 400), as it refuses one whose `Mcp-Name` disagrees. `None` (the default): no such header
    /// is checked. A [`Router`](crate::server::Router) gives the annotations of the tools it offers.
    fn tool_headers(&self, name: &str) -> Option<&ToolHeaders> {
        let _ = name;
        None
    }

    /// Whether a client may subscribe to the resource at `uri` (`resources/subscribe`, or a
    /// `subscriptions/listen` stream's `resourceSubscriptions`): an error refuses the request
    /// ("resource not found" gets the code of the client's revision). Asked only when the
    /// capabilities announce `resources.subscribe`; by default every URI is accepted.
    fn subscribe(&self, uri: &str, context: &Context) -> Result<(), RpcError> {
        let _ = (uri, context);
        Ok(())
    }
}

impl<F> Handler for F
where
    F: Fn(latest::ClientCall) -> Result<latest::ClientCallResult, RpcError>,
{
    fn call(
        &self,
        call: latest::ClientCall,
        _context: &mut Context,
    ) -> Result<latest::ClientCallResult, RpcError> {
        self(call)
    }
}
