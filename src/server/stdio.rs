//! The one transport loop in the crate: a server over its process's standard input and output,
//! one JSON-RPC message a line (the stdio transport).

use super::{Handler, Server, Session};
use std::io::{BufRead, Write};

impl<H: Handler> Server<H> {
    /// Serves one client over standard input and output until the input ends: each line read
    /// is answered by [`Server::handle`], each answer written as one line and flushed.
    ///
    /// # Errors
    ///
    /// An error reading the input or writing the output (a line that is not UTF-8 is an
    /// input error).
    pub fn serve_stdio(&self) -> std::io::Result<()> {
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        self.serve(stdin.lock(), stdout.lock())
    }

    /// [`Server::serve_stdio`] over any reader and writer: what a test, or a pipe, drives.
    ///
    /// # Errors
    ///
    /// An error reading `input` or writing `output`.
    pub fn serve(&self, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
        let mut session = Session::new();
        for line in input.lines() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            if let Some(answer) = self.handle(&mut session, &line) {
                output.write_all(answer.as_bytes())?;
                output.write_all(b"\n")?;
                output.flush()?;
            }
        }
        Ok(())
    }
}
