//! The service served on a TCP listener by hyper, with what a server facing the open internet
//! needs from the connection itself: the peer's address (the default client key, see
//! [`StreamableHttp::with_client_key`]) and a bound on how long a request's headers take.

use super::state::Erased;
use super::{HttpBody, StreamableHttp};
use crate::prelude::*;
use crate::server::Handler;
use core::future::Future;
use core::pin::Pin;
use core::time::Duration;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::net::SocketAddr;

impl<H: Handler + Send + Sync + 'static> StreamableHttp<H> {
    /// Serves on `listener` with hyper (HTTP/1.1), each connection in a task of its own,
    /// until accepting fails: each request carries its peer's address (a [`SocketAddr`] in
    /// its extensions), which tells clients apart (see [`StreamableHttp::with_client_key`]),
    /// and its headers must arrive within [`StreamableHttp::with_header_timeout`], its body within
    /// [`StreamableHttp::with_body_timeout`].
    ///
    /// Mounted in a framework instead (axum's `route_service`), the service gets what the
    /// framework gives: axum's `serve` sets no header timeout, and gives the peer's address
    /// only as its own `ConnectInfo` (read it with [`StreamableHttp::with_client_key`]).
    ///
    /// # Errors
    ///
    /// The listener's, when accepting a connection fails for a reason other than the
    /// connection's own (its peer went away before it was accepted, or this process ran out
    /// of file descriptors for a moment: those are waited out).
    pub async fn serve(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
        self.erased().serve_erased(listener).await
    }
}

impl StreamableHttp<Erased> {
    /// [`StreamableHttp::serve`] as a future in a box: a function of this crate, so that what
    /// serves is compiled here once, not again in each application.
    fn serve_erased(
        self,
        listener: tokio::net::TcpListener,
    ) -> Pin<Box<dyn Future<Output = std::io::Result<()>> + Send>> {
        Box::pin(self.serve_here(listener))
    }

    /// The body of [`StreamableHttp::serve_erased`].
    async fn serve_here(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
        loop {
            let (stream, peer) = match listener.accept().await {
                Ok(accepted) => accepted,
                Err(error) if passing(&error) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
                Err(error) => return Err(error),
            };
            // An answer or an event goes out as it is written, not held back for the peer's
            // delayed acknowledgement (Nagle's algorithm); a socket that refuses stays as it is.
            let _ = stream.set_nodelay(true);
            let service = self.clone();
            let header_timeout = self.config.header_timeout;
            tokio::spawn(async move {
                let answer = hyper::service::service_fn(move |request| {
                    let service = service.clone();
                    async move {
                        Ok::<_, core::convert::Infallible>(service.answer(request, peer).await)
                    }
                });
                let connection = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(header_timeout)
                    .serve_connection(TokioIo::new(stream), answer);
                // A connection that breaks is its client's affair.
                let _ = connection.await;
            });
        }
    }

    /// The response to a request that came from `peer`.
    async fn answer(
        self,
        mut request: http::Request<hyper::body::Incoming>,
        peer: SocketAddr,
    ) -> http::Response<HttpBody> {
        request.extensions_mut().insert(peer);
        self.serve_request(request).await
    }
}

/// Whether accepting failed for a moment, not for good: the connection's own failure, or
/// file descriptors run out (which closing connections gives back).
fn passing(error: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(
        error.kind(),
        ErrorKind::ConnectionAborted
            | ErrorKind::ConnectionReset
            | ErrorKind::ConnectionRefused
            | ErrorKind::Interrupted
    ) || error
        .raw_os_error()
        .is_some_and(|code| code == 23 || code == 24) // ENFILE, EMFILE
}
