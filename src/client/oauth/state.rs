//! What the provider remembers between requests: the authorization server discovery found,
//! the client identities it holds there, the scopes asked for, its DPoP key.

use super::dpop::Dpop;
use super::settings::ClientIdentity;
use crate::auth::{AuthorizationServerMetadata, ProtectedResourceMetadata};
use crate::prelude::*;
use std::sync::Arc;

/// What the provider keeps between requests.
#[derive(Default)]
pub(crate) struct State {
    /// The client's DPoP key, made when a server first asks for DPoP.
    pub(super) dpop: Option<Arc<Dpop>>,
    /// The scopes asked for so far: a step-up asks for them and the new ones (the union).
    pub(super) scopes: Vec<String>,
    /// The client's identities, one per authorization server.
    pub(super) clients: Vec<Registered>,
    /// Where the tokens held came from: the server and resource a refresh goes to.
    pub(super) found: Option<Found>,
}

/// A client identity at one authorization server, with how it authenticates there.
#[derive(Clone)]
pub(super) struct Registered {
    /// The issuer it belongs to: an identity is never shown to another server.
    pub issuer: String,
    pub identity: ClientIdentity,
    /// How it authenticates at the token endpoint (RFC 7591 §2).
    pub method: String,
}

/// What discovery found: the authorization server and the resource indicator to ask for.
#[derive(Clone)]
pub(super) struct Found {
    pub metadata: AuthorizationServerMetadata,
    pub prm: Option<ProtectedResourceMetadata>,
    /// The resource indicator (RFC 8707): the metadata's `resource` exactly as published
    /// (RFC 9728 §3.3 compares identifiers as text), else the server's canonical URI.
    pub resource: String,
}
