//! The upstream schema examples (`schema/<rev>/examples/<Definition>/<name>.json`, vendored in
//! `tests/fixtures/spec/<rev>/schema-examples`): each is an instance of the definition its
//! folder names, read as that definition's Rust type (the definition table in
//! `tests/common/definitions.rs` is the folder → type mapping; a folder it lacks fails loudly)
//! and written back unchanged, valid per the schema. Examples that are whole JSON-RPC messages
//! also go through the crate's dispatch.

use crate::docs::{
    check_answer, check_call, classify, excuse_known_defects, roundtrip_def, Check, ResultCheck,
};
use crate::fixtures;
use crate::oracle::oracle;
use crate::revision::Revision;
use serde_json::Value;

#[derive(Debug, Default)]
pub struct ExamplesReport {
    pub total: usize,
    pub checked: usize,
    pub failures: Vec<String>,
}

pub fn expected_count(revision: &str) -> usize {
    match revision {
        "2026-07-28" | "draft" => 129,
        _ => 0,
    }
}

pub fn check_schema_examples<R: Revision>() -> ExamplesReport {
    let oracle = oracle(R::NAME);
    let examples = fixtures::schema_examples(R::NAME);
    let mut report = ExamplesReport {
        total: examples.len(),
        ..ExamplesReport::default()
    };
    for example in &examples {
        let folder = example.folder.as_str();
        assert!(
            oracle.has(folder),
            "{}: schema-examples folder {folder} names no definition of the schema",
            R::NAME
        );
        // Fails loudly (panics) when the definition table has no type for the folder.
        if R::roundtrip(folder, Value::Null).is_none() {
            panic!(
                "{}: schema-examples folder {folder} has no Rust type in the definition table",
                R::NAME
            );
        }
        let value: Value = match serde_json::from_str(&example.text) {
            Ok(v) => v,
            Err(e) => {
                report
                    .failures
                    .push(format!("{folder}/{}: not JSON: {e}", example.file));
                continue;
            }
        };
        let mut check = Check::default();
        roundtrip_def::<R>(&mut check, folder, &value, "the example");
        match classify(&value) {
            "request" | "notification" => check_call::<R>(&mut check, &value, &example.text),
            "response" | "error" => {
                // `XResultResponse` answers `XRequest`; an error example names no request.
                let method = folder.strip_suffix("ResultResponse").and_then(|stem| {
                    oracle
                        .definition(&format!("{stem}Request"))
                        .pointer("/properties/method/const")
                        .and_then(Value::as_str)
                });
                match method {
                    Some(method) => check_answer::<R>(
                        &mut check,
                        &value,
                        &example.text,
                        method,
                        None,
                        ResultCheck::Dispatch,
                    ),
                    None if value.get("error").is_some() => check_answer::<R>(
                        &mut check,
                        &value,
                        &example.text,
                        "",
                        Some(("", folder)),
                        ResultCheck::Dispatch,
                    ),
                    None => check.fail(format!(
                        "a response example in {folder}: no request to pair it with"
                    )),
                }
            }
            _ => {}
        }
        let name = format!("{folder}/{}", example.file);
        let failures = excuse_known_defects(&name, check.failures, &R::tables().example_defects);
        if failures.is_empty() {
            report.checked += 1;
        } else {
            for failure in failures {
                report
                    .failures
                    .push(format!("{folder}/{}: {failure}", example.file));
            }
        }
    }
    report
}
