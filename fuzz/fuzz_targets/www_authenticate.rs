//! `WWW-Authenticate` challenges (`auth::WwwAuthenticate`, `auth::Challenge`): what a resource
//! server sends back with a 401 or 403.
//!
//! Input: NUL-separated UTF-8 (lossily decoded): the fields of one response. Each field is
//! parsed alone, all of them together with `parse_fields`, and each with `Challenge::parse`;
//! the segments are also used as the parts of a challenge built in code (scheme, then
//! parameter names and values; a lone second segment is a `token68`).
//!
//! Properties:
//! - parsing never panics; an error is `AuthError::InvalidChallenge` with an offset within the
//!   field;
//! - a parsed header displays as text that parses to an equal header, and displaying that is
//!   idempotent;
//! - what is parsed is well formed: schemes and parameter names are tokens, a challenge has a
//!   `token68` or parameters (never both), no parameter name occurs twice (case-insensitively);
//! - the accessors (`realm`, `scope`, `error`, ...) are `param(..)` of their names, `param` is
//!   case-insensitive, `bearer()` is `challenge("Bearer")`, the first challenge of that scheme;
//! - `Challenge::parse` accepts exactly the fields holding one challenge, and gives it;
//! - `parse_fields` accepts exactly when every field parses (and there is a challenge), and
//!   gives their challenges in order;
//! - a challenge built in code from a token scheme, distinct token names and values without
//!   control characters displays as text that parses back to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::auth::{AuthError, AuthParam, Challenge, WwwAuthenticate};

fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

fn is_token(text: &str) -> bool {
    !text.is_empty() && text.chars().all(is_tchar)
}

fn is_token68(text: &str) -> bool {
    let body = text.trim_end_matches('=');
    !body.is_empty()
        && body
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._~+/".contains(c))
}

/// What a quoted-string can carry (RFC 9110 §5.6.4): tab, space, visible ASCII, obs-text.
fn quotable(text: &str) -> bool {
    text.chars().all(|c| c == '\t' || (c >= ' ' && c != '\x7f'))
}

/// The error of a refused field: typed, with an offset within it, displayable.
fn check_error(error: &AuthError, field: &str) {
    match error {
        AuthError::InvalidChallenge { offset, .. } => {
            assert!(
                *offset <= field.len(),
                "offset {offset} beyond the field {field:?}"
            )
        }
        other => panic!("not an InvalidChallenge for {field:?}: {other:?}"),
    }
    let _ = error.to_string();
}

fn check_challenge(challenge: &Challenge, field: &str) {
    assert!(
        is_token(&challenge.scheme),
        "scheme {:?} from {field:?}",
        challenge.scheme
    );
    assert!(
        challenge.is_scheme(&challenge.scheme.to_ascii_uppercase())
            && challenge.is_scheme(&challenge.scheme.to_ascii_lowercase())
    );
    if let Some(token68) = &challenge.token68 {
        assert!(is_token68(token68), "token68 {token68:?} from {field:?}");
        assert!(
            challenge.params.is_empty(),
            "token68 and parameters from {field:?}"
        );
    }
    for (i, param) in challenge.params.iter().enumerate() {
        assert!(
            is_token(&param.name),
            "name {:?} from {field:?}",
            param.name
        );
        assert!(
            param.quoted || is_token(&param.value),
            "unquoted value {:?} is not a token, from {field:?}",
            param.value
        );
        assert!(quotable(&param.value), "value {:?}", param.value);
        assert!(
            !challenge.params[..i]
                .iter()
                .any(|p| p.name.eq_ignore_ascii_case(&param.name)),
            "parameter {:?} twice in {field:?}",
            param.name
        );
        let value = Some(param.value.as_str());
        assert_eq!(challenge.param(&param.name), value);
        assert_eq!(challenge.param(&param.name.to_ascii_uppercase()), value);
        assert_eq!(challenge.param(&param.name.to_ascii_lowercase()), value);
    }
    assert_eq!(challenge.realm(), challenge.param("realm"));
    assert_eq!(challenge.scope(), challenge.param("scope"));
    assert_eq!(challenge.error(), challenge.param("error"));
    assert_eq!(
        challenge.error_description(),
        challenge.param("error_description")
    );
    assert_eq!(challenge.error_uri(), challenge.param("error_uri"));
    assert_eq!(
        challenge.resource_metadata(),
        challenge.param("resource_metadata")
    );
    assert_eq!(challenge.realm(), challenge.param("REALM"));
}

/// Display, reparse: equal; and the display of the reparsed header is the same text.
fn check_display(header: &WwwAuthenticate, what: &str) {
    let text = header.to_string();
    let reparsed = WwwAuthenticate::parse(&text)
        .unwrap_or_else(|e| panic!("the display of {what} does not parse: {e}\ntext: {text:?}"));
    assert_eq!(
        &reparsed, header,
        "the display of {what} parses to another header\ntext: {text:?}"
    );
    assert_eq!(reparsed.to_string(), text, "display not idempotent");
}

fn check_header(header: &WwwAuthenticate, field: &str) {
    assert!(!header.challenges.is_empty(), "no challenge from {field:?}");
    for challenge in &header.challenges {
        check_challenge(challenge, field);
    }
    let first_bearer = header.challenges.iter().find(|c| c.is_scheme("bearer"));
    assert_eq!(header.bearer(), first_bearer);
    assert_eq!(header.challenge("BEARER"), first_bearer);
    for challenge in &header.challenges {
        let first = header.challenge(&challenge.scheme).expect("its own scheme");
        assert!(first.is_scheme(&challenge.scheme));
    }
    check_display(header, &format!("{field:?}"));
    for challenge in &header.challenges {
        let text = challenge.to_string();
        assert_eq!(
            Challenge::parse(&text).as_ref(),
            Ok(challenge),
            "a challenge alone does not round-trip: {text:?}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let fields: Vec<&str> = text.split('\0').collect();

    let mut all = Vec::new();
    let mut all_ok = true;
    for field in &fields {
        let parsed = WwwAuthenticate::parse(field);
        let single = Challenge::parse(field);
        match &parsed {
            Ok(header) => {
                check_header(header, field);
                all.extend(header.challenges.iter().cloned());
                match &single {
                    Ok(challenge) => assert_eq!(
                        header.challenges,
                        std::slice::from_ref(challenge),
                        "Challenge::parse and WwwAuthenticate::parse differ on {field:?}"
                    ),
                    Err(error) => {
                        assert!(
                            header.challenges.len() > 1,
                            "Challenge::parse refuses one challenge: {field:?}"
                        );
                        check_error(error, field);
                    }
                }
                let via_from_str: WwwAuthenticate = field.parse().expect("FromStr agrees");
                assert_eq!(&via_from_str, header);
            }
            Err(error) => {
                all_ok = false;
                check_error(error, field);
                assert_eq!(single.as_ref().err(), Some(error));
                assert!(field.parse::<Challenge>().is_err());
            }
        }
    }
    match WwwAuthenticate::parse_fields(fields.iter().copied()) {
        Ok(header) => {
            assert!(all_ok, "parse_fields accepts a field parse refuses");
            assert_eq!(header.challenges, all);
            check_display(&header, "the fields");
        }
        Err(error) => {
            assert!(
                !all_ok || all.is_empty(),
                "parse_fields refuses fields that each parse: {error}"
            );
            let _ = error.to_string();
        }
    }

    // A challenge built in code.
    let Some((scheme, rest)) = fields.split_first() else {
        return;
    };
    let mut built = Challenge::new(*scheme);
    let mut valid = is_token(scheme);
    if let [token68] = rest {
        built.token68 = Some(token68.to_string());
        valid &= is_token68(token68);
    } else {
        for (i, pair) in rest.chunks_exact(2).enumerate() {
            let (name, value) = (pair[0], pair[1]);
            valid &= is_token(name) && quotable(value) && built.param(name).is_none();
            if i % 2 == 0 {
                built = built.with_param(name, value);
            } else {
                // Unquoted when it can be: a value that is not a token is quoted anyway.
                built.params.push(AuthParam {
                    name: name.to_string(),
                    value: value.to_string(),
                    quoted: !is_token(value),
                });
            }
        }
    }
    let _ = built.to_string();
    if valid {
        check_challenge(&built, "(built)");
        let header = WwwAuthenticate::from(built.clone());
        check_display(&header, "a built challenge");
        let two = WwwAuthenticate {
            challenges: vec![built.clone(), Challenge::bearer(), built],
        };
        check_display(&two, "built challenges");
    }
});
