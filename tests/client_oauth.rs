//! The OAuth provider (`client::oauth`, feature `oauth`) against a small authorization
//! server and protected MCP endpoint of its own, in process (axum): one test per grant
//! (authorization code with PKCE, refresh, client credentials, JWT bearer, ID-JAG, step-up),
//! per discovery fallback (the protected resource metadata from the challenge or the
//! well-known URLs; the authorization server metadata at RFC 8414's or OpenID Connect's URLs)
//! and per client
//! identity (pre-registered, metadata document, dynamic registration); and the checks of the
//! authorization response (`state`, `iss`, the redirect URI) before its code is used. With
//! `http-server`, a whole connection (`OAuth::connect`) to the crate's server behind the mock.
//!
//! The server verifies what a real one does (the PKCE verifier against the challenge, the
//! redirect URI, the client's secret, the scope of each token), so a provider that gets any of
//! it wrong gets no token, and the test's request is refused.

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use mcp_spec_types::auth::TokenResponse;
use mcp_spec_types::auth::{form, PkceChallenge, PkceVerifier};
use mcp_spec_types::client::oauth::{
    AuthorizeError, ClientIdentity, Grant, MemoryStore, OAuth, TokenStore,
};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

const REDIRECT_URI: &str = "http://127.0.0.1:1/callback";
const DOCUMENT: &str = "https://app.example.com/client.json";

/// Where the protected resource metadata is served.
#[derive(Clone, Copy, PartialEq)]
enum Prm {
    /// At `/custom/prm`, named by the challenge's `resource_metadata` (and nowhere else).
    Challenge,
    /// At the path-inserted well-known URL; the challenge names none.
    WellKnown,
}

/// Where the authorization server metadata is served (the issuer has the path `/tenant`).
#[derive(Clone, Copy, PartialEq)]
enum AsMeta {
    /// `/.well-known/oauth-authorization-server/tenant` (RFC 8414 §3.1).
    Oauth,
    /// `/.well-known/openid-configuration/tenant` (OpenID Connect, path inserted).
    OpenIdInserted,
    /// `/tenant/.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4).
    OpenIdAppended,
}

/// What the browser does to the redirect, for the response checks.
#[derive(Clone, Copy, PartialEq)]
enum Tamper {
    None,
    State,
    Iss,
    NoIss,
    Elsewhere,
    Denied,
}

struct Mock {
    base: String,
    prm: Prm,
    as_meta: AsMeta,
    cimd: bool,
    registration: bool,
    grant_types: Vec<&'static str>,
    tamper: Tamper,
    /// Every request the server got: `GET /path`.
    log: Vec<String>,
    /// The authorization requests the browser was given (their query parameters).
    authorizations: Vec<HashMap<String, String>>,
    /// Every token request's form and `Authorization` header.
    token_requests: Vec<(HashMap<String, String>, Option<String>)>,
    registrations: Vec<Value>,
    /// code → (code_challenge, redirect_uri, client_id, scope)
    codes: HashMap<String, (String, String, String, String)>,
    /// Live access tokens and their scope.
    tokens: HashMap<String, String>,
    /// Refresh tokens and their scope.
    refresh: HashMap<String, String>,
    issued: usize,
}

type Shared = Arc<Mutex<Mock>>;

impl Mock {
    fn issuer(&self) -> String {
        format!("{}/tenant", self.base)
    }

    fn resource(&self) -> String {
        format!("{}/mcp", self.base)
    }

    fn issue(&mut self, scope: &str, refresh: bool) -> Value {
        self.issued += 1;
        let access = format!("access-{}", self.issued);
        self.tokens.insert(access.clone(), scope.to_owned());
        let mut body = json!({"access_token": access, "token_type": "Bearer", "scope": scope});
        if refresh {
            let refresh = format!("refresh-{}", self.issued);
            self.refresh.insert(refresh.clone(), scope.to_owned());
            body["refresh_token"] = refresh.into();
        }
        body
    }

    fn paths_fetched(&self) -> Vec<&str> {
        self.log
            .iter()
            .map(|l| l.split(' ').nth(1).unwrap_or(""))
            .collect()
    }
}

fn json_response(status: StatusCode, body: Value) -> Response {
    (
        status,
        [("content-type", "application/json")],
        body.to_string(),
    )
        .into_response()
}

fn oauth_error(code: &str) -> Response {
    json_response(StatusCode::BAD_REQUEST, json!({ "error": code }))
}

async fn handle(
    State(mock): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: String,
) -> Response {
    let mut m = mock.lock().unwrap();
    let path = uri.path().to_owned();
    m.log.push(format!("{method} {path}"));
    let metadata = || {
        let mut meta = json!({
            "issuer": m.issuer(),
            "authorization_endpoint": format!("{}/authorize", m.base),
            "token_endpoint": format!("{}/token", m.base),
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
            "grant_types_supported": m.grant_types,
            "token_endpoint_auth_methods_supported": ["none", "client_secret_basic"],
            "authorization_response_iss_parameter_supported": true,
            "client_id_metadata_document_supported": m.cimd,
        });
        if m.registration {
            meta["registration_endpoint"] = format!("{}/register", m.base).into();
        }
        json_response(StatusCode::OK, meta)
    };
    let prm = || {
        json_response(
            StatusCode::OK,
            json!({
                "resource": m.resource(),
                "authorization_servers": [m.issuer()],
                "scopes_supported": ["read", "write"],
            }),
        )
    };
    match path.as_str() {
        "/custom/prm" if m.prm == Prm::Challenge => prm(),
        "/.well-known/oauth-protected-resource/mcp" if m.prm == Prm::WellKnown => prm(),
        "/.well-known/oauth-authorization-server/tenant" if m.as_meta == AsMeta::Oauth => {
            metadata()
        }
        "/.well-known/openid-configuration/tenant" if m.as_meta == AsMeta::OpenIdInserted => {
            metadata()
        }
        "/tenant/.well-known/openid-configuration" if m.as_meta == AsMeta::OpenIdAppended => {
            metadata()
        }
        "/register" if m.registration => {
            let request: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
            m.registrations.push(request.clone());
            json_response(
                StatusCode::CREATED,
                json!({
                    "client_id": "registered-1",
                    "redirect_uris": request["redirect_uris"],
                    "token_endpoint_auth_method": "none",
                }),
            )
        }
        "/token" => token(&mut m, &headers, &body),
        // The identity provider's token exchange (RFC 8693): an ID-JAG for the user's ID
        // token, addressed to this authorization server.
        "/idp/token" => {
            let form: HashMap<String, String> = form::parse(&body).into_iter().collect();
            let field = |name: &str| form.get(name).cloned().unwrap_or_default();
            m.token_requests.push((form.clone(), None));
            let exchange = field("grant_type") == "urn:ietf:params:oauth:grant-type:token-exchange"
                && field("subject_token") == "user-id-token"
                && field("audience") == m.issuer();
            match exchange {
                true => json_response(
                    StatusCode::OK,
                    json!({"access_token": "id-jag-for-user", "token_type": "N_A",
                           "issued_token_type": "urn:ietf:params:oauth:token-type:id-jag"}),
                ),
                false => oauth_error("invalid_grant"),
            }
        }
        "/mcp" => mcp(&m, &headers),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

fn token(m: &mut Mock, headers: &HeaderMap, body: &str) -> Response {
    let form: HashMap<String, String> = form::parse(body).into_iter().collect();
    let basic = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    m.token_requests.push((form.clone(), basic.clone()));
    let field = |name: &str| form.get(name).cloned().unwrap_or_default();
    if field("resource") != m.resource() {
        return oauth_error("invalid_target");
    }
    match field("grant_type").as_str() {
        "authorization_code" => {
            let Some((challenge, redirect_uri, client_id, scope)) = m.codes.remove(&field("code"))
            else {
                return oauth_error("invalid_grant");
            };
            let verified = PkceVerifier::new(field("code_verifier"))
                .is_ok_and(|v| PkceChallenge::s256(&v).as_str() == challenge);
            if !verified || redirect_uri != field("redirect_uri") || client_id != field("client_id")
            {
                return oauth_error("invalid_grant");
            }
            json_response(StatusCode::OK, m.issue(&scope, true))
        }
        "refresh_token" => match m.refresh.get(&field("refresh_token")).cloned() {
            Some(scope) => json_response(StatusCode::OK, m.issue(&scope, false)),
            None => oauth_error("invalid_grant"),
        },
        "urn:ietf:params:oauth:grant-type:jwt-bearer" => {
            // A workload's JWT, or the ID-JAG the identity provider exchanged for an ID token.
            if !["workload-jwt", "id-jag-for-user"].contains(&field("assertion").as_str()) {
                return oauth_error("invalid_grant");
            }
            let scope = field("scope");
            json_response(StatusCode::OK, m.issue(&scope, false))
        }
        "client_credentials" => {
            // `machine:s3cret`, form-encoded then base64 (RFC 6749 §2.3.1).
            if basic.as_deref() != Some("Basic bWFjaGluZTpzM2NyZXQ=") {
                return json_response(StatusCode::UNAUTHORIZED, json!({"error": "invalid_client"}));
            }
            let scope = field("scope");
            json_response(StatusCode::OK, m.issue(&scope, false))
        }
        _ => oauth_error("unsupported_grant_type"),
    }
}

/// The protected MCP endpoint: `read` for every request, `write` too for one that carries
/// `x-need: write`.
fn mcp(m: &Mock, headers: &HeaderMap) -> Response {
    let token = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let mut challenge = String::from("Bearer scope=\"read\"");
    if m.prm == Prm::Challenge {
        challenge = format!(
            "Bearer resource_metadata=\"{}/custom/prm\", scope=\"read\"",
            m.base
        );
    }
    let Some(scope) = token.and_then(|t| m.tokens.get(t)) else {
        return Response::builder()
            .status(StatusCode::UNAUTHORIZED)
            .header("www-authenticate", challenge)
            .body(Body::empty())
            .unwrap();
    };
    let granted: Vec<&str> = scope.split(' ').collect();
    let mut needed = vec!["read"];
    if headers.get("x-need").is_some_and(|v| v == "write") {
        needed.push("write");
    }
    let missing: Vec<&str> = (needed.iter().copied())
        .filter(|s| !granted.contains(s))
        .collect();
    if !missing.is_empty() {
        return Response::builder()
            .status(StatusCode::FORBIDDEN)
            .header(
                "www-authenticate",
                format!(
                    "Bearer error=\"insufficient_scope\", scope=\"{}\"",
                    // Only what is missing: the client keeps what it asked for before.
                    missing.join(" ")
                ),
            )
            .body(Body::empty())
            .unwrap();
    }
    "ok".into_response()
}

/// The user at the browser: signs in at once, and the authorization server redirects back
/// with a code bound to the request's PKCE challenge, redirect URI, client and scope.
fn browser(mock: Shared) -> impl Fn(String) -> std::future::Ready<Result<String, String>> {
    move |url: String| {
        let mut m = mock.lock().unwrap();
        let query = url.split_once('?').map(|(_, q)| q).unwrap_or("");
        let params: HashMap<String, String> = form::parse(query).into_iter().collect();
        m.authorizations.push(params.clone());
        let get = |name: &str| params.get(name).cloned().unwrap_or_default();
        if get("code_challenge_method") != "S256" || get("response_type") != "code" {
            return std::future::ready(Err("not a PKCE S256 code request".to_owned()));
        }
        m.issued += 1;
        let code = format!("code-{}", m.issued);
        let details = (
            get("code_challenge"),
            get("redirect_uri"),
            get("client_id"),
            get("scope"),
        );
        m.codes.insert(code.clone(), details);
        let (mut state, mut iss) = (get("state"), Some(m.issuer()));
        let mut to = get("redirect_uri");
        let mut code_part = format!("code={code}");
        match m.tamper {
            Tamper::None => {}
            Tamper::State => state.push('x'),
            Tamper::Iss => iss = Some("https://evil.example.com".to_owned()),
            Tamper::NoIss => iss = None,
            Tamper::Elsewhere => to = "http://127.0.0.1:1/elsewhere".to_owned(),
            Tamper::Denied => code_part = "error=access_denied".to_owned(),
        }
        let mut back = format!("{to}?{code_part}&state={}", form::encode_component(&state));
        if let Some(iss) = iss {
            back.push_str(&format!("&iss={}", form::encode_component(&iss)));
        }
        std::future::ready(Ok(back))
    }
}

/// A server with these defaults: the challenge names the metadata, RFC 8414's URL serves the
/// authorization server's, registration and the authorization code and refresh grants.
fn mock() -> Mock {
    Mock {
        base: String::new(),
        prm: Prm::Challenge,
        as_meta: AsMeta::Oauth,
        cimd: false,
        registration: true,
        grant_types: vec!["authorization_code", "refresh_token"],
        tamper: Tamper::None,
        log: Vec::new(),
        authorizations: Vec::new(),
        token_requests: Vec::new(),
        registrations: Vec::new(),
        codes: HashMap::new(),
        tokens: HashMap::new(),
        refresh: HashMap::new(),
        issued: 0,
    }
}

/// Serves `mock` on a port of its own; its shared state.
async fn serve(mut mock: Mock) -> Shared {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    mock.base = format!("http://{}", listener.local_addr().unwrap());
    let shared = Arc::new(Mutex::new(mock));
    let app = axum::Router::new()
        .fallback(handle)
        .with_state(shared.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    shared
}

/// The provider of the mock's MCP endpoint, with its browser.
fn provider(mock: &Shared) -> OAuth {
    let url = mock.lock().unwrap().resource();
    OAuth::new(url, REDIRECT_URI).with_browser(browser(mock.clone()))
}

/// A request to the MCP endpoint; `write` asks for the `write` scope.
fn request(mock: &Shared, write: bool) -> http::Request<String> {
    let mut request = http::Request::post(mock.lock().unwrap().resource());
    if write {
        request = request.header("x-need", "write");
    }
    request.body("{}".to_owned()).unwrap()
}

async fn status(oauth: &OAuth, mock: &Shared, write: bool) -> Result<u16, AuthorizeError> {
    oauth
        .send(request(mock, write))
        .await
        .map(|r| r.status().as_u16())
}

#[tokio::test]
async fn the_authorization_code_grant_with_pkce_authorizes_the_request() {
    let mock = serve(mock()).await;
    let oauth = provider(&mock);
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    let asked = &m.authorizations[0];
    assert_eq!(asked["code_challenge_method"], "S256");
    assert_eq!(asked["resource"], m.resource());
    assert_eq!(asked["scope"], "read");
    assert_eq!(asked["redirect_uri"], REDIRECT_URI);
    assert!(asked["state"].len() >= 32, "an unguessable state");
    // The code was exchanged once, with its verifier (the server checked it against the
    // challenge, or refused).
    let (form, _) = &m.token_requests[0];
    assert_eq!(form["grant_type"], "authorization_code");
    assert!(form.contains_key("code_verifier"));
    assert_eq!(m.token_requests.len(), 1);
}

#[tokio::test]
async fn the_token_is_kept_and_presented_without_asking_again() {
    let mock = serve(mock()).await;
    let oauth = provider(&mock);
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    let before = mock.lock().unwrap().log.len();
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    // One request, to the MCP endpoint: the token held was presented at once.
    assert_eq!(m.paths_fetched()[before..], ["/mcp"]);
    assert_eq!(m.authorizations.len(), 1);
}

#[tokio::test]
async fn an_expired_token_is_refreshed_without_the_browser() {
    let mock = serve(mock()).await;
    let oauth = provider(&mock);
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    // The access token expires: the server no longer takes it.
    mock.lock().unwrap().tokens.clear();
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    {
        let mut m = mock.lock().unwrap();
        assert_eq!(m.authorizations.len(), 1, "the user was not asked again");
        let grants: Vec<&str> = (m.token_requests.iter())
            .map(|(form, _)| form["grant_type"].as_str())
            .collect();
        assert_eq!(grants, ["authorization_code", "refresh_token"]);
        m.tokens.clear();
    }
    // The refresh response had no refresh token: the one held is kept for the next.
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    assert_eq!(
        m.token_requests[2].0["refresh_token"],
        m.token_requests[1].0["refresh_token"]
    );
    assert_eq!(m.authorizations.len(), 1);
}

#[tokio::test]
async fn a_refused_refresh_falls_back_to_a_new_grant() {
    let mock = serve(mock()).await;
    let oauth = provider(&mock);
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    {
        let mut m = mock.lock().unwrap();
        m.tokens.clear();
        m.refresh.clear();
    }
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    assert_eq!(mock.lock().unwrap().authorizations.len(), 2);
}

#[tokio::test]
async fn the_client_credentials_grant_needs_no_browser() {
    let mut server = mock();
    // Both grants offered: the grant configured decides.
    server.grant_types = vec!["authorization_code", "client_credentials"];
    let mock = serve(server).await;
    let url = mock.lock().unwrap().resource();
    let oauth = OAuth::new(url, REDIRECT_URI)
        .with_client(ClientIdentity::with_secret("machine", "s3cret"))
        .with_grant(Grant::ClientCredentials);
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    let (form, basic) = &m.token_requests[0];
    assert_eq!(form["grant_type"], "client_credentials");
    assert_eq!(form["scope"], "read");
    assert_eq!(basic.as_deref(), Some("Basic bWFjaGluZTpzM2NyZXQ="));
    assert!(
        !form.contains_key("client_secret"),
        "the secret goes in the header only"
    );
    assert!(m.authorizations.is_empty() && m.registrations.is_empty());
}

#[tokio::test]
async fn a_server_without_the_code_grant_gets_client_credentials_from_a_confidential_client() {
    let mut server = mock();
    server.grant_types = vec!["client_credentials"];
    let mock = serve(server).await;
    let oauth = provider(&mock).with_client(ClientIdentity::with_secret("machine", "s3cret"));
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    assert!(mock.lock().unwrap().authorizations.is_empty());
}

#[tokio::test]
async fn insufficient_scope_steps_up_keeping_the_scopes_asked_before() {
    let mock = serve(mock()).await;
    let oauth = provider(&mock);
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    assert_eq!(status(&oauth, &mock, true).await, Ok(200));
    let m = mock.lock().unwrap();
    assert_eq!(m.authorizations.len(), 2);
    let mut stepped: Vec<&str> = m.authorizations[1]["scope"].split(' ').collect();
    stepped.sort();
    assert_eq!(stepped, ["read", "write"]);
}

#[tokio::test]
async fn a_server_that_never_grants_enough_is_given_up_on() {
    let mock = serve(mock()).await;
    // The user grants `read` whatever is asked: every step-up falls short.
    let browse = browser(mock.clone());
    let oauth = provider(&mock).with_browser(move |url: String| browse(url.replace("write", "")));
    let error = status(&oauth, &mock, true).await.unwrap_err();
    assert!(
        matches!(
            error,
            AuthorizeError::GaveUp {
                status: 403,
                authorizations: 3
            }
        ),
        "{error:?}"
    );
}

#[tokio::test]
async fn the_protected_resource_metadata_comes_from_the_challenge() {
    let mock = serve(mock()).await;
    let oauth = provider(&mock);
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    let paths = m.paths_fetched();
    assert_eq!(
        paths[..3],
        [
            "/mcp",
            "/custom/prm",
            "/.well-known/oauth-authorization-server/tenant"
        ]
    );
    assert!(!paths
        .iter()
        .any(|p| p.starts_with("/.well-known/oauth-protected-resource")));
}

#[tokio::test]
async fn without_a_challenge_url_the_metadata_comes_from_the_well_known_url() {
    let mut server = mock();
    server.prm = Prm::WellKnown;
    let mock = serve(server).await;
    let oauth = provider(&mock);
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    assert_eq!(
        m.paths_fetched()[..2],
        ["/mcp", "/.well-known/oauth-protected-resource/mcp"]
    );
}

#[tokio::test]
async fn the_authorization_server_metadata_falls_back_to_openid_connect_inserted() {
    let mut server = mock();
    server.as_meta = AsMeta::OpenIdInserted;
    let mock = serve(server).await;
    assert_eq!(status(&provider(&mock), &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    assert_eq!(
        m.paths_fetched()[2..4],
        [
            "/.well-known/oauth-authorization-server/tenant",
            "/.well-known/openid-configuration/tenant"
        ]
    );
}

#[tokio::test]
async fn the_authorization_server_metadata_falls_back_to_openid_connect_appended() {
    let mut server = mock();
    server.as_meta = AsMeta::OpenIdAppended;
    let mock = serve(server).await;
    assert_eq!(status(&provider(&mock), &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    assert_eq!(
        m.paths_fetched()[2..5],
        [
            "/.well-known/oauth-authorization-server/tenant",
            "/.well-known/openid-configuration/tenant",
            "/tenant/.well-known/openid-configuration",
        ]
    );
}

#[tokio::test]
async fn a_client_without_identity_registers_dynamically() {
    let mock = serve(mock()).await;
    assert_eq!(status(&provider(&mock), &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    assert_eq!(m.registrations.len(), 1);
    let registered = &m.registrations[0];
    assert_eq!(registered["redirect_uris"], json!([REDIRECT_URI]));
    assert_eq!(registered["application_type"], "native");
    assert_eq!(m.authorizations[0]["client_id"], "registered-1");
}

#[tokio::test]
async fn a_server_that_takes_metadata_documents_gets_the_documents_url() {
    let mut server = mock();
    server.cimd = true;
    let mock = serve(server).await;
    let oauth = provider(&mock).with_metadata_document(DOCUMENT);
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    assert_eq!(m.authorizations[0]["client_id"], DOCUMENT);
    assert!(m.registrations.is_empty());
}

#[tokio::test]
async fn a_server_that_takes_no_metadata_document_gets_a_registration() {
    let mock = serve(mock()).await;
    let oauth = provider(&mock).with_metadata_document(DOCUMENT);
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    assert_eq!(
        mock.lock().unwrap().authorizations[0]["client_id"],
        "registered-1"
    );
}

#[tokio::test]
async fn a_pre_registered_client_neither_registers_nor_uses_a_document() {
    let mut server = mock();
    server.cimd = true;
    let mock = serve(server).await;
    let oauth = provider(&mock)
        .with_metadata_document(DOCUMENT)
        .with_client(ClientIdentity::public("given"));
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    assert_eq!(m.authorizations[0]["client_id"], "given");
    assert_eq!(m.token_requests[0].0["client_id"], "given");
    assert!(m.registrations.is_empty());
}

#[tokio::test]
async fn no_registration_no_document_and_no_client_is_an_error() {
    let mut server = mock();
    server.registration = false;
    let mock = serve(server).await;
    let error = status(&provider(&mock), &mock, false).await.unwrap_err();
    assert_eq!(error, AuthorizeError::NoClient);
}

/// The redirect's checks (moved from the conformance client's own unit test): a response
/// that fails one is refused before its code is used, and the error names the rule.
#[tokio::test]
async fn the_authorization_response_is_checked_before_its_code_is_used() {
    for (tamper, expected) in [
        (Tamper::State, "StateMismatch"),
        (Tamper::Iss, "IssMismatch"),
        (Tamper::NoIss, "MissingIss"),
        (Tamper::Elsewhere, "RedirectMismatch"),
        (Tamper::Denied, "AuthorizationRefused"),
    ] {
        let mut server = mock();
        server.tamper = tamper;
        let mock = serve(server).await;
        let error = status(&provider(&mock), &mock, false).await.unwrap_err();
        let AuthorizeError::Check { error, .. } = &error else {
            panic!("{expected}: {error:?}");
        };
        assert!(
            format!("{error:?}").starts_with(expected),
            "{expected}: {error:?}"
        );
        let m = mock.lock().unwrap();
        assert!(m.token_requests.is_empty(), "{expected}: the code was used");
    }
}

#[tokio::test]
async fn without_a_browser_the_code_grant_is_an_error() {
    let mock = serve(mock()).await;
    let url = mock.lock().unwrap().resource();
    let error = status(&OAuth::new(url, REDIRECT_URI), &mock, false)
        .await
        .unwrap_err();
    assert_eq!(error, AuthorizeError::NoBrowser);
}

#[test]
fn secrets_stay_out_of_debug_output() {
    let oauth = OAuth::new("http://127.0.0.1:1/mcp", REDIRECT_URI)
        .with_client(ClientIdentity::with_secret("machine", "s3cret-value"))
        .with_grant(Grant::JwtBearer("jwt-value".to_owned()));
    let shown = format!("{oauth:?}");
    assert!(shown.contains("machine"), "{shown}");
    assert!(
        !shown.contains("s3cret-value") && !shown.contains("jwt-value"),
        "{shown}"
    );
    let store = MemoryStore::new();
    let mut tokens = TokenResponse::new("access-value", "Bearer");
    tokens.refresh_token = Some("refresh-value".to_owned());
    store.save(Some(tokens));
    let shown = format!("{store:?}");
    assert!(shown.contains("Bearer"), "{shown}");
    assert!(
        !shown.contains("access-value") && !shown.contains("refresh-value"),
        "{shown}"
    );
}

#[tokio::test]
async fn a_workloads_jwt_is_a_jwt_bearer_grant() {
    let mut server = mock();
    server.grant_types = vec!["urn:ietf:params:oauth:grant-type:jwt-bearer"];
    let mock = serve(server).await;
    let oauth = provider(&mock)
        .with_client(ClientIdentity::public("workload"))
        .with_grant(Grant::JwtBearer("workload-jwt".to_owned()));
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    assert_eq!(m.token_requests[0].0["assertion"], "workload-jwt");
    assert!(m.authorizations.is_empty());
}

#[tokio::test]
async fn an_enterprise_id_token_is_exchanged_for_an_id_jag() {
    let mut server = mock();
    server.grant_types = vec!["urn:ietf:params:oauth:grant-type:jwt-bearer"];
    let mock = serve(server).await;
    let idp_token_endpoint = format!("{}/idp/token", mock.lock().unwrap().base);
    let oauth = provider(&mock)
        .with_client(ClientIdentity::public("enterprise-app"))
        .with_grant(Grant::IdJag {
            idp_token_endpoint,
            id_token: "user-id-token".to_owned(),
            idp_client_id: None,
        });
    assert_eq!(status(&oauth, &mock, false).await, Ok(200));
    let m = mock.lock().unwrap();
    let grants: Vec<&str> = (m.token_requests.iter())
        .map(|(form, _)| form["grant_type"].as_str())
        .collect();
    assert_eq!(
        grants,
        [
            "urn:ietf:params:oauth:grant-type:token-exchange",
            "urn:ietf:params:oauth:grant-type:jwt-bearer"
        ]
    );
}

/// The provider in a connection (`OAuth::connect`): the crate's own server behind the mock's
/// guard, reached only with a token the mock issued.
#[cfg(feature = "http-server")]
mod through_a_connection {
    use super::*;
    use axum::extract::Request;
    use axum::middleware::{from_fn_with_state, Next};
    use mcp_spec_types::client::Client;
    use mcp_spec_types::server::{Router, Server, StreamableHttp};
    use mcp_spec_types::v2026_07_28::{CallToolResult, Implementation, Tool, ToolInputSchema};

    /// Lets a request through to the MCP server only with a live token of the mock's.
    async fn guard(State(mock): State<Shared>, request: Request, next: Next) -> Response {
        let refused = {
            let m = mock.lock().unwrap();
            let token = (request.headers().get("authorization"))
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer "));
            (!token.is_some_and(|t| m.tokens.contains_key(t))).then(|| {
                format!(
                    "Bearer resource_metadata=\"{}/custom/prm\", scope=\"read\"",
                    m.base
                )
            })
        };
        match refused {
            Some(challenge) => Response::builder()
                .status(StatusCode::UNAUTHORIZED)
                .header("www-authenticate", challenge)
                .body(Body::empty())
                .unwrap(),
            None => next.run(request).await,
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_connection_lists_and_calls_through_the_provider() {
        let router = Router::new().tool_with(Tool::new("hello", ToolInputSchema::new()), |_, _| {
            Ok(CallToolResult::text("hi"))
        });
        let service = StreamableHttp::new(Server::new(Implementation::new("s", "0.1.0"), router));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut server = mock();
        server.base = format!("http://{}", listener.local_addr().unwrap());
        let mock: Shared = Arc::new(Mutex::new(server));
        let app = axum::Router::new()
            .route_service("/mcp", service)
            .route_layer(from_fn_with_state(mock.clone(), guard))
            .fallback(handle)
            .with_state(mock.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });

        let oauth = provider(&mock);
        let client = Client::new(Implementation::new("me", "0.1.0"));
        let connection = oauth.connect(client).await.expect("connected");
        let tools = connection.list_tools().await.expect("tools/list");
        assert_eq!(
            tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
            ["hello"]
        );
        let called = connection
            .call_tool("hello", json!({}))
            .await
            .expect("tools/call");
        assert_eq!(called.content[0].as_text(), Some("hi"));
        // One sign-in served the whole connection.
        assert_eq!(mock.lock().unwrap().authorizations.len(), 1);
    }
}
