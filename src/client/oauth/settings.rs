//! What a deployment tells the provider: the grant to ask tokens with, and the client identity
//! it registered beforehand.

use crate::prelude::*;

/// How the provider asks for a token when it holds none it can refresh.
///
/// With [`Grant::AuthorizationCode`] (the default) the user signs in through the
/// [`Browser`](super::Browser); where the authorization server offers no authorization code
/// grant but the client credentials grant, a client with credentials of its own
/// ([`OAuth::with_client`](super::OAuth::with_client)) uses that. The assertion grants fall back likewise where the
/// server takes no JWT bearer grant.
///
/// ```
/// use mcp_spec_types::client::oauth::{ClientIdentity, Grant, OAuth};
///
/// // A machine client: no user, no browser (the client credentials extension).
/// let oauth = OAuth::new("https://mcp.example.com/mcp", "http://127.0.0.1:8976/callback")
///     .with_client(ClientIdentity::with_secret("reporting-job", "s3cret"))
///     .with_grant(Grant::ClientCredentials);
/// # let _ = oauth;
/// ```
#[derive(Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Grant {
    /// The authorization code grant with PKCE (OAuth 2.1 §4.1).
    #[default]
    AuthorizationCode,
    /// The client credentials grant (OAuth 2.1 §4.2): the client asks for itself.
    ClientCredentials,
    /// The JWT bearer grant (RFC 7523 §2.1) with this assertion: a workload's identity token.
    JwtBearer(String),
    /// Enterprise-managed authorization: the user's ID token exchanged at the identity
    /// provider's token endpoint (RFC 8693) for an identity assertion JWT authorization grant
    /// (ID-JAG), which the authorization server takes as a JWT bearer grant.
    IdJag {
        /// The identity provider's token endpoint.
        idp_token_endpoint: String,
        /// The user's ID token there.
        id_token: String,
        /// The client's `client_id` at the identity provider, if it needs one.
        idp_client_id: Option<String>,
    },
}

impl core::fmt::Debug for Grant {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Grant::AuthorizationCode => f.write_str("AuthorizationCode"),
            Grant::ClientCredentials => f.write_str("ClientCredentials"),
            Grant::JwtBearer(_) => f.write_str("JwtBearer(<redacted>)"),
            Grant::IdJag {
                idp_token_endpoint,
                idp_client_id,
                ..
            } => f
                .debug_struct("IdJag")
                .field("idp_token_endpoint", idp_token_endpoint)
                .field("id_token", &"<redacted>")
                .field("idp_client_id", idp_client_id)
                .finish(),
        }
    }
}

/// A client registered with the authorization server beforehand: its `client_id` and how it
/// authenticates at the token endpoint (none, a secret, or a private key). `Debug` leaves
/// the secret and the key out.
///
/// ```
/// use mcp_spec_types::client::oauth::ClientIdentity;
/// let client = ClientIdentity::with_secret("my-client", "s3cret");
/// assert!(!format!("{client:?}").contains("s3cret"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct ClientIdentity {
    pub(super) client_id: String,
    pub(super) secret: Option<String>,
    /// The PEM private key and JWS algorithm of `private_key_jwt`.
    pub(super) private_key: Option<(String, String)>,
}

impl ClientIdentity {
    /// A public client (`token_endpoint_auth_method` `none`).
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::ClientIdentity;
    /// assert_eq!(ClientIdentity::public("my-client").client_id(), "my-client");
    /// ```
    pub fn public(client_id: impl Into<String>) -> Self {
        ClientIdentity {
            client_id: client_id.into(),
            secret: None,
            private_key: None,
        }
    }

    /// A confidential client with a secret: `client_secret_basic` or `client_secret_post`,
    /// whichever the server supports (basic first).
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::ClientIdentity;
    /// let client = ClientIdentity::with_secret("my-client", "s3cret");
    /// # let _ = client;
    /// ```
    pub fn with_secret(client_id: impl Into<String>, secret: impl Into<String>) -> Self {
        ClientIdentity {
            secret: Some(secret.into()),
            ..Self::public(client_id)
        }
    }

    /// A client that authenticates with a JWT signed by its private key (`private_key_jwt`,
    /// RFC 7523 §2.2): `pem` a PKCS#8 PEM key, `algorithm` its JWS `alg` (`ES256`, `RS256`,
    /// `EdDSA`...).
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::ClientIdentity;
    /// let client = ClientIdentity::private_key_jwt("my-client", "-----BEGIN PRIVATE KEY-----…", "ES256");
    /// # let _ = client;
    /// ```
    pub fn private_key_jwt(
        client_id: impl Into<String>,
        pem: impl Into<String>,
        algorithm: impl Into<String>,
    ) -> Self {
        ClientIdentity {
            private_key: Some((pem.into(), algorithm.into())),
            ..Self::public(client_id)
        }
    }

    /// The `client_id`.
    ///
    /// ```
    /// use mcp_spec_types::client::oauth::ClientIdentity;
    /// assert_eq!(ClientIdentity::public("c").client_id(), "c");
    /// ```
    pub fn client_id(&self) -> &str {
        &self.client_id
    }
}

impl core::fmt::Debug for ClientIdentity {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ClientIdentity")
            .field("client_id", &self.client_id)
            .field("secret", &self.secret.as_ref().map(|_| "<redacted>"))
            .field(
                "private_key",
                &self.private_key.as_ref().map(|(_, alg)| alg),
            )
            .finish()
    }
}
