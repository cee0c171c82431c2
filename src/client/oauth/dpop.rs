//! A DPoP key (RFC 9449) and the nonce the MCP server last handed out for it.

use super::jose::DpopKey;
use super::AuthorizeError;
use crate::prelude::*;
use std::sync::Mutex;

/// The name of the DPoP proof header (RFC 9449 §4.1).
pub(super) const DPOP: &str = "dpop";
/// The header a server hands out nonces in (RFC 9449 §8, §9).
pub(super) const DPOP_NONCE: &str = "dpop-nonce";
/// Retries of one request with a nonce the server hands out: one is what a server that wants
/// nonces needs; a server that keeps changing them is not followed.
pub(super) const MAX_NONCE_RETRIES: usize = 2;

/// A DPoP key and the MCP server's last nonce.
pub(super) struct Dpop {
    pub key: DpopKey,
    nonce: Mutex<Option<String>>,
}

impl Dpop {
    /// A fresh key.
    pub fn generate() -> Result<Self, AuthorizeError> {
        Ok(Dpop {
            key: DpopKey::generate()?,
            nonce: Mutex::new(None),
        })
    }

    /// The MCP server's last nonce.
    pub fn nonce(&self) -> Option<String> {
        self.nonce.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Keeps the MCP server's new nonce.
    pub fn set_nonce(&self, nonce: String) {
        *self.nonce.lock().unwrap_or_else(|p| p.into_inner()) = Some(nonce);
    }
}

/// The `DPoP-Nonce` header's value.
pub(super) fn nonce_of(headers: &http::HeaderMap) -> Option<String> {
    headers
        .get(DPOP_NONCE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}
