//! The plain HTTP the flow speaks to the authorization parties (metadata, registration and
//! token endpoints), over reqwest; redirects are never followed.

use super::AuthorizeError;
use crate::auth::OAuthError;
use crate::prelude::*;
use reqwest::header::{HeaderMap, CONTENT_TYPE};
use reqwest::Method;

/// The most a metadata document or a token response may weigh.
const MAX_BODY: usize = 1 << 20;

/// A whole answer.
pub(super) struct Reply {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: String,
}

impl Reply {
    /// A header's value, when it is text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The refusal of `url` this reply is, with its OAuth error code when it has one.
    pub fn refused(&self, url: &str) -> AuthorizeError {
        AuthorizeError::Refused {
            url: without_query(url).to_owned(),
            status: self.status,
            error: OAuthError::from_json(&self.body).ok().map(|e| e.error),
        }
    }
}

/// `url` up to its query: what an error may show (a query may carry a code).
pub(super) fn without_query(url: &str) -> &str {
    url.split(['?', '#']).next().unwrap_or(url)
}

/// One request, answered whole (at most [`MAX_BODY`]).
pub(super) async fn fetch(
    http: &reqwest::Client,
    method: Method,
    url: &str,
    headers: &[(&str, String)],
    body: Option<String>,
) -> Result<Reply, AuthorizeError> {
    let failed = |reason: String| AuthorizeError::Transport {
        url: without_query(url).to_owned(),
        reason,
    };
    let mut request = http.request(method, url);
    for (name, value) in headers {
        request = request.header(*name, value.as_str());
    }
    if let Some(body) = body {
        request = request.body(body);
    }
    let mut response = request.send().await.map_err(|e| failed(e.to_string()))?;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| failed(e.to_string()))? {
        if bytes.len() + chunk.len() > MAX_BODY {
            return Err(failed(format!("an answer over {MAX_BODY} bytes")));
        }
        bytes.extend_from_slice(&chunk);
    }
    let body = String::from_utf8(bytes).map_err(|_| failed("an answer not in UTF-8".into()))?;
    Ok(Reply {
        status,
        headers,
        body,
    })
}

/// POSTs a form (`application/x-www-form-urlencoded`).
pub(super) async fn post_form(
    http: &reqwest::Client,
    url: &str,
    mut headers: Vec<(&str, String)>,
    form: &[(&str, &str)],
) -> Result<Reply, AuthorizeError> {
    headers.push((
        CONTENT_TYPE.as_str(),
        "application/x-www-form-urlencoded".to_owned(),
    ));
    let body = crate::auth::form::encode(form.iter().copied());
    fetch(http, Method::POST, url, &headers, Some(body)).await
}
