//! One test per revision runs every docs check and every schema-example check, prints the
//! revision's summary line, then asserts:
//!
//! `conformance <revision>: docs <checked>/<total> checked, <skipped> skipped with reason; schema-examples <checked>/<total>`
//!
//! The line goes to stdout with `println!` (shown with `cargo test --test conformance --
//! --nocapture`) and straight to the stderr handle, which libtest does not capture, so a plain
//! `cargo test` shows it too.

use crate::docs::{check_docs, expected_counts};
use crate::revision::Revision;
use crate::schema_examples::{check_schema_examples, expected_count};

/// Prints `line` with `println!`, and, unless the output is not captured anyway, straight to the
/// stderr handle: libtest captures `print!` and `eprint!` (but not direct writes to the handle),
/// so the line shows under a plain `cargo test` as well.
pub fn show(line: &str) {
    use std::io::Write;
    println!("{line}");
    let nocapture = std::env::args().any(|a| a == "--nocapture" || a == "--show-output")
        || std::env::var_os("RUST_TEST_NOCAPTURE").is_some_and(|v| v != "0");
    if !nocapture {
        let _ = writeln!(std::io::stderr(), "{line}");
    }
}

fn run<R: Revision>() {
    let docs = check_docs::<R>();
    let examples = check_schema_examples::<R>();
    let line = format!(
        "conformance {}: docs {}/{} checked, {} skipped with reason; schema-examples {}/{}",
        R::NAME,
        docs.checked,
        docs.total,
        docs.skipped,
        examples.checked,
        examples.total
    );
    show(&line);

    let mut failures = docs.failures;
    failures.extend(examples.failures);
    assert!(
        failures.is_empty(),
        "{}: {} failure(s):\n  {}",
        R::NAME,
        failures.len(),
        failures.join("\n  ")
    );
    let (total, strict) = expected_counts(R::NAME);
    assert_eq!(docs.total, total, "{}: docs blocks in index.json", R::NAME);
    assert_eq!(docs.strict_total, strict, "{}: strict JSON blocks", R::NAME);
    assert_eq!(
        docs.checked + docs.skipped,
        docs.total,
        "{}: every block is checked or skipped with a reason",
        R::NAME
    );
    let not_mcp = R::tables().not_mcp.len();
    assert_eq!(
        docs.strict_checked + not_mcp,
        docs.strict_total,
        "{}: every strict JSON block is checked, but for the {not_mcp} listed OAuth documents \
         that are not MCP payloads",
        R::NAME
    );
    assert_eq!(
        examples.total,
        expected_count(R::NAME),
        "{}: schema examples",
        R::NAME
    );
    assert_eq!(
        examples.checked,
        examples.total,
        "{}: every schema example is checked",
        R::NAME
    );
}

#[cfg(feature = "v2024_11_05")]
#[test]
fn docs_and_schema_examples_v2024_11_05() {
    run::<crate::revision::V2024_11_05>();
}

#[cfg(feature = "v2025_03_26")]
#[test]
fn docs_and_schema_examples_v2025_03_26() {
    run::<crate::revision::V2025_03_26>();
}

#[cfg(feature = "v2025_06_18")]
#[test]
fn docs_and_schema_examples_v2025_06_18() {
    run::<crate::revision::V2025_06_18>();
}

#[cfg(feature = "v2025_11_25")]
#[test]
fn docs_and_schema_examples_v2025_11_25() {
    run::<crate::revision::V2025_11_25>();
}

#[cfg(feature = "v2026_07_28")]
#[test]
fn docs_and_schema_examples_v2026_07_28() {
    run::<crate::revision::V2026_07_28>();
}

#[cfg(feature = "unstable-draft")]
#[test]
fn docs_and_schema_examples_draft() {
    run::<crate::revision::Draft>();
}
