//! Every JSON read in `src/` and `runtime/src/` goes through the crate's reader (`crate::json::from_str`,
//! `from_slice`, or its seeded form), so the speed of the reader is where users are. This test
//! fails on any read with serde_json's own entry points outside the reader, unless it is listed
//! below with its reason.
//!
//! Unit tests inside them (after a file's `#[cfg(test)]`) and comments are not input paths
//! and are not counted.

use std::path::{Path, PathBuf};

/// serde_json's ways of reading JSON text or a `Value` into a type.
const READS: &[&str] = &[
    "serde_json::from_str",
    "serde_json::from_slice",
    "serde_json::from_value",
    "serde_json::from_reader",
    "serde_json::Deserializer",
    "serde_json::StreamDeserializer",
];

/// The reads that stay with serde_json: (file, read, how many, why).
const EXCEPTIONS: &[(&str, &str, usize, &str)] = &[
    (
        "src/dispatch/parse.rs",
        "serde_json::Deserializer",
        1,
        "the envelope of a message the crate's reader stopped on (invalid text): serde_json \
         reads it again for its error, with line and column; valid input is counted by \
         `json::fallbacks_on_valid_input` and the tests assert it never comes here",
    ),
    (
        "runtime/src/runtime/members.rs",
        "serde_json::from_value",
        1,
        "`put_extra`, for the crate's tests and fuzz targets: a `Value` they already hold, read \
         as the value type of a struct's `extra` (not input text)",
    ),
    (
        "src/server/engine/logging.rs",
        "serde_json::from_value",
        1,
        "the level of a `logging/setLevel` that the session's revision has just read, taken \
         from its params as a `Value` (not input text): the engine's code is generic over the \
         revision, whose params type it does not name",
    ),
    (
        "src/located.rs",
        "serde_json::Deserializer",
        1,
        "a typed handler's arguments or a structured result the crate's reader has already \
         refused: serde_json reads them again under serde_path_to_error, for the JSON path of \
         what did not read (the crate's reader keeps no path for a caller's own types); valid \
         input never comes here",
    ),
    (
        "src/progress.rs",
        "serde_json::from_value",
        1,
        "the progress token of params the crate has just written into a `Value` (not input \
         text): a `Value` is not JSON text, and the crate's reader reads only text",
    ),
];

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("the directory is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of `text` that are code: before its unit tests, without `//` comments.
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .take_while(|line| line.trim() != "#[cfg(test)]")
        .map(|line| match line.find("//") {
            Some(cut) => &line[..cut],
            None => line,
        })
}

#[test]
fn every_json_read_in_src_goes_through_the_crates_reader() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    source_files(&root.join("src"), &mut files);
    source_files(&root.join("runtime").join("src"), &mut files);
    let mut found: Vec<(String, &str, usize)> = Vec::new();
    for file in &files {
        let name = file
            .strip_prefix(root)
            .expect("under the root")
            .to_string_lossy()
            .replace('\\', "/");
        // The reader itself: its fallback to serde_json is what `json::from_str` documents.
        if name.starts_with("runtime/src/json/") {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a source file is UTF-8");
        for read in READS {
            let count: usize = code_lines(&text).map(|l| l.matches(read).count()).sum();
            if count > 0 {
                found.push((name.clone(), read, count));
            }
        }
    }
    let mut unexplained = Vec::new();
    for (file, read, count) in &found {
        let allowed = EXCEPTIONS
            .iter()
            .find(|(f, r, _, _)| f == file && r == read)
            .map_or(0, |(_, _, n, _)| *n);
        if *count != allowed {
            unexplained.push(format!("{file}: {count} × {read} (listed: {allowed})"));
        }
    }
    // A listed exception that is gone must leave the list too, so that the list stays true.
    for (file, read, count, _) in EXCEPTIONS {
        if !found.iter().any(|(f, r, _)| f == file && r == read) {
            unexplained.push(format!("{file}: 0 × {read} (listed: {count})"));
        }
    }
    assert!(
        unexplained.is_empty(),
        "reads with serde_json's own entry points outside runtime/src/json/ (read through \
         crate::json::from_str / from_slice, or list the read with its reason):\n{}",
        unexplained.join("\n")
    );
}

#[test]
fn the_scan_sees_a_read_and_skips_comments_and_unit_tests() {
    let text = "let a = serde_json::from_str(t); // serde_json::from_slice\n\
                #[cfg(test)]\nmod tests { serde_json::from_value(v) }\n";
    let reads: Vec<usize> = READS
        .iter()
        .map(|r| code_lines(text).map(|l| l.matches(r).count()).sum())
        .collect();
    assert_eq!(reads, [1, 0, 0, 0, 0, 0]);
}
