//! Authorization for the HTTP transports (feature `auth`): the OAuth documents, challenges and
//! rules of the specification's authorization pages, which `schema.json` does not cover.
//!
//! - Documents, lossless like the protocol types (unknown members kept in `extra` and written
//!   back, URLs kept as written, integers as integers):
//!   [`ProtectedResourceMetadata`] (RFC 9728), [`AuthorizationServerMetadata`] (RFC 8414,
//!   OpenID Connect Discovery), [`ClientMetadata`], [`ClientInformation`],
//!   [`ClientRegistrationError`] (RFC 7591), [`ClientIdMetadataDocument`],
//!   [`TokenResponse`] and [`OAuthError`] (RFC 6749). Each reads with `from_json` (or serde);
//!   an error names the member and never shows a value, and `Debug` hides tokens and secrets.
//! - [`WwwAuthenticate`] and [`Challenge`]: the `WWW-Authenticate` header, parsed and
//!   formatted (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1).
//! - [`discovery`]: the well-known URLs to try, per revision, as rows of one table.
//! - [`select_scope`], [`step_up_scope`], [`add_offline_access`]: which scope to ask for.
//! - [`issuer`]: RFC 8414 §3.3 and RFC 9207 checks; [`AuthorizationResponse`]: the redirect's
//!   `code`, `state`, `iss` and `error`, checked in a safe order; [`form`]: the
//!   `application/x-www-form-urlencoded` of OAuth requests; [`resource_indicator`] and
//!   [`check_resource`]: RFC 8707 and RFC 9728 §3.3.
//! - [`PkceVerifier`] and [`PkceChallenge`] (RFC 7636, `S256`).
//!
//! Nothing here does I/O: the caller fetches, with the HTTP client of its choice.

use crate::prelude::*;
mod challenge;
pub(crate) mod document;
mod metadata;
mod pkce;
mod registration;
mod resource;
mod response;
mod scope;
mod token;
mod url;

pub mod discovery;
pub mod form;
pub mod issuer;

pub use challenge::{AuthParam, Challenge, WwwAuthenticate};
pub use document::MemberOrder;
pub use metadata::{AuthorizationServerMetadata, ProtectedResourceMetadata};
pub use pkce::{PkceChallenge, PkceVerifier};
pub use registration::{
    ClientIdMetadataDocument, ClientInformation, ClientMetadata, ClientRegistrationError,
    RegistrationErrorCode,
};
pub use resource::{check_resource, resource_indicator};
pub use response::AuthorizationResponse;
pub use scope::{add_offline_access, select_scope, step_up_scope};
pub use token::{OAuthError, OAuthErrorCode, TokenResponse};

use crate::ProtocolVersion;
use core::fmt;

/// What went wrong reading an authorization document or header, or applying a rule.
///
/// Errors name the member, parameter or argument at fault; they never contain a token, a
/// secret, a code or a PKCE verifier.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthError {
    /// The text is not JSON, or not a JSON object.
    InvalidDocument {
        /// The document (`"token response"`).
        document: &'static str,
        /// Why.
        reason: String,
    },
    /// A required member is absent.
    MissingMember {
        /// The document.
        document: &'static str,
        /// The member (`"access_token"`).
        member: &'static str,
    },
    /// A member has the wrong JSON type.
    InvalidMember {
        /// The document.
        document: &'static str,
        /// The member.
        member: &'static str,
        /// What it must be (`"a string"`).
        expected: &'static str,
        /// The JSON type it has (`"a number"`); never the value.
        found: &'static str,
    },
    /// A `WWW-Authenticate` value does not follow RFC 9110 §11.6.1.
    InvalidChallenge {
        /// The byte offset in the header value.
        offset: usize,
        /// The parameter being read, if any.
        parameter: Option<String>,
        /// What was expected.
        reason: &'static str,
    },
    /// A URL argument is not an absolute `http`/`https` URL.
    InvalidUrl {
        /// The argument (`"server_url"`, `"issuer"`, `"resource_metadata"`).
        argument: &'static str,
        /// Why.
        reason: &'static str,
    },
    /// The revision defines no authorization (2024-11-05), or is unknown to this crate.
    NoAuthorization {
        /// The revision.
        revision: ProtocolVersion,
    },
    /// Authorization server metadata whose `issuer` is not the issuer it was fetched for
    /// (RFC 8414 §3.3); the metadata must not be used.
    IssuerMismatch {
        /// The issuer the well-known URL was built from.
        expected: String,
        /// The metadata's `issuer`.
        found: String,
    },
    /// An authorization response's `iss` differs from the server's issuer (RFC 9207 §2.4).
    IssMismatch {
        /// The recorded issuer.
        expected: String,
        /// The response's `iss`.
        found: String,
    },
    /// An authorization response without `iss` from a server that advertises
    /// `authorization_response_iss_parameter_supported` (RFC 9207 §2.4).
    MissingIss {
        /// The server's issuer.
        issuer: String,
    },
    /// Protected resource metadata whose `resource` is not the MCP server the client is
    /// connecting to (RFC 9728 §3.3, §7.3).
    ResourceMismatch {
        /// The metadata's `resource`.
        resource: String,
        /// The MCP server's URL.
        server_url: String,
    },
    /// A PKCE `code_verifier` that RFC 7636 §4.1 does not allow.
    InvalidPkceVerifier {
        /// Why (the verifier itself is not shown).
        reason: &'static str,
    },
    /// An authorization response whose `state` is not the one sent (RFC 6749 §10.12); neither
    /// value is shown.
    StateMismatch,
    /// An authorization response carrying an `error` (RFC 6749 §4.1.2.1).
    AuthorizationRefused {
        /// The error code.
        error: OAuthErrorCode,
        /// The server's `error_description`.
        description: Option<String>,
    },
    /// An authorization response with neither `code` nor `error`.
    MissingCode,
    /// A redirect that does not lead back to the client's `redirect_uri` (RFC 6749 §3.1.2).
    RedirectMismatch,
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthError::InvalidDocument { document, reason } => {
                write!(f, "invalid {document}: {reason}")
            }
            AuthError::MissingMember { document, member } => {
                write!(f, "{document}: required member `{member}` is missing")
            }
            AuthError::InvalidMember {
                document,
                member,
                expected,
                found,
            } => write!(
                f,
                "{document}: member `{member}` must be {expected}, found {found}"
            ),
            AuthError::InvalidChallenge {
                offset,
                parameter: Some(parameter),
                reason,
            } => write!(
                f,
                "WWW-Authenticate, parameter `{parameter}` at byte {offset}: {reason}"
            ),
            AuthError::InvalidChallenge {
                offset,
                parameter: None,
                reason,
            } => write!(f, "WWW-Authenticate at byte {offset}: {reason}"),
            AuthError::InvalidUrl { argument, reason } => {
                write!(f, "`{argument}` {reason}")
            }
            AuthError::NoAuthorization { revision } => {
                write!(f, "revision {revision} defines no authorization")
            }
            AuthError::IssuerMismatch { expected, found } => write!(
                f,
                "authorization server metadata has issuer `{found}`, fetched for `{expected}` (RFC 8414 §3.3)"
            ),
            AuthError::IssMismatch { expected, found } => write!(
                f,
                "authorization response `iss` is `{found}`, expected `{expected}` (RFC 9207 §2.4)"
            ),
            AuthError::MissingIss { issuer } => write!(
                f,
                "authorization response has no `iss`, though `{issuer}` advertises it (RFC 9207 §2.4)"
            ),
            AuthError::ResourceMismatch {
                resource,
                server_url,
            } => write!(
                f,
                "protected resource metadata is for `{resource}`, not for `{server_url}` (RFC 9728 §3.3)"
            ),
            AuthError::InvalidPkceVerifier { reason } => {
                write!(f, "PKCE code_verifier {reason} (RFC 7636 §4.1)")
            }
            AuthError::StateMismatch => f.write_str(
                "authorization response `state` is not the one sent (RFC 6749 §10.12)",
            ),
            AuthError::AuthorizationRefused {
                error,
                description: Some(description),
            } => write!(f, "authorization refused: {error}: {description}"),
            AuthError::AuthorizationRefused {
                error,
                description: None,
            } => write!(f, "authorization refused: {error}"),
            AuthError::MissingCode => {
                f.write_str("authorization response has neither `code` nor `error`")
            }
            AuthError::RedirectMismatch => {
                f.write_str("the redirect does not lead back to the client's redirect_uri")
            }
        }
    }
}

impl core::error::Error for AuthError {}
