//! What the provider keeps between requests, and how it answers a challenge: a DPoP nonce,
//! a token another request got meanwhile, a refresh, or a new authorization.

use super::dpop::{Dpop, MAX_NONCE_RETRIES};
use super::grant::Ask;
use super::state::State;
use super::{AuthorizeError, OAuth};
use crate::auth::{add_offline_access, select_scope, step_up_scope, Challenge, TokenResponse};
use crate::prelude::*;
use std::sync::Arc;

/// Authorizations one request may cost before the provider gives up: the first challenge,
/// and two step-ups after it (the authorization page: clients SHOULD limit retries so a
/// server that never accepts does not loop them).
pub(super) const MAX_AUTHORIZATIONS: usize = 3;

/// A refusal that asks for authorization.
pub(super) struct Challenged {
    pub status: u16,
    /// The response's Bearer or DPoP challenge, when it has one that parses.
    pub challenge: Option<Challenge>,
    /// The `DPoP-Nonce` the server asks proofs to carry (RFC 9449 §9).
    pub nonce: Option<String>,
}

/// What a request carries to show it is authorized.
#[derive(Clone)]
pub(super) struct Credential {
    pub access_token: String,
    /// The key a DPoP-bound token is bound to (RFC 9449); `None` for a Bearer token.
    pub dpop: Option<Arc<Dpop>>,
}

/// The authorizations one request has cost so far.
#[derive(Default)]
pub(super) struct Round {
    authorizations: usize,
    /// Retries with a new DPoP nonce (RFC 9449 §9).
    nonces: usize,
}

impl OAuth {
    /// What the next request carries, when the store holds a token.
    pub(super) async fn credential(&self) -> Option<Credential> {
        let tokens = self.config.store.load()?;
        let dpop = match tokens.token_type.eq_ignore_ascii_case("dpop") {
            true => self.state.lock().await.dpop.clone(),
            false => None,
        };
        Some(Credential {
            access_token: tokens.access_token,
            dpop,
        })
    }

    /// Answers a challenge to a request sent with `sent`: a DPoP nonce is taken; a token
    /// another request got meanwhile is tried; else a 401 refreshes the token where it can,
    /// and anything else authorizes again, at most [`MAX_AUTHORIZATIONS`] times a request.
    pub(super) async fn answer(
        &self,
        round: &mut Round,
        challenged: Challenged,
        sent: Option<&Credential>,
    ) -> Result<(), AuthorizeError> {
        let challenge = challenged.challenge.as_ref();
        // A DPoP nonce asked for (RFC 9449 §9): the same token, with a proof carrying it.
        let wants_nonce = challenge.is_some_and(|c| c.error() == Some("use_dpop_nonce"));
        if let (true, Some(nonce), Some(dpop)) = (
            wants_nonce,
            challenged.nonce.clone(),
            sent.and_then(|c| c.dpop.as_ref()),
        ) {
            if round.nonces >= MAX_NONCE_RETRIES {
                return Err(AuthorizeError::DpopNonce);
            }
            round.nonces += 1;
            dpop.set_nonce(nonce);
            return Ok(());
        }
        let mut state = self.state.lock().await;
        let held = self.config.store.load();
        let sent_token = sent.map(|c| c.access_token.as_str());
        if held
            .as_ref()
            .is_some_and(|t| Some(t.access_token.as_str()) != sent_token)
        {
            return Ok(());
        }
        if round.authorizations >= MAX_AUTHORIZATIONS {
            return Err(AuthorizeError::GaveUp {
                status: challenged.status,
                authorizations: round.authorizations,
            });
        }
        round.authorizations += 1;
        // A token that expired is refreshed (RFC 6749 §6); a step-up (403) needs a new
        // grant, since a refresh cannot widen the scope.
        let refresh_token = held.as_ref().and_then(|t| t.refresh_token.clone());
        if let (401, Some(refresh_token)) = (challenged.status, refresh_token) {
            match self.refreshed(&mut state, &refresh_token).await {
                Ok(Some(mut tokens)) => {
                    // A refresh response without a refresh token keeps the old one.
                    tokens.refresh_token.get_or_insert(refresh_token);
                    self.config.store.save(Some(tokens));
                    return Ok(());
                }
                // Refused or not possible: the tokens are dropped, and a new grant tried.
                Ok(None) | Err(_) => self.config.store.save(None),
            }
        }
        let tokens = self.authorize(&mut state, &challenged).await?;
        self.config.store.save(Some(tokens));
        Ok(())
    }

    /// A refresh at the server the tokens held came from; `None` when none is known.
    async fn refreshed(
        &self,
        state: &mut State,
        refresh_token: &str,
    ) -> Result<Option<TokenResponse>, AuthorizeError> {
        let Some(found) = &state.found else {
            return Ok(None);
        };
        let Some(client) = state
            .clients
            .iter()
            .find(|c| c.issuer == found.metadata.issuer)
        else {
            return Ok(None);
        };
        let ask = Ask {
            metadata: &found.metadata,
            client,
            resource: &found.resource,
            scope: "",
            dpop: state
                .dpop
                .as_deref()
                .filter(|_| dpop_offered(&found.metadata)),
        };
        self.refresh(&ask, refresh_token).await.map(Some)
    }

    /// One authorization, from discovery to token.
    async fn authorize(
        &self,
        state: &mut State,
        challenged: &Challenged,
    ) -> Result<TokenResponse, AuthorizeError> {
        let challenge = challenged.challenge.as_ref();
        let resource_metadata = challenge.and_then(Challenge::resource_metadata);
        let found = match (&state.found, resource_metadata) {
            // A step-up whose challenge names no metadata goes to the server of the token
            // it steps up from (a 403 need not repeat `resource_metadata`).
            (Some(found), None) if challenged.status == 403 => found.clone(),
            _ => self.discover(resource_metadata).await?,
        };
        let scope = match challenge {
            // A step-up keeps what was asked for before and adds what the challenge names.
            Some(challenge) if challenged.status == 403 => step_up_scope(
                challenge,
                Some(state.scopes.join(" ").as_str()).filter(|s| !s.is_empty()),
            ),
            _ => select_scope(challenge, found.prm.as_ref()),
        };
        // A refresh token is asked for where the authorization server offers one (only
        // alongside a scope the resource asked for: no scope at all stays no scope).
        let scope = scope.and_then(|s| add_offline_access(Some(&s), &found.metadata));
        let scope = scope.unwrap_or_default();

        let issuer = found.metadata.issuer.clone();
        let client = match state.clients.iter().find(|c| c.issuer == issuer) {
            Some(known) => known.clone(),
            None => {
                let client = self.identity(&found.metadata).await?;
                state.clients.push(client.clone());
                client
            }
        };
        // RFC 9449 §5.1: a server that lists the proof algorithms it takes binds tokens to a
        // key; this client signs ES256.
        if dpop_offered(&found.metadata) && state.dpop.is_none() {
            state.dpop = Some(Arc::new(Dpop::generate()?));
        }
        let dpop = state.dpop.clone().filter(|_| dpop_offered(&found.metadata));
        let ask = Ask {
            metadata: &found.metadata,
            client: &client,
            resource: &found.resource,
            scope: &scope,
            dpop: dpop.as_deref(),
        };
        let tokens = self.grant(&ask).await?;
        state.scopes = scope
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        state.found = Some(found);
        Ok(tokens)
    }
}

/// Whether the server of `metadata` takes ES256 DPoP proofs.
fn dpop_offered(metadata: &crate::auth::AuthorizationServerMetadata) -> bool {
    (metadata.dpop_signing_alg_values_supported.as_ref())
        .is_some_and(|algs| algs.iter().any(|a| a == "ES256"))
}
