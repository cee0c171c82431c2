//! The server over Streamable HTTP: the crate's service (`StreamableHttp`, feature
//! `http-server`) served by axum, with what the suite asks beyond the defaults (the loopback
//! names alone in `Host`, every session's `tools/call` on a resumable stream that
//! `test_reconnection` closes before its answer, the delay a client waits to resume it), and
//! OAuth in front of it with the `auth` feature.

use crate::handler::Conformance;
use axum::body::Body;
#[cfg(feature = "auth")]
use axum::http::Request;
use axum::http::{header, Response, StatusCode};
use mcp_spec_types::server::{Server, StreamableHttp};
use std::time::Duration;

/// How long a client waits before it resumes a stream the server closed (SEP-1699).
const RETRY: Duration = Duration::from_millis(500);

/// The application: `/mcp`, the protected resource's documents with OAuth, 404 elsewhere.
pub fn app(server: Server<Conformance>) -> axum::Router {
    let service = StreamableHttp::new(server)
        .with_allowed_hosts(["localhost", "127.0.0.1", "::1"])
        .with_call_streams()
        .with_retry(RETRY);
    let app = axum::Router::new()
        .route_service("/mcp", service)
        .fallback(not_found);
    #[cfg(feature = "auth")]
    let app = app.layer(axum::middleware::from_fn(guard));
    app
}

async fn not_found() -> Response<Body> {
    json(StatusCode::NOT_FOUND, String::new())
}

/// A response with `status` and a JSON body.
fn json(status: StatusCode, body: String) -> Response<Body> {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    let json = header::HeaderValue::from_static("application/json");
    response.headers_mut().insert(header::CONTENT_TYPE, json);
    response
}

/// OAuth in front of the service, once enabled: the protected resource's metadata documents,
/// and `/mcp` refused without a token the issuer vouches for, with the scopes what the body
/// asks for needs.
#[cfg(feature = "auth")]
async fn guard(request: Request<Body>, next: axum::middleware::Next) -> Response<Body> {
    if !crate::auth::enabled() {
        return next.run(request).await;
    }
    let path = request.uri().path().to_owned();
    if let Some(document) = crate::auth::metadata_response(&path, request.headers()) {
        return json(StatusCode::OK, document);
    }
    if path != "/mcp" {
        return next.run(request).await;
    }
    let granted = match crate::auth::check(request.headers()).await {
        Ok(Some(granted)) => granted,
        Ok(None) => return next.run(request).await,
        Err(denial) => return denied(&denial),
    };
    // The body decides the scopes: read it here, then hand it on to the service.
    let (parts, body) = request.into_parts();
    let limit = StreamableHttp::<Conformance>::DEFAULT_BODY_LIMIT;
    let Ok(bytes) = axum::body::to_bytes(body, limit).await else {
        return json(StatusCode::PAYLOAD_TOO_LARGE, String::new());
    };
    let text = String::from_utf8_lossy(&bytes);
    if let Err(denial) = crate::auth::check_body(&granted, &parts.headers, &text) {
        return denied(&denial);
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// 401 or 403 with the challenge of an OAuth protected resource.
#[cfg(feature = "auth")]
fn denied(denial: &crate::auth::Denial) -> Response<Body> {
    let mut response = json(denial.status, denial.body());
    if let Ok(value) = header::HeaderValue::from_str(&denial.header()) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}
