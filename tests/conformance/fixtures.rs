//! The vendored spec examples (`tests/fixtures/spec`, see its PROVENANCE.md): the docs blocks
//! with their index, the schema examples, and the normalization of blocks that are JSON with
//! comments.

use serde_json::Value;
use std::path::PathBuf;

pub fn spec_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join("spec")
}

/// One docs block, with its index entry.
#[derive(Debug, Clone)]
pub struct Block {
    pub file: String,
    /// Repo-relative page path: blocks of one page share it.
    pub source: String,
    pub line: u64,
    pub heading: Option<String>,
    pub bold_label: Option<String>,
    pub strict_json: bool,
    pub parses_after_stripping_comments: bool,
    /// `request`, `notification`, `response`, `error`, `bare-object`, `array`, or `None` when
    /// the block does not parse even once comments are stripped.
    pub message_kind: Option<String>,
    pub method: Option<String>,
    /// The block's text, as in the page.
    pub body: String,
}

fn string(entry: &Value, key: &str) -> Option<String> {
    entry.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The docs blocks of `revision`, in page order (as index.json lists them).
pub fn docs(revision: &str) -> Vec<Block> {
    let dir = spec_dir().join(revision).join("docs");
    let index: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("index.json"))
            .unwrap_or_else(|e| panic!("{revision}: reading docs/index.json: {e}")),
    )
    .expect("index.json parses");
    assert_eq!(index["revision"], revision, "index.json names its revision");
    index["blocks"]
        .as_array()
        .expect("blocks array")
        .iter()
        .map(|entry| {
            let file = string(entry, "file").expect("file");
            let body = std::fs::read_to_string(dir.join(&file))
                .unwrap_or_else(|e| panic!("{revision}: reading {file}: {e}"));
            Block {
                source: string(entry, "source").expect("source"),
                line: entry["line"].as_u64().expect("line"),
                heading: string(entry, "heading"),
                bold_label: string(entry, "bold_label"),
                strict_json: entry["strict_json"].as_bool().expect("strict_json"),
                parses_after_stripping_comments: entry["parses_after_stripping_comments"]
                    .as_bool()
                    .expect("parses_after_stripping_comments"),
                message_kind: string(entry, "message_kind"),
                method: string(entry, "method"),
                file,
                body,
            }
        })
        .collect()
}

/// One upstream schema example: the folder (the definition it is an instance of), the file
/// name and the parsed value.
pub struct SchemaExample {
    pub folder: String,
    pub file: String,
    pub text: String,
}

/// Every schema example of `revision` (none before 2026-07-28), sorted by folder and file.
pub fn schema_examples(revision: &str) -> Vec<SchemaExample> {
    let dir = spec_dir().join(revision).join("schema-examples");
    let mut out = Vec::new();
    let Ok(folders) = std::fs::read_dir(&dir) else {
        return out;
    };
    for folder in folders {
        let folder = folder.expect("dir entry");
        assert!(
            folder.file_type().unwrap().is_dir(),
            "{:?} is not a folder",
            folder.path()
        );
        for file in std::fs::read_dir(folder.path()).expect("read folder") {
            let file = file.expect("dir entry");
            let name = file.file_name().to_string_lossy().into_owned();
            assert!(name.ends_with(".json"), "unexpected file {name}");
            out.push(SchemaExample {
                folder: folder.file_name().to_string_lossy().into_owned(),
                text: std::fs::read_to_string(file.path()).expect("read example"),
                file: name,
            });
        }
    }
    out.sort_by(|a, b| (&a.folder, &a.file).cmp(&(&b.folder, &b.file)));
    out
}

/// Removes `//` and `/* */` comments outside strings, then commas that stand before `}` or
/// `]` (what index.json's `parses_after_stripping_comments` records).
pub fn strip_comments(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            if c == '"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        match (c, chars.get(i + 1)) {
            ('"', _) => {
                in_string = true;
                out.push(c);
                i += 1;
            }
            ('/', Some('/')) => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ('/', Some('*')) => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    remove_trailing_commas(&out)
}

fn remove_trailing_commas(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            if c == '"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        if c == ',' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}') | Some(']')) {
                i += 1;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

#[test]
fn strip_comments_keeps_strings() {
    let text = "{\n \"a\": \"http://x//y\", // c\n \"b\": [1, 2,], /* d */ \"c\": \"/*\",\n}";
    let v: Value = serde_json::from_str(&strip_comments(text)).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"a": "http://x//y", "b": [1, 2], "c": "/*"})
    );
}
