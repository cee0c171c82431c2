//! `mcp_spec_types::json` writes exactly what `serde_json` writes. Every test compares the two
//! writers on the same value (output bytes, or the error's text, category and position), never
//! against a hand-written expectation; the last section holds the names of serde_json's private
//! structs, which the writer and the reader copy, to serde_json's own.

use mcp_spec_types::json;
use proptest::prelude::*;
use serde::ser::{Error as _, SerializeMap, SerializeSeq, SerializeStruct, SerializeTupleVariant};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Number, Value};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

/// Both writers give the same bytes, or the same error.
#[track_caller]
fn assert_same<T: ?Sized + Serialize>(value: &T) {
    let ours = json::to_vec(value);
    let theirs = serde_json::to_vec(value);
    match (&ours, &theirs) {
        (Ok(ours), Ok(theirs)) => assert_eq!(
            String::from_utf8_lossy(ours),
            String::from_utf8_lossy(theirs)
        ),
        (Err(ours), Err(theirs)) => assert_same_error(ours, theirs),
        _ => panic!("json::to_vec gave {ours:?}, serde_json::to_vec gave {theirs:?}"),
    }
    // `to_string` is `to_vec` as text, for both.
    match (json::to_string(value), serde_json::to_string(value)) {
        (Ok(ours), Ok(theirs)) => assert_eq!(ours, theirs),
        (Err(ours), Err(theirs)) => assert_same_error(&ours, &theirs),
        (ours, theirs) => panic!("json::to_string gave {ours:?}, serde_json gave {theirs:?}"),
    }
}

#[track_caller]
fn assert_same_error(ours: &serde_json::Error, theirs: &serde_json::Error) {
    assert_eq!(ours.to_string(), theirs.to_string());
    assert_eq!(ours.classify(), theirs.classify(), "{ours}");
    assert_eq!(
        (ours.line(), ours.column()),
        (theirs.line(), theirs.column())
    );
}

/// The output must be an error (so the comparison above is not vacuous).
#[track_caller]
fn assert_same_error_for<T: ?Sized + Serialize>(value: &T) {
    assert!(serde_json::to_vec(value).is_err(), "serde_json accepts it");
    assert_same(value);
}

// ---------------------------------------------------------------------------------------------
// 1. Arbitrary `Value` trees.

fn any_char() -> impl Strategy<Value = char> {
    prop_oneof![
        6 => (0u8..=0x7F).prop_map(char::from),
        1 => Just('"'),
        1 => Just('\\'),
        2 => prop::sample::select(vec![
            '\u{80}', 'é', 'ß', '\u{7FF}', '\u{800}', '€', '\u{FFFD}', '\u{FFFF}', '\u{10000}',
            '😀', '\u{10FFFF}',
        ]),
        1 => any::<char>(),
    ]
}

fn any_string() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::collection::vec(any_char(), 0..40).prop_map(|chars| chars.into_iter().collect()),
        // A quote or backslash after 0 to 15 clean bytes: every offset modulo 8, in both halves
        // of a 16-byte window.
        1 => (0usize..16, prop::sample::select(vec!['"', '\\', '\n', '\u{1}']), 0usize..24)
            .prop_map(|(before, special, after)| {
                let mut text = "a".repeat(before);
                text.push(special);
                text.push_str(&"é".repeat(after / 2));
                text
            }),
    ]
}

fn any_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop::sample::select(vec![i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX])
            .prop_map(Value::from),
        prop::sample::select(vec![u64::MAX, u64::MAX - 1, i64::MAX as u64 + 1])
            .prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        prop::sample::select(vec![
            0.0,
            -0.0,
            0.1,
            1e21,
            1e-7,
            1.5e300,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            5e-324,
            123456789.0,
        ])
        .prop_map(Value::from),
    ]
}

fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any_number(),
        any_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((any_string(), inner), 0..8)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_values_are_written_alike(value in any_value()) {
        let ours = json::to_string(&value);
        let theirs = serde_json::to_string(&value);
        prop_assert_eq!(ours.ok(), theirs.ok());
    }

    #[test]
    fn arbitrary_strings_are_written_alike(text in any_string()) {
        prop_assert_eq!(json::to_string(&text).ok(), serde_json::to_string(&text).ok());
        // As a map key, too.
        let map = BTreeMap::from([(text.clone(), text)]);
        prop_assert_eq!(json::to_string(&map).ok(), serde_json::to_string(&map).ok());
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Every ASCII byte, alone and at every position of a longer string.

/// Writes its text through `Serializer::collect_str`.
struct Displayed<'a>(&'a str);

impl fmt::Display for Displayed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Several pieces, so that escaping works across `write_str` calls.
        for piece in self.0.split_inclusive(['a', '"']) {
            f.write_str(piece)?;
        }
        Ok(())
    }
}

impl Serialize for Displayed<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[test]
fn every_ascii_byte_alone() {
    for byte in 0u8..=0x7F {
        let text = char::from(byte).to_string();
        assert_same(&text);
        assert_same(&char::from(byte));
        assert_same(&Displayed(&text));
        assert_same(&BTreeMap::from([(text.as_str(), 0)]));
        assert_same(&BTreeMap::from([(char::from(byte), 0)]));
    }
}

#[test]
fn every_ascii_byte_at_every_position() {
    for byte in 0u8..=0x7F {
        for position in 0..17 {
            for len in [position + 1, 17, 24, 33] {
                let mut text: String = "abcdefghijklmnopqrstuvwxyz0123456789"
                    .chars()
                    .cycle()
                    .take(len)
                    .collect();
                text.replace_range(position..position + 1, &char::from(byte).to_string());
                assert_same(&text);
                assert_same(&Displayed(&text));
                assert_same(&BTreeMap::from([(text.as_str(), text.as_str())]));
            }
        }
    }
}

#[test]
fn multibyte_text_around_escapes_at_every_position() {
    for position in 0..17 {
        for special in [
            "\"",
            "\\",
            "\n",
            "\u{1f}",
            "\u{7f}",
            "é",
            "€",
            "😀",
            "\"\\\u{0}\t",
        ] {
            let mut text = "é€😀xyz".repeat(3);
            let at = text
                .char_indices()
                .map(|(index, _)| index)
                .nth(position)
                .unwrap_or(text.len());
            text.insert_str(at, special);
            assert_same(&text);
            // Every suffix, so the multi-byte characters straddle every 8-byte boundary.
            for (index, _) in text.char_indices() {
                assert_same(&text[index..]);
            }
        }
    }
}

/// Long text dense with escapes, where runs between escapes are short and 16-byte blocks split
/// multi-byte characters at every offset: the writer's block path.
#[test]
fn long_text_dense_with_escapes() {
    let pieces = [
        "the", "é", "日本", "😀", "\"q\"", "C:\\p", "\t", "\n", "naïve", "\u{1}", "x", "€€",
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut text = String::new();
    while text.len() < 20_000 {
        // A fixed xorshift sequence: the same text every run.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        text.push_str(pieces[(state % pieces.len() as u64) as usize]);
        if state % 3 == 0 {
            text.push(' ');
        }
    }
    assert_same(&text);
    for (index, _) in text.char_indices().take(64) {
        assert_same(&text[index..]);
    }
}

/// After an escape, the next 16 or 32 bytes end inside a character of every width at every
/// offset, with and without an escape before that end: the writer's blocks shortened to a
/// character boundary.
#[test]
fn blocks_ending_inside_characters() {
    for wide in ["é", "€", "😀"] {
        for before in 0..36 {
            for escape_after in [None, Some(0), Some(wide.len()), Some(wide.len() * 3)] {
                let mut text = String::from("\"");
                text.push_str(&"a".repeat(before));
                let mut run = wide.repeat(12);
                if let Some(at) = escape_after {
                    run.insert(at, '\n');
                }
                text.push_str(&run);
                text.push_str("\\tail");
                assert_same(&text);
                assert_same(&text[1..]);
            }
        }
    }
}

/// Long runs without an escape (the writer's 64-byte steps), then an escape at every position,
/// in ASCII and in multi-byte text.
#[test]
fn long_runs_with_one_escape_anywhere() {
    for unit in ["a", "é", "日", "😀"] {
        let run = unit.repeat(300 / unit.len());
        for (at, _) in run.char_indices() {
            for special in ["\"", "\n", "\u{1}"] {
                let mut text = run.clone();
                text.insert_str(at, special);
                assert_same(&text);
            }
        }
        assert_same(&run);
    }
}

// ---------------------------------------------------------------------------------------------
// 3. The specification's examples, as `Value`s and as typed messages.

fn spec_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spec")
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("dir entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "json") {
            out.push(path);
        }
    }
}

/// Every JSON document of the fixtures: each file that is one JSON value, and otherwise each of
/// its lines that is one (many docs blocks have comments or placeholders and are skipped).
fn spec_documents() -> Vec<(String, String)> {
    let mut files = Vec::new();
    json_files(&spec_dir(), &mut files);
    let mut documents = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read fixture");
        let name = path.display().to_string();
        if serde_json::from_str::<Value>(&text).is_ok() {
            documents.push((name, text));
        } else {
            for (number, line) in text.lines().enumerate() {
                if serde_json::from_str::<Value>(line).is_ok() {
                    documents.push((format!("{name}:{}", number + 1), line.to_owned()));
                }
            }
        }
    }
    documents
}

#[test]
fn spec_examples_as_values() {
    let documents = spec_documents();
    assert!(documents.len() > 500, "only {} documents", documents.len());
    for (name, text) in &documents {
        let value: Value = serde_json::from_str(text).expect("parsed before");
        assert_eq!(
            json::to_string(&value).ok(),
            serde_json::to_string(&value).ok(),
            "{name}"
        );
        // Borrowed raw text, in a container.
        let raw: &RawValue = serde_json::from_str(text).expect("parsed before");
        assert_eq!(
            json::to_string(&[raw]).ok(),
            serde_json::to_string(&[raw]).ok(),
            "{name}"
        );
    }
}

#[cfg(feature = "v2026_07_28")]
#[test]
fn spec_examples_as_typed_messages() {
    use mcp_spec_types::v2026_07_28::{ClientMessage, ServerMessage};
    let mut typed = 0;
    for (name, text) in spec_documents() {
        if let Ok(message) = ClientMessage::parse(&text) {
            typed += 1;
            assert_eq!(
                json::to_string(&message).ok(),
                serde_json::to_string(&message).ok(),
                "{name} as a client message"
            );
        }
        if let Ok(message) = ServerMessage::parse(&text) {
            typed += 1;
            assert_eq!(
                json::to_string(&message).ok(),
                serde_json::to_string(&message).ok(),
                "{name} as a server message"
            );
        }
    }
    assert!(typed > 50, "only {typed} typed messages");
}

// ---------------------------------------------------------------------------------------------
// 4. Every shape serde can produce, map keys, RawValue, and the errors.

#[derive(Serialize)]
struct UnitStruct;

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
struct Newtype(String);

#[derive(Serialize)]
struct TupleStruct(u8, &'static str, Option<bool>);

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    First,
    #[serde(rename = "sec\"ond")]
    Second,
}

#[derive(Serialize)]
enum Kind {
    Unit,
    Newtype(String),
    Tuple(u8, String),
    EmptyTuple(),
    Struct { a: u8, b: Option<String> },
    EmptyStruct {},
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
enum Tagged {
    Text { text: String },
    Image { data: Vec<u8>, mime_type: String },
}

#[derive(Serialize)]
#[serde(untagged)]
enum Untagged {
    Number(f64),
    Text(String),
}

/// `serialize_bytes`.
struct Bytes(&'static [u8]);

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// A map from a list of pairs, for keys that are not `Ord` or `Hash`.
struct Pairs<K, V>(Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for Pairs<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

#[derive(Serialize)]
struct Everything {
    raw: Box<RawValue>,
    raw_string: Box<RawValue>,
    raw_some: Option<Box<RawValue>>,
    raw_none: Option<Box<RawValue>>,
    some: Option<String>,
    none: Option<u8>,
    variants: Vec<Kind>,
    tagged: Vec<Tagged>,
    untagged: Vec<Untagged>,
    int_keys: BTreeMap<i32, &'static str>,
    bool_keys: HashMap<bool, u8>,
    empty_map: BTreeMap<String, u8>,
    empty_seq: Vec<u8>,
    nan: f64,
    infinity: f32,
    negative_infinity: f64,
    small: f32,
    large: f64,
    unit: (),
    unit_struct: UnitStruct,
    newtype: Newtype,
    tuple: (u8, &'static str, f32),
    tuple_struct: TupleStruct,
    bytes: Bytes,
    empty_bytes: Bytes,
    character: char,
    wide: (i128, u128, i128),
    small_ints: (i8, i16, i32, u8, u16, u32),
    displayed: Displayed<'static>,
    #[serde(rename = "renamed \"field\"\n")]
    renamed: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<u8>,
    #[serde(flatten)]
    flattened: BTreeMap<String, Value>,
}

fn raw(text: &str) -> Box<RawValue> {
    RawValue::from_string(text.to_owned()).expect("valid JSON")
}

#[test]
fn every_shape() {
    let everything = Everything {
        raw: raw(r#"{ "spaced" : [1, 2,3 ] , "s":"\u00e9\n" }"#),
        raw_string: raw(r#""a \"raw\" string""#),
        raw_some: Some(raw("  12.50e3")),
        raw_none: None,
        some: Some("some \"thing\"\u{0}".into()),
        none: None,
        variants: vec![
            Kind::Unit,
            Kind::Newtype("new\ttype".into()),
            Kind::Tuple(1, "two".into()),
            Kind::EmptyTuple(),
            Kind::Struct {
                a: 3,
                b: Some("b".into()),
            },
            Kind::Struct { a: 4, b: None },
            Kind::EmptyStruct {},
        ],
        tagged: vec![
            Tagged::Text {
                text: "hi\r\n".into(),
            },
            Tagged::Image {
                data: vec![0, 127, 255],
                mime_type: "image/png".into(),
            },
        ],
        untagged: vec![Untagged::Number(f64::NAN), Untagged::Text("x".into())],
        int_keys: BTreeMap::from([(i32::MIN, "min"), (-1, "minus one"), (i32::MAX, "max")]),
        bool_keys: HashMap::from([(true, 1), (false, 0)]),
        empty_map: BTreeMap::new(),
        empty_seq: Vec::new(),
        nan: f64::NAN,
        infinity: f32::INFINITY,
        negative_infinity: f64::NEG_INFINITY,
        small: 1.1e-38,
        large: 1.7976931348623157e308,
        unit: (),
        unit_struct: UnitStruct,
        newtype: Newtype("inner".into()),
        tuple: (1, "two", 3.25),
        tuple_struct: TupleStruct(9, "nine", None),
        bytes: Bytes(b"\x00\"\\\xff"),
        empty_bytes: Bytes(b""),
        character: '\u{8}',
        wide: (i128::MIN, u128::MAX, i128::MAX),
        small_ints: (i8::MIN, i16::MIN, i32::MIN, u8::MAX, u16::MAX, u32::MAX),
        displayed: Displayed("display \"me\" \u{1b}[0m"),
        renamed: 7,
        skipped: None,
        flattened: BTreeMap::from([
            ("flat".to_owned(), Value::from(1.5)),
            ("\u{7f}".to_owned(), Value::Null),
        ]),
    };
    assert_same(&everything);
    assert_same(&Some(&everything));
    assert_same(&[&everything, &everything]);
}

#[test]
fn raw_values() {
    for text in [
        "null",
        " true ",
        "\"\\u0000 \\\" é\"",
        "[1,\n2]",
        "{\"a\" : {}}",
        "-0",
        "1e400",
    ] {
        let boxed = raw(text);
        assert_same(&boxed);
        assert_same(&BTreeMap::from([("raw", &boxed)]));
        assert_same(&vec![Some(&boxed), None]);
    }
}

#[test]
fn numbers() {
    assert_same(&[i64::MIN, -1, 0, 1, i64::MAX]);
    assert_same(&[u64::MAX]);
    assert_same(&[i128::MIN, i128::MAX]);
    assert_same(&[u128::MAX]);
    assert_same(&[
        0.0,
        -0.0,
        0.1,
        1e15,
        1e16,
        1e21,
        1e-6,
        1e-7,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ]);
    assert_same(&[
        0.0f32,
        0.1,
        1e-45,
        f32::MAX,
        f32::MIN,
        f32::NAN,
        f32::INFINITY,
    ]);
    let numbers: Vec<Number> = [
        Value::from(u64::MAX),
        Value::from(i64::MIN),
        Value::from(2.5),
    ]
    .into_iter()
    .filter_map(|v| v.as_number().cloned())
    .collect();
    assert_same(&numbers);
}

#[test]
fn map_keys_serde_json_accepts() {
    assert_same(&BTreeMap::from([(i8::MIN, 0), (i8::MAX, 1)]));
    assert_same(&BTreeMap::from([(i16::MIN, 0)]));
    assert_same(&BTreeMap::from([(i64::MIN, 0), (i64::MAX, 1)]));
    assert_same(&BTreeMap::from([(i128::MIN, 0), (i128::MAX, 1)]));
    assert_same(&BTreeMap::from([(u8::MAX, 0)]));
    assert_same(&BTreeMap::from([(u16::MAX, 0)]));
    assert_same(&BTreeMap::from([(u32::MAX, 0)]));
    assert_same(&BTreeMap::from([(u64::MAX, 0)]));
    assert_same(&BTreeMap::from([(u128::MAX, 0)]));
    assert_same(&BTreeMap::from([('"', 0), ('\n', 1), ('é', 2)]));
    assert_same(&BTreeMap::from([(true, 0), (false, 1)]));
    assert_same(&BTreeMap::from([(Newtype("new\"type".into()), 0)]));
    assert_same(&BTreeMap::from([(Key::First, 0), (Key::Second, 1)]));
    assert_same(&BTreeMap::from([(Some("some"), 0)]));
    assert_same(&Pairs(vec![
        (1.5f64, 0),
        (-0.0, 1),
        (1e21, 2),
        (f64::MIN_POSITIVE, 3),
    ]));
    assert_same(&Pairs(vec![(0.1f32, 0), (f32::MAX, 1)]));
    assert_same(&Pairs(vec![(Displayed("dis\"played"), 0)]));
    assert_same(&Pairs(vec![(Some(Some(7u8)), 0)]));
}

#[test]
fn map_keys_serde_json_rejects() {
    assert_same_error_for(&Pairs(vec![((), 0)]));
    assert_same_error_for(&Pairs(vec![(UnitStruct, 0)]));
    assert_same_error_for(&Pairs(vec![(None::<u8>, 0)]));
    assert_same_error_for(&Pairs(vec![(Bytes(b"k"), 0)]));
    assert_same_error_for(&Pairs(vec![(vec![1u8], 0)]));
    assert_same_error_for(&Pairs(vec![((1u8, 2u8), 0)]));
    assert_same_error_for(&Pairs(vec![(TupleStruct(1, "a", None), 0)]));
    assert_same_error_for(&Pairs(vec![(Kind::Newtype("a".into()), 0)]));
    assert_same_error_for(&Pairs(vec![(Kind::Tuple(1, "a".into()), 0)]));
    assert_same_error_for(&Pairs(vec![(Kind::Struct { a: 1, b: None }, 0)]));
    assert_same_error_for(&Pairs(vec![(BTreeMap::from([("a", 1)]), 0)]));
    // A newtype struct is transparent: what it holds decides.
    #[derive(Serialize)]
    struct Wraps<T>(T);
    assert_same_error_for(&Pairs(vec![(Wraps(()), 0)]));
    assert_same_error_for(&Pairs(vec![(Wraps(f64::NAN), 0)]));
    assert_same_error_for(&Pairs(vec![(raw("1"), 0)]));
    assert_same_error_for(&Pairs(vec![(f64::NAN, 0)]));
    assert_same_error_for(&Pairs(vec![(f64::INFINITY, 0)]));
    assert_same_error_for(&Pairs(vec![(f32::NEG_INFINITY, 0)]));
    // After good entries, nested.
    assert_same_error_for(&vec![Pairs(vec![(Value::from(1), 0), (Value::Null, 1)])]);
}

/// Fails in its own `Serialize` implementation, after writing part of the output.
struct Fails;

impl Serialize for Fails {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        seq.serialize_element("written")?;
        Err(S::Error::custom("boom \"quoted\""))
    }
}

/// Serializes the raw value token with something other than a string, or another field.
enum FakeRaw {
    Number,
    WrongField,
    Displayed,
}

impl Serialize for FakeRaw {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        const TOKEN: &str = "$serde_json::private::RawValue";
        let mut fields = serializer.serialize_struct(TOKEN, 1)?;
        match self {
            FakeRaw::Number => fields.serialize_field(TOKEN, &5)?,
            FakeRaw::WrongField => fields.serialize_field("other", "1")?,
            FakeRaw::Displayed => fields.serialize_field(TOKEN, &Displayed("[1, \"a\"]"))?,
        }
        fields.end()
    }
}

/// serde_json's private number struct: a bare number under its `arbitrary_precision` feature,
/// an ordinary struct otherwise (the writer asks serde_json which).
enum FakeNumber {
    Digits,
    NotString,
    WrongField,
}

impl Serialize for FakeNumber {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        const TOKEN: &str = "$serde_json::private::Number";
        let mut fields = serializer.serialize_struct(TOKEN, 1)?;
        match self {
            FakeNumber::Digits => {
                fields.serialize_field(TOKEN, "123456789012345678901234567890")?
            }
            FakeNumber::NotString => fields.serialize_field(TOKEN, &1)?,
            FakeNumber::WrongField => fields.serialize_field("other", "1")?,
        }
        fields.end()
    }
}

#[test]
fn number_token_follows_serde_json_features() {
    assert_same(&FakeNumber::Digits);
    assert_same(&FakeNumber::NotString);
    assert_same(&FakeNumber::WrongField);
    assert_same(&[FakeNumber::Digits, FakeNumber::WrongField]);
}

#[test]
fn errors_and_odd_serializers() {
    assert_same_error_for(&Fails);
    assert_same_error_for(&BTreeMap::from([("a", Fails)]));
    assert_same_error_for(&FakeRaw::Number);
    assert_same_error_for(&FakeRaw::WrongField);
    assert_same(&FakeRaw::Displayed);
    assert_same(&[FakeRaw::Displayed]);
}

/// A sequence, map or tuple variant that announces a length of 0 and then has elements.
enum LiesAboutLength {
    Seq,
    Map,
    TupleVariant,
}

impl Serialize for LiesAboutLength {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            LiesAboutLength::Seq => {
                let mut seq = serializer.serialize_seq(Some(0))?;
                seq.serialize_element(&1)?;
                seq.serialize_element(&2)?;
                seq.end()
            }
            LiesAboutLength::Map => {
                let mut map = serializer.serialize_map(Some(0))?;
                map.serialize_entry("a", &1)?;
                map.end()
            }
            LiesAboutLength::TupleVariant => {
                let mut variant = serializer.serialize_tuple_variant("E", 0, "V", 0)?;
                variant.serialize_field(&1)?;
                variant.end()
            }
        }
    }
}

#[test]
fn lengths_announced_as_zero() {
    assert_same(&LiesAboutLength::Seq);
    assert_same(&LiesAboutLength::Map);
    assert_same(&LiesAboutLength::TupleVariant);
}

/// A `Display` that fails by itself: serde_json panics, `json` returns an error.
struct BadDisplay;

impl fmt::Display for BadDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("partial")?;
        Err(fmt::Error)
    }
}

impl Serialize for BadDisplay {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[test]
fn failing_display_is_an_error_not_a_panic() {
    assert!(std::panic::catch_unwind(|| serde_json::to_string(&BadDisplay)).is_err());
    assert!(json::to_string(&BadDisplay).is_err());
    assert!(json::to_string(&Pairs(vec![(BadDisplay, 0)])).is_err());
}

// ---------------------------------------------------------------------------------------------
// 5. `to_writer`.

// `to_writer` takes a `std::io::Write`: it is there with the `std` feature.
#[cfg(feature = "std")]
#[test]
fn to_writer_writes_what_to_vec_returns() {
    let value = serde_json::json!({
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"content": [{"type": "text", "text": "a\"b\\c\u{1}d\u{e9}"}]}
    });
    let mut written = Vec::new();
    json::to_writer(&mut written, &value).expect("writes");
    assert_eq!(written, json::to_vec(&value).expect("writes"));
    let mut theirs = Vec::new();
    serde_json::to_writer(&mut theirs, &value).expect("writes");
    assert_eq!(written, theirs);

    // Appends to what the writer holds.
    let mut appended = b"prefix ".to_vec();
    json::to_writer(&mut appended, &[1, 2]).expect("writes");
    let mut theirs = b"prefix ".to_vec();
    serde_json::to_writer(&mut theirs, &[1, 2]).expect("writes");
    assert_eq!(appended, theirs);

    // The same error as serde_json for a value it cannot write.
    let mut sink = Vec::new();
    let ours = json::to_writer(&mut sink, &Fails).expect_err("fails");
    let theirs = serde_json::to_writer(std::io::sink(), &Fails).expect_err("fails");
    assert_same_error(&ours, &theirs);
}

/// A writer that always fails.
#[cfg(feature = "std")]
struct Broken;

#[cfg(feature = "std")]
impl std::io::Write for Broken {
    fn write(&mut self, _buf: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("broken pipe"))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(feature = "std")]
#[test]
fn to_writer_reports_io_errors_like_serde_json() {
    let ours = json::to_writer(Broken, &"text").expect_err("fails");
    let theirs = serde_json::to_writer(Broken, &"text").expect_err("fails");
    assert_same_error(&ours, &theirs);
    assert!(ours.is_io());
}

// ---------------------------------------------------------------------------------------------
// 6. The names of serde_json's private structs, from the crate's file that copies them (the
// crate keeps them private), against the names serde_json's own types use.

#[path = "../runtime/src/json/tokens.rs"]
mod tokens;

mod serde_json_tokens {
    use super::tokens::{arbitrary_precision, ARBITRARY_PRECISION, NUMBER_TOKEN, RAW_VALUE_TOKEN};
    use core::fmt;
    use serde::de::{self, Deserialize};
    use serde::ser::{self, Serialize};

    /// What a probe saw: the struct name a value serialized as, or what it did instead.
    #[derive(Debug, PartialEq)]
    enum Seen {
        Struct(String),
        Other(String),
    }

    impl fmt::Display for Seen {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "{self:?}")
        }
    }

    impl core::error::Error for Seen {}

    impl ser::Error for Seen {
        fn custom<T: fmt::Display>(msg: T) -> Self {
            Seen::Other(msg.to_string())
        }
    }

    impl de::Error for Seen {
        fn custom<T: fmt::Display>(msg: T) -> Self {
            Seen::Other(msg.to_string())
        }
    }

    /// A serializer that stops at the first call, reporting a struct's name.
    struct SerializeProbe;

    macro_rules! other {
        ($($method:ident($($arg:ty),*) -> $ok:ty;)*) => {
            $(fn $method(self, $(_: $arg),*) -> Result<$ok, Seen> {
                Err(Seen::Other(stringify!($method).into()))
            })*
        };
    }

    type Stop = ser::Impossible<(), Seen>;

    impl ser::Serializer for SerializeProbe {
        type Ok = ();
        type Error = Seen;
        type SerializeSeq = Stop;
        type SerializeTuple = Stop;
        type SerializeTupleStruct = Stop;
        type SerializeTupleVariant = Stop;
        type SerializeMap = Stop;
        type SerializeStruct = Stop;
        type SerializeStructVariant = Stop;

        fn serialize_struct(self, name: &'static str, _: usize) -> Result<Stop, Seen> {
            Err(Seen::Struct(name.into()))
        }

        fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), Seen> {
            Err(Seen::Other("serialize_some".into()))
        }

        fn serialize_newtype_struct<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: &T,
        ) -> Result<(), Seen> {
            Err(Seen::Other("serialize_newtype_struct".into()))
        }

        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), Seen> {
            Err(Seen::Other("serialize_newtype_variant".into()))
        }

        other! {
            serialize_bool(bool) -> ();
            serialize_i8(i8) -> ();
            serialize_i16(i16) -> ();
            serialize_i32(i32) -> ();
            serialize_i64(i64) -> ();
            serialize_u8(u8) -> ();
            serialize_u16(u16) -> ();
            serialize_u32(u32) -> ();
            serialize_u64(u64) -> ();
            serialize_f32(f32) -> ();
            serialize_f64(f64) -> ();
            serialize_char(char) -> ();
            serialize_str(&str) -> ();
            serialize_bytes(&[u8]) -> ();
            serialize_none() -> ();
            serialize_unit() -> ();
            serialize_unit_struct(&'static str) -> ();
            serialize_unit_variant(&'static str, u32, &'static str) -> ();
            serialize_seq(Option<usize>) -> Stop;
            serialize_tuple(usize) -> Stop;
            serialize_tuple_struct(&'static str, usize) -> Stop;
            serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Stop;
            serialize_map(Option<usize>) -> Stop;
            serialize_struct_variant(&'static str, u32, &'static str, usize) -> Stop;
        }
    }

    /// A deserializer that stops at the first request, reporting a newtype struct's name.
    struct DeserializeProbe;

    impl<'de> de::Deserializer<'de> for DeserializeProbe {
        type Error = Seen;

        fn deserialize_any<V: de::Visitor<'de>>(self, _: V) -> Result<V::Value, Seen> {
            Err(Seen::Other("deserialize_any".into()))
        }

        fn deserialize_newtype_struct<V: de::Visitor<'de>>(
            self,
            name: &'static str,
            _: V,
        ) -> Result<V::Value, Seen> {
            Err(Seen::Struct(name.into()))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
        }
    }

    #[test]
    fn raw_value_token_is_serde_jsons() {
        let raw = serde_json::value::RawValue::from_string("[1]".into()).unwrap();
        assert_eq!(
            raw.serialize(SerializeProbe),
            Err(Seen::Struct(RAW_VALUE_TOKEN.into())),
            "serde_json's RawValue no longer serializes as the struct the writer knows"
        );
        assert_eq!(
            Box::<serde_json::value::RawValue>::deserialize(DeserializeProbe).map(drop),
            Err(Seen::Struct(RAW_VALUE_TOKEN.into())),
            "serde_json's RawValue no longer deserializes from the newtype the reader knows"
        );
    }

    #[test]
    fn number_token_is_serde_jsons_when_it_is_used() {
        // Without `arbitrary_precision` a Number is a plain number and no token is in play on
        // either side; with it, the struct serde_json writes must be the one the writer knows.
        match serde_json::Number::from(1u8).serialize(SerializeProbe) {
            Err(Seen::Struct(name)) => {
                assert_eq!(name, NUMBER_TOKEN, "serde_json's Number token changed");
                assert!(arbitrary_precision());
            }
            Err(Seen::Other(method)) => {
                assert_eq!(method, "serialize_u64");
                assert!(!arbitrary_precision());
            }
            Ok(()) => panic!("the probe serializer never succeeds"),
        }
        // The constant that leaves serde_json's reading out of the explained reads.
        assert_eq!(ARBITRARY_PRECISION, arbitrary_precision());
    }
}
