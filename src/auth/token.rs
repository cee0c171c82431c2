//! The token endpoint's answers: a token (RFC 6749 §5.1) or an error (§5.2).

use super::document::{document, vocabulary};
use crate::prelude::*;

document! {
    /// A successful token response (RFC 6749 §5.1).
    ///
    /// `Debug` leaves the tokens out.
    pub struct TokenResponse("token response") {
        /// `access_token` (REQUIRED).
        required access_token: String,
        /// `token_type` (REQUIRED): `Bearer` (RFC 6750), `DPoP` (RFC 9449)...; compared
        /// case-insensitively (RFC 6749 §7.1).
        required token_type: String,
        /// `expires_in`: the lifetime of the access token in seconds (RFC 6749 §5.1); an
        /// integer, written back as one.
        optional expires_in: u64,
        /// `refresh_token` (RFC 6749 §5.1, §6).
        optional refresh_token: String,
        /// `scope`: the granted scope when it differs from the requested one (RFC 6749 §5.1,
        /// §3.3).
        optional scope: String,
        /// `issued_token_type`: the kind of token a token exchange issued (RFC 8693 §2.2.1;
        /// enterprise-managed authorization exchanges for one).
        optional issued_token_type: String,
    }
}

impl core::fmt::Debug for TokenResponse {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TokenResponse")
            .field("access_token", &"<redacted>")
            .field("token_type", &self.token_type)
            .field("expires_in", &self.expires_in)
            .field(
                "refresh_token",
                &self.refresh_token.as_ref().map(|_| "<redacted>"),
            )
            .field("scope", &self.scope)
            .field("issued_token_type", &self.issued_token_type)
            .field("extra", &self.extra.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl TokenResponse {
    /// A response carrying `access_token` of `token_type`, with no other member.
    pub fn new(access_token: impl Into<String>, token_type: impl Into<String>) -> Self {
        TokenResponse {
            access_token: access_token.into(),
            token_type: token_type.into(),
            ..Default::default()
        }
    }

    /// The granted scope values (`scope` split on spaces, RFC 6749 §3.3).
    pub fn scopes(&self) -> impl Iterator<Item = &str> {
        self.scope
            .as_deref()
            .unwrap_or("")
            .split(' ')
            .filter(|s| !s.is_empty())
    }
}

vocabulary! {
    /// An OAuth error code: the token endpoint's (RFC 6749 §5.2), the authorization
    /// endpoint's (§4.1.2.1), a protected resource's (RFC 6750 §3.1) and DPoP's nonce request
    /// (RFC 9449 §8).
    #[non_exhaustive]
    pub enum OAuthErrorCode {
        /// The request is missing a parameter or is otherwise malformed (RFC 6749 §5.2).
        InvalidRequest = "invalid_request",
        /// Client authentication failed (RFC 6749 §5.2).
        InvalidClient = "invalid_client",
        /// The grant or refresh token is invalid, expired or revoked (RFC 6749 §5.2).
        InvalidGrant = "invalid_grant",
        /// The client may not use this grant type (RFC 6749 §5.2).
        UnauthorizedClient = "unauthorized_client",
        /// The grant type is not supported (RFC 6749 §5.2).
        UnsupportedGrantType = "unsupported_grant_type",
        /// The scope is invalid, unknown or malformed (RFC 6749 §5.2).
        InvalidScope = "invalid_scope",
        /// The resource owner or server denied the request (RFC 6749 §4.1.2.1).
        AccessDenied = "access_denied",
        /// The response type is not supported (RFC 6749 §4.1.2.1).
        UnsupportedResponseType = "unsupported_response_type",
        /// The server hit an unexpected condition (RFC 6749 §4.1.2.1).
        ServerError = "server_error",
        /// The server is temporarily unable to handle the request (RFC 6749 §4.1.2.1).
        TemporarilyUnavailable = "temporarily_unavailable",
        /// The access token is expired, revoked or malformed (RFC 6750 §3.1).
        InvalidToken = "invalid_token",
        /// The token lacks the scope the request needs (RFC 6750 §3.1).
        InsufficientScope = "insufficient_scope",
        /// The server wants a DPoP proof carrying its nonce (RFC 9449 §8).
        UseDpopNonce = "use_dpop_nonce",
        /// The resource requires a target the request did not name (RFC 8707 §2).
        InvalidTarget = "invalid_target",
    }
}

document! {
    /// An OAuth error response (RFC 6749 §5.2).
    #[derive(Debug)]
    pub struct OAuthError("OAuth error response") {
        /// `error` (REQUIRED).
        required error: OAuthErrorCode,
        /// `error_description`: human-readable text.
        optional error_description: String,
        /// `error_uri`: a page about the error.
        optional error_uri: String,
    }
}

impl OAuthError {
    /// An error response with `error` only.
    pub fn new(error: OAuthErrorCode) -> Self {
        OAuthError {
            error,
            error_description: None,
            error_uri: None,
            extra: Default::default(),
            order: Default::default(),
        }
    }
}

impl Default for OAuthErrorCode {
    /// `invalid_request`, the generic error (RFC 6749 §5.2), so that documents can derive
    /// `Default`.
    fn default() -> Self {
        OAuthErrorCode::InvalidRequest
    }
}
