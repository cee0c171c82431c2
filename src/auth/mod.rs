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

mod challenge;
pub(crate) mod document;
mod metadata;
mod pkce;
mod registration;
mod response;
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
pub use response::AuthorizationResponse;
pub use token::{OAuthError, OAuthErrorCode, TokenResponse};

use crate::ProtocolVersion;
use std::fmt;
use url::HttpUrl;

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

impl std::error::Error for AuthError {}

/// The scope of the first authorization request (MCP authorization, "Scope Selection
/// Strategy", from 2025-11-25): the `scope` of the challenge that asked for authorization if
/// it has one, else every `scopes_supported` of the protected resource metadata joined by
/// spaces, else `None` (leave `scope` out).
///
/// ```
/// use mcp_spec_types::auth::{select_scope, Challenge, ProtectedResourceMetadata};
/// let mut prm = ProtectedResourceMetadata::new("https://mcp.example.com/mcp");
/// prm.scopes_supported = Some(vec!["mcp:read".into(), "mcp:write".into()]);
/// assert_eq!(select_scope(None, Some(&prm)).as_deref(), Some("mcp:read mcp:write"));
/// let challenge = Challenge::bearer().with_param("scope", "mcp:read");
/// assert_eq!(select_scope(Some(&challenge), Some(&prm)).as_deref(), Some("mcp:read"));
/// assert_eq!(select_scope(None, None), None);
/// ```
pub fn select_scope(
    challenge: Option<&Challenge>,
    prm: Option<&ProtectedResourceMetadata>,
) -> Option<String> {
    if let Some(scope) = challenge.and_then(Challenge::scope) {
        return Some(scope.to_owned());
    }
    prm.and_then(|prm| prm.scopes_supported.as_ref())
        .filter(|scopes| !scopes.is_empty())
        .map(|scopes| scopes.join(" "))
}

/// The scope to ask for when a request fails with 403 `insufficient_scope` (MCP
/// authorization, "Step-Up Authorization Flow"): the challenge's `scope`, after the scope
/// requested before when `previous` is given, without repeats. 2026-07-28 asks for that union
/// so that what was granted is not lost ([`discovery::DiscoveryRules::step_up_union`]);
/// 2025-11-25 for the challenge's scope alone (pass `None`). `None` when the challenge names
/// no scope.
///
/// ```
/// use mcp_spec_types::auth::{step_up_scope, Challenge};
/// let challenge = Challenge::bearer()
///     .with_param("error", "insufficient_scope")
///     .with_param("scope", "mcp:basic mcp:write");
/// assert_eq!(step_up_scope(&challenge, Some("mcp:basic")).as_deref(), Some("mcp:basic mcp:write"));
/// ```
pub fn step_up_scope(challenge: &Challenge, previous: Option<&str>) -> Option<String> {
    let challenged = challenge.scope()?;
    let mut scopes: Vec<&str> = Vec::new();
    for scope in previous
        .unwrap_or("")
        .split(' ')
        .chain(challenged.split(' '))
    {
        if !scope.is_empty() && !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    Some(scopes.join(" "))
}

/// `scope` with `offline_access` added when the authorization server lists it in
/// `scopes_supported` (2026-07-28, "Refresh Tokens": a client that wants a refresh token may
/// add it then); `scope` unchanged otherwise, so a server that does not list it is not asked
/// for it.
///
/// ```
/// use mcp_spec_types::auth::{add_offline_access, AuthorizationServerMetadata};
/// let mut metadata = AuthorizationServerMetadata::new("https://as.example.com");
/// assert_eq!(add_offline_access(Some("mcp:basic"), &metadata).as_deref(), Some("mcp:basic"));
/// metadata.scopes_supported = Some(vec!["mcp:basic".into(), "offline_access".into()]);
/// assert_eq!(add_offline_access(Some("mcp:basic"), &metadata).as_deref(), Some("mcp:basic offline_access"));
/// assert_eq!(add_offline_access(None, &metadata).as_deref(), Some("offline_access"));
/// ```
pub fn add_offline_access(
    scope: Option<&str>,
    metadata: &AuthorizationServerMetadata,
) -> Option<String> {
    const OFFLINE_ACCESS: &str = "offline_access";
    let listed = metadata
        .scopes_supported
        .as_ref()
        .is_some_and(|scopes| scopes.iter().any(|s| s == OFFLINE_ACCESS));
    let present = scope.is_some_and(|s| s.split(' ').any(|s| s == OFFLINE_ACCESS));
    match scope {
        _ if !listed || present => scope.map(str::to_owned),
        Some(scope) if !scope.trim().is_empty() => Some(format!("{scope} {OFFLINE_ACCESS}")),
        _ => Some(OFFLINE_ACCESS.to_owned()),
    }
}

/// The RFC 8707 `resource` parameter for the MCP server at `server_url`: its canonical URI
/// (MCP authorization, "Canonical Server URI", from 2025-06-18): scheme and host in lower
/// case (RFC 3986 §6.2.2.1), no fragment (RFC 8707 §2), no trailing `/` on an empty path;
/// port, path and query as written.
///
/// ```
/// use mcp_spec_types::auth::resource_indicator;
/// assert_eq!(resource_indicator("HTTPS://MCP.Example.com/mcp#x").unwrap(), "https://mcp.example.com/mcp");
/// assert_eq!(resource_indicator("https://mcp.example.com/").unwrap(), "https://mcp.example.com");
/// assert!(resource_indicator("mcp.example.com").is_err());
/// ```
pub fn resource_indicator(server_url: &str) -> Result<String, AuthError> {
    let url = HttpUrl::parse(server_url, "server_url")?;
    let mut canonical = url.lowercase_origin();
    if url.path != "/" {
        canonical.push_str(url.path);
    }
    if let Some(query) = url.query {
        canonical.push('?');
        canonical.push_str(query);
    }
    Ok(canonical)
}

/// Refuses protected resource metadata that is not about the MCP server at `server_url`
/// (RFC 9728 §3.3 and §7.3, MCP authorization: a client must not use metadata whose
/// `resource` does not match): `resource` must have the server's origin (compared as
/// [`resource_indicator`] writes it) and a path that is the server's path or one of its
/// parent paths, whole segments only (`https://example.com` covers
/// `https://example.com/mcp`; `https://example.com/mc` does not).
///
/// A parent path is accepted because metadata found at the root well-known URL describes the
/// origin (RFC 9728 §3.1), and MCP servers publish it there for an endpoint below it; RFC 9728
/// §3.3's letter (identical to the URL the metadata URL was built from) would refuse it.
///
/// ```
/// use mcp_spec_types::auth::{check_resource, ProtectedResourceMetadata};
/// let prm = ProtectedResourceMetadata::new("https://evil.example.com/mcp");
/// assert!(check_resource(&prm, "https://mcp.example.com/mcp").is_err());
/// let prm = ProtectedResourceMetadata::new("https://mcp.example.com");
/// assert!(check_resource(&prm, "https://mcp.example.com/mcp").is_ok());
/// ```
pub fn check_resource(prm: &ProtectedResourceMetadata, server_url: &str) -> Result<(), AuthError> {
    let mismatch = || AuthError::ResourceMismatch {
        resource: prm.resource.clone(),
        server_url: server_url.to_owned(),
    };
    let server = HttpUrl::parse(server_url, "server_url")?;
    let Ok(resource) = HttpUrl::parse(&prm.resource, "resource") else {
        return Err(mismatch());
    };
    if resource.lowercase_origin() != server.lowercase_origin() {
        return Err(mismatch());
    }
    let resource_path = resource.path_without_trailing_slash();
    let server_path = server.path_without_trailing_slash();
    let covered = match server_path.strip_prefix(resource_path) {
        Some(rest) => rest.is_empty() || rest.starts_with('/'),
        None => false,
    };
    if covered {
        Ok(())
    } else {
        Err(mismatch())
    }
}
