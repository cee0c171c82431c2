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

/// The events of one stream, as its bytes come.
#[derive(Debug, Default)]
pub(crate) struct SseReader {
    /// The bytes of the line not ended yet.
    line: Vec<u8>,
    /// The event being read.
    event: SseEvent,
    /// Whether the event being read has a field yet (an event with none is not dispatched).
    started: bool,
    /// How many `data` lines the event being read has.
    data_lines: usize,
}

/// The most bytes one line may have: a peer that never ends its line must not make the
/// client keep all it sends.
const MAX_LINE: usize = 16 << 20;

impl SseReader {
    /// Reads `bytes`, giving the events they end. `Err` when a line passes the limit.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, String> {
        let mut events = Vec::new();
        for &byte in bytes {
            if byte != b'\n' {
                self.line.push(byte);
                if self.line.len() > MAX_LINE {
                    return Err(format!("an event stream line longer than {MAX_LINE} bytes"));
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
