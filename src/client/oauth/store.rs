//! Where the tokens are kept: a part a deployment owns (a keychain, a file, a database).

use crate::auth::TokenResponse;
use std::sync::Mutex;

/// Keeps the tokens of one MCP server between requests (and, for a store that persists
/// them, between runs). The provider reads it before each request and writes it after each
/// token response, a refreshed one with the refresh token it replaces when the server sent
/// none; `save(None)` forgets tokens the server no longer takes.
///
/// ```
/// use mcp_spec_types::auth::TokenResponse;
/// use mcp_spec_types::client::oauth::{MemoryStore, TokenStore};
///
/// let store = MemoryStore::new();
/// store.save(Some(TokenResponse::new("an access token", "Bearer")));
/// assert_eq!(store.load().map(|t| t.token_type), Some("Bearer".to_owned()));
/// ```
pub trait TokenStore: Send + Sync {
    /// The tokens kept, if any.
    fn load(&self) -> Option<TokenResponse>;
    /// Keeps `tokens` in place of those kept (`None`: none).
    fn save(&self, tokens: Option<TokenResponse>);
}

/// A [`TokenStore`] in memory: the tokens last as long as the provider. The default.
#[derive(Default)]
pub struct MemoryStore {
    tokens: Mutex<Option<TokenResponse>>,
}

impl MemoryStore {
    /// An empty store.
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::{MemoryStore, TokenStore};
    /// assert!(MemoryStore::new().load().is_none());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }
}

impl core::fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // `TokenResponse`'s own `Debug` leaves the tokens out.
        f.debug_struct("MemoryStore")
            .field("tokens", &self.load())
            .finish()
    }
}

impl TokenStore for MemoryStore {
    fn load(&self) -> Option<TokenResponse> {
        self.tokens
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn save(&self, tokens: Option<TokenResponse>) {
        *self.tokens.lock().unwrap_or_else(|p| p.into_inner()) = tokens;
    }
}
