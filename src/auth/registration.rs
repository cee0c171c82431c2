//! Client registration: the metadata a client registers (RFC 7591 §2), the server's answer
//! (§3.2.1) or error (§3.2.2), and the client ID metadata document an `https` `client_id`
//! resolves to.

use super::document::{self, document, vocabulary, Members, Writer};
use super::AuthError;
use crate::prelude::*;
use serde_json::{Map, Value};

document! {
    /// Client metadata (RFC 7591 §2): what a client registers, and what a registration
    /// response and a client ID metadata document describe it with.
    #[derive(Debug)]
    pub struct ClientMetadata("client metadata") {
        /// `redirect_uris`: redirection URIs for redirect-based flows (RFC 7591 §2).
        optional redirect_uris: Vec<String>,
        /// `token_endpoint_auth_method`: `none`, `client_secret_post`, `client_secret_basic`,
        /// `private_key_jwt`... ; absent means `client_secret_basic` (RFC 7591 §2).
        optional token_endpoint_auth_method: String,
        /// `grant_types`; absent means `authorization_code` (RFC 7591 §2).
        optional grant_types: Vec<String>,
        /// `response_types`; absent means `code` (RFC 7591 §2).
        optional response_types: Vec<String>,
        /// `client_name`: the name shown to the end-user (RFC 7591 §2).
        optional client_name: String,
        /// `client_uri`: the client's home page (RFC 7591 §2).
        optional client_uri: String,
        /// `logo_uri` (RFC 7591 §2).
        optional logo_uri: String,
        /// `scope`: space-separated scope values the client may request (RFC 7591 §2).
        optional scope: String,
        /// `contacts` (RFC 7591 §2).
        optional contacts: Vec<String>,
        /// `tos_uri` (RFC 7591 §2).
        optional tos_uri: String,
        /// `policy_uri` (RFC 7591 §2).
        optional policy_uri: String,
        /// `jwks_uri`: the client's JSON Web Key Set by reference (RFC 7591 §2).
        optional jwks_uri: String,
        /// `jwks`: the client's JSON Web Key Set by value (RFC 7591 §2).
        optional jwks: Map<String, Value>,
        /// `software_id` (RFC 7591 §2).
        optional software_id: String,
        /// `software_version` (RFC 7591 §2).
        optional software_version: String,
        /// `software_statement`: a signed JWT of metadata values (RFC 7591 §2.3, §3.1.1).
        optional software_statement: String,
        /// `dpop_bound_access_tokens`: the client always uses DPoP (RFC 9449 §5.2).
        optional dpop_bound_access_tokens: bool,
        /// `application_type`: `native` or `web`; absent means `web` (OpenID Connect Dynamic
        /// Client Registration 1.0 §2). From 2026-07-28 an MCP client registering
        /// dynamically must send it ([`DiscoveryRules::application_type`](super::discovery::DiscoveryRules::application_type)).
        optional application_type: String,
    }
}

vocabulary! {
    /// The `error` of a client registration error response (RFC 7591 §3.2.2).
    #[non_exhaustive]
    pub enum RegistrationErrorCode {
        /// One or more `redirect_uris` are invalid.
        InvalidRedirectUri = "invalid_redirect_uri",
        /// A metadata field is invalid.
        InvalidClientMetadata = "invalid_client_metadata",
        /// The software statement is invalid.
        InvalidSoftwareStatement = "invalid_software_statement",
        /// The software statement is not approved for this server.
        UnapprovedSoftwareStatement = "unapproved_software_statement",
    }
}

document! {
    /// A client registration error response (RFC 7591 §3.2.2).
    #[derive(Debug)]
    pub struct ClientRegistrationError("client registration error") {
        /// `error` (REQUIRED): the error code.
        required error: RegistrationErrorCode,
        /// `error_description`: human-readable text.
        optional error_description: String,
    }
}

/// A client information response (RFC 7591 §3.2.1): the identifier (and secret) the
/// authorization server issued, and every registered metadata value.
///
/// The secret is left out of `Debug`.
#[derive(Clone, PartialEq, Default)]
pub struct ClientInformation {
    /// `client_id` (REQUIRED).
    pub client_id: String,
    /// `client_secret`: for confidential clients.
    pub client_secret: Option<String>,
    /// `client_id_issued_at`: seconds since the epoch.
    pub client_id_issued_at: Option<u64>,
    /// `client_secret_expires_at`: seconds since the epoch, `0` for never; REQUIRED when a
    /// `client_secret` is issued (RFC 7591 §3.2.1), optional here to accept servers that
    /// leave it out.
    pub client_secret_expires_at: Option<u64>,
    /// The registered metadata, including members neither type declares (its `extra`).
    pub metadata: ClientMetadata,
}

/// A client ID metadata document: the JSON an `https` `client_id` URL serves, whose
/// `client_id` is that very URL (MCP authorization, client ID metadata documents, from
/// 2025-11-25), with the client's RFC 7591 §2 metadata.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClientIdMetadataDocument {
    /// `client_id` (REQUIRED): the URL of this document.
    pub client_id: String,
    /// The client's metadata, including members neither type declares (its `extra`).
    pub metadata: ClientMetadata,
}

impl ClientInformation {
    const DOCUMENT: &'static str = "client information";

    /// Reads the response from its JSON text; errors name the member and never show a value.
    pub fn from_json(text: &str) -> Result<Self, AuthError> {
        Self::from_map(document::object(text, Self::DOCUMENT)?)
    }

    fn from_map(mut members: Members) -> Result<Self, AuthError> {
        let map = &mut members.map;
        Ok(ClientInformation {
            client_id: document::take_required(map, Self::DOCUMENT, "client_id")?,
            client_secret: document::take(map, Self::DOCUMENT, "client_secret")?,
            client_id_issued_at: document::take(map, Self::DOCUMENT, "client_id_issued_at")?,
            client_secret_expires_at: document::take(
                map,
                Self::DOCUMENT,
                "client_secret_expires_at",
            )?,
            metadata: ClientMetadata::from_map(members)?,
        })
    }
}

impl core::fmt::Debug for ClientInformation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ClientInformation")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "<redacted>"),
            )
            .field("client_id_issued_at", &self.client_id_issued_at)
            .field("client_secret_expires_at", &self.client_secret_expires_at)
            .field("metadata", &self.metadata)
            .finish()
    }
}

impl serde::Serialize for ClientInformation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut writer = Writer::new();
        writer.put_required("client_id", &self.client_id);
        writer.put("client_secret", &self.client_secret);
        writer.put("client_id_issued_at", &self.client_id_issued_at);
        writer.put("client_secret_expires_at", &self.client_secret_expires_at);
        self.metadata.write_members(&mut writer);
        document::serialize(
            &writer,
            &self.metadata.extra,
            &self.metadata.order,
            serializer,
        )
    }
}

impl<'de> serde::Deserialize<'de> for ClientInformation {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Self::from_map(Members::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

impl ClientIdMetadataDocument {
    const DOCUMENT: &'static str = "client ID metadata document";

    /// A document for the client whose metadata URL is `client_id`.
    pub fn new(client_id: impl Into<String>, metadata: ClientMetadata) -> Self {
        ClientIdMetadataDocument {
            client_id: client_id.into(),
            metadata,
        }
    }

    /// Reads the document from its JSON text; errors name the member.
    pub fn from_json(text: &str) -> Result<Self, AuthError> {
        Self::from_map(document::object(text, Self::DOCUMENT)?)
    }

    fn from_map(mut members: Members) -> Result<Self, AuthError> {
        let map = &mut members.map;
        Ok(ClientIdMetadataDocument {
            client_id: document::take_required(map, Self::DOCUMENT, "client_id")?,
            metadata: ClientMetadata::from_map(members)?,
        })
    }
}

impl serde::Serialize for ClientIdMetadataDocument {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut writer = Writer::new();
        writer.put_required("client_id", &self.client_id);
        self.metadata.write_members(&mut writer);
        document::serialize(
            &writer,
            &self.metadata.extra,
            &self.metadata.order,
            serializer,
        )
    }
}

impl<'de> serde::Deserialize<'de> for ClientIdMetadataDocument {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Self::from_map(Members::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

impl Default for RegistrationErrorCode {
    /// `invalid_client_metadata`, the generic error (RFC 7591 §3.2.2), so that documents can
    /// derive `Default`.
    fn default() -> Self {
        RegistrationErrorCode::InvalidClientMetadata
    }
}
