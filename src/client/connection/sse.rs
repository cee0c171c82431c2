//! Server-sent events, read as they come: the events of a `text/event-stream` body, fed its
//! bytes in whatever pieces the connection gives them.
//!
//! Written here rather than taken from a crate: the transport needs three fields (`data`,
//! `id`, `retry`) of a format of a dozen lines (WHATWG HTML, "Server-sent events", the event
//! stream interpretation), and the parsers on crates.io wrap a `Stream` of bytes with
//! futures-util adapters, which the transport, reading chunk by chunk, has no use for.

use crate::prelude::*;

/// One event: its data lines joined with `\n`, and the `id` and `retry` it set.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct SseEvent {
    pub data: String,
    pub id: Option<String>,
    pub retry: Option<u64>,
}

/// The events of one stream, as its bytes come, each event's data at most a cap.
#[derive(Debug)]
pub(crate) struct SseReader {
    /// The most bytes of data one event may have.
    max_event: usize,
    /// The bytes of the line not ended yet.
    line: Vec<u8>,
    /// The event being read.
    event: SseEvent,
    /// Whether the event being read has a field yet (an event with none is not dispatched).
    started: bool,
    /// How many `data` lines the event being read has.
    data_lines: usize,
}

/// A line may pass the cap on an event's data by its field's name (`data: `): a longer one
/// cannot be part of an event within the cap.
const FIELD_NAME: usize = "data: ".len();

/// An event whose data passes the cap, or a line that could only be part of one: a peer that
/// never ends its line or its event must not make the client keep all it sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooLong;

impl SseReader {
    /// A reader of events whose data is at most `max_event` bytes.
    pub fn new(max_event: usize) -> Self {
        SseReader {
            max_event,
            line: Vec::new(),
            event: SseEvent::default(),
            started: false,
            data_lines: 0,
        }
    }

    /// Reads `bytes`, giving the events they end. `Err` when an event's data, or one line
    /// (a comment's too), passes the cap.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, TooLong> {
        let mut events = Vec::new();
        for &byte in bytes {
            if byte != b'\n' {
                self.line.push(byte);
                if self.line.len() > self.max_event.saturating_add(FIELD_NAME) {
                    return Err(TooLong);
                }
                continue;
            }
            let mut line = core::mem::take(&mut self.line);
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if let Some(event) = self.line_ended(&String::from_utf8_lossy(&line)) {
                events.push(event);
            }
            if self.event.data.len() > self.max_event {
                return Err(TooLong);
            }
        }
        Ok(events)
    }

    fn line_ended(&mut self, line: &str) -> Option<SseEvent> {
        if line.is_empty() {
            let started = core::mem::take(&mut self.started);
            self.data_lines = 0;
            let event = core::mem::take(&mut self.event);
            return started.then_some(event);
        }
        if line.starts_with(':') {
            return None; // a comment: keep-alive
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "data" => {
                if self.data_lines > 0 {
                    self.event.data.push('\n');
                }
                self.event.data.push_str(value);
                self.data_lines += 1;
            }
            "id" if !value.contains('\0') => self.event.id = Some(value.to_owned()),
            "retry" => self.event.retry = value.parse().ok(),
            _ => return None,
        }
        self.started = true;
        None
    }
}
