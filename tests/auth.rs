//! The `auth` feature: the RFC and specification examples (tests/fixtures/auth, PROVENANCE
//! names each one's source) read and written back unchanged, malformed documents and
//! challenges refused with an error that names the member or parameter and never shows a
//! secret, the discovery URLs of each revision, and the rules (scope, issuer, resource, PKCE).
#![cfg(feature = "auth")]

use mcp_spec_types::auth::discovery::{self, DiscoveryRules, MetadataBase, RULES};
use mcp_spec_types::auth::{
    add_offline_access, check_resource, form, issuer, resource_indicator, select_scope,
    step_up_scope, AuthError, AuthorizationResponse, AuthorizationServerMetadata, Challenge,
    ClientIdMetadataDocument, ClientInformation, ClientMetadata, ClientRegistrationError,
    OAuthError, OAuthErrorCode, PkceChallenge, PkceVerifier, ProtectedResourceMetadata,
    RegistrationErrorCode, TokenResponse, WwwAuthenticate,
};
use mcp_spec_types::ProtocolVersion;
use serde_json::Value;

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/auth/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The fixture without the whitespace between tokens: what a compact writer would have
/// written, member order and string escapes untouched.
fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

/// Reads `name` with `read`, then checks that writing gives back the same JSON value and, in
/// compact form, the same bytes (`byte_equal`: false where the RFC writes `\u` escapes, which
/// a writer does not reproduce).
fn round_trip<T: serde::Serialize>(
    name: &str,
    read: impl Fn(&str) -> Result<T, AuthError>,
    byte_equal: bool,
) -> T {
    let text = fixture(name);
    let document = read(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let written = serde_json::to_string(&document).unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&written).unwrap(),
        serde_json::from_str::<Value>(&text).unwrap(),
        "{name}: value"
    );
    if byte_equal {
        assert_eq!(written, compact(&text), "{name}: bytes");
    }
    // serde reads the same document as `from_json`.
    let again: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(
        serde_json::to_value(read(&serde_json::to_string(&again).unwrap()).unwrap()).unwrap(),
        again,
        "{name}: again"
    );
    document
}

#[test]
fn rfc_9728_protected_resource_metadata() {
    let prm = round_trip(
        "rfc9728-3.2-protected-resource-metadata.json",
        ProtectedResourceMetadata::from_json,
        true,
    );
    assert_eq!(prm.resource, "https://resource.example.com");
    assert_eq!(
        prm.authorization_servers.as_deref().unwrap(),
        ["https://as1.example.com", "https://as2.example.net"]
    );
    assert_eq!(
        prm.bearer_methods_supported.as_deref().unwrap(),
        ["header", "body"]
    );
    assert!(prm.extra.is_empty());
    // serde reads it too, member order included.
    let via_serde: ProtectedResourceMetadata =
        serde_json::from_str(&fixture("rfc9728-3.2-protected-resource-metadata.json")).unwrap();
    assert_eq!(via_serde, prm);
    assert_eq!(
        serde_json::to_string(&via_serde).unwrap(),
        compact(&fixture("rfc9728-3.2-protected-resource-metadata.json"))
    );
}

#[test]
fn rfc_8414_authorization_server_metadata() {
    let asm = round_trip(
        "rfc8414-3.2-authorization-server-metadata.json",
        AuthorizationServerMetadata::from_json,
        true,
    );
    assert_eq!(asm.issuer, "https://server.example.com");
    assert_eq!(
        asm.userinfo_endpoint.as_deref(),
        Some("https://server.example.com/userinfo")
    );
    // Not in the example: RFC 8414 §2's defaults apply.
    assert!(asm.supports_grant_type("authorization_code"));
    assert!(!asm.supports_grant_type("refresh_token"));
    assert!(asm.supports_token_endpoint_auth_method("private_key_jwt"));
    assert!(!asm.supports_token_endpoint_auth_method("none"));
    assert!(!asm.supports_s256());
    assert_eq!(asm.authorization_response_iss_parameter_supported, None);
}

#[test]
fn rfc_7591_registration_documents() {
    let request = round_trip(
        "rfc7591-3.1-client-metadata.json",
        ClientMetadata::from_json,
        false,
    );
    assert_eq!(request.client_name.as_deref(), Some("My Example Client"));
    assert_eq!(
        request.extra["client_name#ja-Jpan-JP"],
        "\u{30AF}\u{30E9}\u{30A4}\u{30A2}\u{30F3}\u{30C8}\u{540D}"
    );
    assert_eq!(
        request.extra["example_extension_parameter"],
        "example_value"
    );

    let response = round_trip(
        "rfc7591-3.2.1-client-information.json",
        ClientInformation::from_json,
        false,
    );
    assert_eq!(response.client_id, "s6BhdRkqt3");
    assert_eq!(response.client_id_issued_at, Some(2893256800));
    assert_eq!(response.client_secret_expires_at, Some(2893276800));
    assert_eq!(
        response.metadata.grant_types.as_deref().unwrap(),
        ["authorization_code", "refresh_token"]
    );
    // Without the escaped member, the bytes come back too, in the response's member order
    // (the identifier and secret first, then the metadata).
    let text = fixture("rfc7591-3.2.1-client-information.json");
    let without_escapes: String = text
        .lines()
        .filter(|line| !line.contains("ja-Jpan-JP") && !line.contains("\\u30AF"))
        .collect::<Vec<_>>()
        .join("\n");
    let response = ClientInformation::from_json(&without_escapes).unwrap();
    assert_eq!(
        serde_json::to_string(&response).unwrap(),
        compact(&without_escapes)
    );

    for (name, code) in [
        (
            "rfc7591-3.2.2-registration-error-redirect-uri.json",
            RegistrationErrorCode::InvalidRedirectUri,
        ),
        (
            "rfc7591-3.2.2-registration-error-client-metadata.json",
            RegistrationErrorCode::InvalidClientMetadata,
        ),
    ] {
        let error = round_trip(name, ClientRegistrationError::from_json, true);
        assert_eq!(error.error, code);
    }
}

#[test]
fn client_id_metadata_document_from_the_specification() {
    let document = round_trip(
        "mcp-2025-11-25-client-id-metadata-document.json",
        ClientIdMetadataDocument::from_json,
        true,
    );
    assert_eq!(
        document.client_id,
        "https://app.example.com/oauth/client-metadata.json"
    );
    assert_eq!(
        document.metadata.token_endpoint_auth_method.as_deref(),
        Some("none")
    );
    // Built in code: `client_id` first, then the metadata in declaration order.
    let built = ClientIdMetadataDocument::new(
        "https://app.example.com/oauth/client-metadata.json",
        ClientMetadata {
            redirect_uris: Some(vec!["http://localhost:3000/callback".into()]),
            client_name: Some("Example MCP Client".into()),
            ..Default::default()
        },
    );
    assert_eq!(
        serde_json::to_string(&built).unwrap(),
        r#"{"client_id":"https://app.example.com/oauth/client-metadata.json","redirect_uris":["http://localhost:3000/callback"],"client_name":"Example MCP Client"}"#
    );
}

#[test]
fn rfc_6749_token_endpoint_responses() {
    let token = round_trip(
        "rfc6749-5.1-token-response.json",
        TokenResponse::from_json,
        true,
    );
    assert_eq!(token.token_type, "example");
    assert_eq!(token.expires_in, Some(3600));
    // `expires_in` stays an integer on the way out.
    assert!(serde_json::to_string(&token)
        .unwrap()
        .contains(r#""expires_in":3600,"#));

    let error = round_trip(
        "rfc6749-5.2-error-response.json",
        OAuthError::from_json,
        true,
    );
    assert_eq!(error.error, OAuthErrorCode::InvalidRequest);
}

#[test]
fn error_codes_outside_the_rfcs_round_trip() {
    let error =
        OAuthError::from_json(r#"{"error":"slow_down","error_description":"wait"}"#).unwrap();
    assert_eq!(error.error, OAuthErrorCode::Other("slow_down".into()));
    assert_eq!(
        serde_json::to_string(&error).unwrap(),
        r#"{"error":"slow_down","error_description":"wait"}"#
    );
    assert_eq!(
        OAuthErrorCode::from("use_dpop_nonce"),
        OAuthErrorCode::UseDpopNonce
    );
    assert_eq!(
        OAuthErrorCode::InsufficientScope.as_str(),
        "insufficient_scope"
    );
}

#[test]
fn unknown_and_null_members_are_kept_in_order() {
    let text = r#"{"z_extension":{"b":1},"issuer":"https://as.example.com","registration_endpoint":null,"scopes_supported":["a"]}"#;
    let asm = AuthorizationServerMetadata::from_json(text).unwrap();
    assert_eq!(asm.registration_endpoint, None);
    assert_eq!(asm.extra["registration_endpoint"], Value::Null);
    assert_eq!(serde_json::to_string(&asm).unwrap(), text);
    // A member set after reading is written after the ones read.
    let mut asm = asm;
    asm.authorization_response_iss_parameter_supported = Some(true);
    assert_eq!(
        serde_json::to_string(&asm).unwrap(),
        r#"{"z_extension":{"b":1},"issuer":"https://as.example.com","registration_endpoint":null,"scopes_supported":["a"],"authorization_response_iss_parameter_supported":true}"#
    );
    // Order does not make documents differ.
    let reordered = AuthorizationServerMetadata::from_json(
        r#"{"issuer":"https://as.example.com","scopes_supported":["a"],"registration_endpoint":null,"z_extension":{"b":1},"authorization_response_iss_parameter_supported":true}"#,
    )
    .unwrap();
    assert_eq!(reordered, asm);
}

#[test]
fn malformed_documents_name_the_member() {
    assert_eq!(
        ProtectedResourceMetadata::from_json(r#"{"authorization_servers":[]}"#),
        Err(AuthError::MissingMember {
            document: "protected resource metadata",
            member: "resource"
        })
    );
    assert_eq!(
        ProtectedResourceMetadata::from_json(
            r#"{"resource":"https://r.example.com","scopes_supported":"a b"}"#
        ),
        Err(AuthError::InvalidMember {
            document: "protected resource metadata",
            member: "scopes_supported",
            expected: "an array of strings",
            found: "a string"
        })
    );
    assert_eq!(
        AuthorizationServerMetadata::from_json(r#"{"issuer":null}"#),
        Err(AuthError::InvalidMember {
            document: "authorization server metadata",
            member: "issuer",
            expected: "a string",
            found: "null"
        })
    );
    assert_eq!(
        TokenResponse::from_json(
            r#"{"access_token":"t","token_type":"Bearer","expires_in":3600.5}"#
        ),
        Err(AuthError::InvalidMember {
            document: "token response",
            member: "expires_in",
            expected: "a non-negative integer",
            found: "a fractional number"
        })
    );
    assert!(matches!(
        ClientInformation::from_json(r#"{"client_id":"c","redirect_uris":[1]}"#),
        Err(AuthError::InvalidMember {
            member: "redirect_uris",
            ..
        })
    ));
    assert!(matches!(
        OAuthError::from_json(r#"["invalid_request"]"#),
        Err(AuthError::InvalidDocument { document: "OAuth error response", reason }) if reason.starts_with("expected an object, found an array")
    ));
    assert!(matches!(
        TokenResponse::from_json(r#""2YotnFZFEjr1zCsicMWpAA""#),
        Err(AuthError::InvalidDocument { reason, .. }) if reason == "expected an object, found a string at line 1 column 24"
    ));
    let via_serde = serde_json::from_str::<TokenResponse>(r#""2YotnFZFEjr1zCsicMWpAA""#)
        .unwrap_err()
        .to_string();
    assert!(!via_serde.contains("2YotnFZFEjr1zCsicMWpAA"), "{via_serde}");
    let duplicate = TokenResponse::from_json(
        r#"{"access_token":"a","token_type":"Bearer","access_token":"b"}"#,
    )
    .unwrap_err();
    assert!(
        duplicate
            .to_string()
            .contains("member `access_token` appears twice"),
        "{duplicate}"
    );
    // serde's path gives the same message.
    let via_serde = serde_json::from_str::<ProtectedResourceMetadata>("{}").unwrap_err();
    assert!(
        via_serde
            .to_string()
            .contains("required member `resource` is missing"),
        "{via_serde}"
    );
}

#[test]
fn secrets_stay_out_of_errors_and_debug() {
    let secret = "s3cr3t-value-123";
    let cases = [
        TokenResponse::from_json(&format!(r#"{{"access_token":1,"token_type":"{secret}"}}"#))
            .unwrap_err(),
        TokenResponse::from_json(&format!(
            r#"{{"access_token":"a","token_type":"Bearer","expires_in":"{secret}"}}"#
        ))
        .unwrap_err(),
        ClientInformation::from_json(&format!(
            r#"{{"client_id":"c","client_secret":"{secret}","client_secret_expires_at":"{secret}"}}"#
        ))
        .unwrap_err(),
        TokenResponse::from_json(&format!(r#"{{"access_token":"{secret}""#)).unwrap_err(),
        PkceVerifier::new(format!("{secret}!{}", "a".repeat(40))).unwrap_err(),
    ];
    for error in cases {
        let shown = format!("{error} {error:?}");
        assert!(!shown.contains(secret), "{shown}");
    }

    let token = TokenResponse {
        refresh_token: Some(format!("{secret}-refresh")),
        ..TokenResponse::new(secret, "Bearer")
    };
    let client = ClientInformation::from_json(&format!(
        r#"{{"client_id":"c","client_secret":"{secret}"}}"#
    ))
    .unwrap();
    let verifier = PkceVerifier::new(format!("{secret}-{}", "v".repeat(40))).unwrap();
    for shown in [
        format!("{token:?}"),
        format!("{client:?}"),
        format!("{verifier:?}"),
    ] {
        assert!(!shown.contains(secret), "{shown}");
    }
}

#[test]
fn challenges_from_the_rfcs_and_the_specification() {
    let cases = [
        (
            "rfc9728-5.1-www-authenticate.txt",
            r#"Bearer resource_metadata="https://resource.example.com/.well-known/oauth-protected-resource""#,
        ),
        (
            "rfc6750-3-www-authenticate-realm.txt",
            r#"Bearer realm="example""#,
        ),
        (
            "rfc6750-3-www-authenticate-invalid-token.txt",
            r#"Bearer realm="example", error="invalid_token", error_description="The access token expired""#,
        ),
        (
            "mcp-2025-11-25-www-authenticate-scope.txt",
            r#"Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read""#,
        ),
        (
            "mcp-2025-11-25-www-authenticate-insufficient-scope.txt",
            r#"Bearer error="insufficient_scope", scope="files:read files:write user:profile", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="Additional file write permission required""#,
        ),
    ];
    for (name, canonical) in cases {
        // The fixtures are folded over lines as printed; the parser reads the folding as
        // whitespace, and the canonical form formats back to itself.
        let folded = fixture(name);
        let header =
            WwwAuthenticate::parse(folded.trim_end()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(header.to_string(), canonical, "{name}");
        let again = WwwAuthenticate::parse(canonical).unwrap();
        assert_eq!(again, header, "{name}");
        assert_eq!(again.to_string(), canonical, "{name}");
    }

    let header = WwwAuthenticate::parse(
        fixture("mcp-2025-11-25-www-authenticate-insufficient-scope.txt").trim_end(),
    )
    .unwrap();
    let bearer = header.bearer().unwrap();
    assert_eq!(bearer.error(), Some("insufficient_scope"));
    assert_eq!(bearer.scope(), Some("files:read files:write user:profile"));
    assert_eq!(
        bearer.resource_metadata(),
        Some("https://mcp.example.com/.well-known/oauth-protected-resource")
    );
    assert_eq!(
        bearer.error_description(),
        Some("Additional file write permission required")
    );
    assert_eq!(bearer.realm(), None);
    assert_eq!(bearer.error_uri(), None);
}

#[test]
fn challenge_grammar() {
    // Several challenges, a token68, token values, escapes, case-insensitive lookups.
    let text = r#"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple", DPoP algs="ES256 PS256", Negotiate a87421000492aa874209af8bc028=="#;
    let header = WwwAuthenticate::parse(text).unwrap();
    let schemes: Vec<_> = header
        .challenges
        .iter()
        .map(|c| c.scheme.as_str())
        .collect();
    assert_eq!(schemes, ["Newauth", "Basic", "DPoP", "Negotiate"]);
    let newauth = &header.challenges[0];
    assert_eq!(newauth.param("TITLE"), Some(r#"Login to "apps""#));
    assert_eq!(newauth.param("type"), Some("1"));
    assert!(!newauth.params[1].quoted);
    assert_eq!(
        header.challenge("negotiate").unwrap().token68.as_deref(),
        Some("a87421000492aa874209af8bc028==")
    );
    assert!(header.bearer().is_none());
    assert_eq!(header.to_string(), text);

    // Two fields of one response make one list.
    let fields =
        WwwAuthenticate::parse_fields([r#"Basic realm="x""#, r#"Bearer scope="a""#]).unwrap();
    assert_eq!(fields.bearer().unwrap().scope(), Some("a"));
    assert_eq!(fields.to_string(), r#"Basic realm="x", Bearer scope="a""#);
    assert!(WwwAuthenticate::parse_fields([]).is_err());

    // Empty list elements are allowed around challenges.
    let header = WwwAuthenticate::parse(r#" , Bearer , , Basic realm="x" ,"#).unwrap();
    assert_eq!(header.to_string(), r#"Bearer, Basic realm="x""#);

    // A built challenge quotes what needs quoting.
    let built = Challenge::bearer()
        .with_param("scope", "a b")
        .with_param("error_description", r#"say "hi" \ bye"#);
    assert_eq!(
        built.to_string(),
        r#"Bearer scope="a b", error_description="say \"hi\" \\ bye""#
    );
    assert_eq!(Challenge::parse(&built.to_string()).unwrap(), built);
}

#[test]
fn comma_then_new_scheme_starts_a_challenge() {
    let header =
        WwwAuthenticate::parse(r#"Basic realm="a", Bearer, Newauth abc==, DPoP algs="ES256""#)
            .unwrap();
    let schemes: Vec<_> = header
        .challenges
        .iter()
        .map(|c| c.scheme.as_str())
        .collect();
    assert_eq!(schemes, ["Basic", "Bearer", "Newauth", "DPoP"]);
    assert_eq!(header.challenges[2].token68.as_deref(), Some("abc=="));
    assert_eq!(
        header.challenge("dpop").unwrap().param("ALGS"),
        Some("ES256")
    );
}

#[test]
fn bad_whitespace_around_equals_is_allowed() {
    let c = Challenge::parse("Bearer realm = \"x\" , error=invalid_token").unwrap();
    assert_eq!(c.realm(), Some("x"));
    assert_eq!(c.error(), Some("invalid_token"));
    assert!(!c.params[1].quoted);
}

#[test]
fn malformed_challenges_name_the_parameter_and_offset() {
    let cases: [(&str, usize, Option<&str>, &str); 7] = [
        ("", 0, None, "no challenge"),
        (
            r#"Bearer realm="unterminated"#,
            13,
            Some("realm"),
            "unterminated quoted-string",
        ),
        (
            r#"Bearer realm="a" error="b""#,
            17,
            Some("realm"),
            "expected `,` after the parameter",
        ),
        (
            r#"Bearer realm="a", realm="b""#,
            18,
            Some("realm"),
            "the parameter occurs twice in one challenge",
        ),
        (
            "Bearer realm=x, scope=",
            22,
            Some("scope"),
            "expected a token or a quoted-string as the value",
        ),
        (
            "Bearer realm=\"a\u{1}\"",
            15,
            Some("realm"),
            "control character in a quoted-string",
        ),
        (r#"="x""#, 0, None, "expected an auth-scheme (a token)"),
    ];
    for (text, offset, parameter, reason) in cases {
        assert_eq!(
            WwwAuthenticate::parse(text),
            Err(AuthError::InvalidChallenge {
                offset,
                parameter: parameter.map(str::to_owned),
                reason
            }),
            "{text:?}"
        );
    }
    assert!(matches!(
        Challenge::parse(r#"Bearer, Basic"#),
        Err(AuthError::InvalidChallenge { reason, .. }) if reason.contains("more than one")
    ));
    let error = WwwAuthenticate::parse(r#"Bearer scope="a"#).unwrap_err();
    assert_eq!(
        error.to_string(),
        "WWW-Authenticate, parameter `scope` at byte 13: unterminated quoted-string"
    );
}

#[test]
fn protected_resource_metadata_urls() {
    assert_eq!(
        discovery::protected_resource_metadata_urls("http://localhost:3000/mcp", None).unwrap(),
        [
            "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
            "http://localhost:3000/.well-known/oauth-protected-resource",
        ]
    );
    // The challenge's URL first; a URL is not listed twice.
    assert_eq!(
        discovery::protected_resource_metadata_urls(
            "https://example.com/public/mcp",
            Some("https://example.com/.well-known/oauth-protected-resource"),
        )
        .unwrap(),
        [
            "https://example.com/.well-known/oauth-protected-resource",
            "https://example.com/.well-known/oauth-protected-resource/public/mcp",
        ]
    );
    assert_eq!(
        discovery::protected_resource_metadata_urls(
            "https://example.com/",
            Some("https://example.com/custom/metadata/location.json"),
        )
        .unwrap(),
        [
            "https://example.com/custom/metadata/location.json",
            "https://example.com/.well-known/oauth-protected-resource",
        ]
    );
    assert_eq!(
        discovery::protected_resource_metadata_urls("ftp://example.com/", None),
        Err(AuthError::InvalidUrl {
            argument: "server_url",
            reason: "the scheme is neither http nor https"
        })
    );
    assert!(matches!(
        discovery::protected_resource_metadata_urls("https://example.com/mcp", Some("/relative")),
        Err(AuthError::InvalidUrl {
            argument: "resource_metadata",
            ..
        })
    ));
}

/// Each rule reads the parts of the server's or issuer's URL as written: scheme and authority
/// for the origin, the path without its last `/` where a well-known suffix goes, the query kept
/// and the fragment left out; the canonical resource lowers the scheme and host alone.
#[test]
fn url_parts_are_read_as_written() {
    let url = "https://u@Example.COM:8443/a/b/?q=1#frag";
    assert_eq!(
        discovery::authorization_base_url(url).unwrap(),
        "https://u@Example.COM:8443"
    );
    assert_eq!(
        resource_indicator(url).unwrap(),
        "https://u@example.com:8443/a/b/?q=1"
    );
    assert_eq!(
        discovery::protected_resource_metadata_urls(url, None).unwrap()[0],
        "https://u@Example.COM:8443/.well-known/oauth-protected-resource/a/b?q=1"
    );
}

#[test]
fn root_and_bare_origin() {
    let bare = "http://localhost:3000";
    assert_eq!(resource_indicator(bare).unwrap(), bare);
    assert_eq!(
        discovery::protected_resource_metadata_urls(bare, None).unwrap(),
        ["http://localhost:3000/.well-known/oauth-protected-resource"]
    );
    assert_eq!(
        discovery::authorization_server_metadata_urls(
            "http://localhost:3000/",
            &ProtocolVersion::V2025_06_18
        )
        .unwrap(),
        ["http://localhost:3000/.well-known/oauth-authorization-server"]
    );
}

#[test]
fn query_before_any_slash_is_not_path() {
    let url = "https://example.com?x=/y";
    assert_eq!(
        discovery::authorization_base_url(url).unwrap(),
        "https://example.com"
    );
    assert_eq!(resource_indicator(url).unwrap(), "https://example.com?x=/y");
}

#[test]
fn insertion_keeps_the_query_and_drops_the_fragment() {
    assert_eq!(
        discovery::protected_resource_metadata_urls("https://example.com/r1/?tenant=a#f", None)
            .unwrap()[0],
        "https://example.com/.well-known/oauth-protected-resource/r1?tenant=a"
    );
}

#[test]
fn insertion_and_appending() {
    let urls = discovery::authorization_server_metadata_urls(
        "https://auth.example.com/tenant1/",
        &ProtocolVersion::V2025_11_25,
    )
    .unwrap();
    assert_eq!(
        urls[1],
        "https://auth.example.com/.well-known/openid-configuration/tenant1"
    );
    assert_eq!(
        urls[2],
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
            resource_indicator(text),
            Err(AuthError::InvalidUrl {
                argument: "server_url",
                reason
            }),
            "{text}"
        );
    }
}

#[test]
fn authorization_server_metadata_urls_per_revision() {
    let urls = |issuer: &str, revision: ProtocolVersion| {
        discovery::authorization_server_metadata_urls(issuer, &revision).unwrap()
    };
    // 2025-11-25 on: RFC 8414, then OpenID Connect, insertion before appending.
    for revision in [
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
        ProtocolVersion::Draft,
    ] {
        assert_eq!(
            urls("https://auth.example.com/tenant1", revision.clone()),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            urls("https://auth.example.com", revision),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
    }
    // 2025-06-18: RFC 8414 only.
    assert_eq!(
        urls(
            "https://auth.example.com/tenant1/",
            ProtocolVersion::V2025_06_18
        ),
        ["https://auth.example.com/.well-known/oauth-authorization-server/tenant1"]
    );
    // 2025-03-26: at the MCP server's origin, whatever its path.
    assert_eq!(
        urls(
            "https://api.example.com/v1/mcp",
            ProtocolVersion::V2025_03_26
        ),
        ["https://api.example.com/.well-known/oauth-authorization-server"]
    );
    assert_eq!(
        discovery::expected_issuer(
            "https://api.example.com/v1/mcp",
            &ProtocolVersion::V2025_03_26
        )
        .unwrap(),
        "https://api.example.com"
    );
    assert_eq!(
        discovery::expected_issuer("https://as.example.com/t", &ProtocolVersion::V2026_07_28)
            .unwrap(),
        "https://as.example.com/t"
    );
    // No authorization before 2025-03-26, nor in a revision this crate does not know.
    for revision in [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::from("2099-01-01"),
    ] {
        assert_eq!(
            discovery::authorization_server_metadata_urls("https://as.example.com", &revision),
            Err(AuthError::NoAuthorization {
                revision: revision.clone()
            })
        );
    }
}

#[test]
fn default_endpoints_only_in_2025_03_26() {
    let endpoints = discovery::default_endpoints(
        "https://api.example.com/v1/mcp",
        &ProtocolVersion::V2025_03_26,
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        (
            endpoints.authorization_endpoint.as_str(),
            endpoints.token_endpoint.as_str(),
            endpoints.registration_endpoint.as_str()
        ),
        (
            "https://api.example.com/authorize",
            "https://api.example.com/token",
            "https://api.example.com/register"
        )
    );
    for revision in [
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ] {
        assert_eq!(
            discovery::default_endpoints("https://api.example.com/v1/mcp", &revision).unwrap(),
            None
        );
    }
}

#[test]
fn one_row_per_revision_in_order() {
    let revisions: Vec<_> = RULES.iter().map(|r| r.revision.clone()).collect();
    assert_eq!(
        revisions,
        [
            ProtocolVersion::V2025_03_26,
            ProtocolVersion::V2025_06_18,
            ProtocolVersion::V2025_11_25,
            ProtocolVersion::V2026_07_28,
            ProtocolVersion::Draft,
        ]
    );
    let row = |v: ProtocolVersion| DiscoveryRules::for_revision(&v).unwrap();
    let legacy = row(ProtocolVersion::V2025_03_26);
    assert!(!legacy.protected_resource_metadata);
    assert_eq!(legacy.metadata_base, MetadataBase::ServerOrigin);
    assert!(legacy.protocol_version_header_on_metadata);
    assert!(!legacy.resource_parameter);
    let latest = row(ProtocolVersion::V2026_07_28);
    assert!(latest.authorization_response_iss && latest.offline_access && latest.step_up_union);
    assert!(latest.application_type);
    let previous = row(ProtocolVersion::V2025_11_25);
    assert!(previous.client_id_metadata_documents && !previous.step_up_union);
    assert!(!previous.application_type);
    assert!(!row(ProtocolVersion::V2025_06_18).client_id_metadata_documents);
    for rules in RULES {
        assert!(
            rules.spec.contains(rules.revision.as_str()),
            "{}",
            rules.spec
        );
    }
}

#[test]
fn scope_selection_and_step_up() {
    let mut prm = ProtectedResourceMetadata::new("https://mcp.example.com/mcp");
    assert_eq!(select_scope(None, Some(&prm)), None);
    prm.scopes_supported = Some(vec![]);
    assert_eq!(select_scope(None, Some(&prm)), None);
    prm.scopes_supported = Some(vec![
        "mcp:basic".into(),
        "mcp:read".into(),
        "mcp:write".into(),
    ]);
    assert_eq!(
        select_scope(None, Some(&prm)).as_deref(),
        Some("mcp:basic mcp:read mcp:write")
    );
    let challenge =
        Challenge::parse(r#"Bearer scope="mcp:basic", resource_metadata="https://x""#).unwrap();
    assert_eq!(
        select_scope(Some(&challenge), Some(&prm)).as_deref(),
        Some("mcp:basic")
    );
    let without_scope = Challenge::parse(r#"Bearer resource_metadata="https://x""#).unwrap();
    assert_eq!(
        select_scope(Some(&without_scope), Some(&prm)).as_deref(),
        Some("mcp:basic mcp:read mcp:write")
    );

    let step_up =
        Challenge::parse(r#"Bearer error="insufficient_scope", scope="mcp:write""#).unwrap();
    assert_eq!(step_up_scope(&step_up, None).as_deref(), Some("mcp:write"));
    assert_eq!(
        step_up_scope(&step_up, Some("mcp:basic  mcp:write")).as_deref(),
        Some("mcp:basic mcp:write")
    );
    assert_eq!(step_up_scope(&without_scope, Some("mcp:basic")), None);

    let mut asm = AuthorizationServerMetadata::new("https://as.example.com");
    asm.scopes_supported = Some(vec!["mcp:basic".into(), "offline_access".into()]);
    assert_eq!(
        add_offline_access(Some("mcp:basic offline_access"), &asm).as_deref(),
        Some("mcp:basic offline_access")
    );
    asm.scopes_supported = None;
    assert_eq!(add_offline_access(None, &asm), None);
}

#[test]
fn issuer_checks_compare_exact_text() {
    let mut asm = AuthorizationServerMetadata::new("http://localhost:3001");
    assert_eq!(
        issuer::check_metadata_issuer("http://localhost:3001", &asm),
        Ok(())
    );
    assert_eq!(
        issuer::check_metadata_issuer(
            "http://localhost:3001",
            &AuthorizationServerMetadata::new("https://attacker.example.com")
        ),
        Err(AuthError::IssuerMismatch {
            expected: "http://localhost:3001".into(),
            found: "https://attacker.example.com".into()
        })
    );
    for variant in [
        "http://localhost:3001/",
        "HTTP://localhost:3001",
        "http://LOCALHOST:3001",
    ] {
        assert!(
            issuer::check_metadata_issuer(variant, &asm).is_err(),
            "{variant}"
        );
    }

    // The four rows of the 2026-07-28 table, and the normalized variant.
    asm.authorization_response_iss_parameter_supported = Some(true);
    assert_eq!(
        issuer::check_authorization_response(&asm, Some("http://localhost:3001")),
        Ok(())
    );
    assert_eq!(
        issuer::check_authorization_response(&asm, None),
        Err(AuthError::MissingIss {
            issuer: "http://localhost:3001".into()
        })
    );
    assert_eq!(
        issuer::check_authorization_response(&asm, Some("http://localhost:3001/")),
        Err(AuthError::IssMismatch {
            expected: "http://localhost:3001".into(),
            found: "http://localhost:3001/".into()
        })
    );
    asm.authorization_response_iss_parameter_supported = None;
    assert_eq!(issuer::check_authorization_response(&asm, None), Ok(()));
    assert!(matches!(
        issuer::check_authorization_response(&asm, Some("https://evil.example.com")),
        Err(AuthError::IssMismatch { .. })
    ));
}

#[test]
fn authorization_responses_are_checked_in_a_safe_order() {
    // RFC 6749 §4.1.2's example redirect, with RFC 9207's `iss`.
    let redirect = "https://client.example.com/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz&iss=https%3A%2F%2Fserver.example.com";
    let response = AuthorizationResponse::from_redirect(redirect).unwrap();
    assert_eq!(response.iss.as_deref(), Some("https://server.example.com"));
    assert!(!format!("{response:?}").contains("SplxlOBeZQQYbYS6WxSbIA"));
    assert!(!format!("{response:?}").contains("xyz"));
    let mut metadata = AuthorizationServerMetadata::new("https://server.example.com");
    metadata.authorization_response_iss_parameter_supported = Some(true);
    assert_eq!(
        response.check("xyz", &metadata),
        Ok("SplxlOBeZQQYbYS6WxSbIA")
    );
    assert_eq!(
        response.check("other", &metadata),
        Err(AuthError::StateMismatch)
    );

    // The conformance scenarios' cases: a missing, wrong or trailing-slash `iss` is refused
    // before `state` or `error` are looked at.
    let query = |iss: Option<&str>, rest: &str| {
        let mut query = rest.to_owned();
        if let Some(iss) = iss {
            query.push_str("&iss=");
            query.push_str(&form::encode_component(iss));
        }
        AuthorizationResponse::from_query(&query)
    };
    let refused = query(None, "error=access_denied&state=forged");
    assert!(matches!(
        refused.check("xyz", &metadata),
        Err(AuthError::MissingIss { .. })
    ));
    for iss in ["https://evil.example.com", "https://server.example.com/"] {
        assert!(matches!(
            query(Some(iss), "code=c&state=xyz").check("xyz", &metadata),
            Err(AuthError::IssMismatch { .. })
        ));
    }
    metadata.authorization_response_iss_parameter_supported = None;
    assert_eq!(
        query(None, "code=c&state=xyz").check("xyz", &metadata),
        Ok("c")
    );
    assert!(matches!(
        query(Some("https://evil.example.com"), "code=c&state=xyz").check("xyz", &metadata),
        Err(AuthError::IssMismatch { .. })
    ));

    // An error response with the right `state` and `iss`, then one with nothing.
    assert_eq!(
        query(
            Some("https://server.example.com"),
            "error=access_denied&error_description=no+thanks&state=xyz"
        )
        .check("xyz", &metadata),
        Err(AuthError::AuthorizationRefused {
            error: OAuthErrorCode::AccessDenied,
            description: Some("no thanks".into())
        })
    );
    assert_eq!(
        query(None, "state=xyz").check("xyz", &metadata),
        Err(AuthError::MissingCode)
    );
    // The redirect must lead back to the client's redirect URI.
    let registered = "http://localhost:3000/callback?client=1";
    for (location, ok) in [
        (
            "http://localhost:3000/callback?client=1&code=c&state=xyz",
            true,
        ),
        ("http://localhost:3000/callback?code=c&state=xyz", false),
        ("http://localhost:3000/callback/x?client=1&code=c", false),
        ("http://localhost:3001/callback?client=1&code=c", false),
        ("https://localhost:3000/callback?client=1&code=c", false),
        ("http://evil.example.com/callback?client=1&code=c", false),
    ] {
        let read = AuthorizationResponse::from_redirect_to(location, registered);
        assert_eq!(read.is_ok(), ok, "{location}");
        if let Err(error) = read {
            assert_eq!(error, AuthError::RedirectMismatch);
        }
    }
    // A repeated parameter keeps its first value.
    assert_eq!(
        AuthorizationResponse::from_query("code=a&code=b")
            .code
            .as_deref(),
        Some("a")
    );
}

#[test]
fn resource_indicator_and_resource_check() {
    for (server, canonical) in [
        ("https://mcp.example.com/mcp", "https://mcp.example.com/mcp"),
        ("https://mcp.example.com", "https://mcp.example.com"),
        ("https://mcp.example.com/", "https://mcp.example.com"),
        (
            "https://mcp.example.com:8443",
            "https://mcp.example.com:8443",
        ),
        (
            "HTTPS://MCP.EXAMPLE.COM/Server/MCP",
            "https://mcp.example.com/Server/MCP",
        ),
        (
            "https://mcp.example.com#fragment",
            "https://mcp.example.com",
        ),
        (
            "http://localhost:3000/mcp?x=1",
            "http://localhost:3000/mcp?x=1",
        ),
    ] {
        assert_eq!(resource_indicator(server).unwrap(), canonical, "{server}");
    }
    assert!(matches!(
        resource_indicator("mcp.example.com"),
        Err(AuthError::InvalidUrl {
            argument: "server_url",
            ..
        })
    ));

    let server = "http://localhost:3000/mcp";
    for (resource, ok) in [
        ("http://localhost:3000/mcp", true),
        ("http://localhost:3000/mcp/", true),
        ("http://localhost:3000", true),
        ("HTTP://LOCALHOST:3000/mcp", true),
        ("https://evil.example.com/mcp", false),
        ("http://localhost:3001/mcp", false),
        ("http://localhost:3000/mc", false),
        ("http://localhost:3000/mcp/tenant", false),
        ("not a url", false),
    ] {
        let prm = ProtectedResourceMetadata::new(resource);
        assert_eq!(check_resource(&prm, server).is_ok(), ok, "{resource}");
    }
    assert_eq!(
        check_resource(
            &ProtectedResourceMetadata::new("https://evil.example.com/mcp"),
            server
        ),
        Err(AuthError::ResourceMismatch {
            resource: "https://evil.example.com/mcp".into(),
            server_url: server.into()
        })
    );
}

#[test]
fn pkce_rfc_7636_appendix_b() {
    let octets = [
        116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37,
        77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
    ];
    let verifier = PkceVerifier::from_random_bytes(&octets);
    assert_eq!(
        verifier.as_str(),
        "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    );
    let challenge = PkceChallenge::s256(&verifier);
    assert_eq!(
        challenge.as_str(),
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    );
    assert_eq!(challenge.method(), "S256");
    assert_eq!(verifier.challenge(), challenge);
    assert!(challenge.is_verified_by("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"));
    assert!(!challenge.is_verified_by("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXK"));

    assert_eq!(
        PkceVerifier::new("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
            .unwrap()
            .challenge(),
        challenge
    );
    for (text, reason) in [
        ("a".repeat(42), "not 43 to 128 characters long"),
        ("a".repeat(129), "not 43 to 128 characters long"),
        (
            format!("{}+", "a".repeat(42)),
            "has a character other than A-Z, a-z, 0-9, `-`, `.`, `_`, `~`",
        ),
    ] {
        assert_eq!(
            PkceVerifier::new(text),
            Err(AuthError::InvalidPkceVerifier { reason })
        );
    }
    assert!(PkceVerifier::new("~._-".repeat(32)).is_ok());
}

#[test]
fn form_encoding_round_trips_every_byte_class() {
    let value = "a Z9*-._~!'()/?#&=+%é\u{0}";
    let encoded = form::encode([("k", value)]);
    assert_eq!(
        encoded,
        "k=a+Z9*-._%7E%21%27%28%29%2F%3F%23%26%3D%2B%25%C3%A9%00"
    );
    assert_eq!(form::parse(&encoded), [("k".to_owned(), value.to_owned())]);
}

#[test]
fn form_decoding_is_lenient_like_the_whatwg_parser() {
    assert_eq!(
        form::parse("a=%zz&&b=%4&c=%ff"),
        [
            ("a".to_owned(), "%zz".to_owned()),
            ("b".to_owned(), "%4".to_owned()),
            ("c".to_owned(), "\u{fffd}".to_owned()),
        ]
    );
}

/// The crate gives `base64url` only 32 octets (a verifier, a SHA-256 digest); the RFC 4648
/// vectors are of every length up to six, so they go to it directly.
#[test]
fn base64url_matches_rfc_4648_vectors_without_padding() {
    // RFC 4648 §10, padding removed.
    for (input, expected) in [
        ("", ""),
        ("f", "Zg"),
        ("fo", "Zm8"),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg"),
        ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ] {
        assert_eq!(pkce::base64url(input.as_bytes()), expected);
    }
    assert_eq!(pkce::base64url(&[0xfb, 0xff]), "-_8");
}

mod properties {
    use mcp_spec_types::auth::{form, AuthParam, Challenge, WwwAuthenticate};
    use proptest::prelude::*;

    fn token() -> impl Strategy<Value = String> {
        "[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}"
    }

    fn param() -> impl Strategy<Value = AuthParam> {
        // Values: any text a quoted-string can carry (visible ASCII, space, tab, and
        // non-ASCII), or a token written bare.
        (token(), "[ -~\t\u{a0}-\u{2fff}]{0,16}", any::<bool>()).prop_map(
            |(name, value, quoted)| {
                let bare = !quoted
                    && !value.is_empty()
                    && value
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
                AuthParam {
                    name,
                    value,
                    quoted: !bare,
                }
            },
        )
    }

    fn challenge() -> impl Strategy<Value = Challenge> {
        (
            token(),
            prop::option::of("[A-Za-z0-9._~+/-]{1,12}={0,2}"),
            prop::collection::vec(param(), 0..4),
        )
            .prop_map(|(scheme, token68, params)| {
                let mut challenge = Challenge::new(scheme);
                match token68 {
                    Some(token68) => challenge.token68 = Some(token68),
                    None => {
                        // Parameter names are unique within a challenge (RFC 9110 §11.2).
                        for param in params {
                            if challenge.param(&param.name).is_none() {
                                challenge.params.push(param);
                            }
                        }
                    }
                }
                challenge
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Whatever challenges are formatted, parsing gives them back, and formatting again
        /// gives the same text.
        #[test]
        fn challenges_round_trip(challenges in prop::collection::vec(challenge(), 1..4)) {
            let header = WwwAuthenticate { challenges };
            let text = header.to_string();
            let parsed = WwwAuthenticate::parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(&parsed, &header, "{}", text);
            prop_assert_eq!(parsed.to_string(), text);
        }

        /// Any text survives form encoding.
        #[test]
        fn form_round_trip(pairs in prop::collection::vec((".{0,8}", ".{0,8}"), 0..4)) {
            let encoded = form::encode(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())));
            // An empty pair is still written as `=`, so nothing is lost.
            prop_assert_eq!(form::parse(&encoded), pairs);
        }
    }
}

// `base64url` is private to the crate: its file is compiled here, with the crate's prelude
// it imports, for the vectors of `base64url_matches_rfc_4648_vectors_without_padding`.
extern crate alloc;
#[allow(dead_code)]
#[path = "../src/auth/pkce.rs"]
mod pkce;
#[allow(unused_imports)]
#[path = "../runtime/src/prelude.rs"]
mod prelude;

// The example server's protection (its `auth` module, named as its `http` module expects),
// and with every revision and conversions the whole server, run in process below.
#[allow(dead_code)]
#[path = "../examples/conformance-server/auth.rs"]
mod auth;
#[cfg(all(feature = "all-revisions", feature = "http-server"))]
#[allow(dead_code)]
#[path = "../examples/conformance-server/fixtures.rs"]
mod fixtures;
#[cfg(all(feature = "all-revisions", feature = "http-server"))]
#[allow(dead_code)]
#[path = "../examples/conformance-server/handler.rs"]
mod handler;
#[cfg(all(feature = "all-revisions", feature = "http-server"))]
#[allow(dead_code)]
#[path = "../examples/conformance-server/http.rs"]
mod http;
#[cfg(all(feature = "all-revisions", feature = "http-server"))]
#[allow(dead_code)]
#[path = "../examples/conformance-server/input_required.rs"]
mod input_required;
#[cfg(all(feature = "all-revisions", feature = "http-server"))]
#[allow(dead_code)]
#[path = "../examples/conformance-server/tasks.rs"]
mod tasks;

/// The authorization server the protected-resource tests share (the example server's
/// protection names one issuer per process), on a runtime of its own: it serves its metadata,
/// registers clients, answers authorization requests at once with a redirect, issues tokens
/// whose audience is the `resource` asked for (after checking PKCE), and introspects them.
mod authorization_server {
    use http_body_util::{BodyExt, Full};
    use hyper::body::{Bytes, Incoming};
    use hyper::header::LOCATION;
    use hyper::{Request, Response, StatusCode};
    use hyper_util::rt::TokioIo;
    use mcp_spec_types::auth::{
        form, AuthorizationServerMetadata, ClientInformation, ClientMetadata, OAuthError,
        OAuthErrorCode, PkceVerifier, TokenResponse,
    };
    use serde_json::{json, Value};
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};

    /// The authority the unit checks put in `Host`; the seeded tokens are for its `/mcp`.
    pub const FAKE_HOST: &str = "127.0.0.1:4100";

    pub struct Shared {
        pub runtime: tokio::runtime::Runtime,
        pub issuer: String,
    }

    struct Grant {
        challenge: String,
        resource: String,
        scope: String,
        redirect_uri: String,
    }

    #[derive(Default)]
    struct State {
        issued: u64,
        codes: HashMap<String, Grant>,
        tokens: HashMap<String, Value>,
    }

    static SHARED: OnceLock<Shared> = OnceLock::new();
    static STATE: OnceLock<Mutex<State>> = OnceLock::new();

    fn state() -> std::sync::MutexGuard<'static, State> {
        STATE
            .get_or_init(|| {
                let resource = format!("http://{FAKE_HOST}/mcp");
                let mut state = State::default();
                for (token, introspection) in [
                    ("basic", json!({"active": true, "aud": resource, "scope": "mcp:basic"})),
                    ("write", json!({"active": true, "aud": [resource], "scope": "mcp:basic mcp:write"})),
                    ("elsewhere", json!({"active": true, "aud": "http://127.0.0.1:1/mcp", "scope": "mcp:basic mcp:write"})),
                    ("no-scope", json!({"active": true, "aud": resource, "scope": "profile"})),
                ] {
                    state.tokens.insert(token.to_owned(), introspection);
                }
                Mutex::new(state)
            })
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// Starts the server once, and turns the example server's protection on for it.
    pub fn shared() -> &'static Shared {
        SHARED.get_or_init(|| {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            let listener = runtime
                .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
                .unwrap();
            let issuer = format!("http://{}", listener.local_addr().unwrap());
            let served = issuer.clone();
            runtime.spawn(async move {
                while let Ok((stream, _)) = listener.accept().await {
                    let issuer = served.clone();
                    tokio::spawn(async move {
                        let service = hyper::service::service_fn(move |request| {
                            let issuer = issuer.clone();
                            async move {
                                Ok::<_, std::convert::Infallible>(handle(request, &issuer).await)
                            }
                        });
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(TokioIo::new(stream), service)
                            .await;
                    });
                }
            });
            crate::auth::enable(&issuer).unwrap();
            Shared { runtime, issuer }
        })
    }

    fn respond(status: StatusCode, body: String) -> Response<Full<Bytes>> {
        let mut response = Response::new(Full::new(Bytes::from(body)));
        *response.status_mut() = status;
        response
    }

    fn refuse(code: OAuthErrorCode) -> Response<Full<Bytes>> {
        respond(
            StatusCode::BAD_REQUEST,
            serde_json::to_string(&OAuthError::new(code)).unwrap(),
        )
    }

    async fn handle(request: Request<Incoming>, issuer: &str) -> Response<Full<Bytes>> {
        let path = request.uri().path().to_owned();
        let query: HashMap<String, String> = form::parse(request.uri().query().unwrap_or(""))
            .into_iter()
            .collect();
        let body = request
            .into_body()
            .collect()
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        let body = String::from_utf8_lossy(&body).into_owned();
        let fields: HashMap<String, String> = form::parse(&body).into_iter().collect();
        match path.as_str() {
            "/.well-known/oauth-authorization-server" => {
                let metadata = AuthorizationServerMetadata {
                    authorization_endpoint: Some(format!("{issuer}/authorize")),
                    token_endpoint: Some(format!("{issuer}/token")),
                    registration_endpoint: Some(format!("{issuer}/register")),
                    introspection_endpoint: Some(format!("{issuer}/introspect")),
                    scopes_supported: Some(vec!["mcp:basic".into(), "mcp:write".into()]),
                    response_types_supported: Some(vec!["code".into()]),
                    grant_types_supported: Some(vec!["authorization_code".into()]),
                    token_endpoint_auth_methods_supported: Some(vec!["none".into()]),
                    code_challenge_methods_supported: Some(vec!["S256".into()]),
                    authorization_response_iss_parameter_supported: Some(true),
                    ..AuthorizationServerMetadata::new(issuer)
                };
                respond(StatusCode::OK, serde_json::to_string(&metadata).unwrap())
            }
            "/register" => match ClientMetadata::from_json(&body) {
                Ok(metadata) => {
                    let information = ClientInformation {
                        client_id: "client-1".into(),
                        metadata,
                        ..Default::default()
                    };
                    respond(
                        StatusCode::CREATED,
                        serde_json::to_string(&information).unwrap(),
                    )
                }
                Err(_) => refuse(OAuthErrorCode::InvalidRequest),
            },
            "/authorize" => {
                let get = |name: &str| query.get(name).cloned().unwrap_or_default();
                if get("response_type") != "code" || get("code_challenge_method") != "S256" {
                    return refuse(OAuthErrorCode::InvalidRequest);
                }
                let code = {
                    let mut state = state();
                    state.issued += 1;
                    let code = format!("code-{}", state.issued);
                    state.codes.insert(
                        code.clone(),
                        Grant {
                            challenge: get("code_challenge"),
                            resource: get("resource"),
                            scope: get("scope"),
                            redirect_uri: get("redirect_uri"),
                        },
                    );
                    code
                };
                let location = format!(
                    "{}?{}",
                    get("redirect_uri"),
                    form::encode([
                        ("code", code.as_str()),
                        ("state", &get("state")),
                        ("iss", issuer)
                    ])
                );
                let mut response = respond(StatusCode::FOUND, String::new());
                response
                    .headers_mut()
                    .insert(LOCATION, location.parse().unwrap());
                response
            }
            "/token" => {
                let get = |name: &str| fields.get(name).cloned().unwrap_or_default();
                let mut state = state();
                let Some(grant) = state.codes.remove(&get("code")) else {
                    return refuse(OAuthErrorCode::InvalidGrant);
                };
                let verified = PkceVerifier::new(get("code_verifier"))
                    .is_ok_and(|v| v.challenge().as_str() == grant.challenge);
                if !verified
                    || get("redirect_uri") != grant.redirect_uri
                    || get("resource") != grant.resource
                {
                    return refuse(OAuthErrorCode::InvalidGrant);
                }
                state.issued += 1;
                let token = format!("token-{}", state.issued);
                state.tokens.insert(
                    token.clone(),
                    json!({"active": true, "aud": grant.resource, "scope": grant.scope}),
                );
                let response = TokenResponse {
                    expires_in: Some(3600),
                    scope: Some(grant.scope),
                    ..TokenResponse::new(token, "Bearer")
                };
                respond(StatusCode::OK, serde_json::to_string(&response).unwrap())
            }
            "/introspect" => {
                let answer = state()
                    .tokens
                    .get(fields.get("token").map(String::as_str).unwrap_or(""))
                    .cloned()
                    .unwrap_or_else(|| json!({"active": false}));
                respond(StatusCode::OK, answer.to_string())
            }
            _ => respond(StatusCode::NOT_FOUND, String::new()),
        }
    }
}

/// The example server's protection judged directly: the metadata, the challenges, the
/// audience and scope checks.
mod protected_resource {
    use super::authorization_server::{shared, FAKE_HOST};
    use hyper::header::{HeaderMap, HeaderValue, AUTHORIZATION, HOST};
    use hyper::StatusCode;
    use mcp_spec_types::auth::{check_resource, ProtectedResourceMetadata, WwwAuthenticate};

    fn headers(token: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(HOST, HeaderValue::from_static(FAKE_HOST));
        if let Some(token) = token {
            headers.insert(
                AUTHORIZATION,
                HeaderValue::from_str(&format!("Bearer {token}")).unwrap(),
            );
        }
        headers
    }

    #[test]
    fn challenges_audience_and_step_up() {
        let shared = shared();
        shared.runtime.block_on(async {
            // The metadata names the issuer and this resource, which the client-side check
            // accepts for the server's URL.
            let document = crate::auth::metadata_response(
                "/.well-known/oauth-protected-resource/mcp",
                &headers(None),
            )
            .unwrap();
            let prm = ProtectedResourceMetadata::from_json(&document).unwrap();
            assert_eq!(prm.authorization_servers, Some(vec![shared.issuer.clone()]));
            assert!(check_resource(&prm, &format!("http://{FAKE_HOST}/mcp")).is_ok());
            assert!(crate::auth::metadata_response("/.well-known/other", &headers(None)).is_none());

            // No token: 401 and the challenge a client starts discovery from.
            let denial = crate::auth::check(&headers(None)).await.unwrap_err();
            assert_eq!(denial.status, StatusCode::UNAUTHORIZED);
            let challenge = WwwAuthenticate::parse(&denial.header()).unwrap();
            let bearer = challenge.bearer().unwrap();
            assert_eq!(bearer.error(), None);
            assert_eq!(bearer.scope(), Some("mcp:basic"));
            assert_eq!(
                bearer.resource_metadata(),
                Some(format!("http://{FAKE_HOST}/.well-known/oauth-protected-resource/mcp").as_str())
            );

            // A token for another resource, an unknown one, one without the base scope.
            for (token, status, error) in [
                ("elsewhere", StatusCode::UNAUTHORIZED, "invalid_token"),
                ("unknown", StatusCode::UNAUTHORIZED, "invalid_token"),
                ("no-scope", StatusCode::FORBIDDEN, "insufficient_scope"),
            ] {
                let denial = crate::auth::check(&headers(Some(token))).await.unwrap_err();
                assert_eq!(denial.status, status, "{token}");
                assert_eq!(denial.challenge.error(), Some(error), "{token}");
                assert!(!denial.header().contains(token) && !denial.body().contains(token));
            }

            // A good token passes; a call of a state-changing tool needs the write scope too,
            // and the 403 names both scopes.
            let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_trigger_tool_change"}}"#;
            let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
            let basic = crate::auth::check(&headers(Some("basic"))).await.unwrap().unwrap();
            assert!(crate::auth::check_body(&basic, &headers(None), list).is_ok());
            let denial = crate::auth::check_body(&basic, &headers(None), call).unwrap_err();
            assert_eq!(denial.status, StatusCode::FORBIDDEN);
            assert_eq!(denial.challenge.scope(), Some("mcp:basic mcp:write"));
            assert_eq!(denial.challenge.error(), Some("insufficient_scope"));
            let write = crate::auth::check(&headers(Some("write"))).await.unwrap().unwrap();
            assert!(crate::auth::check_body(&write, &headers(None), call).is_ok());
            let batch = format!("[{list},{call}]");
            assert!(crate::auth::check_body(&write, &headers(None), &batch).is_ok());
            assert!(crate::auth::check_body(&basic, &headers(None), &batch).is_err());
        });
    }
}

/// The whole loop, every step with the crate's `auth` types: the example server, protected,
/// refuses a request without a token; the client follows the challenge to the protected
/// resource metadata and the authorization server's, registers, authorizes with PKCE and a
/// resource indicator, checks the redirect, gets a token the server accepts, and steps up
/// when a tool needs more scope.
#[cfg(all(feature = "all-revisions", feature = "http-server"))]
mod end_to_end {
    use super::authorization_server::shared;
    use http_body_util::{BodyExt, Full};
    use hyper::body::Bytes;
    use hyper::header::{HeaderMap, HOST, LOCATION, WWW_AUTHENTICATE};
    use hyper::{Method, Request, StatusCode};
    use hyper_util::rt::TokioIo;
    use mcp_spec_types::auth::{
        check_resource, discovery, form, issuer, resource_indicator, select_scope, step_up_scope,
        AuthorizationResponse, AuthorizationServerMetadata, Challenge, ClientInformation,
        ClientMetadata, PkceVerifier, ProtectedResourceMetadata, TokenResponse, WwwAuthenticate,
    };
    use mcp_spec_types::ProtocolVersion;

    const REDIRECT_URI: &str = "http://localhost:3000/callback";

    struct Reply {
        status: StatusCode,
        headers: HeaderMap,
        body: String,
    }

    async fn send(
        method: Method,
        url: &str,
        headers: &[(&str, &str)],
        body: Option<String>,
    ) -> Reply {
        let rest = url.strip_prefix("http://").unwrap();
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let stream = tokio::net::TcpStream::connect(authority).await.unwrap();
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .unwrap();
        tokio::spawn(connection);
        let mut request = Request::builder()
            .method(method)
            .uri(if path.is_empty() { "/" } else { path })
            .header(HOST, authority);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .unwrap();
        let response = sender.send_request(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        Reply {
            status,
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        }
    }

    /// A stateless (2026-07-28) request to the MCP server, with the headers that mirror it.
    async fn mcp(url: &str, token: Option<&str>, method: &str, tool: Option<&str>) -> Reply {
        let mut params = serde_json::json!({"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }});
        if let Some(tool) = tool {
            params["name"] = tool.into();
            params["arguments"] = serde_json::json!({});
        }
        let body =
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let authorization = token.map(|t| format!("Bearer {t}"));
        let mut headers = vec![
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", method),
        ];
        if let Some(tool) = tool {
            headers.push(("mcp-name", tool));
        }
        if let Some(authorization) = &authorization {
            headers.push(("authorization", authorization));
        }
        send(Method::POST, url, &headers, Some(body.to_string())).await
    }

    fn challenge_of(reply: &Reply) -> Challenge {
        let fields = reply
            .headers
            .get_all(WWW_AUTHENTICATE)
            .iter()
            .map(|v| v.to_str().unwrap());
        WwwAuthenticate::parse_fields(fields)
            .unwrap()
            .bearer()
            .cloned()
            .unwrap()
    }

    /// Authorization code with PKCE for `scope`, the redirect checked; the access token.
    async fn authorize(
        metadata: &AuthorizationServerMetadata,
        client: &ClientInformation,
        scope: &str,
        resource: &str,
        round: u8,
    ) -> TokenResponse {
        let verifier = PkceVerifier::from_random_bytes(&[round; 32]);
        let state = format!("state-{round}");
        let query = form::encode([
            ("response_type", "code"),
            ("client_id", client.client_id.as_str()),
            ("redirect_uri", REDIRECT_URI),
            ("scope", scope),
            ("state", &state),
            ("code_challenge", verifier.challenge().as_str()),
            ("code_challenge_method", verifier.challenge().method()),
            ("resource", resource),
        ]);
        let endpoint = metadata.authorization_endpoint.as_deref().unwrap();
        let redirect = send(Method::GET, &format!("{endpoint}?{query}"), &[], None).await;
        assert_eq!(redirect.status, StatusCode::FOUND);
        let location = redirect.headers[LOCATION].to_str().unwrap();
        let response = AuthorizationResponse::from_redirect_to(location, REDIRECT_URI).unwrap();
        let code = response.check(&state, metadata).unwrap();
        let body = form::encode([
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", REDIRECT_URI),
            ("client_id", client.client_id.as_str()),
            ("code_verifier", verifier.as_str()),
            ("resource", resource),
        ]);
        let reply = send(
            Method::POST,
            metadata.token_endpoint.as_deref().unwrap(),
            &[("content-type", "application/x-www-form-urlencoded")],
            Some(body),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        TokenResponse::from_json(&reply.body).unwrap()
    }

    #[test]
    fn a_client_built_on_the_auth_types_gets_through() {
        let shared = shared();
        shared.runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let server_url = format!("http://{}/mcp", listener.local_addr().unwrap());
            let server = crate::handler::server().unwrap();
            tokio::spawn(async move { axum::serve(listener, crate::http::app(server)).await });

            // 401, and where to look.
            let refused = mcp(&server_url, None, "tools/list", None).await;
            assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
            let challenge = challenge_of(&refused);

            let mut prm = None;
            for url in discovery::protected_resource_metadata_urls(
                &server_url,
                challenge.resource_metadata(),
            )
            .unwrap()
            {
                let reply = send(Method::GET, &url, &[], None).await;
                if reply.status == StatusCode::OK {
                    prm = Some(ProtectedResourceMetadata::from_json(&reply.body).unwrap());
                    break;
                }
            }
            let prm = prm.unwrap();
            check_resource(&prm, &server_url).unwrap();

            let issuer_url = prm.authorization_servers.as_ref().unwrap()[0].clone();
            assert_eq!(issuer_url, shared.issuer);
            let mut metadata = None;
            for url in discovery::authorization_server_metadata_urls(
                &issuer_url,
                &ProtocolVersion::V2026_07_28,
            )
            .unwrap()
            {
                let reply = send(Method::GET, &url, &[], None).await;
                if reply.status == StatusCode::OK {
                    let found = AuthorizationServerMetadata::from_json(&reply.body).unwrap();
                    issuer::check_metadata_issuer(&issuer_url, &found).unwrap();
                    metadata = Some(found);
                    break;
                }
            }
            let metadata = metadata.unwrap();
            assert!(metadata.supports_s256());

            let registration = ClientMetadata {
                redirect_uris: Some(vec![REDIRECT_URI.into()]),
                token_endpoint_auth_method: Some("none".into()),
                grant_types: Some(vec!["authorization_code".into()]),
                application_type: Some("native".into()),
                ..Default::default()
            };
            let reply = send(
                Method::POST,
                metadata.registration_endpoint.as_deref().unwrap(),
                &[("content-type", "application/json")],
                Some(serde_json::to_string(&registration).unwrap()),
            )
            .await;
            assert_eq!(reply.status, StatusCode::CREATED);
            let client = ClientInformation::from_json(&reply.body).unwrap();
            assert_eq!(client.metadata.application_type.as_deref(), Some("native"));

            let resource = resource_indicator(&server_url).unwrap();
            let scope = select_scope(Some(&challenge), Some(&prm)).unwrap();
            assert_eq!(scope, "mcp:basic");
            let token = authorize(&metadata, &client, &scope, &resource, 1).await;
            assert_eq!(token.scope.as_deref(), Some("mcp:basic"));

            let listed = mcp(&server_url, Some(&token.access_token), "tools/list", None).await;
            assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
            assert!(listed.body.contains("test_trigger_tool_change"));

            // A state-changing tool: 403 and the scope to step up to.
            let tool = Some("test_trigger_tool_change");
            let refused = mcp(&server_url, Some(&token.access_token), "tools/call", tool).await;
            assert_eq!(refused.status, StatusCode::FORBIDDEN);
            let challenge = challenge_of(&refused);
            assert_eq!(challenge.error(), Some("insufficient_scope"));
            let wider = step_up_scope(&challenge, Some(&scope)).unwrap();
            assert_eq!(wider, "mcp:basic mcp:write");
            let token = authorize(&metadata, &client, &wider, &resource, 2).await;
            let called = mcp(&server_url, Some(&token.access_token), "tools/call", tool).await;
            assert_eq!(called.status, StatusCode::OK, "{}", called.body);

            // A token issued for another resource is refused.
            let elsewhere =
                authorize(&metadata, &client, &wider, "http://127.0.0.1:1/mcp", 3).await;
            let refused = mcp(
                &server_url,
                Some(&elsewhere.access_token),
                "tools/list",
                None,
            )
            .await;
            assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
            assert_eq!(challenge_of(&refused).error(), Some("invalid_token"));
        });
    }
}
