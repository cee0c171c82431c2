//! What sends a connection's requests: reqwest's client by default (redirects kept to the
//! server's own origin), or the caller's sender; and the body of a response, read as it comes.

use super::super::{Bound, CallError};
use crate::prelude::*;
use bytes::{Buf, Bytes};
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::sync::Arc;
use std::time::Duration;

/// The most redirects to the server's own origin one request follows (reqwest's own default).
const MAX_REDIRECTS: usize = 10;

/// A response whose body is read as it comes.
pub(super) type Response = ::http::Response<Body>;

/// What sends one request and gives its response.
pub(super) type Sender =
    Arc<dyn Fn(::http::Request<String>) -> Pin<Box<dyn SendFuture>> + Send + Sync>;

/// A sent request's response, coming.
pub(super) trait SendFuture: Future<Output = Result<Response, CallError>> + Send {}
impl<F: Future<Output = Result<Response, CallError>> + Send> SendFuture for F {}

/// A response's body: any `http_body::Body`, its chunks as bytes and its errors as text.
pub(super) struct Body(Pin<Box<dyn http_body::Body<Data = Bytes, Error = String> + Send>>);

impl Body {
    pub(super) fn of<B>(body: B) -> Self
    where
        B: http_body::Body + Send + 'static,
        B::Error: core::fmt::Display,
    {
        Body(Box::pin(Mapped(Box::pin(body))))
    }

    /// The next chunk of data; `None` at the end.
    pub(super) async fn chunk(&mut self) -> Result<Option<Bytes>, String> {
        loop {
            let frame = core::future::poll_fn(|cx| self.0.as_mut().poll_frame(cx)).await;
            let Some(frame) = frame else {
                return Ok(None);
            };
            if let Ok(data) = frame?.into_data() {
                return Ok(Some(data));
            }
        }
    }

    /// The whole body, at most `max` bytes: a longer one is [`Bound::AnswerSize`].
    pub(super) async fn whole(mut self, max: usize) -> Result<Vec<u8>, CallError> {
        let mut whole = Vec::new();
        while let Some(chunk) = self.chunk().await.map_err(CallError::Transport)? {
            if whole.len().saturating_add(chunk.len()) > max {
                return Err(CallError::Bound(Bound::AnswerSize(max)));
            }
            whole.extend_from_slice(&chunk);
        }
        Ok(whole)
    }
}

/// A body whose data and errors are made the connection's.
struct Mapped<B>(Pin<Box<B>>);

impl<B> http_body::Body for Mapped<B>
where
    B: http_body::Body,
    B::Error: core::fmt::Display,
{
    type Data = Bytes;
    type Error = String;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, String>>> {
        self.0.as_mut().poll_frame(cx).map(|frame| {
            frame.map(|frame| match frame {
                Ok(frame) => Ok(frame.map_data(|mut data| data.copy_to_bytes(data.remaining()))),
                Err(error) => Err(error.to_string()),
            })
        })
    }
}

/// A redirect to another origin than the request's, refused: its URL.
#[derive(Debug)]
struct OtherOrigin(String);

impl core::fmt::Display for OtherOrigin {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "a redirect to another origin, {}, not followed", self.0)
    }
}

impl std::error::Error for OtherOrigin {}

/// Redirects followed to the request's own origin only (scheme, host and port): the request's
/// body and its session id go nowhere else.
pub(super) fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let first = attempt.previous().first().map(|url| url.origin());
        if first != Some(attempt.url().origin()) {
            let to = attempt.url().to_string();
            return attempt.error(OtherOrigin(to));
        }
        if attempt.previous().len() > MAX_REDIRECTS {
            let why = format!("more than {MAX_REDIRECTS} redirects");
            return attempt.error(why);
        }
        attempt.follow()
    })
}

/// reqwest as the sender; `connect_timeout` is the one its client was built with, named by
/// the error when it passes.
pub(super) fn reqwest_sender(http: reqwest::Client, connect_timeout: Option<Duration>) -> Sender {
    Arc::new(move |request: ::http::Request<String>| {
        let http = http.clone();
        let sent = async move {
            let request = reqwest::Request::try_from(request)
                .map_err(|error| CallError::Transport(error_chain(&error)))?;
            let response = http
                .execute(request)
                .await
                .map_err(|error| sending_failed(&error, connect_timeout))?;
            let (parts, body) = ::http::Response::from(response).into_parts();
            Ok(::http::Response::from_parts(parts, Body::of(body)))
        };
        Box::pin(sent) as Pin<Box<dyn SendFuture>>
    })
}

/// What a request reqwest could not send amounts to: a bound when it is one.
fn sending_failed(error: &reqwest::Error, connect_timeout: Option<Duration>) -> CallError {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(error) = cause {
        if let Some(OtherOrigin(to)) = error.downcast_ref::<OtherOrigin>() {
            return CallError::Bound(Bound::OtherOrigin(to.clone()));
        }
        cause = error.source();
    }
    match connect_timeout {
        Some(timeout) if error.is_connect() && error.is_timeout() => {
            CallError::Bound(Bound::ConnectTimeout(timeout))
        }
        _ => CallError::Transport(error_chain(error)),
    }
}

/// An error and its causes, as one line.
pub(super) fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(error) = cause {
        text.push_str(": ");
        text.push_str(&error.to_string());
        cause = error.source();
    }
    text
}
