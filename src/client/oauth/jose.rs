//! The JSON Web Tokens the client signs: client assertions (RFC 7523) and DPoP proofs
//! (RFC 9449). Signing is `jsonwebtoken`'s; this file says what the tokens hold.

use super::AuthorizeError;
use crate::prelude::*;
use base64::Engine;
use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use serde_json::json;
use std::time::{SystemTime, UNIX_EPOCH};

/// How long an assertion is good for: long enough to reach the token endpoint, short enough
/// that a leaked one is soon useless.
const ASSERTION_LIFETIME: u64 = 300;

/// Seconds since the epoch (the `iat` of what is signed).
fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// `N` bytes from the operating system's generator.
pub(super) fn random<const N: usize>() -> Result<[u8; N], AuthorizeError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes)
        .map_err(|e| AuthorizeError::Signing(format!("no randomness: {e}")))?;
    Ok(bytes)
}

/// base64url without padding.
pub(super) fn base64url(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A random `jti`.
fn jti() -> Result<String, AuthorizeError> {
    Ok(base64url(&random::<16>()?))
}

/// The `private_key_jwt` client assertion (RFC 7523 §2.2, §3): issued by and about the
/// client, for the authorization server `audience` (its issuer identifier), signed with the
/// PEM key with `algorithm` (a JWS `alg` name).
pub(super) fn client_assertion(
    pem: &str,
    algorithm: &str,
    client_id: &str,
    audience: &str,
) -> Result<String, AuthorizeError> {
    let algorithm: Algorithm = algorithm
        .parse()
        .map_err(|_| AuthorizeError::Signing(format!("unknown algorithm {algorithm}")))?;
    let key = match algorithm {
        Algorithm::ES256 | Algorithm::ES384 => EncodingKey::from_ec_pem(pem.as_bytes()),
        Algorithm::EdDSA => EncodingKey::from_ed_pem(pem.as_bytes()),
        _ => EncodingKey::from_rsa_pem(pem.as_bytes()),
    }
    // The key's own error might quote it: only its kind is said.
    .map_err(|_| {
        AuthorizeError::Signing("the private key is not a PEM key of its algorithm".into())
    })?;
    let issued = now();
    let claims = json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": issued,
        "exp": issued + ASSERTION_LIFETIME,
        "jti": jti()?,
    });
    encode(&Header::new(algorithm), &claims, &key)
        .map_err(|e| AuthorizeError::Signing(e.to_string()))
}

/// A DPoP key pair (RFC 9449): P-256, made for the provider, its public half in each proof.
pub(super) struct DpopKey {
    key: EncodingKey,
    jwk: jsonwebtoken::jwk::Jwk,
}

impl DpopKey {
    /// A fresh key pair.
    pub fn generate() -> Result<Self, AuthorizeError> {
        use p256::pkcs8::EncodePrivateKey;
        // A random scalar out of range is vanishingly rare; another draw fixes it.
        let secret = (0..4)
            .find_map(|_| p256::SecretKey::from_slice(&random::<32>().ok()?).ok())
            .ok_or_else(|| AuthorizeError::Signing("no DPoP key could be made".into()))?;
        let der = secret
            .to_pkcs8_der()
            .map_err(|_| AuthorizeError::Signing("the DPoP key could not be encoded".into()))?;
        let key = EncodingKey::from_ec_der(der.as_bytes());
        let jwk = jsonwebtoken::jwk::Jwk::from_encoding_key(&key, Algorithm::ES256)
            .map_err(|e| AuthorizeError::Signing(e.to_string()))?;
        Ok(DpopKey { key, jwk })
    }

    /// A proof for one request (RFC 9449 §4.2): `htm` and `htu` (query and fragment left out),
    /// the server's `nonce` when it gave one, and with an access token its hash `ath`.
    pub fn proof(
        &self,
        method: &str,
        url: &str,
        access_token: Option<&str>,
        nonce: Option<&str>,
    ) -> Result<String, AuthorizeError> {
        use sha2::Digest;
        let htu = url.split(['?', '#']).next().unwrap_or(url);
        let mut claims = json!({
            "jti": jti()?,
            "htm": method,
            "htu": htu,
            "iat": now(),
        });
        if let Some(token) = access_token {
            claims["ath"] = base64url(&sha2::Sha256::digest(token.as_bytes())).into();
        }
        if let Some(nonce) = nonce {
            claims["nonce"] = nonce.into();
        }
        let mut header = Header::new(Algorithm::ES256);
        header.typ = Some("dpop+jwt".to_owned());
        header.jwk = Some(self.jwk.clone());
        encode(&header, &claims, &self.key).map_err(|e| AuthorizeError::Signing(e.to_string()))
    }
}
