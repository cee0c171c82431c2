//! The suite's side of authorization: the provider (`client::oauth::OAuth`, feature `oauth`)
//! configured from what the suite's `MCP_CONFORMANCE_CONTEXT` hands over (a pre-registered
//! client, a private key, a workload's JWT, an enterprise ID token), and a browser that
//! answers the authorization page at once: the suite's authorization server redirects
//! straight back, and the redirect's `Location` is the answer.

use mcp_spec_types::client::oauth::{ClientIdentity, Grant, OAuth};
use serde_json::{Map, Value};

/// Where the authorization server sends the browser back. Nothing listens there: the
/// browser below reads the redirect's `Location`.
const REDIRECT_URI: &str = "http://localhost:3000/callback";
/// The client's metadata document, as its `client_id` where the authorization server takes
/// client ID metadata documents (the suite's fixed URL: it never resolves).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";
const CLIENT_NAME: &str = "mcp-spec-types-conformance-client";

/// The provider for the MCP server at `url`, as the suite's context equips it.
pub fn provider(url: &str) -> OAuth {
    let context: Map<String, Value> = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or_default();
    let text = |name: &str| context.get(name).and_then(Value::as_str).map(str::to_owned);
    let mut oauth = OAuth::new(url, REDIRECT_URI)
        .with_metadata_document(CLIENT_METADATA_URL)
        .with_client_name(CLIENT_NAME)
        .with_browser(follow_redirect);
    match (
        text("client_id"),
        text("client_secret"),
        text("private_key_pem"),
    ) {
        (Some(id), _, Some(pem)) => {
            let algorithm = text("signing_algorithm").unwrap_or_else(|| "ES256".to_owned());
            oauth = oauth.with_client(ClientIdentity::private_key_jwt(id, pem, algorithm));
        }
        (Some(id), Some(secret), None) => {
            oauth = oauth.with_client(ClientIdentity::with_secret(id, secret))
        }
        (Some(id), None, None) => oauth = oauth.with_client(ClientIdentity::public(id)),
        _ => {}
    }
    match (
        text("idp_id_token"),
        text("idp_token_endpoint"),
        text("valid_jwt"),
    ) {
        (Some(id_token), Some(idp_token_endpoint), _) => oauth.with_grant(Grant::IdJag {
            idp_token_endpoint,
            id_token,
            idp_client_id: text("idp_client_id"),
        }),
        (_, _, Some(assertion)) => oauth.with_grant(Grant::JwtBearer(assertion)),
        _ => oauth,
    }
}

/// The suite's "user": opens the authorization URL and gives back where the server
/// redirects (the redirect is not followed).
async fn follow_redirect(url: String) -> Result<String, String> {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let response = http.get(&url).send().await.map_err(|e| e.to_string())?;
    let status = response.status();
    let location = response
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .filter(|_| status.is_redirection());
    match location {
        Some(location) => Ok(location.to_owned()),
        None => Err(format!("the authorization endpoint answered HTTP {status}")),
    }
}
