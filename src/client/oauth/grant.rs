//! The grants: which one a token is asked for with, and each one's request.

use super::dpop::Dpop;
use super::error::check;
use super::fetch::without_query;
use super::jose::{base64url, random};
use super::settings::Grant;
use super::state::Registered;
use super::{AuthorizeError, OAuth};
use crate::auth::{
    AuthorizationResponse, AuthorizationServerMetadata, PkceChallenge, PkceVerifier, TokenResponse,
};
use crate::prelude::*;

/// The JWT bearer grant type (RFC 7523 §2.1).
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// What one token request is for.
pub(super) struct Ask<'a> {
    pub metadata: &'a AuthorizationServerMetadata,
    pub client: &'a Registered,
    pub resource: &'a str,
    pub scope: &'a str,
    pub dpop: Option<&'a Dpop>,
}

impl Ask<'_> {
    /// `pairs`, with the resource indicator and a scope when there is one.
    fn with_common<'b>(&'b self, mut pairs: Vec<(&'b str, &'b str)>) -> Vec<(&'b str, &'b str)> {
        pairs.push(("resource", self.resource));
        if !self.scope.is_empty() {
            pairs.push(("scope", self.scope));
        }
        pairs
    }
}

impl OAuth {
    /// A token by the grant configured, as the server of `ask` offers it.
    pub(super) async fn grant(&self, ask: &Ask<'_>) -> Result<TokenResponse, AuthorizeError> {
        let metadata = ask.metadata;
        let jwt = metadata.supports_grant_type(JWT_BEARER);
        match &self.config.grant {
            Grant::JwtBearer(assertion) if jwt => self.jwt_bearer(ask, assertion).await,
            Grant::IdJag {
                idp_token_endpoint,
                id_token,
                idp_client_id,
            } if jwt => {
                let assertion = self
                    .id_jag(ask, idp_token_endpoint, id_token, idp_client_id.as_deref())
                    .await?;
                self.jwt_bearer(ask, &assertion).await
            }
            Grant::ClientCredentials => self.client_credentials(ask).await,
            _ if !metadata.supports_grant_type("authorization_code")
                && metadata.supports_grant_type("client_credentials")
                && self.config.client.is_some() =>
            {
                self.client_credentials(ask).await
            }
            _ => self.authorization_code(ask).await,
        }
    }

    /// The authorization code grant with PKCE (OAuth 2.1 §4.1): the authorization request
    /// through the browser, its redirect read back (`state` and `iss` checked), and the code
    /// exchanged for a token.
    async fn authorization_code(&self, ask: &Ask<'_>) -> Result<TokenResponse, AuthorizeError> {
        let metadata = ask.metadata;
        // The authorization page: clients MUST refuse to proceed without S256 PKCE support.
        if !metadata.supports_s256() {
            return Err(AuthorizeError::NoPkce {
                issuer: metadata.issuer.clone(),
            });
        }
        let browser = (self.config.browser.as_ref()).ok_or(AuthorizeError::NoBrowser)?;
        let endpoint = (metadata.authorization_endpoint.as_deref())
            .ok_or(AuthorizeError::MissingEndpoint("authorization_endpoint"))?;
        let verifier = PkceVerifier::from_random_bytes(&random::<32>()?);
        let challenge = PkceChallenge::s256(&verifier);
        let state = base64url(&random::<32>()?);
        let redirect_uri = self.config.redirect_uri.as_str();
        let query = ask.with_common(vec![
            ("response_type", "code"),
            ("client_id", ask.client.identity.client_id.as_str()),
            ("redirect_uri", redirect_uri),
            ("code_challenge", challenge.as_str()),
            ("code_challenge_method", challenge.method()),
            ("state", state.as_str()),
        ]);
        let separator = if endpoint.contains('?') { '&' } else { '?' };
        let url = format!("{endpoint}{separator}{}", crate::auth::form::encode(query));
        let back = browser
            .authorize(url)
            .await
            .map_err(AuthorizeError::Browser)?;
        let code = authorization_response(&back, redirect_uri, &state, metadata)?;
        let body = ask.with_common(vec![
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", redirect_uri),
            ("code_verifier", verifier.as_str()),
        ]);
        let body: Vec<_> = body.into_iter().filter(|(n, _)| *n != "scope").collect();
        self.token_request(metadata, ask.client, &body, ask.dpop)
            .await
    }

    /// The client credentials grant (OAuth 2.1 §4.2).
    async fn client_credentials(&self, ask: &Ask<'_>) -> Result<TokenResponse, AuthorizeError> {
        let body = ask.with_common(vec![("grant_type", "client_credentials")]);
        self.token_request(ask.metadata, ask.client, &body, ask.dpop)
            .await
    }

    /// The JWT bearer grant (RFC 7523 §2.1) with `assertion`. A refusal is final.
    async fn jwt_bearer(
        &self,
        ask: &Ask<'_>,
        assertion: &str,
    ) -> Result<TokenResponse, AuthorizeError> {
        let body = ask.with_common(vec![("grant_type", JWT_BEARER), ("assertion", assertion)]);
        self.token_request(ask.metadata, ask.client, &body, ask.dpop)
            .await
    }

    /// An ID-JAG for the authorization server of `ask`, from the identity provider's token
    /// exchange (RFC 8693 §2.1) of the user's ID token.
    async fn id_jag(
        &self,
        ask: &Ask<'_>,
        idp_token_endpoint: &str,
        id_token: &str,
        idp_client_id: Option<&str>,
    ) -> Result<String, AuthorizeError> {
        let mut body = ask.with_common(vec![
            (
                "grant_type",
                "urn:ietf:params:oauth:grant-type:token-exchange",
            ),
            (
                "requested_token_type",
                "urn:ietf:params:oauth:token-type:id-jag",
            ),
            ("subject_token", id_token),
            (
                "subject_token_type",
                "urn:ietf:params:oauth:token-type:id_token",
            ),
            ("audience", ask.metadata.issuer.as_str()),
        ]);
        if let Some(id) = idp_client_id {
            body.push(("client_id", id));
        }
        let token = self
            .post_token(idp_token_endpoint, Vec::new(), &body, None)
            .await?;
        Ok(token.access_token)
    }

    /// A refresh (RFC 6749 §6) of `refresh_token`, for the scope asked before.
    pub(super) async fn refresh(
        &self,
        ask: &Ask<'_>,
        refresh_token: &str,
    ) -> Result<TokenResponse, AuthorizeError> {
        // The scope is left out: a refresh grants what was granted (RFC 6749 §6).
        let body = [
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
            ("resource", ask.resource),
        ];
        self.token_request(ask.metadata, ask.client, &body, ask.dpop)
            .await
    }
}

/// The code of the authorization response `back` (the redirect URL, or its query), once
/// checked (OAuth 2.1 §4.1.2): the redirect leads back to `redirect_uri`, `iss` is the
/// server's when present or advertised (RFC 9207 §2.4), and `state` is the one sent.
pub(super) fn authorization_response(
    back: &str,
    redirect_uri: &str,
    state: &str,
    metadata: &AuthorizationServerMetadata,
) -> Result<String, AuthorizeError> {
    let response = match back.contains("://") {
        true => AuthorizationResponse::from_redirect_to(back, redirect_uri)
            .map_err(check(without_query(redirect_uri)))?,
        false => AuthorizationResponse::from_query(back.trim_start_matches('?')),
    };
    (response.check(state, metadata))
        .map(str::to_owned)
        .map_err(check("authorization response"))
}
