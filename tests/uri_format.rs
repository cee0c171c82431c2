//! `uri::check`, the opt-in check for `"format": "uri"`, agrees with the `jsonschema` oracle
//! (formats asserted) on a corpus of URIs and near misses.

use mcp_spec_types::uri::check;
use serde_json::json;

const CORPUS: &[&str] = &[
    "https://example.com",
    "https://example.com/a/b?c=d&e#f",
    "http://user:pass@example.com:8080/p",
    "http://[::1]:80/x",
    "http://[2001:db8::7]/c=GB?objectClass?one",
    "http://[v7.fe80::1]/",
    "http://[::ffff:192.0.2.1]/",
    "http://[fe80::1%25eth0]/",
    "http://[::1/",
    "http://[zz]/",
    "file:///tmp/a.txt",
    "data:image/png;base64,iVBORw0KGgo=",
    "mailto:John.Doe@example.com",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    "tel:+1-816-555-1212",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "news:comp.infosystems.www.servers.unix",
    "a:",
    "a:b",
    "http:",
    "http:///x",
    "http://",
    "http://a:b:c",
    "http://a:",
    "http://a:65536",
    "http://a@b@c",
    "http://exa mple.com",
    "http://example.com/ä",
    "http://example.com/%zz",
    "http://example.com/%4",
    "http://example.com/%41",
    "http://example.com/a#b#c",
    "http://example.com/?q=1?2",
    "http://example.com/[x]",
    "http://example.com/{x}",
    "http://example.com/a\\b",
    "/relative/path",
    "relative",
    "//example.com",
    "1http://x",
    "+a:b",
    "a+b-c.d:e",
    "",
    ":",
    "a:%",
    "a:b|c",
    "a:b^c",
    "a:b`c",
    "a:b\"c",
    "a:b<c>",
    "http://ex%41mple.com",
    "http://-.~_!$&'()*+,;=:@example.com/",
];

#[test]
fn the_uri_check_agrees_with_the_oracle() {
    let oracle = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&json!({ "type": "string", "format": "uri" }))
        .expect("the oracle compiles");
    let mut disagreements = Vec::new();
    let (mut accepted, mut refused) = (0, 0);
    for text in CORPUS {
        let expected = oracle.is_valid(&json!(text));
        let ours = check(text);
        if expected != ours.is_ok() {
            disagreements.push(format!("{text:?}: oracle {expected}, crate {ours:?}"));
        }
        if expected {
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert!(
        accepted >= 15 && refused >= 15,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn the_error_says_where() {
    let error = check("https://exa mple.com").unwrap_err();
    assert_eq!(error.offset, 11);
    assert_eq!(
        error.to_string(),
        "not a URI: expected a host character at byte 11"
    );
    assert_eq!(check("/x").unwrap_err().offset, 0);
    assert_eq!(check("a:%4g").unwrap_err().offset, 2);
}
