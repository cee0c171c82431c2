//! The provider: what a deployment configures, and how it plugs into a connection.

use super::browser::Browser;
use super::settings::{ClientIdentity, Grant};
use super::state::State;
use super::store::{MemoryStore, TokenStore};
use crate::client::{CallError, Client, Connection};
use crate::prelude::*;
use core::future::Future;
use core::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

/// The name a dynamically registered client gives itself unless told otherwise.
const CLIENT_NAME: &str = "mcp-spec-types client";

/// What the provider is configured with.
#[derive(Clone)]
pub(super) struct Config {
    pub server_url: String,
    pub redirect_uri: String,
    pub http: reqwest::Client,
    pub browser: Option<Arc<dyn Browser>>,
    pub client: Option<ClientIdentity>,
    pub metadata_document: Option<String>,
    pub client_name: String,
    pub grant: Grant,
    pub store: Arc<dyn TokenStore>,
}

/// Authorization for the MCP server at one URL: answers its challenges by running the
/// authorization flow (see [the module](super)), keeps the tokens, and presents them on
/// every request. Clones share the tokens.
///
/// ```no_run
/// # async fn run() -> Result<(), mcp_spec_types::client::CallError> {
/// use mcp_spec_types::client::oauth::OAuth;
/// use mcp_spec_types::client::{Client, Connection};
/// use mcp_spec_types::v2026_07_28::Implementation;
///
/// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback")
///     .with_metadata_document("https://app.example.com/oauth/client.json")
///     .with_browser(|url: String| async move {
///         // Show `url`, then give back the redirect the callback listener received.
///         Err::<String, _>(format!("sign in at {url}"))
///     });
/// let client = Client::new(Implementation::new("me", "0.1.0"));
/// let server = Connection::http_via("https://mcp.example.com/mcp", client, oauth.sender()).await?;
/// # let _ = server; Ok(()) }
/// ```
#[derive(Clone)]
pub struct OAuth {
    pub(super) config: Config,
    pub(super) state: Arc<tokio::sync::Mutex<State>>,
}

impl core::fmt::Debug for OAuth {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OAuth")
            .field("server_url", &self.config.server_url)
            .field("redirect_uri", &self.config.redirect_uri)
            .field("client", &self.config.client)
            .field("metadata_document", &self.config.metadata_document)
            .field("grant", &self.config.grant)
            .field("browser", &self.config.browser.is_some())
            .finish_non_exhaustive()
    }
}

impl OAuth {
    /// The provider for the MCP server at `server_url`, whose authorization code grants
    /// come back to `redirect_uri` (registered with the authorization server, or in the
    /// client's metadata document). Defaults: dynamic registration, the authorization code
    /// grant, tokens in memory, no browser (set one with [`with_browser`](Self::with_browser)
    /// for the authorization code grant), and a reqwest client that follows no redirect,
    /// with a 10 s connect timeout.
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::OAuth;
    /// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback");
    /// # let _ = oauth;
    /// ```
    pub fn new(server_url: impl Into<String>, redirect_uri: impl Into<String>) -> Self {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(10))
            .build()
            .unwrap_or_default();
        OAuth {
            config: Config {
                server_url: server_url.into(),
                redirect_uri: redirect_uri.into(),
                http,
                browser: None,
                client: None,
                metadata_document: None,
                client_name: CLIENT_NAME.to_owned(),
                grant: Grant::default(),
                store: Arc::new(MemoryStore::new()),
            },
            state: Arc::default(),
        }
    }

    /// The browser that shows the user the authorization page and brings the redirect back
    /// (needed by the authorization code grant).
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::OAuth;
    /// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback")
    ///     .with_browser(|url: String| async move { Err::<String, _>(format!("open {url}")) });
    /// # let _ = oauth;
    /// ```
    pub fn with_browser(mut self, browser: impl Browser + 'static) -> Self {
        self.config.browser = Some(Arc::new(browser));
        self
    }

    /// A client registered beforehand: used at every authorization server, in place of a
    /// metadata document or a registration.
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::{ClientIdentity, OAuth};
    /// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback")
    ///     .with_client(ClientIdentity::public("my-client"));
    /// # let _ = oauth;
    /// ```
    pub fn with_client(mut self, client: ClientIdentity) -> Self {
        self.config.client = Some(client);
        self
    }

    /// The `https` URL of the client's metadata document, its `client_id` at an
    /// authorization server that takes client ID metadata documents
    /// (`client_id_metadata_document_supported`); another server gets a registration.
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::OAuth;
    /// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback")
    ///     .with_metadata_document("https://app.example.com/oauth/client.json");
    /// # let _ = oauth;
    /// ```
    pub fn with_metadata_document(mut self, url: impl Into<String>) -> Self {
        self.config.metadata_document = Some(url.into());
        self
    }

    /// The `client_name` a dynamic registration sends.
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::OAuth;
    /// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback")
    ///     .with_client_name("Example Desktop");
    /// # let _ = oauth;
    /// ```
    pub fn with_client_name(mut self, name: impl Into<String>) -> Self {
        self.config.client_name = name.into();
        self
    }

    /// The grant a token is asked for with ([`Grant`]; the authorization code by default).
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::{Grant, OAuth};
    /// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback")
    ///     .with_grant(Grant::JwtBearer("a workload's JWT".to_owned()));
    /// # let _ = oauth;
    /// ```
    pub fn with_grant(mut self, grant: Grant) -> Self {
        self.config.grant = grant;
        self
    }

    /// Where the tokens are kept ([`MemoryStore`] by default). Tokens it holds already are
    /// presented from the first request.
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::{MemoryStore, OAuth};
    /// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback")
    ///     .with_store(MemoryStore::new());
    /// # let _ = oauth;
    /// ```
    pub fn with_store(mut self, store: impl TokenStore + 'static) -> Self {
        self.config.store = Arc::new(store);
        self
    }

    /// The reqwest client of every request, the MCP server's and the authorization
    /// parties' (its timeouts, proxies, TLS roots). It should follow no redirect: a
    /// redirect would carry the token elsewhere.
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::OAuth;
    /// let http = reqwest::Client::builder()
    ///     .redirect(reqwest::redirect::Policy::none())
    ///     .build()
    ///     .expect("a client");
    /// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback")
    ///     .with_http(http);
    /// # let _ = oauth;
    /// ```
    pub fn with_http(mut self, http: reqwest::Client) -> Self {
        self.config.http = http;
        self
    }

    /// The sender of [`Connection::http_via`] and
    /// [`HttpOptions::connect_via`](crate::client::HttpOptions::connect_via): each
    /// request goes out with the token, and a refused one is authorized and sent again
    /// ([`OAuth::send`]); the error is [`AuthorizeError`](super::AuthorizeError)'s text.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcp_spec_types::client::CallError> {
    /// use mcp_spec_types::client::oauth::OAuth;
    /// use mcp_spec_types::client::{Client, HttpOptions};
    /// use mcp_spec_types::v2026_07_28::Implementation;
    /// use std::time::Duration;
    ///
    /// let url = "https://mcp.example.com/mcp";
    /// let oauth = OAuth::new(url, "http://127.0.0.1:8976/callback");
    /// let client = Client::new(Implementation::new("me", "0.1.0"));
    /// let server = HttpOptions::new()
    ///     .with_call_timeout(Duration::from_secs(600))
    ///     .connect_via(url, client, oauth.sender())
    ///     .await?;
    /// # let _ = server; Ok(()) }
    /// ```
    pub fn sender(&self) -> impl Fn(http::Request<String>) -> Sending + Send + Sync + 'static {
        let oauth = self.clone();
        move |request| {
            let oauth = oauth.clone();
            Box::pin(async move { oauth.send(request).await.map_err(|e| e.to_string()) })
        }
    }

    /// Connects `client` to the MCP server over Streamable HTTP, authorized by this
    /// provider ([`Connection::http_via`] with [`OAuth::sender`]).
    ///
    /// # Errors
    ///
    /// As [`Connection::http`]; an authorization that failed is a
    /// [`CallError::Transport`] with the [`AuthorizeError`](super::AuthorizeError)'s text.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcp_spec_types::client::CallError> {
    /// use mcp_spec_types::client::oauth::OAuth;
    /// use mcp_spec_types::client::Client;
    /// use mcp_spec_types::v2026_07_28::Implementation;
    ///
    /// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback");
    /// let server = oauth.connect(Client::new(Implementation::new("me", "0.1.0"))).await?;
    /// # let _ = server; Ok(()) }
    /// ```
    pub async fn connect(&self, client: Client) -> Result<Connection, CallError> {
        let url = self.config.server_url.clone();
        Connection::http_via(url, client, self.sender()).await
    }
}

/// A request on its way, as [`OAuth::sender`] gives it.
pub type Sending =
    Pin<Box<dyn Future<Output = Result<http::Response<reqwest::Body>, String>> + Send + 'static>>;
