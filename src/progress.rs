//! Progress: the token a requester puts in `params._meta.progressToken`, and the
//! `notifications/progress` that report on its request.
//!
//! ```
//! # #[cfg(feature = "v2025_11_25")] {
//! use mcp_spec_types::dispatch::Message;
//! use mcp_spec_types::progress::{progress_token, Progress};
//! use mcp_spec_types::v2025_11_25::{ClientMessage, ServerNotify};
//! use mcp_spec_types::ProgressToken;
//!
//! let line = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"p-1"}}}"#;
//! let Message::Request(request) = ClientMessage::parse(line).unwrap() else { unreachable!() };
//! assert_eq!(progress_token(&request.call), Some(ProgressToken::from("p-1")));
//!
//! let progress = Progress::of(&request.call).unwrap().with_total(100);
//! let ServerNotify::Progress(params) = progress.notification(50, Some("halfway")) else { unreachable!() };
//! assert_eq!(serde_json::to_value(&params).unwrap(),
//!     serde_json::json!({"progressToken": "p-1", "progress": 50, "total": 100, "message": "halfway"}));
//! # }
//! ```

use crate::dispatch::MethodSet;
use crate::jsonrpc::ProgressToken;

/// The progress token of a request (`params._meta.progressToken`), in any revision; `None`
/// when the requester asked for no progress. Reads the params through the set's own writer,
/// so it costs a copy of the params.
pub fn progress_token<R: MethodSet>(call: &R) -> Option<ProgressToken> {
    let mut params = crate::dispatch::params_of(call).ok()??;
    let token = params.get_mut("_meta")?.get_mut("progressToken")?.take();
    serde_json::from_value(token).ok()
}

/// Progress reports on one request (revision 2025-11-25): its token, and the total when known.
#[cfg(feature = "v2025_11_25")]
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    token: ProgressToken,
    total: Option<serde_json::Number>,
}

#[cfg(feature = "v2025_11_25")]
impl Progress {
    /// Reports on `call`, when it carries a progress token.
    pub fn of<R: MethodSet>(call: &R) -> Option<Self> {
        progress_token(call).map(Progress::new)
    }

    /// Reports for `token`.
    pub fn new(token: ProgressToken) -> Self {
        Progress { token, total: None }
    }

    /// Sets the total the progress counts towards.
    #[must_use]
    pub fn with_total(mut self, total: impl Into<serde_json::Number>) -> Self {
        self.total = Some(total.into());
        self
    }

    /// The token.
    pub fn token(&self) -> &ProgressToken {
        &self.token
    }

    /// The `notifications/progress` saying `progress` (which should increase with each one),
    /// with an optional message.
    pub fn notification(
        &self,
        progress: impl Into<serde_json::Number>,
        message: Option<&str>,
    ) -> crate::v2025_11_25::ServerNotify {
        crate::v2025_11_25::ServerNotify::Progress(crate::v2025_11_25::ProgressNotificationParams {
            message: message.map(alloc::string::String::from),
            meta: None,
            progress: progress.into(),
            progress_token: self.token.clone(),
            total: self.total.clone(),
            extra: serde_json::Map::new(),
        })
    }
}
