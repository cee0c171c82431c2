//! Issuer checks: the metadata's `issuer` against the issuer it was fetched for
//! (RFC 8414 §3.3), and an authorization response's `iss` against the recorded issuer
//! (RFC 9207 §2.4).
//!
//! Both compare the exact text, with no normalization: no case folding of scheme or host, no
//! default-port elision, no trailing-slash or percent-encoding changes (RFC 9207 §2.4 "simple
//! string comparison", RFC 3986 §6.2.1). `https://as.example.com/` is not
//! `https://as.example.com`.

use super::metadata::AuthorizationServerMetadata;
use super::AuthError;
use crate::prelude::*;

/// Refuses authorization server metadata whose `issuer` is not identical to the issuer
/// identifier its well-known URL was built from (RFC 8414 §3.3: "If these values are not
/// identical, the data contained in the response MUST NOT be used"; OpenID Connect
/// Discovery 1.0 §4.3 says the same of `openid-configuration`).
///
/// `expected` is the issuer the client started from: an entry of the protected resource
/// metadata's `authorization_servers`, or, for 2025-03-26's discovery, the authorization base
/// URL (see [`discovery`](super::discovery)).
///
/// ```
/// use mcp_spec_types::auth::{issuer, AuthorizationServerMetadata};
/// let metadata = AuthorizationServerMetadata::new("https://as.example.com");
/// assert!(issuer::check_metadata_issuer("https://as.example.com", &metadata).is_ok());
/// assert!(issuer::check_metadata_issuer("https://as.example.com/", &metadata).is_err());
/// ```
pub fn check_metadata_issuer(
    expected: &str,
    metadata: &AuthorizationServerMetadata,
) -> Result<(), AuthError> {
    if metadata.issuer == expected {
        Ok(())
    } else {
        Err(AuthError::IssuerMismatch {
            expected: expected.to_owned(),
            found: metadata.issuer.clone(),
        })
    }
}

/// Checks the `iss` parameter of an authorization response (RFC 9207 §2.4) against the
/// metadata of the server the request went to (already checked with
/// [`check_metadata_issuer`]):
///
/// | metadata advertises `iss` | `iss` in the response | outcome |
/// |---|---|---|
/// | yes | equal to `issuer` | accepted |
/// | yes | absent | refused ([`AuthError::MissingIss`]) |
/// | either | present, different | refused ([`AuthError::IssMismatch`]) |
/// | no | absent | accepted |
///
/// A present `iss` is compared whether or not the server advertises it: RFC 9207 §2.4 has
/// clients compare any `iss` they receive, and so does the 2026-07-28 authorization page
/// (the `auth/iss-unexpected` conformance scenario holds clients to it).
///
/// ```
/// use mcp_spec_types::auth::{issuer, AuthError, AuthorizationServerMetadata};
/// let mut metadata = AuthorizationServerMetadata::new("https://as.example.com");
/// metadata.authorization_response_iss_parameter_supported = Some(true);
/// assert!(issuer::check_authorization_response(&metadata, Some("https://as.example.com")).is_ok());
/// assert!(matches!(issuer::check_authorization_response(&metadata, None), Err(AuthError::MissingIss { .. })));
/// assert!(issuer::check_authorization_response(&metadata, Some("https://as.example.com/")).is_err());
/// ```
pub fn check_authorization_response(
    metadata: &AuthorizationServerMetadata,
    iss: Option<&str>,
) -> Result<(), AuthError> {
    let advertised = metadata
        .authorization_response_iss_parameter_supported
        .unwrap_or(false);
    match iss {
        Some(iss) if iss == metadata.issuer => Ok(()),
        Some(iss) => Err(AuthError::IssMismatch {
            expected: metadata.issuer.clone(),
            found: iss.to_owned(),
        }),
        None if advertised => Err(AuthError::MissingIss {
            issuer: metadata.issuer.clone(),
        }),
        None => Ok(()),
    }
}
