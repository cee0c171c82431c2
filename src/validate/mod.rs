//! Validating recorded MCP sessions, one JSON Lines record at a time.
//!
//! A session is a sequence of lines, each either a bare JSON-RPC message or a record
//! `{"dir": "c2s" | "s2c", "msg": <message>}` that says which side sent it. Every message is
//! parsed with the revision's typed dispatch (so a method sent by the wrong side, a method of
//! another revision and params that do not fit their type are all caught, with the JSON path of
//! the culprit), and every response is paired with its request by id and direction, so its
//! `result` is checked as that request's result type (a `resources/read` response as
//! `ReadResourceResult`, and so on).
//!
//! Without `dir`, the direction of a request or notification is inferred from its method (a
//! method only the client sends travels client to server, and so on), and a response's
//! direction is the opposite of the request it answers.
//!
//! [`SessionValidator`] is fed one line at a time and reports on each; [`validate_session`]
//! validates a whole input, detecting the revision first with [`detect_revision`] when none is
//! given. Nothing here panics on any input: a line that is not JSON, not UTF-8 or not a
//! message is an invalid message, reported like any other.
//!
//! Warnings ([`Warning`]: a response whose request never appeared, a request never answered, a
//! reused id, a method no revision defines) never make a session invalid. The `mcp-validate`
//! command (`cargo run --release --features cli --bin mcp-validate -- <file>`) prints each invalid message
//! ([`Invalid`]'s `Display`) and then the [`Summary`] line on standard output, the warnings on
//! standard error, and exits with [`Report::exit_code`] (2 for usage or input errors).
//!
//! ```
//! # #[cfg(feature = "v2026_07_28")] {
//! use mcp_spec_types::validate::validate_session;
//! let session = r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":7}}}"#;
//! let report = validate_session(session, None).unwrap();
//! assert_eq!(report.summary.to_string(), "checked 1 messages: 0 valid, 1 invalid");
//! assert!(report.invalid[0].to_string().starts_with("line 1: resources/read: at params."));
//! assert_eq!(report.exit_code(), 1);
//! # }
//! ```

use crate::prelude::*;
mod detect;
mod facts;
mod read;
mod record;
mod report;
mod revision;
mod session;
mod shape;
mod whole;

pub use crate::version::PROTOCOL_VERSION_META_KEY;
pub use detect::{detect_revision, Detection, DetectionSource};
pub use report::{Invalid, LineReport, LineStatus, Report, Summary, Warning, WarningKind};
pub use session::SessionValidator;
pub use whole::validate_session;

use crate::method::Direction;
use crate::version::ProtocolVersion;
use core::fmt;

/// Which side of a session sent a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The client (`"dir": "c2s"`).
    Client,
    /// The server (`"dir": "s2c"`).
    Server,
}

impl Side {
    /// The peer of this side.
    pub fn peer(self) -> Side {
        match self {
            Side::Client => Side::Server,
            Side::Server => Side::Client,
        }
    }

    /// The direction of a message this side sends.
    pub fn direction(self) -> Direction {
        match self {
            Side::Client => Direction::ClientToServer,
            Side::Server => Direction::ServerToClient,
        }
    }

    /// The `dir` value of a session record sent by this side (`"c2s"` or `"s2c"`).
    pub fn as_dir(self) -> &'static str {
        match self {
            Side::Client => "c2s",
            Side::Server => "s2c",
        }
    }

    /// Reads a `dir` value.
    pub fn from_dir(dir: &str) -> Option<Side> {
        match dir {
            "c2s" => Some(Side::Client),
            "s2c" => Some(Side::Server),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Client => "client",
            Side::Server => "server",
        })
    }
}

/// The validator could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValidateError {
    /// The revision is not one this build has types for: unknown, or its feature is disabled.
    UnsupportedRevision(ProtocolVersion),
}

impl fmt::Display for ValidateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValidateError::UnsupportedRevision(version) => {
                let supported: Vec<&str> = ProtocolVersion::SUPPORTED
                    .iter()
                    .map(ProtocolVersion::as_str)
                    .collect();
                let hint = match version {
                    ProtocolVersion::Unknown(_) => {
                        "it is not a revision this crate knows".to_owned()
                    }
                    ProtocolVersion::Draft => {
                        "this build does not include it (enable the `unstable-draft` feature)"
                            .to_owned()
                    }
                    known => format!(
                        "this build does not include it (enable the `v{}` feature)",
                        known.as_str().replace('-', "_")
                    ),
                };
                write!(
                    f,
                    "revision {version} cannot be validated: {hint}; this build supports {}",
                    if supported.is_empty() {
                        "no revision".to_owned()
                    } else {
                        supported.join(", ")
                    }
                )
            }
        }
    }
}

impl core::error::Error for ValidateError {}
