//! Proof Key for Code Exchange (RFC 7636): the verifier a client keeps and the `S256`
//! challenge it sends.

// tests/auth.rs compiles this file by itself for the RFC 4648 vectors of `base64url`, which
// the crate only ever gives 32 octets: it uses nothing of the crate but `AuthError` and the
// prelude.
use super::AuthError;
use crate::prelude::*;
use core::fmt;
use sha2::{Digest, Sha256};

/// A `code_verifier` (RFC 7636 §4.1): 43 to 128 unreserved characters
/// (`A-Z a-z 0-9 - . _ ~`).
///
/// `Debug` does not show it: it is the secret that binds the code to this client.
#[derive(Clone, PartialEq, Eq)]
pub struct PkceVerifier(String);

/// A `code_challenge` with its `code_challenge_method` (RFC 7636 §4.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PkceChallenge {
    value: String,
    method: &'static str,
}

impl PkceVerifier {
    /// The verifier RFC 7636 §4.1 recommends: 32 random octets, base64url-encoded without
    /// padding (43 characters). The bytes come from the caller's random source (this crate
    /// has none); they must come from a cryptographically secure one.
    pub fn from_random_bytes(bytes: &[u8; 32]) -> Self {
        PkceVerifier(base64url(bytes))
    }

    /// Checks a verifier given as text (RFC 7636 §4.1). The error does not show it.
    pub fn new(verifier: impl Into<String>) -> Result<Self, AuthError> {
        let verifier = verifier.into();
        if !(43..=128).contains(&verifier.len()) {
            return Err(AuthError::InvalidPkceVerifier {
                reason: "not 43 to 128 characters long",
            });
        }
        if !verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b))
        {
            return Err(AuthError::InvalidPkceVerifier {
                reason: "has a character other than A-Z, a-z, 0-9, `-`, `.`, `_`, `~`",
            });
        }
        Ok(PkceVerifier(verifier))
    }

    /// The verifier, for the token request's `code_verifier`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Its `S256` challenge.
    pub fn challenge(&self) -> PkceChallenge {
        PkceChallenge::s256(self)
    }
}

impl fmt::Debug for PkceVerifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PkceVerifier(<redacted>)")
    }
}

impl PkceChallenge {
    /// `S256`: `BASE64URL(SHA256(ASCII(code_verifier)))` (RFC 7636 §4.2). MCP clients must use
    /// it when they can (MCP authorization, "Authorization Code Protection", from 2025-11-25;
    /// PKCE itself is required from 2025-03-26).
    pub fn s256(verifier: &PkceVerifier) -> Self {
        PkceChallenge {
            value: base64url(&Sha256::digest(verifier.as_str().as_bytes())),
            method: "S256",
        }
    }

    /// The `code_challenge` parameter.
    pub fn as_str(&self) -> &str {
        &self.value
    }

    /// The `code_challenge_method` parameter (`S256`).
    pub fn method(&self) -> &'static str {
        self.method
    }

    /// Whether `verifier` is the one this challenge was made from (the server's check,
    /// RFC 7636 §4.6).
    pub fn is_verified_by(&self, verifier: &str) -> bool {
        PkceVerifier::new(verifier).is_ok_and(|v| PkceChallenge::s256(&v).value == self.value)
    }
}

/// Base64url without padding (RFC 4648 §5, as RFC 7636 Appendix A uses it).
pub(crate) fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let group = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | (u32::from(b) << (16 - 8 * i)));
        // n input bytes give n + 1 output characters; the rest would be padding.
        for i in 0..=chunk.len() {
            let index = (group >> (18 - 6 * i)) & 0x3f;
            out.push(char::from(ALPHABET[index as usize]));
        }
    }
    out
}
