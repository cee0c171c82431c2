//! The client's side of MCP authorization: a request the server refuses with a challenge (401,
//! or 403 `insufficient_scope`) is answered by discovering the protected resource metadata and
//! the authorization server's, getting a client identity there (pre-registered, a client ID
//! metadata document, or dynamic registration), and an access token (authorization code with
//! PKCE; or, where the server has no authorization code grant, the grant the suite's context
//! equips the client for: client credentials, a workload JWT, an enterprise ID-JAG), bound to a
//! DPoP key where the server binds tokens; the request is then sent again with the token.
//! Every document is read and written with the crate's `auth` types.
//!
//! Tokens, client secrets, codes and PKCE verifiers never appear in the log or in an error.

use crate::jose;
use crate::transport::{fetch, Reply};
use base64::Engine;
use hyper::body::Incoming;
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, LOCATION, WWW_AUTHENTICATE};
use hyper::{Method, Response};
use mcp_spec_types::auth::{
    self, add_offline_access, check_resource, discovery, issuer, resource_indicator, select_scope,
    step_up_scope, AuthorizationResponse, AuthorizationServerMetadata, Challenge,
    ClientInformation, ClientMetadata, OAuthError, OAuthErrorCode, PkceChallenge, PkceVerifier,
    ProtectedResourceMetadata, TokenResponse, WwwAuthenticate,
};
use mcp_spec_types::ProtocolVersion;
use serde_json::{Map, Value};
use std::sync::Arc;
use tokio::sync::Mutex;

/// Where the authorization server sends the browser back. Nothing listens there: the test
/// authorization server redirects at once, and the client reads the redirect's `Location`.
const REDIRECT_URI: &str = "http://localhost:3000/callback";
/// The client's metadata document, as its `client_id` where the authorization server takes
/// client ID metadata documents (the suite's fixed URL: it never resolves).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";
const CLIENT_NAME: &str = "mcp-spec-types-conformance-client";
/// Authorizations one request may cost before the client gives up: the first challenge, and
/// two step-ups after it (the authorization page's scope challenge handling: clients SHOULD
/// limit retries so a server that never accepts does not loop them).
const MAX_AUTHORIZATIONS: usize = 3;
/// The JWT bearer grant type (RFC 7523 §2.1).
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// The revision whose discovery rules the client follows: the newest it speaks (a server
/// without protected resource metadata gets 2025-03-26's).
const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;

/// A refusal that asks for authorization.
pub struct Challenged {
    status: u16,
    /// The response's Bearer or DPoP challenge, when it has one that parses.
    challenge: Option<Challenge>,
    /// The `DPoP-Nonce` the server asks proofs to carry (RFC 9449 §9).
    nonce: Option<String>,
}

impl Challenged {
    /// The challenge of `response`: any 401, and a 403 whose Bearer challenge says
    /// `insufficient_scope` (another 403 is the server's final word).
    pub fn of(response: &Response<Incoming>) -> Option<Self> {
        let status = response.status().as_u16();
        if status != 401 && status != 403 {
            return None;
        }
        let values: Vec<&str> = response
            .headers()
            .get_all(WWW_AUTHENTICATE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect();
        let challenge = match WwwAuthenticate::parse(&values.join(", ")) {
            Ok(header) => header
                .challenges
                .into_iter()
                .find(|c| c.is_scheme("Bearer") || c.is_scheme("DPoP")),
            Err(e) => {
                eprintln!("oauth: unreadable WWW-Authenticate ({e}): discovering without it");
                None
            }
        };
        let insufficient = challenge
            .as_ref()
            .is_some_and(|c| c.error() == Some("insufficient_scope"));
        let nonce = dpop_nonce(response.headers());
        (status == 401 || insufficient).then_some(Challenged {
            status,
            challenge,
            nonce,
        })
    }
}

/// What a request carries to show it is authorized.
#[derive(Clone)]
pub struct Credential {
    access_token: String,
    /// The key a DPoP-bound token is bound to (RFC 9449); `None` for a Bearer token.
    dpop: Option<Arc<Dpop>>,
}

impl Credential {
    /// The request headers that present the token: `Bearer` (RFC 6750 §2.1), or `DPoP` with
    /// a fresh proof for this request (RFC 9449 §7.1).
    pub fn headers(&self, method: &Method, url: &str) -> Result<Vec<(String, String)>, String> {
        let Some(dpop) = &self.dpop else {
            return Ok(vec![(
                AUTHORIZATION.to_string(),
                format!("Bearer {}", self.access_token),
            )]);
        };
        let nonce = dpop.resource_nonce();
        let proof = dpop.key.proof(
            method.as_str(),
            url,
            Some(&self.access_token),
            nonce.as_deref(),
        )?;
        Ok(vec![
            (
                AUTHORIZATION.to_string(),
                format!("DPoP {}", self.access_token),
            ),
            (DPOP.to_owned(), proof),
        ])
    }

    fn is(&self, other: Option<&Credential>) -> bool {
        other.is_some_and(|o| o.access_token == self.access_token)
    }
}

/// The authorizations one request has cost so far.
pub struct Round {
    authorizations: usize,
    /// Retries with a new DPoP nonce (RFC 9449 §9).
    nonces: usize,
}

/// The name of the DPoP proof header (RFC 9449 §4.1).
const DPOP: &str = "dpop";
/// Retries of one request with a nonce the server hands out: one is what a server that wants
/// nonces needs; a server that keeps changing them is not followed.
const MAX_NONCE_RETRIES: usize = 2;

/// A DPoP key and the nonce the MCP server last gave for it.
pub struct Dpop {
    key: jose::DpopKey,
    resource_nonce: std::sync::Mutex<Option<String>>,
}

impl Dpop {
    fn resource_nonce(&self) -> Option<String> {
        self.resource_nonce
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn set_resource_nonce(&self, nonce: String) {
        *self
            .resource_nonce
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = Some(nonce);
    }
}

/// The `DPoP-Nonce` header's value.
fn dpop_nonce(headers: &hyper::HeaderMap) -> Option<String> {
    headers
        .get("dpop-nonce")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// A client identity at one authorization server.
#[derive(Clone)]
struct Client {
    /// The issuer it belongs to: an identity is never shown to another server.
    issuer: String,
    client_id: String,
    client_secret: Option<String>,
    /// The PEM private key and JWS algorithm of `private_key_jwt`.
    private_key: Option<(String, String)>,
    /// How it authenticates at the token endpoint (RFC 7591 §2).
    method: String,
    /// Its DPoP key where the server binds tokens to one (RFC 9449 §5).
    dpop: Option<Arc<Dpop>>,
}

#[derive(Default)]
struct State {
    credential: Option<Credential>,
    /// The client's DPoP key, made when a server first asks for DPoP.
    dpop: Option<Arc<Dpop>>,
    /// The scopes asked for so far: a step-up asks for them and the new ones (the union).
    scopes: Vec<String>,
    clients: Vec<Client>,
}

/// Gets and keeps the access tokens of one MCP server.
pub struct Authorizer {
    /// The MCP server's URL (the protected resource).
    server_url: String,
    /// What the suite's `MCP_CONFORMANCE_CONTEXT` hands over (pre-registered credentials).
    context: Map<String, Value>,
    state: Mutex<State>,
}

impl Authorizer {
    /// The authorizer of the MCP server at `server_url`, with what the suite's context gives.
    pub fn new(server_url: &str) -> Self {
        let context = std::env::var("MCP_CONFORMANCE_CONTEXT")
            .ok()
            .and_then(|c| serde_json::from_str(&c).ok())
            .unwrap_or_default();
        Authorizer {
            server_url: server_url.to_owned(),
            context,
            state: Mutex::new(State::default()),
        }
    }

    /// The count of one request's authorizations.
    pub fn round(&self) -> Round {
        Round {
            authorizations: 0,
            nonces: 0,
        }
    }

    /// What the next request carries, when the client holds a token.
    pub async fn credential(&self) -> Option<Credential> {
        self.state.lock().await.credential.clone()
    }

    /// The server took a request sent with `credential`.
    pub async fn accepted(&self, response: &Response<Incoming>, credential: Option<&Credential>) {
        // A server may hand out the next nonce with any answer (RFC 9449 §8, §9).
        if let (Some(nonce), Some(dpop)) = (
            dpop_nonce(response.headers()),
            credential.and_then(|c| c.dpop.as_ref()),
        ) {
            dpop.set_resource_nonce(nonce);
        }
    }

    /// Answers a challenge to a request sent with `sent`: authorizes again, unless another
    /// request did meanwhile (its token is tried first) or this request has cost
    /// [`MAX_AUTHORIZATIONS`] already.
    pub async fn answer(
        &self,
        round: &mut Round,
        challenged: Challenged,
        sent: Option<&Credential>,
    ) -> Result<(), String> {
        // A DPoP nonce asked for (RFC 9449 §9): the same token, with a proof carrying it.
        let wants_nonce = challenged
            .challenge
            .as_ref()
            .is_some_and(|c| c.error() == Some("use_dpop_nonce"));
        if let (true, Some(nonce), Some(dpop)) = (
            wants_nonce,
            challenged.nonce.clone(),
            sent.and_then(|c| c.dpop.as_ref()),
        ) {
            if round.nonces >= MAX_NONCE_RETRIES {
                return Err("the server keeps asking for a new DPoP nonce: giving up".to_owned());
            }
            round.nonces += 1;
            dpop.set_resource_nonce(nonce);
            return Ok(());
        }
        let mut state = self.state.lock().await;
        if state.credential.as_ref().is_some_and(|c| !c.is(sent)) {
            return Ok(());
        }
        if round.authorizations >= MAX_AUTHORIZATIONS {
            return Err(format!(
                "HTTP {} after {MAX_AUTHORIZATIONS} authorizations: giving up",
                challenged.status
            ));
        }
        round.authorizations += 1;
        let credential = self.authorize(&mut state, &challenged).await?;
        state.credential = Some(credential);
        Ok(())
    }

    /// One authorization, from discovery to token.
    async fn authorize(
        &self,
        state: &mut State,
        challenged: &Challenged,
    ) -> Result<Credential, String> {
        let challenge = challenged.challenge.as_ref();
        eprintln!(
            "oauth: HTTP {} ({}): authorizing",
            challenged.status,
            challenge.map_or("no challenge".to_owned(), |c| c.to_string())
        );
        let found = self
            .protected_resource_metadata(challenge.and_then(Challenge::resource_metadata))
            .await?;
        let (metadata, prm) = match found {
            Some(prm) => {
                let issuer_url = prm
                    .authorization_servers
                    .as_ref()
                    .and_then(|servers| servers.first())
                    .ok_or("the protected resource metadata names no authorization server")?;
                (
                    authorization_server_metadata(issuer_url, &LATEST).await?,
                    Some(prm),
                )
            }
            // No protected resource metadata: a 2025-03-26 server, whose authorization
            // server lives at its own origin.
            None => (self.legacy_metadata().await?, None),
        };
        // The resource indicator: the metadata's `resource` exactly as published (RFC 9728
        // §3.3 compares identifiers as text: a re-serialized URL may gain a `/`), else the
        // server's canonical URI.
        let resource = match &prm {
            Some(prm) => prm.resource.clone(),
            None => resource_indicator(&self.server_url).map_err(|e| e.to_string())?,
        };

        let scope = match challenge {
            // A step-up keeps what was asked for before and adds what the challenge names.
            Some(challenge) if challenged.status == 403 => step_up_scope(
                challenge,
                Some(state.scopes.join(" ").as_str()).filter(|s| !s.is_empty()),
            ),
            _ => select_scope(challenge, prm.as_ref()),
        };
        // A refresh token is asked for where the authorization server offers one (only
        // alongside a scope the resource asked for: no scope at all stays no scope).
        let scope = match scope {
            Some(scope) => add_offline_access(Some(&scope), &metadata),
            None => None,
        };
        let scopes: Vec<String> = scope
            .iter()
            .flat_map(|s| s.split(' '))
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();

        let mut client = self.client(state, &metadata).await?;
        // RFC 9449 §5.1: a server that lists the proof algorithms it takes binds tokens to a
        // key; this client signs ES256.
        if metadata
            .dpop_signing_alg_values_supported
            .as_ref()
            .is_some_and(|algs| algs.iter().any(|a| a == "ES256"))
        {
            if state.dpop.is_none() {
                state.dpop = Some(Arc::new(Dpop {
                    key: jose::DpopKey::generate()?,
                    resource_nonce: std::sync::Mutex::new(None),
                }));
            }
            client.dpop = state.dpop.clone();
        }
        // A client with credentials of its own uses the authorization code grant where the
        // server offers it, else the client credentials grant (the client credentials
        // extension: no user, no browser).
        let text = |name: &str| self.context.get(name).and_then(Value::as_str);
        let token = match (
            text("idp_id_token").zip(text("idp_token_endpoint")),
            text("valid_jwt"),
        ) {
            // Enterprise-managed authorization: the identity provider's ID token is
            // exchanged there for an ID-JAG (RFC 8693), which the authorization server takes
            // as a JWT bearer grant (RFC 7523).
            (Some((id_token, idp_endpoint)), _) if metadata.supports_grant_type(JWT_BEARER) => {
                let grant = id_jag(
                    idp_endpoint,
                    id_token,
                    text("idp_client_id"),
                    &metadata.issuer,
                    &resource,
                    &scopes,
                )
                .await?;
                jwt_bearer(&metadata, &client, &grant, &resource, &scopes).await?
            }
            // Workload identity federation: the workload's own JWT is the grant.
            (_, Some(assertion)) if metadata.supports_grant_type(JWT_BEARER) => {
                jwt_bearer(&metadata, &client, assertion, &resource, &scopes).await?
            }
            _ if !metadata.supports_grant_type("authorization_code")
                && metadata.supports_grant_type("client_credentials") =>
            {
                client_credentials(&metadata, &client, &resource, &scopes).await?
            }
            _ => authorization_code(&metadata, &client, &resource, &scopes).await?,
        };
        state.scopes = scopes;
        let dpop = client
            .dpop
            .clone()
            .filter(|_| token.token_type.eq_ignore_ascii_case("dpop"));
        Ok(Credential {
            access_token: token.access_token,
            dpop,
        })
    }

    /// The protected resource metadata (RFC 9728): at the challenge's `resource_metadata`,
    /// else at the well-known URLs, path-inserted first. Its `resource` must be this server.
    async fn protected_resource_metadata(
        &self,
        from_challenge: Option<&str>,
    ) -> Result<Option<ProtectedResourceMetadata>, String> {
        let urls = discovery::protected_resource_metadata_urls(&self.server_url, from_challenge)
            .map_err(|e| e.to_string())?;
        for url in urls {
            let reply = fetch(Method::GET, &url, &[], None).await?;
            if reply.status != 200 {
                eprintln!("oauth: {url}: HTTP {}", reply.status);
                continue;
            }
            let prm = ProtectedResourceMetadata::from_json(&reply.body)
                .map_err(|e| format!("{url}: {e}"))?;
            // RFC 9728 §3.3: metadata about another resource is not used.
            check_resource(&prm, &self.server_url).map_err(|e| format!("{url}: {e}: refused"))?;
            eprintln!("oauth: protected resource metadata from {url}");
            return Ok(Some(prm));
        }
        eprintln!("oauth: no protected resource metadata");
        Ok(None)
    }

    /// The authorization server of a 2025-03-26 server: its metadata at the server's origin,
    /// else the default endpoints there.
    async fn legacy_metadata(&self) -> Result<AuthorizationServerMetadata, String> {
        let revision = ProtocolVersion::V2025_03_26;
        let base =
            discovery::expected_issuer(&self.server_url, &revision).map_err(|e| e.to_string())?;
        if let Some(metadata) = find_metadata(&self.server_url, &base, &revision).await? {
            return Ok(metadata);
        }
        let endpoints = discovery::default_endpoints(&self.server_url, &revision)
            .map_err(|e| e.to_string())?
            .ok_or("no authorization server metadata and no default endpoints")?;
        eprintln!("oauth: no authorization server metadata: the default endpoints at {base}");
        let mut metadata = AuthorizationServerMetadata::new(base);
        metadata.authorization_endpoint = Some(endpoints.authorization_endpoint);
        metadata.token_endpoint = Some(endpoints.token_endpoint);
        metadata.registration_endpoint = Some(endpoints.registration_endpoint);
        // 2025-03-26 requires PKCE of every client and server, advertised or not.
        metadata.code_challenge_methods_supported = Some(vec!["S256".to_owned()]);
        Ok(metadata)
    }

    /// The client's identity at the server of `metadata`: the one it has there already, else
    /// the pre-registered one the context gives, else its metadata document's URL where the
    /// server takes those, else a new registration.
    async fn client(
        &self,
        state: &mut State,
        metadata: &AuthorizationServerMetadata,
    ) -> Result<Client, String> {
        if let Some(known) = state.clients.iter().find(|c| c.issuer == metadata.issuer) {
            return Ok(known.clone());
        }
        let text = |name: &str| self.context.get(name).and_then(Value::as_str);
        let client = match (
            text("client_id"),
            text("client_secret"),
            text("private_key_pem"),
        ) {
            (Some(id), _, Some(pem)) => Client {
                issuer: metadata.issuer.clone(),
                client_id: id.to_owned(),
                client_secret: None,
                private_key: Some((
                    pem.to_owned(),
                    text("signing_algorithm").unwrap_or("ES256").to_owned(),
                )),
                method: "private_key_jwt".to_owned(),
                dpop: None,
            },
            (Some(id), secret, None) => Client {
                issuer: metadata.issuer.clone(),
                client_id: id.to_owned(),
                client_secret: secret.map(str::to_owned),
                private_key: None,
                method: auth_method(metadata, secret.is_some()),
                dpop: None,
            },
            _ if metadata.client_id_metadata_document_supported == Some(true) => Client {
                issuer: metadata.issuer.clone(),
                client_id: CLIENT_METADATA_URL.to_owned(),
                client_secret: None,
                private_key: None,
                method: "none".to_owned(),
                dpop: None,
            },
            _ => register(metadata).await?,
        };
        eprintln!(
            "oauth: client {} at {} ({})",
            client.client_id, client.issuer, client.method
        );
        state.clients.push(client.clone());
        Ok(client)
    }
}

/// The authorization server's metadata (RFC 8414, OpenID Connect Discovery) for `issuer_url`.
async fn authorization_server_metadata(
    issuer_url: &str,
    revision: &ProtocolVersion,
) -> Result<AuthorizationServerMetadata, String> {
    let expected = discovery::expected_issuer(issuer_url, revision).map_err(|e| e.to_string())?;
    find_metadata(issuer_url, &expected, revision)
        .await?
        .ok_or_else(|| format!("no authorization server metadata for {issuer_url}"))
}

/// The metadata at the first of `revision`'s well-known URLs for `issuer_url` that has it;
/// its `issuer` must be `expected` (RFC 8414 §3.3), or it is refused.
async fn find_metadata(
    issuer_url: &str,
    expected: &str,
    revision: &ProtocolVersion,
) -> Result<Option<AuthorizationServerMetadata>, String> {
    let urls = discovery::authorization_server_metadata_urls(issuer_url, revision)
        .map_err(|e| e.to_string())?;
    for url in urls {
        let reply = fetch(Method::GET, &url, &[], None).await?;
        if reply.status != 200 {
            eprintln!("oauth: {url}: HTTP {}", reply.status);
            continue;
        }
        let metadata = AuthorizationServerMetadata::from_json(&reply.body)
            .map_err(|e| format!("{url}: {e}"))?;
        issuer::check_metadata_issuer(expected, &metadata)
            .map_err(|e| format!("{url}: {e}: refused"))?;
        eprintln!("oauth: authorization server metadata from {url}");
        return Ok(Some(metadata));
    }
    Ok(None)
}

/// How a client authenticates at the token endpoint: with a secret, the first of
/// `client_secret_basic` and `client_secret_post` the server supports; without, `none`.
fn auth_method(metadata: &AuthorizationServerMetadata, has_secret: bool) -> String {
    let method = if has_secret {
        ["client_secret_basic", "client_secret_post"]
            .into_iter()
            .find(|m| metadata.supports_token_endpoint_auth_method(m))
            .unwrap_or("none")
    } else {
        "none"
    };
    method.to_owned()
}

/// Dynamic client registration (RFC 7591): a native client (its redirect URI is on the
/// loopback), asking for the token endpoint authentication the server supports, `none` first.
async fn register(metadata: &AuthorizationServerMetadata) -> Result<Client, String> {
    let endpoint = metadata.registration_endpoint.as_deref().ok_or(
        "the authorization server takes no registration, no client metadata document, and no client was given",
    )?;
    let method = ["none", "client_secret_basic", "client_secret_post"]
        .into_iter()
        .find(|m| metadata.supports_token_endpoint_auth_method(m))
        .unwrap_or("client_secret_basic");
    let request = ClientMetadata {
        redirect_uris: Some(vec![REDIRECT_URI.to_owned()]),
        token_endpoint_auth_method: Some(method.to_owned()),
        grant_types: Some(vec![
            "authorization_code".to_owned(),
            "refresh_token".to_owned(),
        ]),
        response_types: Some(vec!["code".to_owned()]),
        client_name: Some(CLIENT_NAME.to_owned()),
        // Its redirect URI is on the loopback: a native application (SEP-837, OpenID Connect
        // Dynamic Client Registration §2).
        application_type: Some("native".to_owned()),
        ..ClientMetadata::default()
    };
    let body = serde_json::to_string(&request).map_err(|e| e.to_string())?;
    let reply = fetch(
        Method::POST,
        endpoint,
        &[(CONTENT_TYPE.to_string(), "application/json".to_owned())],
        Some(body),
    )
    .await?;
    if reply.status != 201 && reply.status != 200 {
        return Err(format!(
            "registration refused: HTTP {}{}",
            reply.status,
            oauth_error(&reply)
        ));
    }
    let registered =
        ClientInformation::from_json(&reply.body).map_err(|e| format!("registration: {e}"))?;
    let method = registered
        .metadata
        .token_endpoint_auth_method
        .clone()
        .unwrap_or_else(|| {
            if registered.client_secret.is_some() && method != "none" {
                method.to_owned()
            } else {
                "none".to_owned()
            }
        });
    Ok(Client {
        issuer: metadata.issuer.clone(),
        client_id: registered.client_id,
        client_secret: registered.client_secret,
        private_key: None,
        method,
        dpop: None,
    })
}

/// The authorization code grant with PKCE (OAuth 2.1 §4.1): the authorization request, its
/// redirect read back (`state` and `iss` checked), and the code exchanged for a token.
async fn authorization_code(
    metadata: &AuthorizationServerMetadata,
    client: &Client,
    resource: &str,
    scopes: &[String],
) -> Result<TokenResponse, String> {
    // The authorization page: clients MUST refuse to proceed without S256 PKCE support.
    if !metadata.supports_s256() {
        return Err(format!(
            "{} does not advertise PKCE S256: refused",
            metadata.issuer
        ));
    }
    let endpoint = metadata
        .authorization_endpoint
        .as_deref()
        .ok_or("the authorization server metadata has no authorization_endpoint")?;
    let verifier = PkceVerifier::from_random_bytes(&random()?);
    let challenge = PkceChallenge::s256(&verifier);
    let state = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random()?);
    let mut query = vec![
        ("response_type", "code"),
        ("client_id", client.client_id.as_str()),
        ("redirect_uri", REDIRECT_URI),
        ("code_challenge", challenge.as_str()),
        ("code_challenge_method", challenge.method()),
        ("state", state.as_str()),
        ("resource", resource),
    ];
    let scope = scopes.join(" ");
    if !scope.is_empty() {
        query.push(("scope", &scope));
    }
    let separator = if endpoint.contains('?') { '&' } else { '?' };
    let url = format!("{endpoint}{separator}{}", form(&query));
    eprintln!(
        "oauth: authorization request to {endpoint} (scope {:?})",
        scope
    );
    let reply = fetch(Method::GET, &url, &[], None).await?;
    let location = reply
        .header(LOCATION.as_str())
        .filter(|_| (300..400).contains(&reply.status))
        .ok_or_else(|| format!("the authorization endpoint answered HTTP {}", reply.status))?;
    let code = authorization_response(location, &state, metadata)?;
    let body = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", REDIRECT_URI),
        ("code_verifier", verifier.as_str()),
        ("resource", resource),
    ];
    token_request(metadata, client, &body).await
}

/// The code of the authorization response the redirect to `location` carries (OAuth 2.1
/// §4.1.2), once checked: the redirect leads back to this client's redirect URI, `iss` is the
/// server's when present or advertised (RFC 9207 §2.4), and `state` is the one sent.
fn authorization_response(
    location: &str,
    state: &str,
    metadata: &AuthorizationServerMetadata,
) -> Result<String, String> {
    let response = AuthorizationResponse::from_redirect_to(location, REDIRECT_URI)
        .map_err(|e| format!("{e}: refused"))?;
    response
        .check(state, metadata)
        .map(str::to_owned)
        .map_err(|e| format!("{e}: refused"))
}

/// The client credentials grant (OAuth 2.1 §4.2): the client asks for a token for itself.
async fn client_credentials(
    metadata: &AuthorizationServerMetadata,
    client: &Client,
    resource: &str,
    scopes: &[String],
) -> Result<TokenResponse, String> {
    let scope = scopes.join(" ");
    let mut body = vec![("grant_type", "client_credentials"), ("resource", resource)];
    if !scope.is_empty() {
        body.push(("scope", &scope));
    }
    eprintln!("oauth: client credentials grant (scope {scope:?})");
    token_request(metadata, client, &body).await
}

/// The JWT bearer grant (RFC 7523 §2.1) with `assertion`. A refusal is final: the grant is
/// not retried, nor another grant tried (the workload identity extension).
async fn jwt_bearer(
    metadata: &AuthorizationServerMetadata,
    client: &Client,
    assertion: &str,
    resource: &str,
    scopes: &[String],
) -> Result<TokenResponse, String> {
    let scope = scopes.join(" ");
    let mut body = vec![
        ("grant_type", JWT_BEARER),
        ("assertion", assertion),
        ("resource", resource),
    ];
    if !scope.is_empty() {
        body.push(("scope", &scope));
    }
    eprintln!("oauth: JWT bearer grant (scope {scope:?})");
    token_request(metadata, client, &body).await
}

/// An identity assertion JWT authorization grant (ID-JAG) for the authorization server
/// `audience` and `resource`, from the identity provider's token exchange (RFC 8693 §2.1,
/// the enterprise-managed authorization extension) of the user's ID token.
async fn id_jag(
    idp_token_endpoint: &str,
    id_token: &str,
    idp_client_id: Option<&str>,
    audience: &str,
    resource: &str,
    scopes: &[String],
) -> Result<String, String> {
    let scope = scopes.join(" ");
    let mut body = vec![
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
        ("audience", audience),
        ("resource", resource),
    ];
    if let Some(id) = idp_client_id {
        body.push(("client_id", id));
    }
    if !scope.is_empty() {
        body.push(("scope", &scope));
    }
    eprintln!("oauth: token exchange at {idp_token_endpoint} for an ID-JAG");
    let token = post_token(idp_token_endpoint, Vec::new(), &body, None).await?;
    Ok(token.access_token)
}

/// A token request with `body`, the client authenticated as it registered.
async fn token_request(
    metadata: &AuthorizationServerMetadata,
    client: &Client,
    body: &[(&str, &str)],
) -> Result<TokenResponse, String> {
    let mut body: Vec<(&str, String)> = body.iter().map(|(n, v)| (*n, (*v).to_owned())).collect();
    let endpoint = metadata
        .token_endpoint
        .as_deref()
        .ok_or("the authorization server metadata has no token_endpoint")?;
    let mut headers = Vec::new();
    match (client.method.as_str(), &client.client_secret) {
        // RFC 6749 §2.3.1: both parts form-encoded before they are joined.
        ("client_secret_basic", Some(secret)) => {
            let pair = format!(
                "{}:{}",
                auth::form::encode_component(&client.client_id),
                auth::form::encode_component(secret)
            );
            let encoded = base64::engine::general_purpose::STANDARD.encode(pair);
            headers.push((AUTHORIZATION.to_string(), format!("Basic {encoded}")));
        }
        ("client_secret_post", Some(secret)) => {
            body.push(("client_id", client.client_id.clone()));
            body.push(("client_secret", secret.clone()));
        }
        // RFC 7523 §2.2, the audience being the issuer (RFC 7523bis).
        ("private_key_jwt", _) => {
            let (pem, algorithm) = client
                .private_key
                .as_ref()
                .ok_or("private_key_jwt without a private key")?;
            let assertion =
                jose::client_assertion(pem, algorithm, &client.client_id, &metadata.issuer)?;
            body.push(("client_id", client.client_id.clone()));
            body.push((
                "client_assertion_type",
                "urn:ietf:params:oauth:client-assertion-type:jwt-bearer".to_owned(),
            ));
            body.push(("client_assertion", assertion));
        }
        _ => body.push(("client_id", client.client_id.clone())),
    }
    let token = post_token(endpoint, headers, &body, client.dpop.as_deref()).await?;
    // A DPoP-bound token only when a proof was sent for it (RFC 9449 §5).
    let dpop = client.dpop.is_some() && token.token_type.eq_ignore_ascii_case("dpop");
    if !dpop && !token.token_type.eq_ignore_ascii_case("bearer") {
        return Err(format!("token type {} is not Bearer", token.token_type));
    }
    eprintln!(
        "oauth: token from {endpoint} (scope {:?})",
        token.scope.as_deref().unwrap_or("")
    );
    Ok(token)
}

/// POSTs a form to a token endpoint and reads the token response; with `dpop`, each request
/// carries a proof, sent again with the nonce the server asks for (RFC 9449 §8).
async fn post_token(
    endpoint: &str,
    mut headers: Vec<(String, String)>,
    body: &[(&str, impl AsRef<str>)],
    dpop: Option<&Dpop>,
) -> Result<TokenResponse, String> {
    headers.push((
        CONTENT_TYPE.to_string(),
        "application/x-www-form-urlencoded".to_owned(),
    ));
    let mut nonce: Option<String> = None;
    let mut attempt = 0;
    let reply = loop {
        attempt += 1;
        let mut sent = headers.clone();
        if let Some(dpop) = dpop {
            let proof = dpop.key.proof("POST", endpoint, None, nonce.as_deref())?;
            sent.push((DPOP.to_owned(), proof));
        }
        let reply = fetch(Method::POST, endpoint, &sent, Some(form(body))).await?;
        let asks_nonce = reply.status == 400
            && OAuthError::from_json(&reply.body)
                .is_ok_and(|e| e.error == OAuthErrorCode::UseDpopNonce);
        match reply.header("dpop-nonce") {
            Some(next) if dpop.is_some() && asks_nonce && attempt <= MAX_NONCE_RETRIES => {
                nonce = Some(next.to_owned());
            }
            _ => break reply,
        }
    };
    if reply.status != 200 {
        return Err(format!(
            "{endpoint} refused the token request: HTTP {}{}",
            reply.status,
            oauth_error(&reply)
        ));
    }
    TokenResponse::from_json(&reply.body).map_err(|e| format!("token response: {e}"))
}

/// `: <error code>` of an OAuth error response, when the body is one (its description is left
/// out: only the code is the server's vocabulary).
fn oauth_error(reply: &Reply) -> String {
    OAuthError::from_json(&reply.body)
        .map(|e| format!(": {}", e.error))
        .unwrap_or_default()
}

/// 32 bytes from the operating system's generator.
fn random() -> Result<[u8; 32], String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness: {e}"))?;
    Ok(bytes)
}

/// A form body or query (`application/x-www-form-urlencoded`).
fn form(pairs: &[(&str, impl AsRef<str>)]) -> String {
    auth::form::encode(pairs.iter().map(|(name, value)| (*name, value.as_ref())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metadata(iss_advertised: bool) -> AuthorizationServerMetadata {
        let mut metadata = AuthorizationServerMetadata::new("http://localhost:9000");
        metadata.authorization_response_iss_parameter_supported = Some(iss_advertised);
        metadata
    }

    #[test]
    fn the_authorization_response_is_checked_before_its_code_is_used() {
        let ok = format!("{REDIRECT_URI}?code=c%2B1&state=s1&iss=http%3A%2F%2Flocalhost%3A9000");
        assert_eq!(
            authorization_response(&ok, "s1", &metadata(true)).as_deref(),
            Ok("c+1")
        );
        // A forged or replayed response: another state.
        assert!(
            authorization_response(&ok, "s2", &metadata(true)).is_err_and(|e| e.contains("state"))
        );
        // A redirect to somewhere else than this client's redirect URI.
        let elsewhere = "http://localhost:3000/callbacks?code=c&state=s1";
        assert!(authorization_response(elsewhere, "s1", &metadata(false))
            .is_err_and(|e| e.contains("redirect_uri")));
        // Mix-up defence: an advertised `iss` missing, or another server's.
        let missing = format!("{REDIRECT_URI}?code=c&state=s1");
        assert!(authorization_response(&missing, "s1", &metadata(true)).is_err());
        assert!(authorization_response(&missing, "s1", &metadata(false)).is_ok());
        let other = format!("{REDIRECT_URI}?code=c&state=s1&iss=http%3A%2F%2Flocalhost%3A9000%2F");
        assert!(authorization_response(&other, "s1", &metadata(false)).is_err());
        // The server's refusal is reported by its code only.
        let refused = format!("{REDIRECT_URI}?error=access_denied&state=s1");
        assert!(authorization_response(&refused, "s1", &metadata(false))
            .is_err_and(|e| e.contains("access_denied")));
    }
}
