//! Why a request could not be authorized.

use crate::auth::{AuthError, OAuthErrorCode};
use crate::prelude::*;
use core::fmt;

/// Why the provider could not authorize a request. It never contains a token, a secret, a
/// code or a PKCE verifier; an endpoint's refusal is named by its OAuth error code alone.
///
/// ```
/// use mcp_spec_types::client::oauth::AuthorizeError;
/// let error = AuthorizeError::NoBrowser;
/// assert!(error.to_string().contains("browser"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthorizeError {
    /// A request could not be sent, or its answer not read.
    Transport {
        /// The URL (without its query).
        url: String,
        /// Why.
        reason: String,
    },
    /// An endpoint answered with an error status.
    Refused {
        /// The endpoint's URL (without its query).
        url: String,
        /// The HTTP status.
        status: u16,
        /// The OAuth error code of the body, when it is an OAuth error response.
        error: Option<OAuthErrorCode>,
    },
    /// A document did not read, or a check of the specification failed (the metadata of
    /// another resource or issuer, a redirect's `state` or `iss`...): what was read is
    /// refused.
    Check {
        /// Where (a URL, or the step).
        at: String,
        /// The failed rule.
        error: AuthError,
    },
    /// The protected resource metadata names no authorization server.
    NoAuthorizationServer,
    /// No authorization server metadata at any well-known URL of the issuer.
    NoMetadata {
        /// The issuer looked up.
        issuer: String,
    },
    /// The authorization server's metadata lacks an endpoint the flow needs.
    MissingEndpoint(&'static str),
    /// The server takes no client ID metadata document and no registration, and no
    /// client was given ([`OAuth::with_client`](super::OAuth::with_client)).
    NoClient,
    /// The authorization server does not advertise PKCE S256: the flow must not proceed.
    NoPkce {
        /// The server's issuer.
        issuer: String,
    },
    /// The authorization code grant is needed but no [`Browser`](super::Browser) was given.
    NoBrowser,
    /// The browser could not bring the redirect back.
    Browser(String),
    /// The token endpoint issued a token of a type the provider cannot present.
    TokenType(String),
    /// A JWT (a client assertion or a DPoP proof) could not be signed.
    Signing(String),
    /// The server kept refusing: the provider gave up after this many authorizations of one
    /// request (the first, and the step-ups after it).
    GaveUp {
        /// The last refusal's HTTP status.
        status: u16,
        /// The authorizations tried.
        authorizations: usize,
    },
    /// The server keeps asking for a new DPoP nonce.
    DpopNonce,
}

impl fmt::Display for AuthorizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthorizeError::Transport { url, reason } => write!(f, "{url}: {reason}"),
            AuthorizeError::Refused { url, status, error } => {
                write!(f, "{url} refused: HTTP {status}")?;
                match error {
                    Some(error) => write!(f, ": {error}"),
                    None => Ok(()),
                }
            }
            AuthorizeError::Check { at, error } => write!(f, "{at}: {error}: refused"),
            AuthorizeError::NoAuthorizationServer => {
                f.write_str("the protected resource metadata names no authorization server")
            }
            AuthorizeError::NoMetadata { issuer } => {
                write!(f, "no authorization server metadata for {issuer}")
            }
            AuthorizeError::MissingEndpoint(endpoint) => {
                write!(f, "the authorization server metadata has no {endpoint}")
            }
            AuthorizeError::NoClient => f.write_str(
                "the authorization server takes no registration and no client metadata \
                 document, and no client was given",
            ),
            AuthorizeError::NoPkce { issuer } => {
                write!(f, "{issuer} does not advertise PKCE S256: refused")
            }
            AuthorizeError::NoBrowser => {
                f.write_str("the authorization code grant needs a browser, and none was given")
            }
            AuthorizeError::Browser(why) => write!(f, "the browser: {why}"),
            AuthorizeError::TokenType(kind) => write!(f, "token type {kind} is not Bearer"),
            AuthorizeError::Signing(why) => write!(f, "signing: {why}"),
            AuthorizeError::GaveUp {
                status,
                authorizations,
            } => write!(
                f,
                "HTTP {status} after {authorizations} authorizations: giving up"
            ),
            AuthorizeError::DpopNonce => {
                f.write_str("the server keeps asking for a new DPoP nonce: giving up")
            }
        }
    }
}

impl std::error::Error for AuthorizeError {}

/// A `Check` error at `at`.
pub(super) fn check(at: impl Into<String>) -> impl FnOnce(AuthError) -> AuthorizeError {
    let at = at.into();
    move |error| AuthorizeError::Check { at, error }
}
