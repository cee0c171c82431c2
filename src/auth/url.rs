//! The parts of an absolute `http`/`https` URL that the discovery rules need (RFC 3986 §3):
//! scheme, authority, path, query and fragment, as slices of the text.
//!
//! Only this much is parsed: the rules insert and append path segments and compare origins,
//! and the text of each part is kept exactly as written (no normalization), because issuer and
//! resource comparisons are on the exact text.

use super::AuthError;
use crate::prelude::*;

/// An absolute `http` or `https` URL split into its RFC 3986 §3 components.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HttpUrl<'a> {
    pub(crate) scheme: &'a str,
    pub(crate) authority: &'a str,
    /// Empty or starting with `/`.
    pub(crate) path: &'a str,
    pub(crate) query: Option<&'a str>,
    pub(crate) fragment: Option<&'a str>,
}

impl<'a> HttpUrl<'a> {
    /// Splits `text`; `argument` names the caller's argument in the error (the URL itself is
    /// left out of errors: a redirect URL can carry a code).
    pub(crate) fn parse(text: &'a str, argument: &'static str) -> Result<Self, AuthError> {
        let invalid = |reason| AuthError::InvalidUrl { argument, reason };
        let (scheme, rest) = text
            .split_once("://")
            .ok_or(invalid("not an absolute URL (no `scheme://`)"))?;
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            return Err(invalid("the scheme is neither http nor https"));
        }
        if text.bytes().any(|b| b <= b' ' || b == 0x7f || b == b'\\') {
            return Err(invalid("contains whitespace, a control character or `\\`"));
        }
        let (before_fragment, fragment) = match rest.split_once('#') {
            Some((before, fragment)) => (before, Some(fragment)),
            None => (rest, None),
        };
        let (before_query, query) = match before_fragment.split_once('?') {
            Some((before, query)) => (before, Some(query)),
            None => (before_fragment, None),
        };
        let (authority, path) = match before_query.find('/') {
            Some(slash) => before_query.split_at(slash),
            None => (before_query, ""),
        };
        let host = authority
            .rsplit_once('@')
            .map_or(authority, |(_, host)| host);
        if host.is_empty() || host.starts_with(':') {
            return Err(invalid("has no host"));
        }
        Ok(HttpUrl {
            scheme,
            authority,
            path,
            query,
            fragment,
        })
    }

    /// `scheme://authority`, as written.
    pub(crate) fn origin(&self) -> String {
        format!("{}://{}", self.scheme, self.authority)
    }

    /// The path without a terminating `/` (RFC 8414 §3.1: "any terminating `/` MUST be removed
    /// before inserting `/.well-known/`"); empty for the root.
    pub(crate) fn path_without_trailing_slash(&self) -> &'a str {
        self.path.strip_suffix('/').unwrap_or(self.path)
    }

    /// `origin/.well-known/{suffix}{path}?{query}`: the well-known URI inserted between the
    /// host and the path and/or query (RFC 9728 §3.1, RFC 8414 §3.1, whose issuers have no
    /// query). The fragment is not part of it.
    pub(crate) fn insert_well_known(&self, suffix: &str) -> String {
        let mut url = format!(
            "{}/.well-known/{suffix}{}",
            self.origin(),
            self.path_without_trailing_slash()
        );
        if let Some(query) = self.query {
            url.push('?');
            url.push_str(query);
        }
        url
    }

    /// `origin{path}/.well-known/{suffix}`: the well-known URI appended to the path
    /// (OpenID Connect Discovery 1.0 §4; an issuer has no query).
    pub(crate) fn append_well_known(&self, suffix: &str) -> String {
        format!(
            "{}{}/.well-known/{suffix}",
            self.origin(),
            self.path_without_trailing_slash()
        )
    }

    /// The origin with the scheme and host in lower case (RFC 3986 §6.2.2.1: they are
    /// case-insensitive), the userinfo and port as written.
    pub(crate) fn lowercase_origin(&self) -> String {
        format!(
            "{}://{}",
            self.scheme.to_ascii_lowercase(),
            lowercase_host(self.authority)
        )
    }
}

/// The authority with its host in lower case; a userinfo part keeps its case.
fn lowercase_host(authority: &str) -> String {
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => format!("{userinfo}@{}", host.to_ascii_lowercase()),
        None => authority.to_ascii_lowercase(),
    }
}
