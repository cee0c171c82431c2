//! Where a client looks for metadata, per revision: the candidate URLs in the order the
//! specification's authorization page gives them, and the 2025-03-26 fallbacks.
//!
//! What differs between revisions is one row of [`RULES`]; the functions read the row.
//!
//! | revision | protected resource metadata | authorization server metadata | without metadata |
//! |---|---|---|---|
//! | 2025-03-26 | none | RFC 8414 at the MCP server's origin | `/authorize`, `/token`, `/register` |
//! | 2025-06-18 | RFC 9728 | RFC 8414 (path insertion) | — |
//! | 2025-11-25, 2026-07-28, draft | RFC 9728 | RFC 8414, then OpenID Connect Discovery (insertion, then appending) | — |
//!
//! The other columns of the table (the `resource` parameter, client ID metadata documents,
//! the `iss` check, `offline_access`, step-up scopes, `application_type`) are in
//! [`DiscoveryRules`]. 2024-11-05
//! defines no authorization.
//!
//! ```
//! use mcp_spec_types::auth::discovery;
//! use mcp_spec_types::ProtocolVersion;
//!
//! assert_eq!(
//!     discovery::authorization_server_metadata_urls("https://auth.example.com/tenant1", &ProtocolVersion::V2025_11_25).unwrap(),
//!     [
//!         "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
//!         "https://auth.example.com/.well-known/openid-configuration/tenant1",
//!         "https://auth.example.com/tenant1/.well-known/openid-configuration",
//!     ],
//! );
//! ```

use super::url::HttpUrl;
use super::AuthError;
use crate::prelude::*;
use crate::ProtocolVersion;

/// A well-known location of authorization server metadata, relative to an issuer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WellKnown {
    /// `/.well-known/oauth-authorization-server` inserted between the host and the issuer's
    /// path (RFC 8414 §3.1).
    OAuthPathInsertion,
    /// `/.well-known/openid-configuration` inserted between the host and the path
    /// (RFC 8414 §5's compatibility form).
    OpenIdPathInsertion,
    /// `/.well-known/openid-configuration` appended to the issuer's path (OpenID Connect
    /// Discovery 1.0 §4).
    OpenIdPathAppending,
}

impl WellKnown {
    /// The URL for `issuer`.
    fn url(self, issuer: &HttpUrl<'_>) -> String {
        match self {
            WellKnown::OAuthPathInsertion => issuer.insert_well_known(OAUTH_AUTHORIZATION_SERVER),
            WellKnown::OpenIdPathInsertion => issuer.insert_well_known(OPENID_CONFIGURATION),
            WellKnown::OpenIdPathAppending => issuer.append_well_known(OPENID_CONFIGURATION),
        }
    }
}

/// What the authorization server metadata's well-known URLs are built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MetadataBase {
    /// An issuer from the protected resource metadata's `authorization_servers`.
    Issuer,
    /// The MCP server's URL with its path discarded, the "authorization base URL"
    /// (2025-03-26, Authorization, "Authorization Base URL").
    ServerOrigin,
}

/// The endpoint paths a 2025-03-26 client uses, relative to the authorization base URL, when
/// the server has no authorization server metadata (2025-03-26, Authorization, "Fallbacks for
/// Servers without Metadata Discovery").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DefaultEndpointPaths {
    /// The authorization endpoint's path.
    pub authorization: &'static str,
    /// The token endpoint's path.
    pub token: &'static str,
    /// The registration endpoint's path.
    pub registration: &'static str,
}

/// The default endpoints of an authorization server without metadata, as URLs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DefaultEndpoints {
    /// The authorization endpoint (`{base}/authorize`).
    pub authorization_endpoint: String,
    /// The token endpoint (`{base}/token`).
    pub token_endpoint: String,
    /// The registration endpoint (`{base}/register`).
    pub registration_endpoint: String,
}

/// How one revision's authorization page has a client discover and use an authorization
/// server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscoveryRules {
    /// The revision.
    pub revision: ProtocolVersion,
    /// The page the row comes from.
    pub spec: &'static str,
    /// Whether the client finds the authorization server through protected resource metadata
    /// (RFC 9728): from 2025-06-18.
    pub protected_resource_metadata: bool,
    /// What the authorization server metadata URLs are built from.
    pub metadata_base: MetadataBase,
    /// The authorization server metadata locations, in the order the client tries them.
    pub authorization_server_metadata: &'static [WellKnown],
    /// The endpoints to use when no authorization server metadata is found, if the revision
    /// has any.
    pub default_endpoints: Option<DefaultEndpointPaths>,
    /// Whether the client sends `MCP-Protocol-Version` on metadata requests (2025-03-26,
    /// Authorization, "Server Metadata Discovery Headers": clients SHOULD).
    pub protocol_version_header_on_metadata: bool,
    /// Whether authorization and token requests carry the RFC 8707 `resource` parameter
    /// ("MUST", from 2025-06-18).
    pub resource_parameter: bool,
    /// Whether the client may use a client ID metadata document (`https` `client_id`) when
    /// the server advertises `client_id_metadata_document_supported` (from 2025-11-25).
    pub client_id_metadata_documents: bool,
    /// Whether the revision's page requires the RFC 9207 `iss` check of authorization
    /// responses ([`issuer::check_authorization_response`](super::issuer::check_authorization_response)),
    /// from 2026-07-28. Earlier clients may check it too: RFC 9207 applies whenever the server
    /// advertises it.
    pub authorization_response_iss: bool,
    /// Whether a client that wants a refresh token adds `offline_access` when the
    /// authorization server lists it in `scopes_supported`
    /// ([`add_offline_access`](super::add_offline_access)), from 2026-07-28 ("Refresh
    /// Tokens").
    pub offline_access: bool,
    /// Whether step-up re-authorization asks for the union of the scope requested before and
    /// the challenge's ([`step_up_scope`](super::step_up_scope) with `previous`), from
    /// 2026-07-28 ("Step-Up Authorization Flow"); before, the challenge's scope alone.
    pub step_up_union: bool,
    /// Whether a dynamic client registration must carry `application_type`
    /// ([`ClientMetadata::application_type`](super::ClientMetadata::application_type)), from
    /// 2026-07-28 (Client Registration, "Application Type and Redirect URI Constraints").
    pub application_type: bool,
}

const OAUTH_AUTHORIZATION_SERVER: &str = "oauth-authorization-server";
const OPENID_CONFIGURATION: &str = "openid-configuration";
const OAUTH_PROTECTED_RESOURCE: &str = "oauth-protected-resource";

/// RFC 8414 first, then OpenID Connect Discovery: insertion, then appending.
const OAUTH_THEN_OPENID: &[WellKnown] = &[
    WellKnown::OAuthPathInsertion,
    WellKnown::OpenIdPathInsertion,
    WellKnown::OpenIdPathAppending,
];

/// Every revision that defines authorization, oldest first.
pub const RULES: &[DiscoveryRules] = &[
    DiscoveryRules {
        revision: ProtocolVersion::V2025_03_26,
        spec: "https://modelcontextprotocol.io/specification/2025-03-26/basic/authorization#server-metadata-discovery",
        protected_resource_metadata: false,
        metadata_base: MetadataBase::ServerOrigin,
        authorization_server_metadata: &[WellKnown::OAuthPathInsertion],
        default_endpoints: Some(DefaultEndpointPaths {
            authorization: "/authorize",
            token: "/token",
            registration: "/register",
        }),
        protocol_version_header_on_metadata: true,
        resource_parameter: false,
        client_id_metadata_documents: false,
        authorization_response_iss: false,
        offline_access: false,
        step_up_union: false,
        application_type: false,
    },
    DiscoveryRules {
        revision: ProtocolVersion::V2025_06_18,
        spec: "https://modelcontextprotocol.io/specification/2025-06-18/basic/authorization#authorization-server-discovery",
        protected_resource_metadata: true,
        metadata_base: MetadataBase::Issuer,
        authorization_server_metadata: &[WellKnown::OAuthPathInsertion],
        default_endpoints: None,
        protocol_version_header_on_metadata: false,
        resource_parameter: true,
        client_id_metadata_documents: false,
        authorization_response_iss: false,
        offline_access: false,
        step_up_union: false,
        application_type: false,
    },
    DiscoveryRules {
        revision: ProtocolVersion::V2025_11_25,
        spec: "https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-metadata-discovery",
        protected_resource_metadata: true,
        metadata_base: MetadataBase::Issuer,
        authorization_server_metadata: OAUTH_THEN_OPENID,
        default_endpoints: None,
        protocol_version_header_on_metadata: false,
        resource_parameter: true,
        client_id_metadata_documents: true,
        authorization_response_iss: false,
        offline_access: false,
        step_up_union: false,
        application_type: false,
    },
    DiscoveryRules {
        revision: ProtocolVersion::V2026_07_28,
        spec: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/authorization-server-discovery",
        protected_resource_metadata: true,
        metadata_base: MetadataBase::Issuer,
        authorization_server_metadata: OAUTH_THEN_OPENID,
        default_endpoints: None,
        protocol_version_header_on_metadata: false,
        resource_parameter: true,
        client_id_metadata_documents: true,
        authorization_response_iss: true,
        offline_access: true,
        step_up_union: true,
        application_type: true,
    },
    DiscoveryRules {
        revision: ProtocolVersion::Draft,
        spec: "https://modelcontextprotocol.io/specification/draft/basic/authorization/authorization-server-discovery",
        protected_resource_metadata: true,
        metadata_base: MetadataBase::Issuer,
        authorization_server_metadata: OAUTH_THEN_OPENID,
        default_endpoints: None,
        protocol_version_header_on_metadata: false,
        resource_parameter: true,
        client_id_metadata_documents: true,
        authorization_response_iss: true,
        offline_access: true,
        step_up_union: true,
        application_type: true,
    },
];

impl DiscoveryRules {
    /// The row of `revision`; an error for a revision without authorization (2024-11-05) or
    /// one this crate does not know.
    pub fn for_revision(revision: &ProtocolVersion) -> Result<&'static DiscoveryRules, AuthError> {
        RULES
            .iter()
            .find(|rules| rules.revision == *revision)
            .ok_or_else(|| AuthError::NoAuthorization {
                revision: revision.clone(),
            })
    }
}

/// The URLs to try for the protected resource metadata of the MCP server at `server_url`, in
/// order (RFC 9728 §3.1, §5.1; MCP authorization, "Protected Resource Metadata Discovery
/// Requirements", 2025-11-25 on; 2025-06-18 has servers send the challenge and leaves the
/// well-known URLs to RFC 9728):
///
/// 1. `challenge_url`, the `resource_metadata` of the server's `WWW-Authenticate` challenge;
/// 2. the well-known URI inserted before the server URL's path
///    (`https://example.com/.well-known/oauth-protected-resource/public/mcp`);
/// 3. the well-known URI at the root (`https://example.com/.well-known/oauth-protected-resource`).
///
/// A URL already listed is not repeated. The path-inserted URL keeps the query of
/// `server_url` (RFC 9728 §3.1 inserts "between the host component and the path and/or query
/// components"); neither keeps the fragment.
///
/// ```
/// use mcp_spec_types::auth::discovery::protected_resource_metadata_urls;
/// assert_eq!(
///     protected_resource_metadata_urls("https://example.com/public/mcp", None).unwrap(),
///     [
///         "https://example.com/.well-known/oauth-protected-resource/public/mcp",
///         "https://example.com/.well-known/oauth-protected-resource",
///     ],
/// );
/// ```
pub fn protected_resource_metadata_urls(
    server_url: &str,
    challenge_url: Option<&str>,
) -> Result<Vec<String>, AuthError> {
    let server = HttpUrl::parse(server_url, "server_url")?;
    let mut urls = Vec::with_capacity(3);
    if let Some(challenge_url) = challenge_url {
        HttpUrl::parse(challenge_url, "resource_metadata")?;
        urls.push(challenge_url.to_owned());
    }
    push_new(
        &mut urls,
        server.insert_well_known(OAUTH_PROTECTED_RESOURCE),
    );
    push_new(
        &mut urls,
        format!("{}/.well-known/{OAUTH_PROTECTED_RESOURCE}", server.origin()),
    );
    Ok(urls)
}

/// The URLs to try for the authorization server metadata, in the order of `revision`'s
/// authorization page ([`DiscoveryRules::authorization_server_metadata`]).
///
/// `issuer` is an entry of the protected resource metadata's `authorization_servers`; for
/// 2025-03-26, which has no protected resource metadata, it is the MCP server's URL, whose
/// path is discarded ([`MetadataBase::ServerOrigin`]). Without a path, insertion and appending
/// give the same OpenID URL, listed once.
pub fn authorization_server_metadata_urls(
    issuer: &str,
    revision: &ProtocolVersion,
) -> Result<Vec<String>, AuthError> {
    let rules = DiscoveryRules::for_revision(revision)?;
    let base = metadata_base(issuer, rules)?;
    let base = HttpUrl::parse(&base, "issuer")?;
    let mut urls = Vec::with_capacity(rules.authorization_server_metadata.len());
    for location in rules.authorization_server_metadata {
        push_new(&mut urls, location.url(&base));
    }
    Ok(urls)
}

/// The issuer identifier the metadata found at
/// [`authorization_server_metadata_urls`] must carry (RFC 8414 §3.3): `issuer` itself, or for
/// 2025-03-26 the authorization base URL derived from the MCP server's URL.
pub fn expected_issuer(issuer: &str, revision: &ProtocolVersion) -> Result<String, AuthError> {
    metadata_base(issuer, DiscoveryRules::for_revision(revision)?)
}

/// The authorization base URL of 2025-03-26 (Authorization, "Authorization Base URL"): the
/// MCP server's URL with its path (and query and fragment) discarded.
///
/// ```
/// use mcp_spec_types::auth::discovery::authorization_base_url;
/// assert_eq!(authorization_base_url("https://api.example.com/v1/mcp").unwrap(), "https://api.example.com");
/// ```
pub fn authorization_base_url(server_url: &str) -> Result<String, AuthError> {
    Ok(HttpUrl::parse(server_url, "server_url")?.origin())
}

/// The endpoints to use when the authorization server has no metadata, for a revision that
/// has them (2025-03-26, Authorization, "Fallbacks for Servers without Metadata Discovery":
/// `/authorize`, `/token` and `/register` at the authorization base URL, once the metadata
/// document was not found); `None` for the others, where metadata is required.
///
/// ```
/// use mcp_spec_types::auth::discovery::default_endpoints;
/// use mcp_spec_types::ProtocolVersion;
/// let endpoints = default_endpoints("https://api.example.com/v1/mcp", &ProtocolVersion::V2025_03_26).unwrap().unwrap();
/// assert_eq!(endpoints.token_endpoint, "https://api.example.com/token");
/// assert_eq!(default_endpoints("https://api.example.com/v1/mcp", &ProtocolVersion::V2025_06_18).unwrap(), None);
/// ```
pub fn default_endpoints(
    server_url: &str,
    revision: &ProtocolVersion,
) -> Result<Option<DefaultEndpoints>, AuthError> {
    let rules = DiscoveryRules::for_revision(revision)?;
    let Some(paths) = rules.default_endpoints else {
        return Ok(None);
    };
    let base = authorization_base_url(server_url)?;
    Ok(Some(DefaultEndpoints {
        authorization_endpoint: format!("{base}{}", paths.authorization),
        token_endpoint: format!("{base}{}", paths.token),
        registration_endpoint: format!("{base}{}", paths.registration),
    }))
}

fn metadata_base(issuer: &str, rules: &DiscoveryRules) -> Result<String, AuthError> {
    match rules.metadata_base {
        MetadataBase::Issuer => {
            HttpUrl::parse(issuer, "issuer")?;
            Ok(issuer.to_owned())
        }
        MetadataBase::ServerOrigin => authorization_base_url(issuer),
    }
}

fn push_new(urls: &mut Vec<String>, url: String) {
    if !urls.contains(&url) {
        urls.push(url);
    }
}
