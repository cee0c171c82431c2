//! The requests the crate's connection sends, over hyper: a request refused for want of
//! authorization is authorized (`oauth.rs`) and sent again; `fetch` is the plain HTTP the
//! OAuth flow uses.

use crate::oauth::{Authorizer, Challenged};
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{ACCEPT, CONTENT_TYPE, HOST};
use hyper::{Method, Request, Response};
use hyper_util::rt::TokioIo;
use std::sync::Arc;

/// Where the server listens, and who gets its access tokens when it asks for them.
#[derive(Clone)]
pub struct Endpoint {
    authority: String,
    path: String,
    auth: Option<Arc<Authorizer>>,
}

/// The parts of an `http://` URL a request needs.
struct Target {
    authority: String,
    /// The path and query (`/` when the URL has no path).
    path: String,
}

fn target(url: &str) -> Result<Target, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("not an http:// URL: {url}"))?;
    // The fragment is the client's own: it is never sent.
    let rest = rest.split('#').next().unwrap_or(rest);
    let (authority, path) = match rest.find(['/', '?']) {
        Some(i) if rest[i..].starts_with('/') => (&rest[..i], rest[i..].to_owned()),
        Some(i) => (&rest[..i], format!("/{}", &rest[i..])),
        None => (rest, "/".to_owned()),
    };
    Ok(Target {
        authority: authority.to_owned(),
        path,
    })
}

impl Endpoint {
    /// Reads `http://host:port/path`. With `auth`, a request the server refuses for want of
    /// authorization (401, or 403 `insufficient_scope`) is authorized and sent again.
    pub fn new(url: &str, auth: Option<Arc<Authorizer>>) -> Result<Self, String> {
        let target = target(url)?;
        Ok(Endpoint {
            authority: target.authority,
            path: target.path,
            auth,
        })
    }

    /// Sends one request on a fresh connection. `Accept` (both types) and, with a body,
    /// `Content-Type: application/json` are added unless `headers` has them, and the access
    /// token when there is one. A challenge is answered by the authorizer, which decides
    /// whether the request is worth sending again (it keeps the retry limits).
    pub async fn send<K: AsRef<str>, V: AsRef<str>>(
        &self,
        method: Method,
        headers: &[(K, V)],
        body: Option<String>,
    ) -> Result<Response<Incoming>, String> {
        let has = |name: &str| {
            headers
                .iter()
                .any(|(k, _)| k.as_ref().eq_ignore_ascii_case(name))
        };
        let mut all: Vec<(String, String)> = Vec::new();
        if !has(ACCEPT.as_str()) {
            all.push((
                ACCEPT.to_string(),
                "application/json, text/event-stream".to_owned(),
            ));
        }
        if body.is_some() && !has(CONTENT_TYPE.as_str()) {
            all.push((CONTENT_TYPE.to_string(), "application/json".to_owned()));
        }
        all.extend(
            headers
                .iter()
                .map(|(k, v)| (k.as_ref().to_owned(), v.as_ref().to_owned())),
        );
        let Some(auth) = &self.auth else {
            return request(&self.authority, &self.path, method, &all, body).await;
        };
        let mut round = auth.round();
        loop {
            let mut sent = all.clone();
            let credential = auth.credential().await;
            if let Some(credential) = &credential {
                sent.extend(credential.headers(&method, &self.url())?);
            }
            let response = request(
                &self.authority,
                &self.path,
                method.clone(),
                &sent,
                body.clone(),
            )
            .await?;
            let Some(challenge) = Challenged::of(&response) else {
                auth.accepted(&response, credential.as_ref()).await;
                return Ok(response);
            };
            auth.answer(&mut round, challenge, credential.as_ref())
                .await?;
        }
    }

    /// The URL requests go to.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.authority, self.path)
    }
}

/// Sends one request on a fresh connection, with exactly `headers` (and `Host`).
async fn request(
    authority: &str,
    path: &str,
    method: Method,
    headers: &[(String, String)],
    body: Option<String>,
) -> Result<Response<Incoming>, String> {
    let stream = tokio::net::TcpStream::connect(authority)
        .await
        .map_err(|e| format!("connecting to {authority}: {e}"))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header(HOST, authority);
    for (name, value) in headers {
        request = request.header(name.as_str(), value.as_str());
    }
    let request = request
        .body(Full::new(Bytes::from(body.unwrap_or_default())))
        .map_err(|e| e.to_string())?;
    sender
        .send_request(request)
        .await
        .map_err(|e| e.to_string())
}

/// A whole answer of a server the OAuth flow talks to.
pub struct Reply {
    pub status: u16,
    pub headers: hyper::HeaderMap,
    pub body: String,
}

impl Reply {
    /// A header's value, when it is text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// One request to `url` (metadata, registration, authorization, token endpoints), answered
/// whole; redirects are not followed (the caller reads `Location`).
pub async fn fetch(
    method: Method,
    url: &str,
    headers: &[(String, String)],
    body: Option<String>,
) -> Result<Reply, String> {
    let target = target(url)?;
    let response = request(&target.authority, &target.path, method, headers, body).await?;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = text(response).await?;
    Ok(Reply {
        status,
        headers,
        body,
    })
}

/// The whole body as text.
pub async fn text(response: Response<Incoming>) -> Result<String, String> {
    let bytes = response
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    String::from_utf8(bytes.to_vec()).map_err(|e| e.to_string())
}
