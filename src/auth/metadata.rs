//! The metadata documents a client discovers: the protected resource's (RFC 9728) and the
//! authorization server's (RFC 8414, OpenID Connect Discovery 1.0).

use super::document::document;
use crate::prelude::*;

document! {
    /// OAuth 2.0 Protected Resource Metadata (RFC 9728 §2), served by an MCP server at
    /// `/.well-known/oauth-protected-resource` (see [`discovery`](super::discovery)).
    ///
    /// Every member of RFC 9728 §2 is a field; other members (and language-tagged
    /// `resource_name#…` variants) stay in `extra`. URLs are kept as written.
    ///
    /// ```
    /// use mcp_spec_types::auth::ProtectedResourceMetadata;
    /// let prm = ProtectedResourceMetadata::from_json(
    ///     r#"{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://as.example.com"]}"#,
    /// ).unwrap();
    /// assert_eq!(prm.authorization_servers.as_deref(), Some(&["https://as.example.com".to_string()][..]));
    /// ```
    #[derive(Debug)]
    pub struct ProtectedResourceMetadata("protected resource metadata") {
        /// `resource` (REQUIRED): the protected resource's identifier, an `https` URL without
        /// fragment (RFC 9728 §2); it must be identical to the URL the metadata was fetched
        /// for (§3.3).
        required resource: String,
        /// `authorization_servers`: issuer identifiers of the authorization servers that
        /// can be used with this resource (RFC 9728 §2; the MCP authorization pages make it
        /// required of MCP servers).
        optional authorization_servers: Vec<String>,
        /// `jwks_uri`: the URL of the resource's JSON Web Key Set (RFC 9728 §2).
        optional jwks_uri: String,
        /// `scopes_supported`: scope values used in authorization requests to access this
        /// resource (RFC 9728 §2).
        optional scopes_supported: Vec<String>,
        /// `bearer_methods_supported`: `header`, `body`, `query` (RFC 9728 §2, RFC 6750 §2).
        optional bearer_methods_supported: Vec<String>,
        /// `resource_signing_alg_values_supported`: JWS algorithms for signed responses
        /// (RFC 9728 §2).
        optional resource_signing_alg_values_supported: Vec<String>,
        /// `resource_name`: a human-readable name (RFC 9728 §2).
        optional resource_name: String,
        /// `resource_documentation`: a URL of documentation for developers (RFC 9728 §2).
        optional resource_documentation: String,
        /// `resource_policy_uri`: a URL about how the client may use the data (RFC 9728 §2).
        optional resource_policy_uri: String,
        /// `resource_tos_uri`: a URL of the terms of service (RFC 9728 §2).
        optional resource_tos_uri: String,
        /// `tls_client_certificate_bound_access_tokens` (RFC 9728 §2, RFC 8705).
        optional tls_client_certificate_bound_access_tokens: bool,
        /// `authorization_details_types_supported` (RFC 9728 §2, RFC 9396).
        optional authorization_details_types_supported: Vec<String>,
        /// `dpop_signing_alg_values_supported`: JWS algorithms accepted for DPoP proofs
        /// (RFC 9728 §2, RFC 9449).
        optional dpop_signing_alg_values_supported: Vec<String>,
        /// `dpop_bound_access_tokens_required` (RFC 9728 §2, RFC 9449).
        optional dpop_bound_access_tokens_required: bool,
        /// `signed_metadata`: a JWT asserting metadata values (RFC 9728 §2.2).
        optional signed_metadata: String,
    }
}

document! {
    /// OAuth 2.0 Authorization Server Metadata (RFC 8414 §2), with the OpenID Connect
    /// Discovery 1.0 §3 members a client uses, `authorization_response_iss_parameter_supported`
    /// (RFC 9207 §3), `client_id_metadata_document_supported` (the MCP client ID metadata
    /// documents draft) and `dpop_signing_alg_values_supported` (RFC 9449 §5.1).
    ///
    /// The same type reads an `openid-configuration` document: both share `issuer` and the
    /// endpoints (RFC 8414 §5). Before using it, check `issuer` against the URL it was fetched
    /// for ([`issuer::check_metadata_issuer`](super::issuer::check_metadata_issuer)).
    #[derive(Debug)]
    pub struct AuthorizationServerMetadata("authorization server metadata") {
        /// `issuer` (REQUIRED): the authorization server's issuer identifier, an `https` URL
        /// without query or fragment (RFC 8414 §2).
        required issuer: String,
        /// `authorization_endpoint` (RFC 8414 §2; RFC 6749 §3.1).
        optional authorization_endpoint: String,
        /// `token_endpoint` (RFC 8414 §2; RFC 6749 §3.2).
        optional token_endpoint: String,
        /// `jwks_uri` (RFC 8414 §2).
        optional jwks_uri: String,
        /// `registration_endpoint`: the dynamic client registration endpoint (RFC 8414 §2,
        /// RFC 7591 §3).
        optional registration_endpoint: String,
        /// `scopes_supported` (RFC 8414 §2).
        optional scopes_supported: Vec<String>,
        /// `response_types_supported`: REQUIRED by RFC 8414 §2 and OpenID Connect Discovery;
        /// optional here so that a server that leaves it out can still be used.
        optional response_types_supported: Vec<String>,
        /// `response_modes_supported` (RFC 8414 §2).
        optional response_modes_supported: Vec<String>,
        /// `grant_types_supported`; absent means `["authorization_code", "implicit"]`
        /// (RFC 8414 §2).
        optional grant_types_supported: Vec<String>,
        /// `token_endpoint_auth_methods_supported`; absent means `client_secret_basic`
        /// (RFC 8414 §2).
        optional token_endpoint_auth_methods_supported: Vec<String>,
        /// `token_endpoint_auth_signing_alg_values_supported` (RFC 8414 §2).
        optional token_endpoint_auth_signing_alg_values_supported: Vec<String>,
        /// `service_documentation` (RFC 8414 §2).
        optional service_documentation: String,
        /// `ui_locales_supported` (RFC 8414 §2).
        optional ui_locales_supported: Vec<String>,
        /// `op_policy_uri` (RFC 8414 §2).
        optional op_policy_uri: String,
        /// `op_tos_uri` (RFC 8414 §2).
        optional op_tos_uri: String,
        /// `revocation_endpoint` (RFC 8414 §2, RFC 7009).
        optional revocation_endpoint: String,
        /// `revocation_endpoint_auth_methods_supported` (RFC 8414 §2).
        optional revocation_endpoint_auth_methods_supported: Vec<String>,
        /// `revocation_endpoint_auth_signing_alg_values_supported` (RFC 8414 §2).
        optional revocation_endpoint_auth_signing_alg_values_supported: Vec<String>,
        /// `introspection_endpoint` (RFC 8414 §2, RFC 7662).
        optional introspection_endpoint: String,
        /// `introspection_endpoint_auth_methods_supported` (RFC 8414 §2).
        optional introspection_endpoint_auth_methods_supported: Vec<String>,
        /// `introspection_endpoint_auth_signing_alg_values_supported` (RFC 8414 §2).
        optional introspection_endpoint_auth_signing_alg_values_supported: Vec<String>,
        /// `code_challenge_methods_supported`: PKCE methods (RFC 8414 §2, RFC 7636); from
        /// 2025-11-25 an MCP client does not proceed when it is absent
        /// ([`supports_s256`](Self::supports_s256)).
        optional code_challenge_methods_supported: Vec<String>,
        /// `signed_metadata` (RFC 8414 §2.1).
        optional signed_metadata: String,
        /// `userinfo_endpoint` (OpenID Connect Discovery 1.0 §3).
        optional userinfo_endpoint: String,
        /// `subject_types_supported`: REQUIRED in an OpenID Provider's document (OpenID
        /// Connect Discovery 1.0 §3).
        optional subject_types_supported: Vec<String>,
        /// `id_token_signing_alg_values_supported`: REQUIRED in an OpenID Provider's document
        /// (OpenID Connect Discovery 1.0 §3).
        optional id_token_signing_alg_values_supported: Vec<String>,
        /// `claims_supported` (OpenID Connect Discovery 1.0 §3).
        optional claims_supported: Vec<String>,
        /// `authorization_response_iss_parameter_supported`: the server sends `iss` in every
        /// authorization response (RFC 9207 §3); absent means `false`.
        optional authorization_response_iss_parameter_supported: bool,
        /// `client_id_metadata_document_supported`: the server accepts an `https` URL as
        /// `client_id`, resolved to a [`ClientIdMetadataDocument`](super::ClientIdMetadataDocument)
        /// (MCP authorization, client ID metadata documents, from 2025-11-25).
        optional client_id_metadata_document_supported: bool,
        /// `dpop_signing_alg_values_supported`: JWS algorithms accepted for DPoP proofs
        /// (RFC 9449 §5.1).
        optional dpop_signing_alg_values_supported: Vec<String>,
        /// `protected_resources`: resource identifiers of the protected resources that can be
        /// used with this server (RFC 9728 §4).
        optional protected_resources: Vec<String>,
    }
}

impl ProtectedResourceMetadata {
    /// A document for `resource` with no other member.
    pub fn new(resource: impl Into<String>) -> Self {
        ProtectedResourceMetadata {
            resource: resource.into(),
            ..Default::default()
        }
    }
}

impl AuthorizationServerMetadata {
    /// A document for `issuer` with no other member.
    pub fn new(issuer: impl Into<String>) -> Self {
        AuthorizationServerMetadata {
            issuer: issuer.into(),
            ..Default::default()
        }
    }

    /// Whether the server supports PKCE with `S256` (`code_challenge_methods_supported`,
    /// RFC 8414 §2). From 2025-11-25 ("Authorization Code Protection"), a client refuses to
    /// proceed when the member is absent, since PKCE support cannot be known otherwise.
    pub fn supports_s256(&self) -> bool {
        self.code_challenge_methods_supported
            .as_ref()
            .is_some_and(|methods| methods.iter().any(|m| m == "S256"))
    }

    /// `grant_types_supported` with RFC 8414 §2's default when absent.
    pub fn supports_grant_type(&self, grant_type: &str) -> bool {
        match &self.grant_types_supported {
            Some(types) => types.iter().any(|t| t == grant_type),
            None => matches!(grant_type, "authorization_code" | "implicit"),
        }
    }

    /// `token_endpoint_auth_methods_supported` with RFC 8414 §2's default
    /// (`client_secret_basic`) when absent.
    pub fn supports_token_endpoint_auth_method(&self, method: &str) -> bool {
        match &self.token_endpoint_auth_methods_supported {
            Some(methods) => methods.iter().any(|m| m == method),
            None => method == "client_secret_basic",
        }
    }
}
