//! Answers that come later: the context an async tool owns while it runs, and the one place a
//! handler's future is run to its end on a thread that must wait for it.

#[cfg(feature = "std")]
use super::reports::{Reports, Shared};
use super::{Context, Handler};
use crate::v2026_07_28 as latest;
use crate::RpcError;
#[cfg(feature = "std")]
use core::future::Future;

#[cfg(feature = "std")]
impl Context {
    /// A context for a future to own: the same request, reports going where this context's
    /// go (at once when they are live), what is kept coming back through [`Context::rejoin`].
    pub(crate) fn detach(&self) -> (Context, Shared) {
        let shared = Shared::default();
        let mut owned = Context::new(self.peer.clone());
        owned.progress_token.clone_from(&self.progress_token);
        owned.log_level = self.log_level;
        owned.live.clone_from(&self.live);
        owned.cancelled = self.cancelled.clone();
        owned.closer.clone_from(&self.closer);
        owned.shared = Some(shared.clone());
        (owned, shared)
    }

    /// Takes back what the detached context kept: its reports, then its changes.
    pub(crate) fn rejoin(&mut self, shared: &Shared) {
        let Reports {
            notes,
            changes,
            closed,
        } = core::mem::take(&mut *shared.lock());
        if closed {
            // Reports made since go with the answer, as the stream is gone.
            self.closer = None;
            self.live = None;
        }
        for note in notes {
            self.note(note);
        }
        for change in changes {
            self.changed(change);
        }
    }
}

/// Runs `future` to its end on this thread, for a caller that cannot await it: the stdio loop's
/// call threads, [`Server::handle`](crate::server::Server::handle), a [`Router`](crate::server::Router)'s
/// `call` of an async tool. Inside a tokio runtime's context (the `http-server` and the client
/// features bring tokio) the future runs on a thread of its own that enters the runtime, so
/// that its timers and sockets work, whatever this thread is doing: a thread inside a task, or
/// inside `block_on`, may not start another `block_on`. Otherwise it is polled here, this
/// thread parked until it is woken.
#[cfg(feature = "std")]
pub(crate) fn block_on<F>(future: F) -> F::Output
where
    F: Future + Send,
    F::Output: Send,
{
    #[cfg(any(
        feature = "http-server",
        feature = "http-client",
        feature = "stdio-client"
    ))]
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        return std::thread::scope(|scope| {
            let waited = scope.spawn(|| runtime.block_on(future)).join();
            waited.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
    }
    park_on(future)
}

/// Polls `future` on this thread, parking it between wake-ups.
#[cfg(feature = "std")]
fn park_on<F: Future>(future: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl alloc::task::Wake for Unpark {
        fn wake(self: alloc::sync::Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = core::task::Waker::from(alloc::sync::Arc::new(Unpark(std::thread::current())));
    let mut task = core::task::Context::from_waker(&waker);
    let mut future = core::pin::pin!(future);
    loop {
        if let core::task::Poll::Ready(output) = future.as_mut().poll(&mut task) {
            return output;
        }
        std::thread::park();
    }
}

/// Answers `call` on this thread, for a caller that cannot await: an async call's future is
/// run to its end ([`block_on`]), any other call answered by [`Handler::call`].
pub(crate) fn answer_here<H: Handler + ?Sized>(
    handler: &H,
    call: latest::ClientCall,
    context: &mut Context,
) -> Result<latest::ClientCallResult, RpcError> {
    #[cfg(feature = "std")]
    if handler.is_async(&call) {
        return block_on(handler.call_async(call, context));
    }
    handler.call(call, context)
}

/// The tokio runtime a loop was started in, if any, for the threads it starts to enter: a
/// handler's future run on them finds the runtime's timers and sockets.
#[cfg(feature = "std")]
pub(crate) struct Runtime {
    #[cfg(any(
        feature = "http-server",
        feature = "http-client",
        feature = "stdio-client"
    ))]
    handle: Option<tokio::runtime::Handle>,
}

#[cfg(feature = "std")]
impl Runtime {
    /// The runtime of this thread's context.
    pub(crate) fn current() -> Self {
        Runtime {
            #[cfg(any(
                feature = "http-server",
                feature = "http-client",
                feature = "stdio-client"
            ))]
            handle: tokio::runtime::Handle::try_current().ok(),
        }
    }

    /// Runs `run` inside the runtime's context.
    pub(crate) fn enter<T>(&self, run: impl FnOnce() -> T) -> T {
        #[cfg(any(
            feature = "http-server",
            feature = "http-client",
            feature = "stdio-client"
        ))]
        let _entered = self.handle.as_ref().map(tokio::runtime::Handle::enter);
        run()
    }
}
