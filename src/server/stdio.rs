//! The one transport loop in the crate: a server over its process's standard input and output,
//! one JSON-RPC message a line (the stdio transport).

use super::{Change, Handler, Server, Session};
use crate::prelude::*;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver};

/// What the loop of [`Server::serve_with`] waits for: a line from the client, or a change.
enum Event {
    Line(io::Result<String>),
    Change(Change),
    End,
}

impl<H: Handler> Server<H> {
    /// Serves one client over standard input and output until the input ends: each line read
    /// is answered by [`Server::handle`], each line it gives
    /// written and flushed.
    ///
    /// # Errors
    ///
    /// An error reading the input or writing the output (a line that is not UTF-8 is an
    /// input error).
    pub fn serve_stdio(&self) -> io::Result<()> {
        let stdin = io::stdin();
        let stdout = io::stdout();
        self.serve(stdin.lock(), stdout.lock())
    }

    /// [`Server::serve_stdio`] over any reader and writer: what a test, or a pipe, drives.
    ///
    /// # Errors
    ///
    /// An error reading `input` or writing `output`.
    pub fn serve(&self, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
        let mut session = Session::new();
        for line in input.lines() {
            self.answer(&mut session, &line?, &mut output)?;
        }
        Ok(())
    }

    /// [`Server::serve_stdio`], also telling the client of each [`Change`] that `changes`
    /// brings, as far as it asked to be told ([`Server::notify`]): the changes may come from
    /// any thread (a watcher, a timer), and are sent between answers. The loop ends when the
    /// input ends.
    ///
    /// # Errors
    ///
    /// An error reading the input or writing the output.
    pub fn serve_stdio_with(&self, changes: Receiver<Change>) -> io::Result<()> {
        let stdout = io::stdout();
        self.serve_with(io::BufReader::new(io::stdin()), stdout.lock(), changes)
    }

    /// [`Server::serve_stdio_with`] over any reader and writer. The input is read on a thread
    /// of its own, so that changes are sent while the client is silent.
    ///
    /// # Errors
    ///
    /// An error reading `input` or writing `output`.
    pub fn serve_with(
        &self,
        input: impl BufRead + Send + 'static,
        mut output: impl Write,
        changes: Receiver<Change>,
    ) -> io::Result<()> {
        let (events, next) = mpsc::channel();
        let lines = events.clone();
        // Neither thread is joined: the input's may be blocked in a read when the loop ends
        // on an error, the changes' until every sender of `changes` is dropped.
        std::thread::spawn(move || {
            for line in input.lines() {
                let failed = line.is_err();
                if lines.send(Event::Line(line)).is_err() || failed {
                    return;
                }
            }
            let _ = lines.send(Event::End);
        });
        std::thread::spawn(move || {
            while let Ok(change) = changes.recv() {
                if events.send(Event::Change(change)).is_err() {
                    return;
                }
            }
        });
        let mut session = Session::new();
        for event in next {
            match event {
                Event::Line(line) => self.answer(&mut session, &line?, &mut output)?,
                Event::Change(change) => {
                    for line in self.notify(&session, &change) {
                        write_line(&mut output, &line)?;
                    }
                }
                Event::End => break,
            }
        }
        Ok(())
    }

    /// Answers one line of the input, if it asks for an answer.
    fn answer(&self, session: &mut Session, line: &str, output: &mut impl Write) -> io::Result<()> {
        if line.trim().is_empty() {
            return Ok(());
        }
        for answer in self.handle(session, line) {
            write_line(output, &answer)?;
        }
        Ok(())
    }
}

/// Writes `line` and its newline, and flushes: the client reads it now.
fn write_line(output: &mut impl Write, line: &str) -> io::Result<()> {
    output.write_all(line.as_bytes())?;
    output.write_all(b"\n")?;
    output.flush()
}
