//! Running the handler on a call: an async handler's future awaited, any other on the blocking
//! pool, its reports sent as they are made, its answer finished in the sessions.

use super::body::HttpBody;
use super::reply::{data, plain};
use super::state::Shared;
use super::Config;
use crate::prelude::*;
use crate::server::{Context, Handler, HttpAnswer, HttpBatch, HttpCall, HttpResponse};
use crate::v2026_07_28::ClientCall;
use crate::RpcError;
use bytes::Bytes;
use core::future::Future;
use core::pin::Pin;
use core::task::Poll;
use std::sync::Arc;
use tokio::sync::mpsc;

/// A handler's answer.
type CallResult = Result<crate::v2026_07_28::ClientCallResult, RpcError>;

impl<H: Handler + Send + Sync + ?Sized + 'static> Shared<H> {
    /// Runs the handler on `call` and gives the response. `takes_streams`: the client
    /// accepts event streams (a client that takes JSON alone gets every answer as JSON, its
    /// reports with it).
    pub(super) async fn answer(
        self: Arc<Self>,
        mut call: HttpCall,
        config: &Config,
        takes_streams: bool,
    ) -> http::Response<HttpBody> {
        let pending = call.pending();
        let context = pending.context();
        let reports = context.progress_token.is_some() || context.log_level.is_some();
        let stateless = call.session().is_none();
        let streamed =
            config.call_streams && !stateless && matches!(pending.call(), ClientCall::CallTool(_));
        // Outside a tokio runtime (hyper driven by another executor) nothing can run beside
        // the request: the handler runs here, its reports going with its answer.
        let runtime = tokio::runtime::Handle::try_current().ok();
        let pool = &config.blocking;
        let Some(runtime) = runtime.filter(|_| takes_streams && (reports || streamed)) else {
            // Nothing goes out before the answer: answered from here, with no lock held.
            return self.respond_here(call, pool).await;
        };
        let opened = if stateless {
            None
        } else {
            let now_ms = self.now_ms();
            let retry_ms = config
                .retry
                .map(|retry| u64::try_from(retry.as_millis()).unwrap_or(u64::MAX));
            let mut open = self.lock();
            let opened = open.sessions.open_stream(&mut call, retry_ms);
            opened.map(|response| {
                let stream = response.stream.clone();
                let reply = open.deliver(response, now_ms);
                (reply, stream)
            })
        };
        if opened.is_some() {
            // The stream's first event, kept in the store before it is sent.
            Arc::clone(&self).flush().await;
        }
        match opened {
            // A session's call: its stream is open; its reports, then its answer, go on it.
            Some((reply, stream)) => {
                let (call, mut context, responder) = call.into_parts();
                if let Some(stream) = stream {
                    // The stream's writer is looked up for each report, not held: a stream
                    // closed early must end when it is taken out of the table.
                    let (shared, on) = (Arc::downgrade(&self), stream.clone());
                    context.send_reports_to(move |line| {
                        let Some(shared) = shared.upgrade() else {
                            return;
                        };
                        if let Some(writer) = shared.lock().streams.get(&on) {
                            let _ = writer.try_send(Bytes::from(data(&line)));
                        }
                    });
                    let shared = Arc::downgrade(&self);
                    context.close_stream_with(move || {
                        if let Some(shared) = shared.upgrade() {
                            // Its writer dropped, the body ends; the engine keeps what is
                            // sent on it meanwhile, for the client to resume.
                            shared.lock().streams.remove(&stream);
                        }
                    });
                }
                let finish = move |shared: &Arc<Self>, result, context: &mut Context| {
                    shared.finish(responder.respond_with(context, result));
                };
                self.run_beside(&runtime, pool, call, context, finish);
                reply
            }
            // A call already answered on a stream (after the client's input): its reports go
            // with its answer, on that stream.
            None if !stateless => self.respond_here(call, pool).await,
            // A stateless call: one JSON answer, unless a report comes first.
            None => self.answer_stateless(call, &runtime, pool).await,
        }
    }

    /// Answers `call` and gives its response: an async handler's future awaited in the
    /// request's own task (it holds no thread while it waits), any other handler on tokio's
    /// blocking pool once the service's pool of blocking calls has room,
    /// never on the runtime's workers. The blocking call finishes by itself, and an async
    /// call dropped with its connection takes itself out of the session, so that a client
    /// that hangs up meanwhile leaves nothing of its call there. A handler that panics
    /// answers with an internal error.
    pub(super) async fn respond_here(
        self: &Arc<Self>,
        call: HttpCall,
        pool: &Arc<tokio::sync::Semaphore>,
    ) -> http::Response<HttpBody> {
        let session = call.session().map(str::to_owned);
        let id = call.pending().id().clone();
        let (call, mut context, responder) = call.into_parts();
        let handler = self.server.handler();
        if handler.is_async(&call) {
            // A client that hangs up drops this future with its connection, the handler's
            // with it: the call then leaves its session as a cancelled one does.
            let abandoned = session.map(|session| Abandoned {
                shared: Arc::downgrade(self),
                session,
                id,
                answered: false,
            });
            let call = Unwinding(handler.call_async(call, &mut context));
            let result = Guarded { abandoned, call }.await;
            let (reply, keeping) = self.finish_then(responder.respond_with(&mut context, result));
            return Self::once_kept(reply, keeping).await;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            // Outside a tokio runtime there is no blocking pool: the handler runs here.
            let result = unwinding(|| handler.call(call, &mut context));
            return self.finish(responder.respond_with(&mut context, result));
        };
        // The pool is never closed: a permit always comes.
        let permit = Arc::clone(pool).acquire_owned().await.ok();
        let shared = Arc::clone(self);
        let running = runtime.spawn_blocking(move || {
            let _permit = permit;
            let result = unwinding(|| shared.server.handler().call(call, &mut context));
            shared.finish_then(responder.respond_with(&mut context, result))
        });
        // Only a runtime that shuts down drops a blocking task before it runs.
        match running.await {
            Ok((reply, keeping)) => Self::once_kept(reply, keeping).await,
            Err(_) => plain(503),
        }
    }

    /// Answers a batch's calls one after the other on tokio's blocking pool, once the pool of
    /// blocking calls has room (an async handler's future run to its end there), with no lock
    /// held, then gives its response. A handler that panics answers its item with an internal
    /// error.
    pub(super) async fn respond_batch(
        self: &Arc<Self>,
        mut batch: HttpBatch,
        pool: &Arc<tokio::sync::Semaphore>,
    ) -> http::Response<HttpBody> {
        let shared = Arc::clone(self);
        let answer = move |batch: &mut HttpBatch| {
            let handler = shared.server.handler();
            batch.answer_with(|call, context| {
                unwinding(|| crate::server::engine::later::answer_here(handler, call, context))
            });
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                let permit = Arc::clone(pool).acquire_owned().await.ok();
                let shared = Arc::clone(self);
                let running = runtime.spawn_blocking(move || {
                    let _permit = permit;
                    answer(&mut batch);
                    shared.finish_batch(batch)
                });
                running.await.unwrap_or_else(|_| plain(503))
            }
            Err(_) => {
                answer(&mut batch);
                self.finish_batch(batch)
            }
        }
    }

    /// The response for a batch whose calls were answered, with the clients told of what its
    /// handlers changed.
    pub(super) fn finish_batch(self: &Arc<Self>, batch: HttpBatch) -> http::Response<HttpBody> {
        let now_ms = self.now_ms();
        let (reply, changes, waiting) = {
            let mut open = self.lock();
            let response = open.sessions.finish_batch(batch);
            let (response, changes) = open.told(&self.server, response);
            let reply = open.deliver(response, now_ms);
            (reply, changes, !open.outbox.is_empty())
        };
        if waiting || !changes.is_empty() {
            let _ = self.after_answer(changes);
        }
        reply
    }

    /// Runs the handler on `call` beside the request, then `done` with its answer: an async
    /// handler's future as a task of `runtime`, any other handler on its blocking pool once
    /// `pool` has room (a handler that blocks between its reports must not hold the worker
    /// that would write them). A handler that panics answers with an internal error.
    pub(super) fn run_beside(
        self: Arc<Self>,
        runtime: &tokio::runtime::Handle,
        pool: &Arc<tokio::sync::Semaphore>,
        call: ClientCall,
        mut context: Context,
        done: impl FnOnce(&Arc<Self>, CallResult, &mut Context) + Send + 'static,
    ) {
        if self.server.handler().is_async(&call) {
            runtime.spawn(async move {
                let answer = self.server.handler().call_async(call, &mut context);
                let result = Unwinding(answer).await;
                done(&self, result, &mut context);
            });
        } else {
            let pool = Arc::clone(pool);
            let blocking = runtime.clone();
            runtime.spawn(async move {
                let permit = pool.acquire_owned().await.ok();
                // Awaited by no one: `done` takes the answer.
                drop(blocking.spawn_blocking(move || {
                    let _permit = permit;
                    let result = unwinding(|| self.server.handler().call(call, &mut context));
                    done(&self, result, &mut context);
                }));
            });
        }
    }

    /// A stateless call whose client asked for reports: the first of a report and the answer
    /// decides whether the response is an event stream or one JSON message.
    pub(super) async fn answer_stateless(
        self: Arc<Self>,
        call: HttpCall,
        runtime: &tokio::runtime::Handle,
        pool: &Arc<tokio::sync::Semaphore>,
    ) -> http::Response<HttpBody> {
        enum Out {
            Report(String),
            Done(HttpAnswer),
        }
        let (out, mut outs) = mpsc::unbounded_channel();
        let (call, mut context, responder) = call.into_parts();
        let reports = out.clone();
        context.send_reports_to(move |line| {
            let _ = reports.send(Out::Report(line));
        });
        Arc::clone(&self).run_beside(runtime, pool, call, context, move |_, result, _| {
            let _ = out.send(Out::Done(responder.respond(result)));
        });
        let first = match outs.recv().await {
            Some(Out::Done(answer)) => {
                let (reply, keeping) = self.finish_then(answer);
                return Self::once_kept(reply, keeping).await;
            }
            Some(Out::Report(first)) => first,
            None => return plain(500), // the handler's task panicked
        };
        let (writer, body) = HttpBody::stream();
        let _ = writer.try_send(Bytes::from(data(&first)));
        runtime.spawn(async move {
            // Waits for room on the stream rather than drop the answer behind a burst of
            // reports; a client that went away ends the wait (the send fails).
            while let Some(out) = outs.recv().await {
                match out {
                    Out::Report(line) => {
                        let _ = writer.send(Bytes::from(data(&line))).await;
                    }
                    Out::Done(answer) => {
                        let response = self.finished(answer);
                        if let Some(line) = response.body {
                            let _ = writer.send(Bytes::from(data(&line))).await;
                        }
                        return;
                    }
                }
            }
        });
        let mut reply = http::Response::new(body);
        reply.headers_mut().insert(
            http::header::CONTENT_TYPE,
            http::HeaderValue::from_static("text/event-stream"),
        );
        reply
    }

    /// The response for `answer`, with its events sent and the clients told of its changes.
    pub(super) fn finish(self: &Arc<Self>, answer: HttpAnswer) -> http::Response<HttpBody> {
        self.finish_then(answer).0
    }

    /// [`Shared::finish`], and the task that keeps its changes in the store (with one):
    /// awaited before the response goes, so that a change a client was answered for is kept,
    /// and the changes of a client's calls, made one after the other, are told in that order.
    pub(super) fn finish_then(
        self: &Arc<Self>,
        answer: HttpAnswer,
    ) -> (
        http::Response<HttpBody>,
        Option<tokio::task::JoinHandle<()>>,
    ) {
        let now_ms = self.now_ms();
        let (reply, changes, waiting) = {
            let mut open = self.lock();
            let (response, changes) = open.finished(&self.server, answer);
            let reply = open.deliver(response, now_ms);
            (reply, changes, !open.outbox.is_empty())
        };
        let keeping = (waiting || !changes.is_empty())
            .then(|| self.after_answer(changes))
            .flatten();
        (reply, keeping)
    }

    /// `reply`, once `keeping` is done.
    async fn once_kept(
        reply: http::Response<HttpBody>,
        keeping: Option<tokio::task::JoinHandle<()>>,
    ) -> http::Response<HttpBody> {
        if let Some(keeping) = keeping {
            let _ = keeping.await;
        }
        reply
    }

    /// [`Shared::finish`], as the engine's response: for a stream opened already.
    pub(super) fn finished(self: &Arc<Self>, answer: HttpAnswer) -> HttpResponse {
        let now_ms = self.now_ms();
        let (response, changes, waiting) = {
            let mut open = self.lock();
            let (mut response, changes) = open.finished(&self.server, answer);
            open.send_and_end(&mut response, now_ms);
            (response, changes, !open.outbox.is_empty())
        };
        if waiting || !changes.is_empty() {
            let _ = self.after_answer(changes);
        }
        response
    }
}

/// A handler's panic, as the answer a client can read: the request is answered, and what the
/// engine keeps for it is freed, rather than the connection dropped mid-response.
pub(super) fn panicked() -> RpcError {
    RpcError::new(crate::ErrorCode::InternalError, "the handler failed")
}

/// `run`'s answer, or [`panicked`] when it panics.
pub(super) fn unwinding(run: impl FnOnce() -> CallResult) -> CallResult {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|_| Err(panicked()))
}

/// A handler's future, answering [`panicked`] when a poll panics.
pub(super) struct Unwinding<'a>(crate::server::CallFuture<'a>);

/// A session's call answered in its request's own task: dropped before it was answered (the
/// client hung up, and the connection's task went with it), it takes the call out of its
/// session, which would otherwise hold its id as in flight for as long as the session lives.
struct Abandoned<H: Handler + Send + Sync + ?Sized + 'static> {
    shared: alloc::sync::Weak<Shared<H>>,
    session: String,
    id: crate::RequestId,
    answered: bool,
}

/// A session's async call with its [`Abandoned`] guard. The fields drop in the order they are
/// declared: the call leaves its session before its handler's future is dropped, so that
/// whoever sees the handler go (a client about to send the same id again) finds the id free.
struct Guarded<'a, H: Handler + Send + Sync + ?Sized + 'static> {
    abandoned: Option<Abandoned<H>>,
    call: Unwinding<'a>,
}

impl<H: Handler + Send + Sync + ?Sized + 'static> Future for Guarded<'_, H> {
    type Output = CallResult;

    fn poll(mut self: Pin<&mut Self>, task: &mut core::task::Context<'_>) -> Poll<CallResult> {
        let polled = Pin::new(&mut self.call).poll(task);
        if polled.is_ready() {
            if let Some(abandoned) = &mut self.abandoned {
                abandoned.answered = true;
            }
        }
        polled
    }
}

impl<H: Handler + Send + Sync + ?Sized + 'static> Drop for Abandoned<H> {
    fn drop(&mut self) {
        if self.answered {
            return;
        }
        if let Some(shared) = self.shared.upgrade() {
            shared.lock().sessions.abandon(&self.session, &self.id);
        }
    }
}

impl Future for Unwinding<'_> {
    type Output = CallResult;

    fn poll(mut self: Pin<&mut Self>, task: &mut core::task::Context<'_>) -> Poll<CallResult> {
        let future = &mut self.0;
        let polled =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| future.as_mut().poll(task)));
        polled.unwrap_or_else(|_| Poll::Ready(Err(panicked())))
    }
}
