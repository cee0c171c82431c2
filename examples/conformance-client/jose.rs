//! The JSON Web Tokens the client signs: client assertions (RFC 7523). Signing is
//! `jsonwebtoken`'s; this file only says what the tokens hold.

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
