//! Token requests (RFC 6749 §3.2): the client authenticated as it registered, with a DPoP
//! proof where tokens are bound (RFC 9449 §5), sent again with the nonce the server asks for.

use super::dpop::{Dpop, DPOP, DPOP_NONCE, MAX_NONCE_RETRIES};
use super::error::check;
use super::fetch::post_form;
use super::jose::client_assertion;
use super::state::Registered;
use super::{AuthorizeError, OAuth};
use crate::auth::{form, AuthorizationServerMetadata, OAuthError, OAuthErrorCode, TokenResponse};
use crate::prelude::*;
use base64::Engine;
use reqwest::header::AUTHORIZATION;

impl OAuth {
    /// A token request to the server of `metadata` with `body`, the client authenticated as
    /// `client` registered; with `dpop`, bound to its key.
    pub(super) async fn token_request(
        &self,
        metadata: &AuthorizationServerMetadata,
        client: &Registered,
        body: &[(&str, &str)],
        dpop: Option<&Dpop>,
    ) -> Result<TokenResponse, AuthorizeError> {
        let endpoint = (metadata.token_endpoint.as_deref())
            .ok_or(AuthorizeError::MissingEndpoint("token_endpoint"))?;
        let identity = &client.identity;
        let mut headers = Vec::new();
        let mut extra: Vec<(&str, String)> = Vec::new();
        match (client.method.as_str(), &identity.secret) {
            // RFC 6749 §2.3.1: both parts form-encoded before they are joined.
            ("client_secret_basic", Some(secret)) => {
                let pair = format!(
                    "{}:{}",
                    form::encode_component(&identity.client_id),
                    form::encode_component(secret)
                );
                let encoded = base64::engine::general_purpose::STANDARD.encode(pair);
                headers.push((AUTHORIZATION.as_str(), format!("Basic {encoded}")));
            }
            ("client_secret_post", Some(secret)) => {
                extra.push(("client_id", identity.client_id.clone()));
                extra.push(("client_secret", secret.clone()));
            }
            // RFC 7523 §2.2, the audience being the issuer (RFC 7523bis).
            ("private_key_jwt", _) => {
                let (pem, algorithm) = (identity.private_key.as_ref())
                    .ok_or_else(|| AuthorizeError::Signing("no private key".into()))?;
                let assertion =
                    client_assertion(pem, algorithm, &identity.client_id, &metadata.issuer)?;
                extra.push(("client_id", identity.client_id.clone()));
                extra.push((
                    "client_assertion_type",
                    "urn:ietf:params:oauth:client-assertion-type:jwt-bearer".to_owned(),
                ));
                extra.push(("client_assertion", assertion));
            }
            _ => extra.push(("client_id", identity.client_id.clone())),
        }
        let mut all: Vec<(&str, &str)> = body.to_vec();
        all.extend(extra.iter().map(|(n, v)| (*n, v.as_str())));
        let token = self.post_token(endpoint, headers, &all, dpop).await?;
        // A DPoP-bound token only when a proof was sent for it (RFC 9449 §5).
        let bound = dpop.is_some() && token.token_type.eq_ignore_ascii_case("dpop");
        if !bound && !token.token_type.eq_ignore_ascii_case("bearer") {
            return Err(AuthorizeError::TokenType(token.token_type));
        }
        Ok(token)
    }

    /// POSTs a form to a token endpoint and reads the token response; with `dpop`, each
    /// request carries a proof, sent again with the nonce the server asks for (RFC 9449 §8).
    pub(super) async fn post_token(
        &self,
        endpoint: &str,
        headers: Vec<(&str, String)>,
        body: &[(&str, &str)],
        dpop: Option<&Dpop>,
    ) -> Result<TokenResponse, AuthorizeError> {
        let mut nonce: Option<String> = None;
        let mut attempt = 0;
        let reply = loop {
            attempt += 1;
            let mut sent = headers.clone();
            if let Some(dpop) = dpop {
                let proof = dpop.key.proof("POST", endpoint, None, nonce.as_deref())?;
                sent.push((DPOP, proof));
            }
            let reply = post_form(&self.config.http, endpoint, sent, body).await?;
            let asks_nonce = reply.status == 400
                && OAuthError::from_json(&reply.body)
                    .is_ok_and(|e| e.error == OAuthErrorCode::UseDpopNonce);
            match reply.header(DPOP_NONCE) {
                Some(next) if dpop.is_some() && asks_nonce && attempt <= MAX_NONCE_RETRIES => {
                    nonce = Some(next.to_owned());
                }
                _ => break reply,
            }
        };
        if reply.status != 200 {
            return Err(reply.refused(endpoint));
        }
        TokenResponse::from_json(&reply.body).map_err(check(endpoint))
    }
}
