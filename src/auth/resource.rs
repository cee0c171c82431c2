//! The MCP server's resource indicator (RFC 8707) and the check that protected resource
//! metadata is about that server (RFC 9728 §3.3).

use super::metadata::ProtectedResourceMetadata;
use super::url::HttpUrl;
use super::AuthError;
use crate::prelude::*;

/// The RFC 8707 `resource` parameter for the MCP server at `server_url`: its canonical URI
/// (MCP authorization, "Canonical Server URI", from 2025-06-18): scheme and host in lower
/// case (RFC 3986 §6.2.2.1), no fragment (RFC 8707 §2), no trailing `/` on an empty path;
/// port, path and query as written.
///
/// ```
/// use mcp_spec_types::auth::resource_indicator;
/// assert_eq!(resource_indicator("HTTPS://MCP.Example.com/mcp#x").unwrap(), "https://mcp.example.com/mcp");
/// assert_eq!(resource_indicator("https://mcp.example.com/").unwrap(), "https://mcp.example.com");
/// assert!(resource_indicator("mcp.example.com").is_err());
/// ```
pub fn resource_indicator(server_url: &str) -> Result<String, AuthError> {
    let url = HttpUrl::parse(server_url, "server_url")?;
    let mut canonical = url.lowercase_origin();
    if url.path != "/" {
        canonical.push_str(url.path);
    }
    if let Some(query) = url.query {
        canonical.push('?');
        canonical.push_str(query);
    }
    Ok(canonical)
}

/// Refuses protected resource metadata that is not about the MCP server at `server_url`
/// (RFC 9728 §3.3 and §7.3, MCP authorization: a client must not use metadata whose
/// `resource` does not match): `resource` must have the server's origin (compared as
/// [`resource_indicator`] writes it) and a path that is the server's path or one of its
/// parent paths, whole segments only (`https://example.com` covers
/// `https://example.com/mcp`; `https://example.com/mc` does not).
///
/// A parent path is accepted because metadata found at the root well-known URL describes the
/// origin (RFC 9728 §3.1), and MCP servers publish it there for an endpoint below it; RFC 9728
/// §3.3's letter (identical to the URL the metadata URL was built from) would refuse it.
///
/// ```
/// use mcp_spec_types::auth::{check_resource, ProtectedResourceMetadata};
/// let prm = ProtectedResourceMetadata::new("https://evil.example.com/mcp");
/// assert!(check_resource(&prm, "https://mcp.example.com/mcp").is_err());
/// let prm = ProtectedResourceMetadata::new("https://mcp.example.com");
/// assert!(check_resource(&prm, "https://mcp.example.com/mcp").is_ok());
/// ```
pub fn check_resource(prm: &ProtectedResourceMetadata, server_url: &str) -> Result<(), AuthError> {
    let mismatch = || AuthError::ResourceMismatch {
        resource: prm.resource.clone(),
        server_url: server_url.to_owned(),
    };
    let server = HttpUrl::parse(server_url, "server_url")?;
    let Ok(resource) = HttpUrl::parse(&prm.resource, "resource") else {
        return Err(mismatch());
    };
    if resource.lowercase_origin() != server.lowercase_origin() {
        return Err(mismatch());
    }
    let resource_path = resource.path_without_trailing_slash();
    let server_path = server.path_without_trailing_slash();
    let covered = match server_path.strip_prefix(resource_path) {
        Some(rest) => rest.is_empty() || rest.starts_with('/'),
        None => false,
    };
    if covered {
        Ok(())
    } else {
        Err(mismatch())
    }
}
