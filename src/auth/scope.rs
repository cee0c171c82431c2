//! Which scope a client asks for: first, on step-up, and with `offline_access`.

use super::challenge::Challenge;
use super::metadata::{AuthorizationServerMetadata, ProtectedResourceMetadata};
use crate::prelude::*;

/// The scope of the first authorization request (MCP authorization, "Scope Selection
/// Strategy", from 2025-11-25): the `scope` of the challenge that asked for authorization if
/// it has one, else every `scopes_supported` of the protected resource metadata joined by
/// spaces, else `None` (leave `scope` out).
///
/// ```
/// use mcp_spec_types::auth::{select_scope, Challenge, ProtectedResourceMetadata};
/// let mut prm = ProtectedResourceMetadata::new("https://mcp.example.com/mcp");
/// prm.scopes_supported = Some(vec!["mcp:read".into(), "mcp:write".into()]);
/// assert_eq!(select_scope(None, Some(&prm)).as_deref(), Some("mcp:read mcp:write"));
/// let challenge = Challenge::bearer().with_param("scope", "mcp:read");
/// assert_eq!(select_scope(Some(&challenge), Some(&prm)).as_deref(), Some("mcp:read"));
/// assert_eq!(select_scope(None, None), None);
/// ```
pub fn select_scope(
    challenge: Option<&Challenge>,
    prm: Option<&ProtectedResourceMetadata>,
) -> Option<String> {
    if let Some(scope) = challenge.and_then(Challenge::scope) {
        return Some(scope.to_owned());
    }
    prm.and_then(|prm| prm.scopes_supported.as_ref())
        .filter(|scopes| !scopes.is_empty())
        .map(|scopes| scopes.join(" "))
}

/// The scope to ask for when a request fails with 403 `insufficient_scope` (MCP
/// authorization, "Step-Up Authorization Flow"): the challenge's `scope`, after the scope
/// requested before when `previous` is given, without repeats. 2026-07-28 asks for that union
/// so that what was granted is not lost ([`discovery::DiscoveryRules::step_up_union`](super::discovery::DiscoveryRules::step_up_union));
/// 2025-11-25 for the challenge's scope alone (pass `None`). `None` when the challenge names
/// no scope.
///
/// ```
/// use mcp_spec_types::auth::{step_up_scope, Challenge};
/// let challenge = Challenge::bearer()
///     .with_param("error", "insufficient_scope")
///     .with_param("scope", "mcp:basic mcp:write");
/// assert_eq!(step_up_scope(&challenge, Some("mcp:basic")).as_deref(), Some("mcp:basic mcp:write"));
/// ```
pub fn step_up_scope(challenge: &Challenge, previous: Option<&str>) -> Option<String> {
    let challenged = challenge.scope()?;
    let mut scopes: Vec<&str> = Vec::new();
    for scope in previous
        .unwrap_or("")
        .split(' ')
        .chain(challenged.split(' '))
    {
        if !scope.is_empty() && !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    Some(scopes.join(" "))
}

/// `scope` with `offline_access` added when the authorization server lists it in
/// `scopes_supported` (2026-07-28, "Refresh Tokens": a client that wants a refresh token may
/// add it then); `scope` unchanged otherwise, so a server that does not list it is not asked
/// for it.
///
/// ```
/// use mcp_spec_types::auth::{add_offline_access, AuthorizationServerMetadata};
/// let mut metadata = AuthorizationServerMetadata::new("https://as.example.com");
/// assert_eq!(add_offline_access(Some("mcp:basic"), &metadata).as_deref(), Some("mcp:basic"));
/// metadata.scopes_supported = Some(vec!["mcp:basic".into(), "offline_access".into()]);
/// assert_eq!(add_offline_access(Some("mcp:basic"), &metadata).as_deref(), Some("mcp:basic offline_access"));
/// assert_eq!(add_offline_access(None, &metadata).as_deref(), Some("offline_access"));
/// ```
pub fn add_offline_access(
    scope: Option<&str>,
    metadata: &AuthorizationServerMetadata,
) -> Option<String> {
    const OFFLINE_ACCESS: &str = "offline_access";
    let listed = metadata
        .scopes_supported
        .as_ref()
        .is_some_and(|scopes| scopes.iter().any(|s| s == OFFLINE_ACCESS));
    let present = scope.is_some_and(|s| s.split(' ').any(|s| s == OFFLINE_ACCESS));
    match scope {
        _ if !listed || present => scope.map(str::to_owned),
        Some(scope) if !scope.trim().is_empty() => Some(format!("{scope} {OFFLINE_ACCESS}")),
        _ => Some(OFFLINE_ACCESS.to_owned()),
    }
}
