//! Every JSON Schema 2020-12 validation keyword, through the real build: the test-only revision
//! (`codegen/keywords-test.json` laid over the latest schema, feature `__keywords-test`) uses
//! each one, and its generated types must accept and refuse exactly what the `jsonschema`
//! oracle accepts and refuses on a corpus of edge values, refusing at the member the keyword
//! is on. `format` is an annotation in 2020-12, so the oracle does not assert it either.
//!
//! Run with `cargo test --features __keywords-test --test keywords`.

#![cfg(feature = "__keywords-test")]

#[path = "../codegen/keywords_test.rs"]
mod keywords_test;

use mcp_spec_types::keywords_test as types;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use std::path::PathBuf;

/// The document the test revision is generated from, composed as the build composes it.
fn composed() -> Value {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let read = |path: PathBuf| -> Value {
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
    };
    let mut schema = read(
        root.join("schema")
            .join(keywords_test::BASE_REVISION)
            .join("schema.json"),
    );
    let overlay = read(root.join(keywords_test::OVERLAY));
    keywords_test::compose(&mut schema, &overlay).expect("the overlay applies");
    schema
}

fn oracle(schema: &Value, definition: &str) -> jsonschema::Validator {
    let document = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": schema["$defs"].clone(),
        "$ref": format!("#/$defs/{definition}"),
    });
    jsonschema::draft202012::options()
        .build(&document)
        .unwrap_or_else(|e| panic!("compiling the oracle for {definition}: {e}"))
}

/// Reads `value` as `T`: the error's JSON path and message, or the value written back.
fn read<T: DeserializeOwned + Serialize>(value: &Value) -> Result<Value, (String, String)> {
    let parsed: T = serde_path_to_error::deserialize(value.clone())
        .map_err(|e| (e.path().to_string(), e.inner().to_string()))?;
    Ok(serde_json::to_value(&parsed).expect("a read value writes back"))
}

/// Where the crate is knowingly stricter than JSON Schema, for a reason that is not one of the
/// keywords: an `integer` member, or an integer constant, written with a fraction part (JSON
/// Schema counts `42.0` as the integer 42; the crate keeps integers exact, and writing the
/// constant back as `42` would change what was read). Each entry must still be refused.
const STRICTER: &[&str] = &[r#"{"answer":42,"step":-0.0}"#, r#"{"answer":42.0}"#];

/// One definition's corpus: each member's candidate values, put one at a time into `base`
/// (`None` for a candidate that is the whole object).
struct Corpus {
    definition: &'static str,
    base: Value,
    members: Vec<(Option<&'static str>, Vec<Value>)>,
}

/// Runs a corpus, returning every disagreement, and counts what was accepted and refused.
fn run<T: DeserializeOwned + Serialize>(
    schema: &Value,
    corpus: &Corpus,
    tally: &mut (usize, usize),
) -> Vec<String> {
    let oracle = oracle(schema, corpus.definition);
    let mut problems = Vec::new();
    for (member, candidates) in &corpus.members {
        for candidate in candidates {
            let instance = match member {
                Some(name) => {
                    let mut instance = corpus.base.clone();
                    instance[*name] = candidate.clone();
                    instance
                }
                None => candidate.clone(),
            };
            let expected = oracle.is_valid(&instance);
            let what = format!("{}: {instance}", corpus.definition);
            match (expected, read::<T>(&instance)) {
                (true, Ok(back)) => {
                    tally.0 += 1;
                    if back != instance {
                        problems.push(format!("{what}: written back as {back}"));
                    }
                }
                (false, Err((path, message))) => {
                    tally.1 += 1;
                    let at = member.unwrap_or(".");
                    // A value of the wrong type inside an array is refused at its item.
                    if path != at && !path.starts_with(&format!("{at}[")) {
                        problems.push(format!(
                            "{what}: refused at {path} ({message}), expected at {at}"
                        ));
                    }
                }
                (true, Err(_)) if STRICTER.contains(&instance.to_string().as_str()) => {
                    tally.1 += 1;
                }
                (true, Err((path, message))) => problems.push(format!(
                    "{what}: the oracle accepts it, the crate refuses it at {path}: {message}"
                )),
                (false, Ok(_)) => problems.push(format!(
                    "{what}: the oracle refuses it ({}), the crate accepts it",
                    oracle
                        .iter_errors(&instance)
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                )),
            }
        }
    }
    problems
}

fn strings() -> Vec<Value> {
    [
        "",
        "a",
        "ab",
        "abcd",
        "abcde",
        "é",
        "éé",
        "éééé",
        "ééééé",
        "😀😀😀😀",
        "😀😀😀😀😀",
        "ab\u{301}",
        "e\u{301}",
        "café",
        "cafe",
        "xéy",
        "ééé",
        "ab-12",
        "ab-123",
        "AB-12",
        "-12",
        "abc-1",
        "ab-12\n",
        "é-12",
        "zz-00",
    ]
    .iter()
    .map(|s| json!(s))
    .collect()
}

fn numbers() -> Vec<Value> {
    [
        "0",
        "-0.0",
        "0.01",
        "0.07",
        "0.075",
        "0.1",
        "0.29",
        "0.3",
        "0.57",
        "0.99",
        "0.999",
        "1",
        "1.0",
        "0.010000000000000002",
        "1e-2",
        "0.5",
        "-0.01",
        "0.25",
        "0.75",
        "0.25000000000000006",
        "2.25",
        "-0.25",
        "1e300",
        "1e-320",
        "-15",
        "-10",
        "-5",
        "5",
        "7",
        "10",
        "15",
        "-11",
        "11",
        "3.5",
    ]
    .iter()
    .map(|text| serde_json::from_str(text).expect("a JSON number"))
    .collect()
}

fn any_values() -> Vec<Value> {
    vec![
        json!(true),
        json!(false),
        json!(1),
        json!(1.0),
        json!(2),
        json!(3.5),
        json!(42),
        json!(42.0),
        json!(43),
        json!("two"),
        json!("one"),
        json!("true"),
        json!("42"),
        json!(null),
        json!([1]),
        json!({}),
    ]
}

#[test]
fn the_generated_types_agree_with_the_oracle_on_every_keyword() {
    let schema = composed();
    let mut tally = (0, 0);
    let mut problems = Vec::new();

    let strings_corpus = Corpus {
        definition: "KeywordStrings",
        base: json!({}),
        members: ["name", "code", "accent"]
            .iter()
            .map(|m| (Some(*m), strings()))
            .collect(),
    };
    problems.extend(run::<types::KeywordStrings>(
        &schema,
        &strings_corpus,
        &mut tally,
    ));

    let mut number_members: Vec<(Option<&'static str>, Vec<Value>)> = ["ratio", "step", "quarter"]
        .iter()
        .map(|m| (Some(*m), numbers()))
        .collect();
    number_members.extend(
        ["answer", "flag", "level"]
            .iter()
            .map(|m| (Some(*m), any_values())),
    );
    let numbers_corpus = Corpus {
        definition: "KeywordNumbers",
        base: json!({ "answer": 42 }),
        members: number_members,
    };
    problems.extend(run::<types::KeywordNumbers>(
        &schema,
        &numbers_corpus,
        &mut tally,
    ));

    let collections = Corpus {
        definition: "KeywordCollections",
        base: json!({}),
        members: vec![
            (
                Some("tags"),
                vec![
                    json!([]),
                    json!(["a"]),
                    json!(["a", "b", "c"]),
                    json!(["a", "b", "c", "d"]),
                    json!(["a", "a"]),
                    json!(["a", "b", "a"]),
                    json!(["é", "e\u{301}"]),
                ],
            ),
            (
                Some("points"),
                vec![
                    json!([]),
                    json!([1, 2]),
                    json!([1, 1.0]),
                    json!([0.1, 0.1]),
                    json!([0.1, 0.10000000000000002]),
                    json!([-0.0, 0]),
                    json!([2, 1, 2]),
                ],
            ),
            (
                Some("labels"),
                vec![
                    json!({}),
                    json!({ "a": "x" }),
                    json!({ "a": "x", "b": "y" }),
                    json!({ "a": "x", "b": "y", "c": "z" }),
                ],
            ),
        ],
    };
    problems.extend(run::<types::KeywordCollections>(
        &schema,
        &collections,
        &mut tally,
    ));

    let object = Corpus {
        definition: "KeywordObject",
        base: json!({}),
        members: vec![(
            None,
            vec![
                json!({}),
                json!({ "a": "x" }),
                json!({ "a": "x", "b": "y" }),
                json!({ "b": "y" }),
                json!({ "c": 1, "a": "x" }),
                json!({ "c": 1, "b": "y" }),
                json!({ "c": 1, "a": "x", "b": "y" }),
                json!({ "c": 1, "a": "x", "b": "y", "d": 0 }),
                json!({ "d": 0 }),
                json!({ "a": "x", "b": "y", "d": 0, "e": 0 }),
            ],
        )],
    };
    problems.extend(run::<types::KeywordObject>(&schema, &object, &mut tally));

    let icon = Corpus {
        definition: "Icon",
        base: json!({ "src": "https://example.com/icon.png" }),
        members: vec![(
            Some("src"),
            vec![
                json!("https://example.com/icon.png"),
                json!("http://example.com/icon.png"),
                json!("data:image/png;base64,AAAA"),
                json!("ftp://example.com/icon.png"),
                json!("file:///icon.png"),
                json!("HTTPS://example.com/icon.png"),
                json!(" https://example.com/icon.png"),
                json!("javascript:alert(1)"),
                json!(""),
            ],
        )],
    };
    problems.extend(run::<types::Icon>(&schema, &icon, &mut tally));

    // Keywords on definitions (a string, an integer, an array of them), on array items, and on
    // integers typify would narrow, each read where a property refers to it.
    let definitions = Corpus {
        definition: "KeywordDefinitions",
        base: json!({ "count": 1 }),
        members: vec![
            (
                Some("code"),
                vec![
                    json!("ABC"),
                    json!("AB"),
                    json!("ABCD"),
                    json!("abc"),
                    json!(""),
                    json!(3),
                ],
            ),
            (
                Some("count"),
                vec![
                    json!(1),
                    json!(100),
                    json!(0),
                    json!(101),
                    json!(-1),
                    json!(1.5),
                    json!("1"),
                    json!(u64::MAX),
                ],
            ),
            (
                Some("codes"),
                vec![
                    json!([]),
                    json!(["ABC"]),
                    json!(["ABC", "DEF"]),
                    json!(["ABC", "DEF", "GHI"]),
                    json!(["ABC", "ABC"]),
                    json!(["abc"]),
                    json!(["ABCD"]),
                ],
            ),
            (
                Some("more"),
                vec![
                    json!([]),
                    json!(["ABC"]),
                    json!(["ABC", "AB"]),
                    json!("ABC"),
                ],
            ),
            (
                Some("sizes"),
                vec![
                    json!([]),
                    json!([1, 9]),
                    json!([0]),
                    json!([9, 10]),
                    json!([1, 2, 3, 4]),
                    json!([1.5]),
                    json!([-1]),
                ],
            ),
            (
                Some("names"),
                vec![
                    json!(["ab"]),
                    json!(["a"]),
                    json!(["Ab"]),
                    json!(["ab", "c"]),
                    json!([]),
                ],
            ),
            (
                Some("ttl"),
                vec![json!(0), json!(86_400_000), json!(86_400_001), json!(-1)],
            ),
            (
                Some("offset"),
                vec![json!(-1), json!(0), json!(10), json!(11), json!(-2)],
            ),
        ],
    };
    problems.extend(run::<types::KeywordDefinitions>(
        &schema,
        &definitions,
        &mut tally,
    ));

    // The shared types carry the bounds of the revision they are read in: here `Cursor`,
    // `RequestId` and `ProgressToken` are bounded, in the released revisions they are not.
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let cursor = Corpus {
        definition: "PaginatedRequestParams",
        base: json!({ "_meta": meta }),
        members: vec![(
            Some("cursor"),
            vec![
                json!("abc"),
                json!("12345678"),
                json!("123456789"),
                json!(""),
                json!(5),
            ],
        )],
    };
    problems.extend(run::<types::PaginatedRequestParams>(
        &schema, &cursor, &mut tally,
    ));
    let request_id = Corpus {
        definition: "CancelledNotificationParams",
        base: json!({ "requestId": 1 }),
        members: vec![(
            Some("requestId"),
            vec![
                json!(0),
                json!(7),
                json!(-1),
                json!(""),
                json!("x".repeat(16)),
                json!("x".repeat(17)),
                json!(null),
            ],
        )],
    };
    problems.extend(run::<types::CancelledNotificationParams>(
        &schema,
        &request_id,
        &mut tally,
    ));
    let progress_token = Corpus {
        definition: "ProgressNotificationParams",
        base: json!({ "progressToken": "t", "progress": 1 }),
        members: vec![(
            Some("progressToken"),
            vec![json!("a"), json!(""), json!(0), json!(-3), json!(true)],
        )],
    };
    problems.extend(run::<types::ProgressNotificationParams>(
        &schema,
        &progress_token,
        &mut tally,
    ));
    let ttl = Corpus {
        definition: "ListToolsResult",
        base: json!({ "tools": [], "resultType": "complete", "ttlMs": 0, "cacheScope": "private" }),
        members: vec![(
            Some("ttlMs"),
            vec![
                json!(0),
                json!(86_400_000),
                json!(86_400_001),
                json!(-1),
                json!(1.5),
            ],
        )],
    };
    problems.extend(run::<types::ListToolsResult>(&schema, &ttl, &mut tally));

    assert!(
        problems.is_empty(),
        "{} disagreements:\n{}",
        problems.len(),
        problems.join("\n")
    );
    // The corpus is not one-sided: both answers occur, many times.
    assert!(
        tally.0 >= 40 && tally.1 >= 40,
        "accepted, refused: {tally:?}"
    );
}

/// Every keyword of the issue appears in the overlay, so the agreement above covers each.
#[test]
fn the_overlay_uses_every_keyword() {
    let overlay: Value = serde_json::from_str(
        &std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(keywords_test::OVERLAY),
        )
        .expect("the overlay"),
    )
    .expect("JSON");
    let text = overlay["$defs"].to_string();
    for keyword in [
        "pattern",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "const",
        "enum",
        "dependentRequired",
    ] {
        assert!(
            text.contains(&format!("\"{keyword}\":")),
            "the overlay does not use `{keyword}`"
        );
    }
}

/// A `pattern` is compiled once: reading many values costs one compilation, and the same
/// refusal comes back each time.
#[test]
fn a_pattern_refuses_the_same_way_every_time() {
    for _ in 0..3 {
        let error = serde_json::from_value::<types::Icon>(json!({ "src": "ftp://x" }))
            .expect_err("refused");
        assert!(
            error.to_string().contains("does not match the pattern"),
            "{error}"
        );
    }
}

// The build's marking pass on schemas made for the purpose.
use crate::build_bounds;

/// A keyword where the generated readers do not look fails the build, naming the definition.
#[test]
fn the_build_names_the_definition_of_an_unchecked_keyword() {
    let id = json!({ "type": "string", "pattern": "^x" });
    for (schema, expected) in [
        (
            json!({ "definitions": { "Id": id, "Either": { "oneOf": [
                { "$ref": "#/definitions/Id" }, { "type": "integer" }
            ] } } }),
            "definition `Id`: its keywords (pattern) are checked where an object's property or \
             array items refer to it, and `Either` refers to it elsewhere",
        ),
        (
            json!({ "definitions": { "Id": id, "Index": { "type": "object",
                "additionalProperties": { "$ref": "#/definitions/Id" } } } }),
            "definition `Id`: its keywords (pattern) are checked where an object's property or \
             array items refer to it, and `Index` refers to it elsewhere",
        ),
        (
            json!({ "definitions": { "Either": { "oneOf": [
                { "type": "string", "maxLength": 3 }, { "type": "integer" }
            ] } } }),
            "definition `Either`: keyword `maxLength` outside an object's property",
        ),
        (
            json!({ "definitions": { "Pair": { "type": "array", "prefixItems": [{ "type": "string" }] } } }),
            "definition `Pair`: keyword `prefixItems`",
        ),
        (
            json!({ "definitions": { "One": { "const": 1 } } }),
            "definition `One`: keyword `const`",
        ),
        (
            json!({ "definitions": { "Free": { "type": "object", "dependentRequired": { "a": ["b"] } } } }),
            "definition `Free`: keyword `dependentRequired`",
        ),
        (
            json!({ "definitions": {
                "Short": { "type": "string", "pattern": "^a" },
                "Thing": { "type": "object", "properties": {
                    "s": { "$ref": "#/definitions/Short", "pattern": "^b" }
                } }
            } }),
            "property `s`: `pattern` is given twice",
        ),
    ] {
        let mut marked = schema.clone();
        let error = build_bounds::mark(&mut marked).expect_err("refused");
        assert!(error.contains(expected), "{schema}: {error}");
    }
    // A string `enum` is a Rust enum, and a keyword on a property or an object with
    // properties is recorded for its reader.
    let mut fine = json!({ "definitions": {
        "Role": { "type": "string", "enum": ["user", "assistant"] },
        "Pair": {
            "type": "object",
            "properties": { "k": { "type": "string", "pattern": "^k" } },
            "dependentRequired": { "k": ["v"] }
        }
    } });
    build_bounds::mark(&mut fine).expect("accepted");
    let pair = &fine["definitions"]["Pair"];
    assert_eq!(
        build_bounds::bounds_in(pair["properties"]["k"]["description"].as_str().unwrap())
            .map(Value::Object),
        Some(json!({ "pattern": "^k" }))
    );
    assert_eq!(
        build_bounds::recorded_in(
            pair["description"].as_str().unwrap(),
            build_bounds::OBJECT_MARKER
        )
        .map(Value::Object),
        Some(json!({ "dependentRequired": { "k": ["v"] } }))
    );

    // A definition that holds one value gives its keywords to each property and array items
    // that refer to it, merged with their own (the tighter bound wins); an integer keeps only
    // its sign for typify, so that `minimum: 1` does not make it a `NonZeroU64`.
    let mut moved = json!({ "definitions": {
        "Code": { "type": "string", "maxLength": 3, "pattern": "^[A-Z]" },
        "Count": { "type": "integer", "minimum": 1, "maximum": 9 },
        "Thing": { "type": "object", "properties": {
            "code": { "$ref": "#/definitions/Code", "maxLength": 2 },
            "codes": { "type": "array", "items": { "$ref": "#/definitions/Code" }, "maxItems": 4 },
            "count": { "$ref": "#/definitions/Count" },
            "delta": { "type": "integer", "minimum": -5, "maximum": 5 }
        } }
    } });
    build_bounds::mark(&mut moved).expect("accepted");
    let definitions = &moved["definitions"];
    let recorded = |name: &str| {
        build_bounds::bounds_in(
            definitions["Thing"]["properties"][name]["description"]
                .as_str()
                .unwrap_or_default(),
        )
        .map(Value::Object)
    };
    assert_eq!(
        recorded("code"),
        Some(json!({ "maxLength": 2, "pattern": "^[A-Z]" }))
    );
    assert_eq!(
        recorded("codes"),
        Some(json!({ "maxItems": 4, "items": { "maxLength": 3, "pattern": "^[A-Z]" } }))
    );
    assert_eq!(
        recorded("count"),
        Some(json!({ "minimum": 1, "maximum": 9 }))
    );
    assert_eq!(
        recorded("delta"),
        Some(json!({ "minimum": -5, "maximum": 5 }))
    );
    assert_eq!(definitions["Code"], json!({ "type": "string" }));
    assert_eq!(
        definitions["Count"],
        json!({ "type": "integer", "minimum": 0 })
    );
    let delta = &definitions["Thing"]["properties"]["delta"];
    assert!(
        delta.get("minimum").is_none() && delta.get("maximum").is_none(),
        "{delta}"
    );
}
