//! The authorization response a redirect carries back to the client (RFC 6749 §4.1.2 and
//! §4.1.2.1, RFC 9207 §2), and the checks before its code may be used.

use super::metadata::AuthorizationServerMetadata;
use super::token::OAuthErrorCode;
use super::url::HttpUrl;
use super::AuthError;
use super::{form, issuer};
use crate::prelude::*;
use core::fmt;

/// The parameters of an authorization response: a `code` or an `error`, with `state` and
/// `iss`. Parameters the RFCs do not define are ignored.
///
/// `Debug` leaves the code out.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct AuthorizationResponse {
    /// `code`: the authorization code (RFC 6749 §4.1.2).
    pub code: Option<String>,
    /// `state`: the value the client sent (RFC 6749 §4.1.2).
    pub state: Option<String>,
    /// `iss`: the authorization server's issuer identifier (RFC 9207 §2).
    pub iss: Option<String>,
    /// `error` (RFC 6749 §4.1.2.1).
    pub error: Option<OAuthErrorCode>,
    /// `error_description` (RFC 6749 §4.1.2.1).
    pub error_description: Option<String>,
    /// `error_uri` (RFC 6749 §4.1.2.1).
    pub error_uri: Option<String>,
}

impl AuthorizationResponse {
    /// Reads the parameters of a redirect's query (`code=…&state=…&iss=…`, without `?`),
    /// decoded (RFC 9207 §2.4: `iss` is compared after form decoding). A repeated parameter
    /// keeps its first value.
    pub fn from_query(query: &str) -> Self {
        let mut response = AuthorizationResponse::default();
        for (name, value) in form::parse(query) {
            let slot = match name.as_str() {
                "code" => &mut response.code,
                "state" => &mut response.state,
                "iss" => &mut response.iss,
                "error_description" => &mut response.error_description,
                "error_uri" => &mut response.error_uri,
                "error" => {
                    response
                        .error
                        .get_or_insert_with(|| OAuthErrorCode::from(value.as_str()));
                    continue;
                }
                _ => continue,
            };
            slot.get_or_insert(value);
        }
        response
    }

    /// Reads the query of the URL the authorization server redirected to (its `Location`).
    pub fn from_redirect(url: &str) -> Result<Self, AuthError> {
        let url = HttpUrl::parse(url, "redirect")?;
        Ok(AuthorizationResponse::from_query(url.query.unwrap_or("")))
    }

    /// [`from_redirect`](Self::from_redirect), refusing a `location` that does not lead back
    /// to `redirect_uri` (RFC 6749 §3.1.2, §10.6): scheme, authority and path must be those of
    /// `redirect_uri`, as text, and a query `redirect_uri` carries must begin the location's.
    /// The error shows neither URL: a location carries the code.
    ///
    /// ```
    /// use mcp_spec_types::auth::{AuthError, AuthorizationResponse};
    /// let back = "http://localhost:3000/callback?code=c&state=s";
    /// assert!(AuthorizationResponse::from_redirect_to(back, "http://localhost:3000/callback").is_ok());
    /// assert_eq!(
    ///     AuthorizationResponse::from_redirect_to("https://evil.example.com/callback?code=c", "http://localhost:3000/callback"),
    ///     Err(AuthError::RedirectMismatch),
    /// );
    /// ```
    pub fn from_redirect_to(location: &str, redirect_uri: &str) -> Result<Self, AuthError> {
        let location_url = HttpUrl::parse(location, "redirect")?;
        let expected = HttpUrl::parse(redirect_uri, "redirect_uri")?;
        let same_endpoint = location_url.scheme == expected.scheme
            && location_url.authority == expected.authority
            && location_url.path == expected.path;
        let query_kept = match expected.query {
            Some(own) => location_url.query.is_some_and(|q| q.starts_with(own)),
            None => true,
        };
        if !(same_endpoint && query_kept) {
            return Err(AuthError::RedirectMismatch);
        }
        Ok(AuthorizationResponse::from_query(
            location_url.query.unwrap_or(""),
        ))
    }

    /// The checks before the code may go to the token endpoint, in the order that keeps a
    /// forged response from being acted on:
    ///
    /// 1. `iss` against the metadata of the server the request went to
    ///    ([`issuer::check_authorization_response`]; 2026-07-28: on a mismatch the client must
    ///    not act on the response, error included);
    /// 2. `state` equal to the value sent (RFC 6749 §10.12);
    /// 3. an `error` is returned as [`AuthError::AuthorizationRefused`];
    /// 4. the `code`, which must be there.
    ///
    /// ```
    /// use mcp_spec_types::auth::{AuthError, AuthorizationResponse, AuthorizationServerMetadata};
    /// let mut metadata = AuthorizationServerMetadata::new("https://as.example.com");
    /// metadata.authorization_response_iss_parameter_supported = Some(true);
    /// let response = AuthorizationResponse::from_redirect(
    ///     "http://localhost:3000/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz&iss=https%3A%2F%2Fas.example.com",
    /// ).unwrap();
    /// assert_eq!(response.check("xyz", &metadata).unwrap(), "SplxlOBeZQQYbYS6WxSbIA");
    /// assert_eq!(response.check("abc", &metadata), Err(AuthError::StateMismatch));
    /// ```
    pub fn check(
        &self,
        state: &str,
        metadata: &AuthorizationServerMetadata,
    ) -> Result<&str, AuthError> {
        issuer::check_authorization_response(metadata, self.iss.as_deref())?;
        if self.state.as_deref() != Some(state) {
            return Err(AuthError::StateMismatch);
        }
        if let Some(error) = &self.error {
            return Err(AuthError::AuthorizationRefused {
                error: error.clone(),
                description: self.error_description.clone(),
            });
        }
        self.code.as_deref().ok_or(AuthError::MissingCode)
    }
}

impl fmt::Debug for AuthorizationResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthorizationResponse")
            .field("code", &self.code.as_ref().map(|_| "<redacted>"))
            .field("state", &self.state.as_ref().map(|_| "<redacted>"))
            .field("iss", &self.iss)
            .field("error", &self.error)
            .field("error_description", &self.error_description)
            .field("error_uri", &self.error_uri)
            .finish()
    }
}
