//! How one call is watched and how long it may take.

use super::{Logged, Progressed};
use crate::v2026_07_28 as latest;
use core::time::Duration;
use std::sync::Arc;

/// How one call is watched and how long it may take: given to [`Connection::call_tool_with`]
/// or [`Connection::request_with`].
///
/// ```no_run
/// # async fn run(server: mcp_spec_types::client::Connection) -> Result<(), mcp_spec_types::client::CallError> {
/// use mcp_spec_types::client::CallOptions;
/// use mcp_spec_types::v2026_07_28::LoggingLevel;
/// use std::time::Duration;
///
/// let watched = CallOptions::new()
///     .on_progress(|p| println!("{} of {:?}", p.progress, p.total))
///     .on_log(LoggingLevel::Info, |log| println!("{}", log.data))
///     .with_timeout(Duration::from_secs(30));
/// let result = server.call_tool_with("wait", serde_json::json!({}), watched).await?;
/// # let _ = result; Ok(()) }
/// ```
///
/// [`Connection::call_tool_with`]: super::Connection::call_tool_with
/// [`Connection::request_with`]: super::Connection::request_with
#[derive(Clone, Default)]
pub struct CallOptions {
    pub(super) progress: Option<Progressed>,
    pub(super) log: Option<(latest::LoggingLevel, Logged)>,
    pub(super) timeout: Option<Duration>,
}

impl core::fmt::Debug for CallOptions {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CallOptions")
            .field("progress", &self.progress.is_some())
            .field("log", &self.log.as_ref().map(|(level, _)| level))
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl CallOptions {
    /// A call watched by nobody, within the connection's call timeout.
    pub fn new() -> Self {
        Self::default()
    }

    /// Gives each of the call's progress notifications to `progress`, as it comes and before
    /// the answer: the call's request carries a progress token made for it (whatever its
    /// `_meta` held), and the server's notifications with that token go to `progress` rather
    /// than to [`Connection::on_notification`]. A server need not report progress.
    ///
    /// [`Connection::on_notification`]: super::Connection::on_notification
    #[must_use]
    pub fn on_progress(
        mut self,
        progress: impl Fn(latest::ProgressNotificationParams) + Send + Sync + 'static,
    ) -> Self {
        self.progress = Some(Arc::new(progress));
        self
    }

    /// Gives the call's log messages to `log`, as they come and before the answer, rather than
    /// to [`Connection::on_notification`]. A 2026-07-28 server is asked for the messages of
    /// `level` and above with this call (the request's `io.modelcontextprotocol/logLevel`);
    /// a server of a stateful revision sends what its session's `logging/setLevel` asks
    /// for. A message is the call's when it comes on the call's own response stream (over
    /// Streamable HTTP); over stdio no message names its call, so they all go to
    /// [`Connection::on_notification`].
    ///
    /// [`Connection::on_notification`]: super::Connection::on_notification
    #[must_use]
    pub fn on_log(
        mut self,
        level: latest::LoggingLevel,
        log: impl Fn(latest::LoggingMessageNotificationParams) + Send + Sync + 'static,
    ) -> Self {
        self.log = Some((level, Arc::new(log)));
        self
    }

    /// Ends the call with [`CallError::Timeout`] if its answer has not come within `timeout`,
    /// and cancels it at the server; in place of the connection's call timeout
    /// ([`Connection::with_call_timeout`]).
    ///
    /// [`CallError::Timeout`]: super::CallError::Timeout
    /// [`Connection::with_call_timeout`]: super::Connection::with_call_timeout
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }
}
