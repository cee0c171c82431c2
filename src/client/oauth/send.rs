//! The MCP server's requests: each sent with the token held, and a refused one authorized
//! and sent again.

use super::authorizer::{Challenged, Round};
use super::dpop::{nonce_of, DPOP};
use super::fetch::without_query;
use super::{AuthorizeError, OAuth};
use crate::auth::WwwAuthenticate;
use crate::prelude::*;
use http::header::{AUTHORIZATION, WWW_AUTHENTICATE};
use http::{HeaderValue, Request, Response};

impl OAuth {
    /// Sends `request` to the MCP server with the token held (`Bearer`, or `DPoP` with a
    /// fresh proof); a refusal that asks for authorization (401, or 403 with
    /// `insufficient_scope`) is answered — a refresh or a new authorization — and the
    /// request sent again. The response's body is read as it comes.
    ///
    /// # Errors
    ///
    /// [`AuthorizeError::Transport`] when the request cannot be sent; any other when it could
    /// not be authorized.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcp_spec_types::client::oauth::AuthorizeError> {
    /// use mcp_spec_types::client::oauth::OAuth;
    ///
    /// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback");
    /// let request = http::Request::post("https://mcp.example.com/mcp")
    ///     .header("content-type", "application/json")
    ///     .body(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.to_owned())
    ///     .expect("a request");
    /// let response = oauth.send(request).await?;
    /// # let _ = response; Ok(()) }
    /// ```
    pub async fn send(
        &self,
        request: Request<String>,
    ) -> Result<Response<reqwest::Body>, AuthorizeError> {
        let (parts, body) = request.into_parts();
        let url = parts.uri.to_string();
        let mut round = Round::default();
        loop {
            let credential = self.credential().await;
            let mut sent = Request::from_parts(parts.clone(), body.clone());
            if let Some(credential) = &credential {
                let headers = sent.headers_mut();
                let scheme = match &credential.dpop {
                    Some(dpop) => {
                        let nonce = dpop.nonce();
                        let proof = dpop.key.proof(
                            parts.method.as_str(),
                            &url,
                            Some(&credential.access_token),
                            nonce.as_deref(),
                        )?;
                        headers.insert(DPOP, header_value(&proof)?);
                        "DPoP"
                    }
                    None => "Bearer",
                };
                let value = format!("{scheme} {}", credential.access_token);
                headers.insert(AUTHORIZATION, header_value(&value)?);
            }
            let failed = |reason: String| AuthorizeError::Transport {
                url: without_query(&url).to_owned(),
                reason,
            };
            let sent = reqwest::Request::try_from(sent).map_err(|e| failed(e.to_string()))?;
            let response =
                (self.config.http.execute(sent).await).map_err(|e| failed(e.to_string()))?;
            let response = Response::from(response);
            let Some(challenged) = challenged(&response) else {
                // A server may hand out the next nonce with any answer (RFC 9449 §8, §9).
                if let (Some(nonce), Some(dpop)) = (
                    nonce_of(response.headers()),
                    credential.as_ref().and_then(|c| c.dpop.as_ref()),
                ) {
                    dpop.set_nonce(nonce);
                }
                return Ok(response);
            };
            self.answer(&mut round, challenged, credential.as_ref())
                .await?;
        }
    }
}

/// A header value of `text` (a token or a proof: never shown in the error).
fn header_value(text: &str) -> Result<HeaderValue, AuthorizeError> {
    HeaderValue::from_str(text).map_err(|_| AuthorizeError::Check {
        at: "token response".to_owned(),
        error: crate::auth::AuthError::InvalidMember {
            document: "token response",
            member: "access_token",
            expected: "text a header can carry",
            found: "other characters",
        },
    })
}

/// The challenge of `response`: any 401, and a 403 whose challenge says
/// `insufficient_scope` (another 403 is the server's final word).
fn challenged<B>(response: &Response<B>) -> Option<Challenged> {
    let status = response.status().as_u16();
    if status != 401 && status != 403 {
        return None;
    }
    let values = response.headers().get_all(WWW_AUTHENTICATE).iter();
    let values: Vec<&str> = values.filter_map(|v| v.to_str().ok()).collect();
    // A challenge that does not parse leaves discovery to the well-known URLs.
    let challenge = WwwAuthenticate::parse(&values.join(", "))
        .ok()
        .and_then(|header| {
            (header.challenges.into_iter()).find(|c| c.is_scheme("Bearer") || c.is_scheme("DPoP"))
        });
    let insufficient =
        (challenge.as_ref()).is_some_and(|c| c.error() == Some("insufficient_scope"));
    (status == 401 || insufficient).then(|| Challenged {
        status,
        challenge,
        nonce: nonce_of(response.headers()),
    })
}
