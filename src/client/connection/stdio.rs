//! stdio, the client's side: the server a child process, messages lines on its standard input
//! and output.

use super::{CallError, Inner};
use crate::prelude::*;
use std::sync::Weak;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout};

pub(super) struct StdioLink {
    stdin: tokio::sync::Mutex<ChildStdin>,
    /// Kept so that the process is killed when the connection is dropped.
    _child: Child,
}

impl StdioLink {
    pub(super) fn spawn(
        mut command: tokio::process::Command,
    ) -> Result<(Self, ChildStdout), CallError> {
        command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true);
        let mut child = command
            .spawn()
            .map_err(|error| CallError::Transport(format!("starting the server: {error}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(CallError::Transport("the server's pipes".to_owned()));
        };
        let link = StdioLink {
            stdin: tokio::sync::Mutex::new(stdin),
            _child: child,
        };
        Ok((link, stdout))
    }

    /// Writes `line` on the server's standard input.
    pub(super) async fn write(&self, mut line: String) -> Result<(), CallError> {
        line.push('\n');
        let mut stdin = self.stdin.lock().await;
        let written = stdin.write_all(line.as_bytes()).await;
        let flushed = match written {
            Ok(()) => stdin.flush().await,
            Err(error) => Err(error),
        };
        flushed.map_err(|error| CallError::Transport(format!("writing to the server: {error}")))
    }
}

/// Reads the server's lines as they come, in a task of their own, until its output ends (then
/// every call still waiting fails) or the connection is dropped.
pub(super) fn read_lines(inner: Weak<Inner>, stdout: ChildStdout) {
    tokio::spawn(async move {
        let mut lines = BufReader::new(stdout).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let Some(inner) = inner.upgrade() else {
                return;
            };
            for reply in inner.receive(&line) {
                if inner.send(reply, None).await.is_err() {
                    break;
                }
            }
        }
        if let Some(inner) = inner.upgrade() {
            inner.fail_all("the server's output ended");
        }
    });
}
