//! The client's identity at an authorization server: pre-registered, a client ID metadata
//! document, or registered dynamically (RFC 7591).

use super::fetch::fetch;
use super::settings::ClientIdentity;
use super::state::Registered;
use super::{AuthorizeError, OAuth};
use crate::auth::{AuthorizationServerMetadata, ClientInformation, ClientMetadata};
use crate::prelude::*;
use reqwest::header::CONTENT_TYPE;
use reqwest::Method;

/// How a client with a secret authenticates: the first of `client_secret_basic` and
/// `client_secret_post` the server supports; without a secret, `none`.
fn secret_method(metadata: &AuthorizationServerMetadata, has_secret: bool) -> String {
    let method = match has_secret {
        true => ["client_secret_basic", "client_secret_post"]
            .into_iter()
            .find(|m| metadata.supports_token_endpoint_auth_method(m))
            .unwrap_or("none"),
        false => "none",
    };
    method.to_owned()
}

impl OAuth {
    /// The client's identity at the server of `metadata`: the pre-registered one, else its
    /// metadata document's URL where the server takes those, else a new registration.
    pub(super) async fn identity(
        &self,
        metadata: &AuthorizationServerMetadata,
    ) -> Result<Registered, AuthorizeError> {
        let issuer = metadata.issuer.clone();
        if let Some(identity) = &self.config.client {
            let method = match identity.private_key {
                Some(_) => "private_key_jwt".to_owned(),
                None => secret_method(metadata, identity.secret.is_some()),
            };
            return Ok(Registered {
                issuer,
                identity: identity.clone(),
                method,
            });
        }
        match &self.config.metadata_document {
            Some(url) if metadata.client_id_metadata_document_supported == Some(true) => {
                Ok(Registered {
                    issuer,
                    identity: ClientIdentity::public(url.clone()),
                    method: "none".to_owned(),
                })
            }
            _ => self.register(metadata).await,
        }
    }

    /// Dynamic client registration (RFC 7591): a native client where its redirect URI is on
    /// the loopback, asking for the token endpoint authentication the server supports, `none`
    /// first.
    async fn register(
        &self,
        metadata: &AuthorizationServerMetadata,
    ) -> Result<Registered, AuthorizeError> {
        let endpoint =
            (metadata.registration_endpoint.as_deref()).ok_or(AuthorizeError::NoClient)?;
        let method = ["none", "client_secret_basic", "client_secret_post"]
            .into_iter()
            .find(|m| metadata.supports_token_endpoint_auth_method(m))
            .unwrap_or("client_secret_basic");
        let request = ClientMetadata {
            redirect_uris: Some(vec![self.config.redirect_uri.clone()]),
            token_endpoint_auth_method: Some(method.to_owned()),
            grant_types: Some(vec![
                "authorization_code".to_owned(),
                "refresh_token".to_owned(),
            ]),
            response_types: Some(vec!["code".to_owned()]),
            client_name: Some(self.config.client_name.clone()),
            // SEP-837: a redirect URI on the loopback is a native application's.
            application_type: Some(application_type(&self.config.redirect_uri).to_owned()),
            ..ClientMetadata::default()
        };
        let body = serde_json::to_string(&request).map_err(|e| AuthorizeError::Transport {
            url: endpoint.to_owned(),
            reason: e.to_string(),
        })?;
        let headers = [(CONTENT_TYPE.as_str(), "application/json".to_owned())];
        let reply = fetch(
            &self.config.http,
            Method::POST,
            endpoint,
            &headers,
            Some(body),
        )
        .await?;
        if reply.status != 201 && reply.status != 200 {
            return Err(reply.refused(endpoint));
        }
        let registered =
            ClientInformation::from_json(&reply.body).map_err(super::error::check(endpoint))?;
        let method = registered
            .metadata
            .token_endpoint_auth_method
            .clone()
            .unwrap_or_else(|| match registered.client_secret {
                Some(_) if method != "none" => method.to_owned(),
                _ => "none".to_owned(),
            });
        Ok(Registered {
            issuer: metadata.issuer.clone(),
            identity: ClientIdentity {
                client_id: registered.client_id,
                secret: registered.client_secret,
                private_key: None,
            },
            method,
        })
    }
}

/// `web` for an `https` redirect URI (a web server's); else `native` (a loopback or a
/// private scheme: an application on the user's device).
fn application_type(redirect_uri: &str) -> &'static str {
    match redirect_uri.starts_with("https://") {
        true => "web",
        false => "native",
    }
}
