//! Which `Origin`s may send requests over HTTP: the transport has a server validate the
//! `Origin` header of every request, so that a web page a user visits cannot reach a server on
//! the user's machine through DNS rebinding, and answer one that is present and not allowed
//! with 403 Forbidden.
//!
//! By default only the loopback origins are allowed (`localhost`, `127.0.0.1`, `[::1]`, any
//! scheme and port): a request without `Origin` (what clients other than browsers send) is
//! always let through. A server that web pages elsewhere may use names their origins; one
//! behind a gateway that checks them may stop checking.

use crate::prelude::*;

/// The origins a server takes requests from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(in crate::server) enum Origins {
    /// The loopback interface's, alone.
    #[default]
    Loopback,
    /// The loopback interface's and these (`scheme://host[:port]`, compared without regard to
    /// case).
    Listed(Vec<String>),
    /// Any: the check is someone else's.
    Any,
}

impl Origins {
    /// Whether a request with `origin` (its `Origin` header, when it has one) is taken.
    pub fn allow(&self, origin: Option<&str>) -> bool {
        let Some(origin) = origin.map(str::trim) else {
            return true;
        };
        match self {
            Origins::Any => true,
            Origins::Loopback => is_loopback(origin),
            Origins::Listed(listed) => {
                is_loopback(origin) || listed.iter().any(|l| l.eq_ignore_ascii_case(origin))
            }
        }
    }
}

/// Whether `origin` (`scheme://host[:port]`) names the loopback interface.
fn is_loopback(origin: &str) -> bool {
    let Some((_, authority)) = origin.split_once("://") else {
        // `null` (an opaque origin: a sandboxed frame, a file) among others.
        return false;
    };
    let host = match authority.strip_prefix('[') {
        Some(rest) => match rest.split_once(']') {
            Some((host, port)) if port.is_empty() || port.starts_with(':') => host,
            _ => return false,
        },
        None => match authority.split_once(':') {
            Some((host, _)) => host,
            None => authority,
        },
    };
    ["localhost", "127.0.0.1", "::1"]
        .iter()
        .any(|local| host.eq_ignore_ascii_case(local))
}
