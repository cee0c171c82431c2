//! Authorization as part of the HTTP client (feature `oauth`): an [`OAuth`] provider that
//! runs the specification's authorization flow for a connection over Streamable HTTP.
//!
//! A request the server refuses for want of authorization (401, or 403 with
//! `insufficient_scope`) is authorized and sent again:
//!
//! 1. **Discovery.** The protected resource metadata (RFC 9728) at the challenge's
//!    `resource_metadata`, else at the well-known URLs (its `resource` must be the server);
//!    then its authorization server's metadata (RFC 8414, OpenID Connect Discovery; its
//!    `issuer` must be the one looked up). A server without protected resource metadata
//!    gets 2025-03-26's rules: the metadata at its origin, else the default endpoints.
//! 2. **A client identity** at that server: the pre-registered one
//!    ([`OAuth::with_client`]), else the client ID metadata document's URL where the server
//!    takes one ([`OAuth::with_metadata_document`]), else dynamic registration (RFC 7591).
//! 3. **A token**: a refresh (RFC 6749 §6) where one is held, else a grant ([`Grant`]): the
//!    authorization code with PKCE S256 through the deployment's [`Browser`] (`state` and
//!    RFC 9207 `iss` checked), client credentials, or a JWT bearer assertion; the scope the
//!    challenge names (a step-up keeps the scopes asked for before), the resource indicator
//!    (RFC 8707), and DPoP-bound (RFC 9449) where the server lists ES256 proofs.
//!
//! The tokens are kept by a [`TokenStore`] ([`MemoryStore`] by default). Tokens, secrets,
//! codes and verifiers never show in `Debug` output or in an error.
//!
//! ```no_run
//! # async fn run() -> Result<(), mcp_spec_types::client::CallError> {
//! use mcp_spec_types::client::oauth::OAuth;
//! use mcp_spec_types::client::Client;
//! use mcp_spec_types::v2026_07_28::Implementation;
//!
//! let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback")
//!     .with_browser(|url: String| async move {
//!         // Open `url` in the user's browser, then wait for the redirect to the callback.
//!         println!("open {url}");
//!         Ok::<_, String>(String::from("http://127.0.0.1:8976/callback?code=…&state=…"))
//!     });
//! let server = oauth.connect(Client::new(Implementation::new("me", "0.1.0"))).await?;
//! let tools = server.list_tools().await?;
//! # let _ = tools; Ok(()) }
//! ```

mod authorizer;
mod browser;
mod discover;
mod dpop;
mod error;
mod fetch;
mod grant;
mod identity;
mod jose;
mod provider;
mod send;
mod settings;
mod state;
mod store;
mod token;

pub use browser::Browser;
pub use browser::BrowserFuture;
pub use error::AuthorizeError;
pub use provider::{OAuth, Sending};
pub use settings::{ClientIdentity, Grant};
pub use store::{MemoryStore, TokenStore};
