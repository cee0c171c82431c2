//! With `--auth <issuer-url>`, the server is an OAuth 2.0 protected resource (MCP
//! authorization, 2025-06-18 on), every document and header built with the crate's `auth`
//! types:
//!
//! * `GET /.well-known/oauth-protected-resource/mcp` (and the root form) serves the protected
//!   resource metadata (RFC 9728): the resource is `http://<Host>/mcp`, its authorization
//!   server the issuer given, its scopes [`BASE_SCOPE`] and [`WRITE_SCOPE`].
//! * A request to `/mcp` without a bearer token gets 401 with
//!   `WWW-Authenticate: Bearer resource_metadata="…", scope="mcp:basic"` (RFC 9728 §5.1,
//!   RFC 6750 §3); one whose token is not active, or not issued for this resource, gets 401
//!   `invalid_token`; one whose token lacks a scope gets 403 `insufficient_scope` naming the
//!   scope to step up to ([`STEP_UP_TOOLS`] need [`WRITE_SCOPE`] as well).
//! * Tokens are opaque to the server: it asks the authorization server (token introspection,
//!   RFC 7662, at the `introspection_endpoint` of its metadata, found with
//!   `auth::discovery` and checked with `auth::issuer`), and takes `active`, `aud` and `scope`
//!   from the answer. The audience must contain this server's resource indicator (RFC 8707,
//!   `auth::resource_indicator`): a token minted for another resource is refused.
//!
//! Only `http://` authorization servers are reached (a local test server); tokens never
//! appear in what the server prints or answers.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{HeaderMap, AUTHORIZATION, CONTENT_TYPE, HOST};
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use mcp_spec_types::auth::{
    self, discovery, issuer, AuthorizationServerMetadata, Challenge, ProtectedResourceMetadata,
};
use mcp_spec_types::ProtocolVersion;
use serde_json::Value;
use std::sync::OnceLock;

/// The scope every request needs.
pub const BASE_SCOPE: &str = "mcp:basic";
/// The scope the [`STEP_UP_TOOLS`] need on top of [`BASE_SCOPE`].
pub const WRITE_SCOPE: &str = "mcp:write";
/// Tools that change the server's state, so a call needs [`WRITE_SCOPE`].
pub const STEP_UP_TOOLS: &[&str] = &["test_trigger_tool_change", "test_trigger_prompt_change"];

/// Where the protected resource metadata is served (RFC 9728 §3.1: inserted before `/mcp`,
/// and the root form for clients that look there).
pub const METADATA_PATHS: &[&str] = &[
    "/.well-known/oauth-protected-resource/mcp",
    "/.well-known/oauth-protected-resource",
];

/// The authorization server tokens come from, set once by `--auth`.
static ISSUER: OnceLock<String> = OnceLock::new();
/// Its introspection endpoint, found on first use.
static INTROSPECTION: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();

/// Turns protection on for `issuer` (an absolute `http(s)` URL).
pub fn enable(issuer: &str) -> Result<(), String> {
    auth::resource_indicator(issuer).map_err(|e| format!("--auth: {e}"))?;
    ISSUER
        .set(issuer.to_owned())
        .map_err(|_| "--auth given twice".to_owned())
}

/// Whether `--auth` was given.
pub fn enabled() -> bool {
    ISSUER.get().is_some()
}

/// What a request may do: the scopes its token was granted.
#[derive(Debug, Clone, Default)]
pub struct Granted {
    pub scopes: Vec<String>,
}

/// Why a request is refused: the status and the challenge to send.
#[derive(Debug, Clone, PartialEq)]
pub struct Denial {
    pub status: StatusCode,
    pub challenge: Challenge,
}

impl Denial {
    /// The `WWW-Authenticate` value.
    pub fn header(&self) -> String {
        self.challenge.to_string()
    }

    /// The body: an OAuth error response (RFC 6750 §3.1's codes).
    pub fn body(&self) -> String {
        let code = self.challenge.error().unwrap_or("invalid_token");
        let mut error = auth::OAuthError::new(auth::OAuthErrorCode::from(code));
        error.error_description = Some(
            match code {
                "insufficient_scope" => "the token lacks a scope this request needs",
                _ if self.challenge.error().is_none() => "authorization required",
                _ => "the token is not active or not issued for this resource",
            }
            .to_owned(),
        );
        serde_json::to_string(&error).unwrap_or_default()
    }
}

/// This server's resource identifier, from the authority the client used.
pub fn resource(host: &str) -> String {
    format!("http://{host}/mcp")
}

/// The protected resource metadata for the server reached at `host`.
pub fn metadata(issuer: &str, host: &str) -> ProtectedResourceMetadata {
    ProtectedResourceMetadata {
        authorization_servers: Some(vec![issuer.to_owned()]),
        scopes_supported: Some(vec![BASE_SCOPE.to_owned(), WRITE_SCOPE.to_owned()]),
        bearer_methods_supported: Some(vec!["header".to_owned()]),
        ..ProtectedResourceMetadata::new(resource(host))
    }
}

/// The metadata document for a GET of one of [`METADATA_PATHS`], when protection is on.
pub fn metadata_response(path: &str, headers: &HeaderMap) -> Option<String> {
    let issuer = ISSUER.get()?;
    if !METADATA_PATHS.contains(&path) {
        return None;
    }
    let host = headers.get(HOST)?.to_str().ok()?;
    serde_json::to_string(&metadata(issuer, host)).ok()
}

/// A challenge for the resource at `host` (RFC 6750 §3, RFC 9728 §5.1): `error` only when a
/// token was presented (RFC 6750 §3.1 leaves it out of an unauthenticated request's answer).
pub fn challenge(host: &str, error: Option<&str>, scope: &str) -> Challenge {
    let mut challenge = Challenge::bearer();
    if let Some(error) = error {
        challenge = challenge.with_param("error", error);
    }
    challenge.with_param("scope", scope).with_param(
        "resource_metadata",
        format!("http://{host}{}", METADATA_PATHS[0]),
    )
}

/// The scopes a request body needs: [`BASE_SCOPE`], and [`WRITE_SCOPE`] for a call of one of
/// the [`STEP_UP_TOOLS`] (a batch needs what its members need).
pub fn needed_scopes(body: &Value) -> Vec<&'static str> {
    let messages = match body {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    let writes = messages.iter().any(|m| {
        m.get("method").and_then(Value::as_str) == Some("tools/call")
            && m.pointer("/params/name")
                .and_then(Value::as_str)
                .is_some_and(|name| STEP_UP_TOOLS.contains(&name))
    });
    if writes {
        vec![BASE_SCOPE, WRITE_SCOPE]
    } else {
        vec![BASE_SCOPE]
    }
}

/// Judges an introspection answer (RFC 7662 §2.2) for the resource at `host`: active, issued
/// for this resource (`aud`, a string or an array, holds its resource indicator), and granting
/// `BASE_SCOPE`.
pub fn judge(introspection: &Value, host: &str) -> Result<Granted, Denial> {
    let invalid = || Denial {
        status: StatusCode::UNAUTHORIZED,
        challenge: challenge(host, Some("invalid_token"), BASE_SCOPE),
    };
    if introspection.get("active").and_then(Value::as_bool) != Some(true) {
        return Err(invalid());
    }
    let Ok(expected) = auth::resource_indicator(&resource(host)) else {
        return Err(invalid());
    };
    // Audiences are compared in canonical form: the client sends the canonical URI, and an
    // authorization server may echo it as it was sent.
    let audience_matches = |aud: &Value| {
        aud.as_str()
            .and_then(|a| auth::resource_indicator(a).ok())
            .is_some_and(|a| a == expected)
    };
    let audience_ok = match introspection.get("aud") {
        Some(Value::Array(auds)) => auds.iter().any(audience_matches),
        Some(aud) => audience_matches(aud),
        None => false,
    };
    if !audience_ok {
        return Err(invalid());
    }
    let granted = Granted {
        scopes: introspection
            .get("scope")
            .and_then(Value::as_str)
            .unwrap_or("")
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
    };
    require(&granted, &[BASE_SCOPE], host)?;
    Ok(granted)
}

/// 403 `insufficient_scope` unless `granted` holds every scope of `needed`; the challenge
/// names all of `needed`, so that a client stepping up keeps what it had (MCP authorization,
/// "Runtime Insufficient Scope Errors": the recommended approach).
pub fn require(granted: &Granted, needed: &[&str], host: &str) -> Result<(), Denial> {
    if needed
        .iter()
        .all(|scope| granted.scopes.iter().any(|s| s == scope))
    {
        return Ok(());
    }
    Err(Denial {
        status: StatusCode::FORBIDDEN,
        challenge: challenge(host, Some("insufficient_scope"), &needed.join(" ")),
    })
}

/// [`require`] for what a POST body asks ([`needed_scopes`]); a body that is not JSON is left
/// to the transport's own errors.
pub fn check_body(granted: &Granted, headers: &HeaderMap, text: &str) -> Result<(), Denial> {
    let Ok(body) = serde_json::from_str::<Value>(text) else {
        return Ok(());
    };
    require(granted, &needed_scopes(&body), host_of(headers))
}

fn host_of(headers: &HeaderMap) -> &str {
    headers
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost")
}

/// Checks the bearer token of a request to `/mcp` when protection is on: `Ok(None)` when it
/// is off, `Ok(Some(granted))` for a good token.
pub async fn check(headers: &HeaderMap) -> Result<Option<Granted>, Denial> {
    let Some(issuer) = ISSUER.get() else {
        return Ok(None);
    };
    let host = host_of(headers);
    let token = headers
        .get(AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("Bearer"))
        .map(|(_, token)| token.trim())
        .filter(|token| !token.is_empty());
    let Some(token) = token else {
        return Err(Denial {
            status: StatusCode::UNAUTHORIZED,
            challenge: challenge(host, None, BASE_SCOPE),
        });
    };
    let introspection = match introspect(issuer, token).await {
        Ok(answer) => answer,
        Err(e) => {
            // The token is not part of the message.
            eprintln!("conformance-server: token introspection failed: {e}");
            Value::Null
        }
    };
    judge(&introspection, host).map(Some)
}

/// Asks the authorization server about `token` (RFC 7662 §2.1).
async fn introspect(issuer: &str, token: &str) -> Result<Value, String> {
    let endpoint = INTROSPECTION
        .get_or_try_init(|| introspection_endpoint(issuer))
        .await?;
    let body = auth::form::encode([("token", token), ("token_type_hint", "access_token")]);
    let (status, text) = fetch(Method::POST, endpoint, Some(body)).await?;
    if status != StatusCode::OK {
        return Err(format!("the introspection endpoint answered {status}"));
    }
    serde_json::from_str(&text).map_err(|e| format!("introspection answer: {e}"))
}

/// The introspection endpoint from the issuer's metadata, found at the URLs the latest
/// revision tries, the metadata's `issuer` checked (RFC 8414 §3.3).
async fn introspection_endpoint(issuer: &str) -> Result<String, String> {
    let urls = discovery::authorization_server_metadata_urls(issuer, &ProtocolVersion::LATEST)
        .map_err(|e| e.to_string())?;
    for url in urls {
        let Ok((StatusCode::OK, text)) = fetch(Method::GET, &url, None).await else {
            continue;
        };
        let metadata = AuthorizationServerMetadata::from_json(&text).map_err(|e| e.to_string())?;
        issuer::check_metadata_issuer(issuer, &metadata).map_err(|e| e.to_string())?;
        return metadata
            .introspection_endpoint
            .ok_or_else(|| format!("{url} has no introspection_endpoint"));
    }
    Err(format!("no authorization server metadata for {issuer}"))
}

/// One HTTP/1.1 exchange with an `http://` URL.
async fn fetch(
    method: Method,
    url: &str,
    form: Option<String>,
) -> Result<(StatusCode, String), String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("only http:// authorization servers are reached, not {url}"))?;
    let (authority, path) = match rest.find('/') {
        Some(slash) => rest.split_at(slash),
        None => (rest, "/"),
    };
    let stream = tokio::net::TcpStream::connect(authority)
        .await
        .map_err(|e| format!("{authority}: {e}"))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header(HOST, authority)
        .header("accept", "application/json");
    if form.is_some() {
        request = request.header(CONTENT_TYPE, "application/x-www-form-urlencoded");
    }
    let request = request
        .body(Full::new(Bytes::from(form.unwrap_or_default())))
        .map_err(|e| e.to_string())?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    Ok((status, String::from_utf8_lossy(&body).into_owned()))
}
