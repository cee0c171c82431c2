//! Which client a request comes from: the key that bounds its share of the sessions.

use crate::prelude::*;
use std::sync::Arc;

/// What finds the principal of a request (see [`StreamableHttp::with_client_key`]).
pub(super) type PrincipalOf = dyn Fn(&http::request::Parts) -> Option<String> + Send + Sync;

/// How the service tells which client a request comes from (see
/// [`StreamableHttp::with_client_key`]).
#[derive(Clone)]
pub(super) enum ClientKey {
    /// The peer's address, from the request's extensions (a [`std::net::SocketAddr`]).
    Peer,
    /// The last address a trusted proxy wrote into this header.
    Forwarded(http::HeaderName),
    /// What the deployment computes: the authenticated principal. A session answers it alone.
    Principal(Arc<PrincipalOf>),
}

impl core::fmt::Debug for ClientKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ClientKey::Peer => f.write_str("Peer"),
            ClientKey::Forwarded(header) => f.debug_tuple("Forwarded").field(header).finish(),
            ClientKey::Principal(_) => f.write_str("Principal(..)"),
        }
    }
}

impl ClientKey {
    /// The key of the client that sent `request` (empty when it cannot be told: every such
    /// request counts as one unknown client's, which has no share), and whether its sessions
    /// answer it alone.
    pub(super) fn of(&self, request: &http::request::Parts) -> (String, bool) {
        let peer = || {
            let address = request.extensions.get::<std::net::SocketAddr>();
            address.map(|address| format!("address {}", address.ip()))
        };
        match self {
            ClientKey::Peer => (peer().unwrap_or_default(), false),
            ClientKey::Forwarded(header) => {
                let forwarded = request.headers.get_all(header).iter().next_back();
                let last = forwarded
                    .and_then(|value| value.to_str().ok())
                    .and_then(|value| value.rsplit(',').next())
                    .map(str::trim)
                    .filter(|address| !address.is_empty());
                let key = last.map(|address| format!("address {address}"));
                (key.or_else(peer).unwrap_or_default(), false)
            }
            ClientKey::Principal(key) => match key(request) {
                Some(principal) => (format!("principal {principal}"), true),
                None => (peer().unwrap_or_default(), false),
            },
        }
    }
}
