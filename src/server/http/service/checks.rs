//! The checks made of a request before its body is read.

use crate::prelude::*;

/// Whether any `Accept` of `headers` lists `kind` (or `*/*`), as the engine reads a `GET`'s.
pub(super) fn accepts(headers: &http::HeaderMap, kind: &str) -> bool {
    let listed = headers.get_all(http::header::ACCEPT).iter();
    let listed = listed.filter_map(|accept| accept.to_str().ok());
    listed
        .map(str::trim)
        .any(|accept| crate::server::http::receive::accepts(accept, kind))
}

/// Whether every `Host` of the request, and its URI's authority (HTTP/2's `:authority`, which
/// comes without a `Host`), names the loopback interface or one of `hosts` (the port aside).
pub(super) fn hosts_allowed(request: &http::request::Parts, hosts: &[String]) -> bool {
    let named = |name: &str| {
        is_loopback_name(name) || hosts.iter().any(|host| host.eq_ignore_ascii_case(name))
    };
    if let Some(host) = request.uri.host() {
        if !named(host.trim_start_matches('[').trim_end_matches(']')) {
            return false;
        }
    }
    let headers = &request.headers;
    headers.get_all(http::header::HOST).iter().all(|host| {
        let Ok(authority) = host.to_str() else {
            return false;
        };
        let name = match authority.strip_prefix('[') {
            Some(rest) => rest.split(']').next().unwrap_or_default(),
            None => authority
                .rsplit_once(':')
                .map_or(authority, |(name, _)| name),
        };
        named(name)
    })
}

/// Whether `name` (a host, without port or brackets) names the loopback interface:
/// `localhost`, an address of `127.0.0.0/8`, or `::1`.
pub(super) fn is_loopback_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|address| address.is_loopback())
}
