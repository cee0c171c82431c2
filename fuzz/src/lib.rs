//! Checks shared by the fuzz targets (and usable from a debugger on a saved artifact).
//!
//! Each check panics, with the input and what went wrong, when a property fails; a panic is
//! what libFuzzer records as a crash.

use mcp_spec_types::dispatch::{Message, MethodSet};
use mcp_spec_types::MessageError;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;
use std::fmt::Debug;

/// The revision modules, in the order the selector bytes use.
pub const REVISIONS: [&str; 6] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
    "draft",
];

/// Which JSON value the crate's output must equal, when the input itself is JSON.
///
/// The input is read as a `serde_json::Value`, which keeps the last of duplicate member names.
/// The crate rejects a duplicated member its schema declares (`duplicate field`), so whatever
/// it accepts has duplicates only among undeclared members, where it also keeps the last one:
/// the two readings then agree, and any difference is a loss.
pub fn input_value(input: &[u8]) -> Option<Value> {
    serde_json::from_slice(input).ok()
}

/// Parses `line` as a message of one side of one revision; when it parses, checks the round
/// trip (serialize, parse again: equal message, equal `to_value`, identical text) and, when
/// the input is JSON, that the serialization equals the input as a `Value` (lossless).
pub fn message_round_trip<R, N>(line: &[u8]) -> Result<Message<R, N>, MessageError>
where
    R: MethodSet + PartialEq + Debug,
    N: MethodSet + PartialEq + Debug,
{
    let first = Message::<R, N>::parse_slice(line)?;
    let what = || format!("{} {:?}", R::REVISION, R::SENDER);
    let text = serde_json::to_string(&first)
        .unwrap_or_else(|e| panic!("{}: a parsed message does not serialize: {e}", what()));
    assert_eq!(
        first.to_json(),
        text,
        "{}: to_json differs from serde_json::to_string",
        what()
    );
    let second = Message::<R, N>::parse(&text).unwrap_or_else(|e| {
        panic!(
            "{}: the serialization of a parsed message does not parse again: {e}\n input: {}\noutput: {text}",
            what(),
            String::from_utf8_lossy(line)
        )
    });
    assert_eq!(
        first,
        second,
        "{}: the round trip changed the message\noutput: {text}",
        what()
    );
    same_value(&first, &second, &what());
    let again = serde_json::to_string(&second).expect("serializes");
    assert_eq!(text, again, "{}: serializing is not idempotent", what());
    if let Some(input) = input_value(line) {
        let output: Value = serde_json::from_str(&text).unwrap_or_else(|e| {
            panic!(
                "{}: the output is not JSON a Value can hold: {e}\noutput: {text}",
                what()
            )
        });
        assert_eq!(
            input,
            output,
            "{}: the serialization is not the input (lossy)\n input: {}\noutput: {text}",
            what(),
            String::from_utf8_lossy(line)
        );
    }
    Ok(first)
}

/// `to_value` of two values must agree: both fail (a raw result that a `Value` cannot hold,
/// such as a lone surrogate or a nesting deeper than serde_json's limit) or both equal.
pub fn same_value<T: Serialize>(first: &T, second: &T, what: &str) {
    match (serde_json::to_value(first), serde_json::to_value(second)) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}: to_value differs after the round trip"),
        (Err(_), Err(_)) => {}
        (a, b) => panic!("{what}: to_value succeeds for one side only: {a:?} / {b:?}"),
    }
}

/// Parses `raw` with `parse` (a `*CallResult::parse` for `method`); when it parses, checks
/// the round trip and, when the input is JSON, that nothing was lost.
pub fn result_round_trip<C, F>(method: &str, raw: &[u8], parse: F) -> Option<C>
where
    C: Serialize + PartialEq + Debug,
    F: Fn(&str, &RawValue) -> Result<C, MessageError>,
{
    let raw_value: &RawValue = serde_json::from_slice(raw).ok()?;
    let first = parse(method, raw_value).ok()?;
    let text = serde_json::to_string(&first)
        .unwrap_or_else(|e| panic!("{method}: a parsed result does not serialize: {e}"));
    let reread: &RawValue = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{method}: the serialized result is not JSON: {e}: {text}"));
    let second = parse(method, reread).unwrap_or_else(|e| {
        panic!(
            "{method}: the serialization of a parsed result does not parse again: {e}\n input: {}\noutput: {text}",
            String::from_utf8_lossy(raw)
        )
    });
    assert_eq!(
        first, second,
        "{method}: the round trip changed the result\noutput: {text}"
    );
    same_value(&first, &second, method);
    if let Some(input) = input_value(raw) {
        let output: Value = serde_json::from_str(&text).expect("the output is JSON");
        assert_eq!(
            input,
            output,
            "{method}: the serialization is not the input (lossy)\n input: {}\noutput: {text}",
            String::from_utf8_lossy(raw)
        );
    }
    Some(first)
}
