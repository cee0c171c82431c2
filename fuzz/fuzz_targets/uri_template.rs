//! RFC 6570 templates: parse, display, expand, match.
//!
//! Input: NUL-separated UTF-8 (lossily decoded): the template, then values for its variables
//! in order of first appearance (cycled; none: every variable is `""`), and the last segment is
//! also matched as an arbitrary URI.
//!
//! Properties:
//! - a template that parses displays as its text, and that text parses to an equal template;
//! - `is_unambiguous()` implies `is_matchable()`;
//! - when `is_unambiguous()`, matching the expansion of string values for every variable gives
//!   back exactly those values (for `+` and `#`, which pass `%XX` through, values carry no
//!   `%`: the documented precondition);
//! - when `is_matchable()`, the expansion of those values matches (some decomposition exists);
//! - expanding lists and maps, and matching arbitrary text, never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::uri_template::{UriTemplate, VarValue, Variables};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut segments = text.split('\0');
    let source = segments.next().unwrap_or_default();
    let values: Vec<&str> = segments.collect();
    let Ok(template) = UriTemplate::parse(source) else {
        return;
    };
    assert_eq!(
        template.to_string(),
        source,
        "Display is not the template's text"
    );
    assert_eq!(template.as_str(), source);
    let reparsed = UriTemplate::parse(&template.to_string())
        .unwrap_or_else(|e| panic!("the display of {source:?} does not parse: {e}"));
    assert_eq!(reparsed, template);
    assert_eq!(
        reparsed.variables().collect::<Vec<_>>(),
        template.variables().collect::<Vec<_>>()
    );

    let matchable = template.is_matchable();
    let unambiguous = template.is_unambiguous();
    assert!(
        !unambiguous || matchable,
        "{source:?}: unambiguous but not matchable"
    );

    // `+` and `#` pass `%XX` through unencoded: keep the documented precondition by keeping
    // `%` out of every value when the template has such an expression.
    let reserved = source.contains("{+") || source.contains("{#");
    let names: Vec<String> = template.variables().map(str::to_owned).collect();
    let mut vars = Variables::new();
    for (i, name) in names.iter().enumerate() {
        let value = if values.is_empty() {
            String::new()
        } else {
            values[i % values.len()].to_owned()
        };
        let value = if reserved {
            value.replace('%', "")
        } else {
            value
        };
        vars.set(name.clone(), value);
    }
    let expanded = template.expand(&vars);
    let matched = template.match_uri(&expanded);
    // Matching declines past a fixed bound on template length × URI length (documented on
    // `match_uri`); compiled templates stay under 16 instructions per character, so below
    // this the bound is never reached and an unambiguous template must match.
    let within_bound = source.len().saturating_mul(expanded.len() + 1) <= 1 << 24;
    if matchable {
        if unambiguous && within_bound {
            assert_eq!(
                matched.as_ref(),
                Some(&vars),
                "{source:?}: unambiguous, but matching its expansion {expanded:?} does not give back the values"
            );
        }
    } else {
        assert_eq!(matched, None, "{source:?}: not matchable, yet matched");
    }

    // Lists and maps: expansion never panics, nor does matching what comes out.
    if let Some(last) = values.last() {
        let items: Vec<&str> = values.to_vec();
        let pairs: Vec<(&str, &str)> = values.iter().map(|v| (*v, *last)).collect();
        let mut mixed = Variables::new();
        for (i, name) in names.iter().enumerate() {
            let value = match i % 3 {
                0 => VarValue::from(items.clone()),
                1 => VarValue::from(pairs.clone()),
                _ => VarValue::from(*last),
            };
            mixed.set(name.clone(), value);
        }
        let expanded = template.expand(&mixed);
        let _ = template.match_uri(&expanded);
        let _ = template.match_uri(last);
    }
    let _ = template.match_uri(source);
});
