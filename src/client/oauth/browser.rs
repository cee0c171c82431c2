//! The part of the authorization code grant a deployment owns: showing the user the
//! authorization server's page and receiving the redirect back.

use crate::prelude::*;
use core::future::Future;
use core::pin::Pin;

/// A boxed future of a [`Browser`]'s answer.
pub type BrowserFuture = Pin<Box<dyn Future<Output = Result<String, String>> + Send + 'static>>;

/// Opens the authorization URL for the user and gives back where the authorization server
/// redirected the browser: the whole redirect URL (checked to lead back to the provider's
/// redirect URI) or its query alone (`code=…&state=…&iss=…`, as a callback listener reads
/// it). The provider checks `state` and `iss` before it uses the code. An error is the
/// deployment's reason, reported as [`AuthorizeError::Browser`](super::AuthorizeError::Browser).
///
/// Any `Fn(String) -> impl Future<Output = Result<String, String>>` is a browser:
///
/// ```
/// use mcp_spec_types::client::oauth::OAuth;
///
/// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback")
///     .with_browser(|url: String| async move {
///         eprintln!("Open this page to sign in: {url}");
///         // A real deployment listens on 127.0.0.1:8976 for the redirect.
///         Err::<String, _>("no listener in this example".to_owned())
///     });
/// # let _ = oauth;
/// ```
pub trait Browser: Send + Sync {
    /// Shows `url` (the authorization request) to the user; resolves to the redirect.
    fn authorize(&self, url: String) -> BrowserFuture;
}

impl<F, Fut> Browser for F
where
    F: Fn(String) -> Fut + Send + Sync,
    Fut: Future<Output = Result<String, String>> + Send + 'static,
{
    fn authorize(&self, url: String) -> BrowserFuture {
        Box::pin(self(url))
    }
}
