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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_every_component() {
        let url = HttpUrl::parse("https://u@Example.COM:8443/a/b/?q=1#frag", "url").unwrap();
        assert_eq!(url.scheme, "https");
        assert_eq!(url.authority, "u@Example.COM:8443");
        assert_eq!(url.path, "/a/b/");
        assert_eq!(url.query, Some("q=1"));
        assert_eq!(url.fragment, Some("frag"));
        assert_eq!(url.path_without_trailing_slash(), "/a/b");
        assert_eq!(url.lowercase_origin(), "https://u@example.com:8443");
    }

    #[test]
    fn root_and_bare_origin() {
        let bare = HttpUrl::parse("http://localhost:3000", "url").unwrap();
        assert_eq!(bare.path, "");
        assert_eq!(bare.query, None);
        let root = HttpUrl::parse("http://localhost:3000/", "url").unwrap();
        assert_eq!(root.path_without_trailing_slash(), "");
        assert_eq!(
            root.insert_well_known("oauth-authorization-server"),
            "http://localhost:3000/.well-known/oauth-authorization-server"
        );
    }

    #[test]
    fn query_before_any_slash_is_not_path() {
        let url = HttpUrl::parse("https://example.com?x=/y", "url").unwrap();
        assert_eq!(url.authority, "example.com");
        assert_eq!(url.path, "");
        assert_eq!(url.query, Some("x=/y"));
    }

    #[test]
    fn insertion_keeps_the_query_and_drops_the_fragment() {
        let url = HttpUrl::parse("https://example.com/r1/?tenant=a#f", "url").unwrap();
        assert_eq!(
            url.insert_well_known("oauth-protected-resource"),
            "https://example.com/.well-known/oauth-protected-resource/r1?tenant=a"
        );
    }

    #[test]
    fn insertion_and_appending() {
        let url = HttpUrl::parse("https://auth.example.com/tenant1/", "issuer").unwrap();
        assert_eq!(
            url.insert_well_known("openid-configuration"),
            "https://auth.example.com/.well-known/openid-configuration/tenant1"
        );
        assert_eq!(
            url.append_well_known("openid-configuration"),
            "https://auth.example.com/tenant1/.well-known/openid-configuration"
        );
    }

    #[test]
    fn refuses_what_is_not_an_absolute_http_url() {
        for (text, reason) in [
            ("mcp.example.com", "not an absolute URL (no `scheme://`)"),
            ("ftp://example.com", "the scheme is neither http nor https"),
            ("https:///path", "has no host"),
            ("https://:443/", "has no host"),
            (
                "https://exa mple.com/",
                "contains whitespace, a control character or `\\`",
            ),
        ] {
            assert_eq!(
                HttpUrl::parse(text, "server_url"),
                Err(AuthError::InvalidUrl {
                    argument: "server_url",
                    reason
                }),
                "{text}"
            );
        }
    }
}
