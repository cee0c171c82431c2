//! `mcp_spec_types::json::from_str` reads what `serde_json::from_str` reads. Every test
//! compares the two readers on the same text, never against a hand-written expectation, and
//! checks the crate's reader *alone* (`json::from_str_strict`, no serde_json behind
//! it): where it reads a value, serde_json must read the same one, and where serde_json reads
//! one, it must too (except the few requests it leaves to serde_json on purpose, tested
//! separately). The last section holds the reader's string scan to the byte-by-byte answer.

use mcp_spec_types::json;
use proptest::prelude::*;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Debug;

/// The crate's reader alone and serde_json read `text` alike as a `T`: both read it to values
/// with the same `Debug` (which tells `1` from `1.0` and `-0.0` from `0.0`), or both refuse
/// it. Returns whether serde_json read it.
#[track_caller]
fn reads_alike<T: DeserializeOwned + Debug>(text: &str) -> bool {
    let theirs = serde_json::from_str::<T>(text);
    let ours = json::from_str_strict::<T>(text).ok();
    match (&theirs, &ours) {
        (Ok(theirs), Some(ours)) => {
            assert_eq!(format!("{ours:?}"), format!("{theirs:?}"), "text: {text:?}");
        }
        (Err(_), None) => {}
        (Ok(theirs), None) => panic!("only serde_json reads {text:?}: {theirs:?}"),
        (Err(e), Some(ours)) => panic!("only the crate reads {text:?} ({e}): {ours:?}"),
    }
    // The public function: the same value or the same error, whatever the reader alone did.
    match (json::from_str::<T>(text), theirs) {
        (Ok(ours), Ok(theirs)) => assert_eq!(format!("{ours:?}"), format!("{theirs:?}")),
        (Err(ours), Err(theirs)) => assert_same_error(&ours, &theirs),
        (ours, theirs) => panic!("{text:?}: json::from_str {ours:?}, serde_json {theirs:?}"),
    }
    serde_json::from_str::<T>(text).is_ok()
}

#[track_caller]
fn assert_same_error(ours: &serde_json::Error, theirs: &serde_json::Error) {
    assert_eq!(ours.to_string(), theirs.to_string());
    assert_eq!(ours.classify(), theirs.classify());
    assert_eq!(
        (ours.line(), ours.column()),
        (theirs.line(), theirs.column())
    );
}

/// Reads alike as a `Value`, as raw text (owned and borrowed), and skipped (`IgnoredAny`).
/// Returns whether serde_json read it as a `Value`. (Raw and skipped text is checked less:
/// serde_json keeps `1e400` and a lone `\uD83D` there, which a `Value` cannot hold.)
#[track_caller]
fn all_read_alike(text: &str) -> bool {
    let value = reads_alike::<Value>(text);
    let raw = reads_alike::<Box<RawValue>>(text);
    assert!(raw || !value, "{text:?}");
    let borrowed = serde_json::from_str::<&RawValue>(text).ok();
    assert_eq!(
        json::from_str_strict::<&RawValue>(text)
            .ok()
            .map(RawValue::get),
        borrowed.map(RawValue::get)
    );
    assert_eq!(reads_alike::<IgnoredAny>(text), raw, "{text:?}");
    value
}

// ---------------------------------------------------------------------------------------------
// 1. Texts chosen for their edges.

#[test]
fn numbers_read_as_serde_json_reads_them() {
    let numbers = [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "1",
        "-1",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "-18446744073709551615",
        "-18446744073709551616",
        "123456789012345678901234567890",
        "1.5",
        "1e2",
        "1E+2",
        "1e-2",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "2.2250738585072014e-308",
        "4.9e-324",
        "2e-324",
        "1e-400",
        "0e999999999999999999999",
        "0.1",
        "0.30000000000000004",
        "9007199254740993",
        "9007199254740993.0",
        "123456789012345678901234567890.5e-3",
        "1.00000000000000011102230246251565404236316680908203125",
        "1e400",
        "-1e400",
        "1e99999999999999999999",
        "01",
        "-",
        "1.",
        ".5",
        "1e",
        "1e+",
        "+1",
        "1.5.2",
        "Infinity",
        "NaN",
        "0x10",
    ];
    let mut read = 0;
    for number in numbers {
        for text in [
            number.to_owned(),
            format!("[{number}]"),
            format!("{{\"n\":{number}}}"),
            format!(" {number} "),
        ] {
            read += usize::from(all_read_alike(&text));
        }
        reads_alike::<u64>(number);
        reads_alike::<i64>(number);
        reads_alike::<i8>(number);
        reads_alike::<f64>(number);
        reads_alike::<Option<u32>>(number);
    }
    // Not vacuous: most of them are numbers.
    assert!(read > 100, "{read}");
}

#[test]
fn strings_read_as_serde_json_reads_them() {
    let strings = [
        r#""""#,
        r#""plain""#,
        r#""\"\\\/\b\f\n\r\t""#,
        r#""\u0000\u001f\u0020\u007F\u0080\u07FF\u0800\uFFFF""#,
        r#""\uD83D\uDE00 and \ud83d\ude00""#,
        r#""\uD83D""#,
        r#""\uD83Dx""#,
        r#""\uD83D\u0041""#,
        r#""\uDE00""#,
        r#""\uD83D\uD83D""#,
        r#""\u12""#,
        r#""\u12G4""#,
        r#""\x""#,
        r#""\"#,
        "\"tab\there\"",
        "\"nul\u{0}here\"",
        "\"del\u{7f}here\"",
        "\"café 日本 😀\"",
        r#""unterminated"#,
        "\"",
    ];
    let mut read = 0;
    for string in strings {
        for text in [
            string.to_owned(),
            format!("[{string},{string}]"),
            format!("{{{string}:{string}}}"),
        ] {
            read += usize::from(all_read_alike(&text));
        }
        reads_alike::<String>(string);
        reads_alike::<char>(string);
        reads_alike::<Cow<str>>(string);
    }
    // Seven of the strings are JSON, in three texts each.
    assert!(read >= 21, "{read}");
}

/// Runs of every length up to past the 64-byte steps, with the ending byte (or an escape, or a
/// multi-byte character) at every position: the scan's word and block boundaries.
#[test]
fn every_position_of_quotes_escapes_and_characters_in_long_runs() {
    for len in 0..140 {
        let plain = "a".repeat(len);
        assert!(reads_alike::<String>(&format!("\"{plain}\"")));
        for at in (0..len).step_by(3) {
            let (head, tail) = plain.split_at(at);
            for insert in ["\\n", "\\\"", "\\u00e9", "é", "日", "😀", "\\\\\\/"] {
                let text = format!("\"{head}{insert}{tail}\"");
                assert!(reads_alike::<String>(&text), "{text}");
                assert!(all_read_alike(&format!("[{text},1]")));
            }
            // An early end and a control character are refused by both.
            assert!(!reads_alike::<String>(&format!("\"{head}")));
            assert!(!reads_alike::<String>(&format!("\"{head}\u{1}{tail}\"")));
        }
    }
}

#[test]
fn structure_and_whitespace_read_as_serde_json_reads_them() {
    let texts = [
        "null",
        "true",
        "false",
        "nul",
        "tru",
        "nulll",
        "[]",
        "{}",
        " \t\r\n[ \t\r\n1 \t\r\n, \t\r\n2 \t\r\n] \t\r\n",
        "[1,]",
        "[,1]",
        "[1 2]",
        "[",
        "]",
        "{\"a\":1,}",
        "{,\"a\":1}",
        "{\"a\" 1}",
        "{\"a\":}",
        "{1:2}",
        "{\"a\":1 \"b\":2}",
        "{\"a\":1}}",
        "{\"a\":[{\"b\":[null,true,{\"c\":\"d\"}]}]}",
        "{\"a\":1,\"a\":2}",
        "",
        "   ",
        "1 2",
        "\u{feff}1",
        "[1]\u{0}",
    ];
    let mut read = 0;
    for text in texts {
        read += usize::from(all_read_alike(text));
    }
    // The eight texts above that are JSON.
    assert_eq!(read, 8);
}

/// serde_json reads values at most 127 arrays or objects deep, and skips any depth.
#[test]
fn the_recursion_limit_is_serde_jsons() {
    for depth in [126, 127, 128, 129, 5000] {
        let array = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let object = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
        for text in [&array, &object] {
            assert_eq!(reads_alike::<Value>(text), depth < 128, "{depth}");
            assert!(reads_alike::<IgnoredAny>(text));
            assert!(reads_alike::<Box<RawValue>>(text));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Typed values: every shape serde's derive makes.

#[derive(Debug, Deserialize, Serialize, PartialEq)]
enum External {
    Unit,
    Newtype(u8),
    Tuple(u8, String),
    Struct { a: Option<bool> },
}

#[derive(Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "type")]
enum Internal {
    Text { text: String },
    Number { n: f64 },
}

#[derive(Debug, Deserialize, Serialize, PartialEq)]
#[serde(untagged)]
enum Untagged {
    Number(i64),
    Text(String),
    List(Vec<Untagged>),
}

#[derive(Debug, Deserialize, Serialize, PartialEq)]
struct Unit;

#[derive(Debug, Deserialize, Serialize, PartialEq)]
struct Newtype(String);

#[derive(Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Strict {
    a: u8,
}

#[derive(Debug, Deserialize, Serialize, PartialEq)]
struct Shapes {
    plain: String,
    #[serde(default)]
    optional: Option<Vec<u16>>,
    map: BTreeMap<String, Value>,
    external: Vec<External>,
    internal: Internal,
    untagged: Vec<Untagged>,
    tuple: (bool, char, Unit),
    newtype: Newtype,
    #[serde(rename = "type")]
    renamed: i32,
    #[serde(flatten)]
    rest: Map<String, Value>,
}

const SHAPES: &str = r#"{
    "plain": "a\nb", "optional": [1, 65535],
    "map": {"k": [1, -2, 3.5, "x", null, {"n": {}}]},
    "external": ["Unit", {"Newtype": 7}, {"Tuple": [1, "t"]}, {"Struct": {"a": null}}],
    "internal": {"type": "Number", "n": 2.5},
    "untagged": [1, "two", [3, ["four"]]],
    "tuple": [true, "\u00e9", null],
    "newtype": "nt",
    "type": -5,
    "extra": {"kept": true},
    "more": [1e3]
}"#;

#[test]
fn every_serde_shape_reads_alike() {
    assert!(reads_alike::<Shapes>(SHAPES));
    // The same members in another order, compact, and escaped names.
    let value: Value = serde_json::from_str(SHAPES).unwrap();
    assert!(reads_alike::<Shapes>(&value.to_string()));
    let escaped = SHAPES
        .replace("\"plain\"", "\"pl\\u0061in\"")
        .replace("\"Unit\"", "\"\\u0055nit\"");
    assert!(reads_alike::<Shapes>(&escaped));
    // A struct read from an array of its fields, as serde_json allows.
    assert!(reads_alike::<Strict>("[7]"));
    assert!(!reads_alike::<Strict>("[7, 8]"));
    assert!(!reads_alike::<Strict>(r#"{"a": 7, "b": 8}"#));
    assert!(!reads_alike::<Strict>(r#"{"a": 256}"#));
    for bad in [
        r#"{"Unit": null}"#,
        r#""Newtype""#,
        r#"{"Newtype": 7, "Unit": null}"#,
        r#"{"Nope": 1}"#,
        r#"{"Newtype": 7"#,
    ] {
        let read = reads_alike::<External>(bad);
        // `{"Unit": null}` is a unit variant written as a map, which serde_json reads.
        assert_eq!(read, bad == r#"{"Unit": null}"#, "{bad}");
    }
    assert!(reads_alike::<Internal>(r#"{"text": "t", "type": "Text"}"#));
    assert!(!reads_alike::<Internal>(r#"{"type": "Other"}"#));
    assert!(reads_alike::<Untagged>("[1, [\"a\", [2]]]"));
    assert!(!reads_alike::<Untagged>("true"));
    assert!(reads_alike::<BTreeMap<String, (u8, Option<String>)>>(
        r#"{"a": [1, null], "b": [2, "x"]}"#
    ));
}

/// The requests the reader leaves to serde_json (byte strings, `f32`, 128-bit integers,
/// numbers and booleans in member names) still give serde_json's value through `from_str`.
#[test]
fn what_the_reader_leaves_to_serde_json_still_reads() {
    fn left<T: DeserializeOwned + Debug>(text: &str) {
        assert!(json::from_str_strict::<T>(text).is_err(), "{text}");
        let theirs = serde_json::from_str::<T>(text).expect("serde_json reads it");
        let ours = json::from_str::<T>(text).expect("so does json::from_str");
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
    }
    left::<f32>("0.1");
    left::<u128>("340282366920938463463374607431768211455");
    left::<i128>("-170141183460469231731687303715884105728");
    left::<BTreeMap<u32, bool>>(r#"{"1": true, "20": false}"#);
    left::<BTreeMap<bool, u8>>(r#"{"true": 1}"#);
    left::<serde_bytes_like::Bytes>(r#""abc""#);
}

/// A type that asks for a byte string, as `serde_bytes` does.
mod serde_bytes_like {
    use serde::de::{Deserialize, Deserializer, Error, Visitor};
    use std::fmt;

    #[derive(Debug)]
    pub struct Bytes(#[allow(dead_code)] pub Vec<u8>);

    impl<'de> Deserialize<'de> for Bytes {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct V;
            impl Visitor<'_> for V {
                type Value = Bytes;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("bytes")
                }
                fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Bytes, E> {
                    Ok(Bytes(v.to_vec()))
                }
            }
            deserializer.deserialize_bytes(V)
        }
    }
}

/// Borrowed strings borrow exactly where serde_json's do: a `&str` member reads when the text
/// has no escape, and is refused (by both) when it has one.
/// Strings with escapes long enough that the reader hands its unescaped text to the visitor
/// owned (its scratch space itself, not a copy): just below and above that length, one after
/// another in an array (each next one starts from a fresh scratch space), as object keys and
/// values, and in a generated type.
#[test]
fn long_strings_with_escapes_read_alike() {
    for unescaped_len in [4094, 4095, 4096, 4097, 70_000] {
        // `len - 2` plain bytes, a newline and a quote, each written escaped.
        let unescaped = format!("{}\n\"", "é".repeat((unescaped_len - 2) / 2));
        let unescaped = if unescaped.len() < unescaped_len {
            format!("a{unescaped}")
        } else {
            unescaped
        };
        assert_eq!(unescaped.len(), unescaped_len);
        let string = serde_json::to_string(&unescaped).expect("a string writes");
        for text in [
            string.clone(),
            format!("[{string},{string},{string}]"),
            format!("{{{string}:{string},\"k\":{string}}}"),
        ] {
            assert!(all_read_alike(&text), "{}", &text[..40]);
        }
        assert!(reads_alike::<String>(&string));
        assert!(reads_alike::<Cow<str>>(&string));
        assert!(!reads_alike::<char>(&string));
        assert!(reads_alike::<Vec<String>>(&format!("[{string},{string}]")));
        assert!(reads_alike::<BTreeMap<String, String>>(&format!(
            "{{{string}:{string}}}"
        )));
        let contents = format!(r#"{{"uri":"memo://a","text":{string}}}"#);
        let read: mcp_spec_types::latest::TextResourceContents =
            json::from_str_strict(&contents).expect("reads");
        assert_eq!(read.text, unescaped);
    }
}

#[test]
fn strings_are_borrowed_where_serde_json_borrows_them() {
    #[derive(Debug, Deserialize)]
    struct Borrowing<'a> {
        #[serde(borrow)]
        name: &'a str,
    }
    let plain = r#"{"name": "plain"}"#;
    let read = json::from_str_strict::<Borrowing>(plain).expect("reads");
    assert_eq!(
        read.name,
        serde_json::from_str::<Borrowing>(plain).unwrap().name
    );
    let escaped = r#"{"name": "esc\naped"}"#;
    assert!(serde_json::from_str::<Borrowing>(escaped).is_err());
    assert!(json::from_str_strict::<Borrowing>(escaped).is_err());
}

/// Errors raised by a type's own `Deserialize` (here the crate's bounds and required members)
/// are serde_json's, with its line and column.
#[cfg(feature = "v2025_06_18")]
#[test]
fn errors_are_serde_jsons_own() {
    use mcp_spec_types::v2025_06_18::{ListResourcesResult, ReadResourceResult};
    for text in [
        r#"{"resources": [{"uri": "a", "name": "b", "annotations": {"priority": 2}}]}"#,
        r#"{"resources": [{"uri": "a"}]}"#,
        "{\"resources\": [\n{\"uri\": \"a\", \"name\": 7}]}",
        r#"{"resources": []"#,
    ] {
        assert!(!reads_alike::<ListResourcesResult>(text), "{text}");
    }
    assert!(reads_alike::<ReadResourceResult>(
        r#"{"contents": [{"uri": "file:///a", "blob": "AAEC", "_meta": {"k": [1e400]}}]}"#
    ));
}

// ---------------------------------------------------------------------------------------------
// 3. Arbitrary texts: `Value` trees written compact and pretty, and texts near JSON.

fn any_number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<u64>().prop_map(Number::from),
        any::<i64>().prop_map(Number::from),
        any::<f64>().prop_filter_map("finite", Number::from_f64),
        (-400i32..400, any::<u32>()).prop_filter_map("finite", |(e, m)| {
            format!("{m}e{e}")
                .parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
        }),
    ]
}

fn any_string() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            6 => (0x20u8..=0x7E).prop_map(char::from),
            1 => Just('"'),
            1 => Just('\\'),
            1 => (0u8..0x20).prop_map(char::from),
            2 => any::<char>(),
        ],
        0..40,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any_number().prop_map(Value::Number),
        any_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::btree_map(any_string(), inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Text near JSON: the bytes JSON is made of, in any order.
fn any_near_json() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "\\",
            "\\u",
            "\\uD83D",
            "\\uDE00",
            "\\n",
            "a",
            "é",
            "0",
            "1",
            "-",
            ".",
            "e",
            "+",
            "null",
            "true",
            "false",
            " ",
            "\n",
            "\u{1}",
            "\"k\":",
            "1e400",
            "9999999999999999999999",
        ]),
        0..24,
    )
    .prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_values_read_alike(value in any_value()) {
        let compact = serde_json::to_string(&value).unwrap();
        prop_assert!(all_read_alike(&compact));
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        prop_assert!(all_read_alike(&pretty));
        // Cut anywhere, the text is read alike too (mostly refused by both).
        for cut in [compact.len() / 3, compact.len() / 2, compact.len().saturating_sub(1)] {
            if let Some(prefix) = compact.get(..cut) {
                all_read_alike(prefix);
            }
        }
    }

    /// Decimals around the limits of the exact one-operation path (2^53, 10^22) and past them.
    #[test]
    fn decimals_read_alike(
        integer in prop_oneof![0u64..1000, 9_007_199_254_740_000u64..9_007_199_254_741_000, any::<u64>()],
        fraction in prop::option::of("[0-9]{1,6}"),
        exponent in prop::option::of(-40i32..40),
        negative in any::<bool>(),
    ) {
        let mut text = format!("{}{integer}", if negative { "-" } else { "" });
        if let Some(fraction) = fraction {
            text.push('.');
            text.push_str(&fraction);
        }
        if let Some(exponent) = exponent {
            text.push_str(&format!("e{exponent}"));
        }
        prop_assert!(reads_alike::<Value>(&text));
        prop_assert!(reads_alike::<f64>(&text));
    }

    #[test]
    fn texts_near_json_read_alike(text in any_near_json()) {
        all_read_alike(&text);
        reads_alike::<Option<Vec<Value>>>(&text);
        reads_alike::<BTreeMap<String, Value>>(&text);
    }
}

// ---------------------------------------------------------------------------------------------
// 3b. The explained read (what a message's error shows), when a type's own reader reads another
// failed text inside it. The test of every definition (tests/definitions.rs) compares the
// explained words of every refused text of every generated type with serde_json's.

#[cfg(feature = "v2026_07_28")]
/// A member read as a string that holds a tool's JSON, read by the explained read inside the
/// outer read; a tool that fails to read is swallowed as `None`.
#[derive(Debug)]
struct ToolInside(#[allow(dead_code)] Option<mcp_spec_types::v2026_07_28::Tool>);

#[cfg(feature = "v2026_07_28")]
impl<'de> Deserialize<'de> for ToolInside {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(ToolInside(
            mcp_spec_types::__private::from_str_explained(&text).ok(),
        ))
    }
}

#[cfg(feature = "v2026_07_28")]
#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Outer {
    tool: ToolInside,
    count: u8,
}

#[cfg(feature = "v2026_07_28")]
#[test]
fn an_explained_read_inside_another_leaves_the_outer_one_explaining() {
    use mcp_spec_types::__private::{from_str_explained, strip_position};
    // The tool inside fails (no `inputSchema`) and is swallowed; then `count` fails outside.
    for text in [
        r#"{"tool": "{\"name\": \"t\"}", "count": "many"}"#,
        r#"{"tool": "{\"name\": \"t\", \"inputSchema\": {\"type\": \"object\"}}", "count": 300}"#,
    ] {
        let theirs = serde_json::from_str::<Outer>(text).expect_err("count is not a u8");
        let ours = from_str_explained::<Outer>(text).expect_err("count is not a u8");
        assert_eq!(ours.message, strip_position(&theirs.to_string()), "{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// 4. The reader's scan for the end of a plain run inside a string, compiled from its file (the
// crate keeps it private), against the byte-by-byte answer from any starting offset.

#[path = "../runtime/src/json/read/scan.rs"]
mod scan;

mod run_end {
    use super::scan::run_end;

    /// Every position of every kind of ending byte, in texts of every length around the
    /// chunk sizes, against the plain byte-by-byte answer.
    #[test]
    fn finds_the_first_ending_byte_wherever_it_is() {
        for len in 0..200 {
            let plain = vec![b'a'; len];
            assert_eq!(run_end(&plain, 0), len);
            for at in 0..len {
                for ending in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
                    let mut text = plain.clone();
                    text[at] = ending;
                    for from in [0, at / 2, at] {
                        assert_eq!(run_end(&text, from), at, "len {len} at {at} from {from}");
                    }
                    assert_eq!(run_end(&text, at + 1), len);
                }
            }
        }
    }

    #[test]
    fn bytes_that_look_close_do_not_end_a_run() {
        let text: Vec<u8> = (0x20u8..=0xff)
            .filter(|b| *b != b'"' && *b != b'\\')
            .collect();
        assert_eq!(run_end(&text, 0), text.len());
    }
}
