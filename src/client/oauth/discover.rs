//! Discovery: the protected resource metadata (RFC 9728) and the authorization server's
//! metadata (RFC 8414, OpenID Connect Discovery), at the URLs the specification names.

use super::error::check;
use super::fetch::fetch;
use super::state::Found;
use super::{AuthorizeError, OAuth};
use crate::auth::{
    check_resource, discovery, issuer, resource_indicator, AuthorizationServerMetadata,
    ProtectedResourceMetadata,
};
use crate::prelude::*;
use crate::ProtocolVersion;
use reqwest::Method;

/// The revision whose discovery rules the client follows: the newest (a server without
/// protected resource metadata gets 2025-03-26's).
const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;

impl OAuth {
    /// Discovers the authorization server of the MCP server, starting from the challenge's
    /// `resource_metadata` when it has one.
    pub(super) async fn discover(
        &self,
        resource_metadata: Option<&str>,
    ) -> Result<Found, AuthorizeError> {
        let server_url = &self.config.server_url;
        match self.protected_resource_metadata(resource_metadata).await? {
            Some(prm) => {
                let issuer_url = (prm.authorization_servers.as_ref())
                    .and_then(|servers| servers.first())
                    .ok_or(AuthorizeError::NoAuthorizationServer)?;
                let expected = discovery::expected_issuer(issuer_url, &LATEST)
                    .map_err(check("authorization_servers"))?;
                let metadata = self
                    .find_metadata(issuer_url, &expected, &LATEST)
                    .await?
                    .ok_or_else(|| AuthorizeError::NoMetadata {
                        issuer: issuer_url.clone(),
                    })?;
                Ok(Found {
                    metadata,
                    resource: prm.resource.clone(),
                    prm: Some(prm),
                })
            }
            // No protected resource metadata: a 2025-03-26 server, whose authorization
            // server lives at its own origin.
            None => Ok(Found {
                metadata: self.legacy_metadata().await?,
                prm: None,
                resource: resource_indicator(server_url).map_err(check("server URL"))?,
            }),
        }
    }

    /// The protected resource metadata: at `from_challenge`, else at the well-known URLs,
    /// path-inserted first. Its `resource` must be the MCP server.
    async fn protected_resource_metadata(
        &self,
        from_challenge: Option<&str>,
    ) -> Result<Option<ProtectedResourceMetadata>, AuthorizeError> {
        let server_url = &self.config.server_url;
        let urls = discovery::protected_resource_metadata_urls(server_url, from_challenge)
            .map_err(check("resource_metadata"))?;
        for url in urls {
            let reply = fetch(&self.config.http, Method::GET, &url, &[], None).await?;
            if reply.status != 200 {
                continue;
            }
            let prm = ProtectedResourceMetadata::from_json(&reply.body).map_err(check(&url))?;
            // RFC 9728 §3.3: metadata about another resource is not used.
            check_resource(&prm, server_url).map_err(check(&url))?;
            return Ok(Some(prm));
        }
        Ok(None)
    }

    /// The authorization server of a 2025-03-26 server: its metadata at the server's origin,
    /// else the default endpoints there.
    async fn legacy_metadata(&self) -> Result<AuthorizationServerMetadata, AuthorizeError> {
        let revision = ProtocolVersion::V2025_03_26;
        let server_url = &self.config.server_url;
        let base =
            discovery::expected_issuer(server_url, &revision).map_err(check("server URL"))?;
        if let Some(metadata) = self.find_metadata(server_url, &base, &revision).await? {
            return Ok(metadata);
        }
        let endpoints = discovery::default_endpoints(server_url, &revision)
            .map_err(check("server URL"))?
            .ok_or_else(|| AuthorizeError::NoMetadata {
                issuer: base.clone(),
            })?;
        let mut metadata = AuthorizationServerMetadata::new(base);
        metadata.authorization_endpoint = Some(endpoints.authorization_endpoint);
        metadata.token_endpoint = Some(endpoints.token_endpoint);
        metadata.registration_endpoint = Some(endpoints.registration_endpoint);
        // 2025-03-26 requires PKCE of every client and server, advertised or not.
        metadata.code_challenge_methods_supported = Some(vec!["S256".to_owned()]);
        Ok(metadata)
    }

    /// The metadata at the first of `revision`'s well-known URLs for `issuer_url` that has it
    /// (RFC 8414's path-inserted URL, then OpenID Connect's); its `issuer` must be
    /// `expected` (RFC 8414 §3.3), or it is refused.
    async fn find_metadata(
        &self,
        issuer_url: &str,
        expected: &str,
        revision: &ProtocolVersion,
    ) -> Result<Option<AuthorizationServerMetadata>, AuthorizeError> {
        let urls = discovery::authorization_server_metadata_urls(issuer_url, revision)
            .map_err(check("authorization server"))?;
        for url in urls {
            let reply = fetch(&self.config.http, Method::GET, &url, &[], None).await?;
            if reply.status != 200 {
                continue;
            }
            let metadata =
                AuthorizationServerMetadata::from_json(&reply.body).map_err(check(&url))?;
            issuer::check_metadata_issuer(expected, &metadata).map_err(check(&url))?;
            return Ok(Some(metadata));
        }
        Ok(None)
    }
}
