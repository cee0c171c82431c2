//! The JSON Web Tokens the client signs: client assertions (RFC 7523) and DPoP proofs
//! (RFC 9449). Signing is `jsonwebtoken`'s; this file only says what the tokens hold.

use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use serde_json::json;
use std::time::{SystemTime, UNIX_EPOCH};

/// How long an assertion is good for: long enough to reach the token endpoint, short enough
/// that a leaked one is soon useless.
const ASSERTION_LIFETIME: u64 = 300;

/// Seconds since the epoch.
fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// A random `jti`.
fn jti() -> Result<String, String> {
    use base64::Engine;
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness: {e}"))?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// The `private_key_jwt` client assertion (RFC 7523 §2.2, §3): issued by and about the
/// client, for the authorization server `audience` (its issuer identifier), signed with the
/// PEM key with `algorithm` (a JWS `alg` name).
pub fn client_assertion(
    pem: &str,
    algorithm: &str,
    client_id: &str,
    audience: &str,
) -> Result<String, String> {
    let algorithm: Algorithm = algorithm
        .parse()
        .map_err(|_| format!("unknown signing algorithm {algorithm}"))?;
    let key = match algorithm {
        Algorithm::ES256 | Algorithm::ES384 => EncodingKey::from_ec_pem(pem.as_bytes()),
        Algorithm::EdDSA => EncodingKey::from_ed_pem(pem.as_bytes()),
        _ => EncodingKey::from_rsa_pem(pem.as_bytes()),
    }
    // The key's own error might quote it: only its kind is said.
    .map_err(|_| "the client's private key is not a PEM key of its algorithm".to_owned())?;
    let issued = now();
    let claims = json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": issued,
        "exp": issued + ASSERTION_LIFETIME,
        "jti": jti()?,
    });
    encode(&Header::new(algorithm), &claims, &key).map_err(|e| format!("signing: {e}"))
}

/// A DPoP key pair (RFC 9449): P-256, made for this run, its public half sent in each proof.
pub struct DpopKey {
    key: EncodingKey,
    jwk: jsonwebtoken::jwk::Jwk,
}

impl DpopKey {
    /// A fresh key pair.
    pub fn generate() -> Result<Self, String> {
        use p256::pkcs8::EncodePrivateKey;
        // A random scalar out of range is vanishingly rare; another draw fixes it.
        let secret = (0..4)
            .find_map(|_| {
                let mut bytes = [0u8; 32];
                getrandom::fill(&mut bytes).ok()?;
                p256::SecretKey::from_slice(&bytes).ok()
            })
            .ok_or("no DPoP key could be made")?;
        let der = secret
            .to_pkcs8_der()
            .map_err(|_| "the DPoP key could not be encoded".to_owned())?;
        let key = EncodingKey::from_ec_der(der.as_bytes());
        let jwk = jsonwebtoken::jwk::Jwk::from_encoding_key(&key, Algorithm::ES256)
            .map_err(|e| format!("the DPoP key's JWK: {e}"))?;
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
    ) -> Result<String, String> {
        use base64::Engine;
        use sha2::Digest;
        let htu = url.split(['?', '#']).next().unwrap_or(url);
        let mut claims = json!({
            "jti": jti()?,
            "htm": method,
            "htu": htu,
            "iat": now(),
        });
        if let Some(token) = access_token {
            let hash = sha2::Sha256::digest(token.as_bytes());
            claims["ath"] = base64::engine::general_purpose::URL_SAFE_NO_PAD
                .encode(hash)
                .into();
        }
        if let Some(nonce) = nonce {
            claims["nonce"] = nonce.into();
        }
        let mut header = Header::new(Algorithm::ES256);
        header.typ = Some("dpop+jwt".to_owned());
        header.jwk = Some(self.jwk.clone());
        encode(&header, &claims, &self.key).map_err(|e| format!("signing: {e}"))
    }
}
