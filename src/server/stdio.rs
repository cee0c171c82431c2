//! A server over its process's standard input and output, one JSON-RPC message a line (the
//! stdio transport), each call on a thread of its own.

use super::engine::later::{self, Runtime};
use super::engine::{Answer, Batch, Change, Context, Handler, Incoming, Server, Session};
use crate::prelude::*;
use crate::RpcError;
use std::io::{self, BufRead, Write};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Mutex, MutexGuard};

/// What the writer of [`Server::serve_with`] takes, in the order it is to be written.
enum Out {
    /// A line to write (an answer given now, a handler's report).
    Line(String),
    /// A call was handed to a thread: its answer will come.
    Started,
    /// A call's answer, and what its handler said changed.
    Done(Answer, Vec<Change>),
    /// A batch whose calls were answered.
    Batch(Batch),
    /// Something changed on the server: the client is told, as far as it asked.
    Change(Change),
    /// The input ended: the loop ends once every call started has answered.
    End,
}

impl<H: Handler + Sync> Server<H> {
    /// Serves one client over standard input and output until the input ends and every call
    /// has answered. Each request for the handler runs on a thread of its own, so that a slow
    /// call holds up no other, and what its handler reports (progress, log messages) is
    /// written as it is made; the lifecycle's answers are written at once.
    ///
    /// # Errors
    ///
    /// An error reading the input or writing the output (a line that is not UTF-8 is an
    /// input error).
    pub fn serve_stdio(&self) -> io::Result<()> {
        // The writer thread writes; `Stdout` (not its lock, which stays on its thread) goes
        // to it.
        self.serve(io::stdin().lock(), io::stdout())
    }

    /// [`Server::serve_stdio`] over any reader and writer: what a test, or a pipe, drives.
    ///
    /// # Errors
    ///
    /// An error reading `input` or writing `output`.
    pub fn serve(&self, input: impl BufRead, output: impl Write + Send) -> io::Result<()> {
        self.serve_lines(input, output, None)
    }

    /// [`Server::serve_stdio`], also telling the client of each [`Change`] that `changes`
    /// brings, as far as it asked to be told ([`Server::notify`]): the changes may come from
    /// any thread (a watcher, a timer), and are sent between answers.
    ///
    /// # Errors
    ///
    /// An error reading the input or writing the output.
    pub fn serve_stdio_with(&self, changes: Receiver<Change>) -> io::Result<()> {
        self.serve_with(io::stdin().lock(), io::stdout(), changes)
    }

    /// [`Server::serve_stdio_with`] over any reader and writer.
    ///
    /// # Errors
    ///
    /// An error reading `input` or writing `output`.
    pub fn serve_with(
        &self,
        input: impl BufRead,
        output: impl Write + Send,
        changes: Receiver<Change>,
    ) -> io::Result<()> {
        self.serve_lines(input, output, Some(changes))
    }

    /// The loop: this thread reads the input and hands calls out; a writer thread writes what
    /// comes, in order, and finishes each answer in the session; each call runs on a thread of
    /// its own.
    fn serve_lines(
        &self,
        input: impl BufRead,
        output: impl Write + Send,
        changes: Option<Receiver<Change>>,
    ) -> io::Result<()> {
        let session = Mutex::new(Session::new());
        // An async tool's future finds the runtime the loop was started in, if any.
        let runtime = Runtime::current();
        let failed = AtomicBool::new(false);
        let (out, outs) = mpsc::channel();
        if let Some(changes) = changes {
            // Not joined: it waits until every sender of `changes` is dropped.
            let told = out.clone();
            std::thread::spawn(move || {
                while let Ok(change) = changes.recv() {
                    if told.send(Out::Change(change)).is_err() {
                        return;
                    }
                }
            });
        }
        std::thread::scope(|scope| {
            let writer = scope.spawn(|| {
                let written = self.write_all(&session, outs, output);
                if written.is_err() {
                    failed.store(true, Ordering::SeqCst);
                }
                written
            });
            let read = self.read_all(scope, &session, &runtime, &failed, input, &out);
            let _ = out.send(Out::End);
            let written = writer
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("the writer panicked")));
            read.and(written)
        })
    }

    /// Reads each line and hands it to the engine, until the input ends or the output fails.
    fn read_all<'scope, 'env>(
        &'env self,
        scope: &'scope std::thread::Scope<'scope, 'env>,
        session: &'env Mutex<Session>,
        runtime: &'env Runtime,
        failed: &AtomicBool,
        input: impl BufRead,
        out: &Sender<Out>,
    ) -> io::Result<()> {
        for line in input.lines() {
            let line = line?;
            if failed.load(Ordering::SeqCst) {
                break;
            }
            if line.trim().is_empty() {
                continue;
            }
            let incoming = self.receive(&mut lock(session), &line);
            match incoming {
                Incoming::Answer(line) => {
                    let _ = out.send(Out::Line(line));
                }
                Incoming::Call(pending) => {
                    let _ = out.send(Out::Started);
                    let out = out.clone();
                    scope.spawn(move || {
                        let (call, mut context, responder) = (*pending).into_parts();
                        let reports = out.clone();
                        context.send_reports_to(move |line| {
                            let _ = reports.send(Out::Line(line));
                        });
                        let result = self.answer(runtime, call, &mut context);
                        let changes = context.take_changes();
                        let _ = out.send(Out::Done(responder.respond(result), changes));
                    });
                }
                // A batch's calls run one after the other, on a thread of their own.
                Incoming::Batch(mut batch) => {
                    let _ = out.send(Out::Started);
                    let out = out.clone();
                    scope.spawn(move || {
                        batch.answer_with(|call, context| self.answer(runtime, call, context));
                        let _ = out.send(Out::Batch(batch));
                    });
                }
                Incoming::Nothing => {}
            }
        }
        Ok(())
    }

    /// The handler's answer to `call`. A handler that panics answers its request with an
    /// internal error: the client is not left waiting, and the loop still ends when the input
    /// does (it waits for every call started to answer).
    fn answer(
        &self,
        runtime: &Runtime,
        call: crate::v2026_07_28::ClientCall,
        context: &mut Context,
    ) -> Result<crate::v2026_07_28::ClientCallResult, RpcError> {
        let handler = self.handler();
        let answered = std::panic::catch_unwind(AssertUnwindSafe(|| {
            runtime.enter(|| later::answer_here(handler, call, context))
        }));
        answered.unwrap_or_else(|_| {
            let failed = "the handler failed";
            Err(RpcError::new(crate::ErrorCode::InternalError, failed))
        })
    }

    /// Writes what comes, until the input has ended and every call started has answered.
    fn write_all(
        &self,
        session: &Mutex<Session>,
        outs: Receiver<Out>,
        mut output: impl Write,
    ) -> io::Result<()> {
        let (mut running, mut ended) = (0usize, false);
        for next in outs {
            match next {
                Out::Line(line) => write_line(&mut output, &line)?,
                Out::Started => running += 1,
                Out::Done(answer, changes) => {
                    running = running.saturating_sub(1);
                    let mut lines: Vec<String> = Vec::new();
                    {
                        let mut session = lock(session);
                        lines.extend(session.finish(answer));
                        for change in &changes {
                            lines.extend(self.notify(&session, change));
                        }
                    }
                    for line in lines {
                        write_line(&mut output, &line)?;
                    }
                }
                Out::Batch(batch) => {
                    running = running.saturating_sub(1);
                    let mut lines: Vec<String> = Vec::new();
                    {
                        let mut session = lock(session);
                        let (line, changes) = batch.finish(&mut session);
                        lines.extend(line);
                        for change in &changes {
                            lines.extend(self.notify(&session, change));
                        }
                    }
                    for line in lines {
                        write_line(&mut output, &line)?;
                    }
                }
                Out::Change(change) => {
                    let lines = self.notify(&lock(session), &change);
                    for line in lines {
                        write_line(&mut output, &line)?;
                    }
                }
                Out::End => ended = true,
            }
            if ended && running == 0 {
                break;
            }
        }
        Ok(())
    }
}

fn lock(session: &Mutex<Session>) -> MutexGuard<'_, Session> {
    // The engine does not panic under the lock: a poisoned lock holds a consistent session.
    session
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Writes `line` and its newline, and flushes: the client reads it now.
fn write_line(output: &mut impl Write, line: &str) -> io::Result<()> {
    output.write_all(line.as_bytes())?;
    output.write_all(b"\n")?;
    output.flush()
}
