//! The OAuth documents a peer serves (`auth`): protected resource metadata (RFC 9728),
//! authorization server metadata (RFC 8414), client metadata, client information, client ID
//! metadata documents and registration errors (RFC 7591), token and error responses
//! (RFC 6749); and the checks and rules that apply to them.
//!
//! Input: NUL-separated parts: a document (read as every one of the eight types), then up to
//! three strings (lossily decoded from UTF-8) the checks take: a URL, scope or expected value;
//! a redirect URL or query; a registered redirect URI.
//!
//! Properties:
//! - `from_json` never panics; it and serde (`serde_json::from_str`) accept the same text, to
//!   equal documents; a refusal is a typed `AuthError` of the document kind;
//! - parse -> serialize -> parse gives an equal document, the crate's writer writes what
//!   serde_json writes, serializing again gives the same text, and the output is the input
//!   as a `serde_json::Value` (lossless);
//! - errors never depend on the values of string members (an error shows no value): the
//!   document with every string replaced reads to the same error;
//! - `Debug` of a token response, client information and authorization response does not
//!   depend on their tokens, secrets, code or state;
//! - the checks never panic and agree with the documents: `supports_*`, the issuer checks
//!   (RFC 8414 §3.3, RFC 9207 §2.4), `check_resource` (RFC 9728 §3.3) and
//!   `resource_indicator` (idempotent, and its result covers the URL it came from), the
//!   scope rules, the discovery URLs of every revision, the authorization response's reading
//!   and checks, `form` encoding (parse of encode is the pairs) and PKCE.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::auth::{
    add_offline_access, check_resource, discovery, form, issuer, resource_indicator, select_scope,
    step_up_scope, AuthError, AuthorizationResponse, AuthorizationServerMetadata, Challenge,
    ClientIdMetadataDocument, ClientInformation, ClientMetadata, ClientRegistrationError,
    OAuthError, OAuthErrorCode, PkceChallenge, PkceVerifier, ProtectedResourceMetadata,
    RegistrationErrorCode, TokenResponse,
};
use mcp_spec_types::{json, ProtocolVersion};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Debug;

/// Every string in `value` (not the member names) replaced by one of the same length class.
fn redact(value: &mut Value) {
    match value {
        Value::String(text) => *text = format!("<{}>", text.len() % 7),
        Value::Array(items) => items.iter_mut().for_each(redact),
        Value::Object(map) => map.values_mut().for_each(redact),
        _ => {}
    }
}

fn document_error(error: &AuthError, what: &str) {
    assert!(
        matches!(
            error,
            AuthError::InvalidDocument { .. }
                | AuthError::MissingMember { .. }
                | AuthError::InvalidMember { .. }
        ),
        "{what}: from_json gave {error:?}"
    );
    let _ = error.to_string();
}

/// The checks every document type gets; the document when it reads.
fn document<T>(text: &str, from_json: fn(&str) -> Result<T, AuthError>, what: &str) -> Option<T>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let parsed = from_json(text);
    let via_serde = serde_json::from_str::<T>(text);
    let input: Option<Value> = serde_json::from_str(text).ok();
    match (&parsed, &via_serde) {
        (Ok(ours), Ok(theirs)) => assert_eq!(ours, theirs, "{what}: from_json and serde differ"),
        (Err(error), Err(_)) => document_error(error, what),
        _ => panic!("{what}: from_json {parsed:?}, serde {via_serde:?}"),
    }
    // An error shows no value: the same document with other strings fails alike.
    if let (Some(Value::Object(_)), Err(error)) = (&input, &parsed) {
        if !matches!(error, AuthError::InvalidDocument { .. }) {
            let mut redacted = input.clone().expect("an object");
            redact(&mut redacted);
            let redacted_text = serde_json::to_string(&redacted).expect("serializes");
            assert_eq!(
                from_json(&redacted_text).err().as_ref(),
                Some(error),
                "{what}: the error depends on string values"
            );
        }
    }
    let document = parsed.ok()?;
    let _ = format!("{document:?}");
    let output = serde_json::to_string(&document)
        .unwrap_or_else(|e| panic!("{what}: a read document does not serialize: {e}"));
    assert_eq!(
        json::to_string(&document).expect("serializes"),
        output,
        "{what}: the crate's writer differs"
    );
    let reread = from_json(&output).unwrap_or_else(|e| {
        panic!(
            "{what}: the serialization does not read again: {e}\n input: {text}\noutput: {output}"
        )
    });
    assert_eq!(
        reread, document,
        "{what}: the round trip changed the document\noutput: {output}"
    );
    assert_eq!(
        serde_json::to_string(&reread).expect("serializes"),
        output,
        "{what}: serializing is not idempotent"
    );
    if let Some(input) = input {
        let written: Value = serde_json::from_str(&output).expect("the output is JSON");
        assert_eq!(
            input, written,
            "{what}: the serialization is not the input (lossy)\n input: {text}\noutput: {output}"
        );
    }
    Some(document)
}

fn revisions() -> impl Iterator<Item = ProtocolVersion> {
    ProtocolVersion::KNOWN
        .iter()
        .cloned()
        .chain([ProtocolVersion::from("1999-01-01")])
}

fn url_error(error: &AuthError) {
    assert!(
        matches!(
            error,
            AuthError::InvalidUrl { .. } | AuthError::NoAuthorization { .. }
        ),
        "a URL rule gave {error:?}"
    );
    let _ = error.to_string();
}

fn server_metadata(metadata: &AuthorizationServerMetadata, a: &str, b: &str, c: &str) {
    let methods = metadata.code_challenge_methods_supported.as_deref();
    assert_eq!(
        metadata.supports_s256(),
        methods.is_some_and(|m| m.iter().any(|m| m == "S256"))
    );
    if metadata.grant_types_supported.is_none() {
        assert!(metadata.supports_grant_type("authorization_code"));
    }
    let _ = metadata.supports_grant_type(a);
    assert_eq!(
        metadata.supports_token_endpoint_auth_method(a),
        match &metadata.token_endpoint_auth_methods_supported {
            Some(methods) => methods.iter().any(|m| m == a),
            None => a == "client_secret_basic",
        }
    );

    // Issuer checks.
    let issuer = metadata.issuer.as_str();
    assert_eq!(issuer::check_metadata_issuer(issuer, metadata), Ok(()));
    match issuer::check_metadata_issuer(a, metadata) {
        Ok(()) => assert_eq!(a, issuer),
        Err(error) => {
            assert_ne!(a, issuer);
            assert!(matches!(error, AuthError::IssuerMismatch { .. }));
            let _ = error.to_string();
        }
    }
    let advertised = metadata
        .authorization_response_iss_parameter_supported
        .unwrap_or(false);
    assert_eq!(
        issuer::check_authorization_response(metadata, Some(issuer)),
        Ok(())
    );
    assert_eq!(
        issuer::check_authorization_response(metadata, Some(a)).is_ok(),
        a == issuer
    );
    assert_eq!(
        issuer::check_authorization_response(metadata, None).is_ok(),
        !advertised
    );

    // Scope.
    let listed = metadata
        .scopes_supported
        .as_ref()
        .is_some_and(|s| s.iter().any(|s| s == "offline_access"));
    for scope in [Some(a), None] {
        let with = add_offline_access(scope, metadata);
        if listed {
            let with = with.expect("offline_access added");
            assert!(with.split(' ').any(|s| s == "offline_access"), "{with:?}");
            if let Some(scope) = scope {
                assert!(with.starts_with(scope.trim_end()) || scope.trim().is_empty());
            }
        } else {
            assert_eq!(with.as_deref(), scope);
        }
    }

    // Discovery.
    for revision in revisions() {
        match discovery::authorization_server_metadata_urls(issuer, &revision) {
            Ok(urls) => {
                assert!(!urls.is_empty());
                for url in &urls {
                    assert!(url.contains("/.well-known/"), "{url}");
                }
                for (i, url) in urls.iter().enumerate() {
                    assert!(!urls[..i].contains(url), "{url} twice");
                }
            }
            Err(error) => url_error(&error),
        }
        if let Err(error) = discovery::expected_issuer(issuer, &revision) {
            url_error(&error);
        }
        if let Err(error) = discovery::default_endpoints(a, &revision) {
            url_error(&error);
        }
    }

    // The authorization response, checked against this server.
    for response in [
        Some(AuthorizationResponse::from_query(b)),
        AuthorizationResponse::from_redirect(b).ok(),
        AuthorizationResponse::from_redirect_to(b, c).ok(),
    ]
    .into_iter()
    .flatten()
    {
        match response.check(a, metadata) {
            Ok(code) => {
                assert_eq!(Some(code), response.code.as_deref());
                assert_eq!(response.state.as_deref(), Some(a));
                assert_eq!(response.error, None);
                assert!(response.iss.as_deref().is_none_or(|iss| iss == issuer));
            }
            Err(error) => {
                assert!(matches!(
                    error,
                    AuthError::IssMismatch { .. }
                        | AuthError::MissingIss { .. }
                        | AuthError::StateMismatch
                        | AuthError::AuthorizationRefused { .. }
                        | AuthError::MissingCode
                ));
                let _ = error.to_string();
            }
        }
    }
}

fn resource_metadata(prm: &ProtectedResourceMetadata, a: &str, b: &str) {
    let resource = prm.resource.as_str();
    let indicator = resource_indicator(resource);
    match check_resource(prm, resource) {
        Ok(()) => assert!(indicator.is_ok()),
        Err(error) => {
            assert!(
                indicator.is_err(),
                "metadata does not cover its own resource"
            );
            url_error(&error);
        }
    }
    match check_resource(prm, a) {
        Ok(()) => {}
        Err(AuthError::ResourceMismatch { .. }) => {}
        Err(error) => url_error(&error),
    }
    match discovery::protected_resource_metadata_urls(resource, Some(a)) {
        Ok(urls) => {
            assert_eq!(urls.first().map(String::as_str), Some(a));
            for (i, url) in urls.iter().enumerate() {
                assert!(!urls[..i].contains(url), "{url} twice");
            }
        }
        Err(error) => url_error(&error),
    }
    if let Err(error) = discovery::protected_resource_metadata_urls(resource, None) {
        url_error(&error);
    }
    // Scope selection.
    let supported = prm
        .scopes_supported
        .as_ref()
        .filter(|s| !s.is_empty())
        .map(|s| s.join(" "));
    assert_eq!(select_scope(None, Some(prm)), supported);
    let challenge = Challenge::bearer().with_param("scope", a);
    assert_eq!(
        select_scope(Some(&challenge), Some(prm)).as_deref(),
        Some(a)
    );
    let union = step_up_scope(&challenge, Some(b)).expect("the challenge has a scope");
    for scope in a.split(' ').chain(b.split(' ')).filter(|s| !s.is_empty()) {
        assert!(union.split(' ').any(|s| s == scope), "{scope} lost");
    }
    assert_eq!(step_up_scope(&Challenge::bearer(), Some(b)), None);
}

fn urls(a: &str) {
    match resource_indicator(a) {
        Ok(canonical) => {
            assert_eq!(
                resource_indicator(&canonical).as_deref(),
                Ok(canonical.as_str()),
                "resource_indicator is not idempotent"
            );
            assert_eq!(
                check_resource(&ProtectedResourceMetadata::new(canonical.clone()), a),
                Ok(()),
                "the canonical URI {canonical} does not cover {a}"
            );
            assert!(discovery::authorization_base_url(a).is_ok());
        }
        Err(error) => {
            url_error(&error);
            assert!(discovery::authorization_base_url(a).is_err());
        }
    }
}

fn authorization_response(b: &str, c: &str) {
    // What a redirect carries, encoded by the client's rules and read back.
    let query = form::encode([("code", b), ("state", c), ("iss", b), ("error", c)]);
    let response = AuthorizationResponse::from_query(&query);
    assert_eq!(response.code.as_deref(), Some(b));
    assert_eq!(response.state.as_deref(), Some(c));
    assert_eq!(response.iss.as_deref(), Some(b));
    assert_eq!(response.error, Some(OAuthErrorCode::from(c)));
    let hidden = AuthorizationResponse {
        code: response.code.as_ref().map(|_| String::new()),
        state: response.state.as_ref().map(|_| String::new()),
        ..response.clone()
    };
    assert_eq!(format!("{response:?}"), format!("{hidden:?}"));

    let pairs = form::parse(b);
    let encoded = form::encode(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    assert_eq!(
        form::parse(&encoded),
        pairs,
        "parse(encode(pairs)) != pairs"
    );
    assert_eq!(
        form::encode_component(c),
        form::encode([("", c)])[1..],
        "encode_component"
    );
    if let Err(error) = AuthorizationResponse::from_redirect(b) {
        url_error(&error);
    }
    match AuthorizationResponse::from_redirect_to(b, c) {
        Ok(_) => assert!(AuthorizationResponse::from_redirect(b).is_ok()),
        Err(AuthError::RedirectMismatch) => {}
        Err(error) => url_error(&error),
    }
    if AuthorizationResponse::from_redirect(b).is_ok() {
        assert!(AuthorizationResponse::from_redirect_to(b, b).is_ok());
    }
}

fn pkce(a: &str, data: &[u8]) {
    match PkceVerifier::new(a) {
        Ok(verifier) => {
            assert_eq!(verifier.as_str(), a);
            let challenge = verifier.challenge();
            assert_eq!(challenge, PkceChallenge::s256(&verifier));
            assert_eq!(challenge.method(), "S256");
            assert_eq!(challenge.as_str().len(), 43);
            assert!(challenge.is_verified_by(a));
            assert_eq!(format!("{verifier:?}"), "PkceVerifier(<redacted>)");
        }
        Err(error) => {
            assert!(matches!(error, AuthError::InvalidPkceVerifier { .. }));
            let _ = error.to_string();
        }
    }
    let mut bytes = [0u8; 32];
    for (byte, input) in bytes.iter_mut().zip(data) {
        *byte = *input;
    }
    let verifier = PkceVerifier::from_random_bytes(&bytes);
    assert_eq!(PkceVerifier::new(verifier.as_str()).as_ref(), Ok(&verifier));
    let challenge = verifier.challenge();
    assert!(challenge.is_verified_by(verifier.as_str()));
    assert_eq!(challenge.is_verified_by(a), a == verifier.as_str());
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.split('\0');
    let doc = parts.next().unwrap_or_default();
    let a = parts.next().unwrap_or_default();
    let b = parts.next().unwrap_or_default();
    let c = parts.next().unwrap_or_default();

    if let Some(prm) = document(
        doc,
        ProtectedResourceMetadata::from_json,
        "protected resource metadata",
    ) {
        resource_metadata(&prm, a, b);
    }
    if let Some(metadata) = document(
        doc,
        AuthorizationServerMetadata::from_json,
        "authorization server metadata",
    ) {
        server_metadata(&metadata, a, b, c);
    }
    document(doc, ClientMetadata::from_json, "client metadata");
    if let Some(information) = document(doc, ClientInformation::from_json, "client information") {
        let hidden = ClientInformation {
            client_secret: information.client_secret.as_ref().map(|_| String::new()),
            ..information.clone()
        };
        assert_eq!(format!("{information:?}"), format!("{hidden:?}"));
        // The same text is client metadata, with `client_id` and the rest as undeclared.
        let metadata = ClientMetadata::from_json(doc).expect("client information is metadata");
        assert_eq!(metadata.redirect_uris, information.metadata.redirect_uris);
    }
    if let Some(cimd) = document(
        doc,
        ClientIdMetadataDocument::from_json,
        "client ID metadata document",
    ) {
        assert_eq!(
            ClientIdMetadataDocument::new(cimd.client_id.clone(), cimd.metadata.clone()),
            cimd
        );
    }
    if let Some(error) = document(
        doc,
        ClientRegistrationError::from_json,
        "client registration error",
    ) {
        assert_eq!(
            RegistrationErrorCode::from(error.error.as_str()),
            error.error
        );
        assert_eq!(error.error.to_string(), error.error.as_str());
    }
    if let Some(token) = document(doc, TokenResponse::from_json, "token response") {
        let scopes: Vec<&str> = token.scopes().collect();
        let expected: Vec<&str> = token
            .scope
            .as_deref()
            .unwrap_or("")
            .split(' ')
            .filter(|s| !s.is_empty())
            .collect();
        assert_eq!(scopes, expected);
        let hidden = TokenResponse {
            access_token: String::new(),
            refresh_token: token.refresh_token.as_ref().map(|_| String::new()),
            ..token.clone()
        };
        assert_eq!(format!("{token:?}"), format!("{hidden:?}"));
    }
    if let Some(error) = document(doc, OAuthError::from_json, "OAuth error response") {
        assert_eq!(OAuthErrorCode::from(error.error.as_str()), error.error);
        assert_eq!(error.error.to_string(), error.error.as_str());
        let _ = OAuthError::new(error.error.clone());
    }

    urls(a);
    urls(doc);
    authorization_response(b, c);
    pkce(a, data);
});
