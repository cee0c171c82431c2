//! The bodies the service reads and writes: a request's, read whole up to a limit; a
//! response's, one JSON message or an event stream fed as the engine gives its events.

use crate::prelude::*;
use bytes::{Buf, Bytes};
use core::pin::Pin;
use core::task::{Context, Poll};
use std::convert::Infallible;
use tokio::sync::mpsc;

/// How many events wait for a slow client on one stream before the stream is closed: a client
/// that does not read its stream must not make the server keep what it did not read.
const EVENTS_WAITING: usize = 64;

/// The body of a [`StreamableHttp`](super::StreamableHttp) response: one JSON message, nothing,
/// or an event stream (`text/event-stream`) that ends when the engine ends it, the client goes
/// away, or the service shuts down.
#[derive(Debug)]
pub struct HttpBody {
    inner: Inner,
}

#[derive(Debug)]
enum Inner {
    Once(Option<Bytes>),
    Stream(mpsc::Receiver<Bytes>),
}

impl HttpBody {
    pub(super) fn empty() -> Self {
        HttpBody {
            inner: Inner::Once(None),
        }
    }

    pub(super) fn full(bytes: impl Into<Bytes>) -> Self {
        HttpBody {
            inner: Inner::Once(Some(bytes.into())),
        }
    }

    /// An event stream, and what writes on it (dropping every writer ends it).
    pub(super) fn stream() -> (mpsc::Sender<Bytes>, Self) {
        let (sender, receiver) = mpsc::channel(EVENTS_WAITING);
        let body = HttpBody {
            inner: Inner::Stream(receiver),
        };
        (sender, body)
    }
}

impl http_body::Body for HttpBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        match &mut self.get_mut().inner {
            Inner::Once(bytes) => Poll::Ready(bytes.take().map(|b| Ok(http_body::Frame::data(b)))),
            Inner::Stream(events) => events
                .poll_recv(cx)
                .map(|event| event.map(|b| Ok(http_body::Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self.inner, Inner::Once(None))
    }

    fn size_hint(&self) -> http_body::SizeHint {
        match &self.inner {
            Inner::Once(bytes) => {
                http_body::SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
            Inner::Stream(_) => http_body::SizeHint::default(),
        }
    }
}

/// Why a request's body was not read: the status to answer with.
pub(super) enum Unread {
    /// Longer than the limit: 413.
    TooLarge,
    /// Not all of it arrived in time: 408, and the connection closed.
    TimedOut,
    /// The connection failed while it was read: 400.
    Broken,
}

/// Reads `body` whole, refusing it once it passes `limit` bytes. A body whose stated length
/// is past the limit is still read up to it, not refused at once: a client that writes its
/// whole body before it reads the answer (hyper's) would otherwise find the connection closed
/// under it, and never see the 413. What is kept stays within the limit all the same.
pub(super) async fn read<B: http_body::Body>(body: B, limit: usize) -> Result<Vec<u8>, Unread> {
    let known = usize::try_from(body.size_hint().lower()).unwrap_or(usize::MAX);
    let mut body = core::pin::pin!(body);
    let mut read = Vec::with_capacity(known.min(limit));
    loop {
        let frame = core::future::poll_fn(|cx| body.as_mut().poll_frame(cx)).await;
        let Some(frame) = frame else {
            return Ok(read);
        };
        let Ok(data) = frame.map_err(|_| Unread::Broken)?.into_data() else {
            continue; // trailers
        };
        let mut data = data;
        if read.len() + data.remaining() > limit {
            return Err(Unread::TooLarge);
        }
        while data.has_remaining() {
            let chunk = data.chunk();
            read.extend_from_slice(chunk);
            let len = chunk.len();
            data.advance(len);
        }
    }
}
