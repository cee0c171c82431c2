//! The five workloads, each built once as a JSON string from a fixed seed.
//!
//! The JSON text is written by hand (members in the order a typical server writes them)
//! rather than through `serde_json::Value`, whose map would sort the members.

use crate::rng::SplitMix64;

/// JSON string literal (with escapes) for `s`.
pub fn q(s: &str) -> String {
    serde_json::to_string(s).expect("strings always serialize")
}

/// Who sends a W5 message, which decides the top-level type it is parsed as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sender {
    Client,
    Server,
}

/// What a W5 message is, as the generator knows it. A parser's reading of a message is
/// mapped onto the same labels and compared (see `check.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label {
    Request(String),
    Notification(String),
    /// A successful response; the string names the result kind (`initialize`, `tools/call`,
    /// `resources/read`, `resources/list`, `empty`). `None` from a parser means it does not
    /// type results (the generic envelope), which matches any kind.
    Response(Option<String>),
    Error(i64),
    /// The parser fell back to an untyped "custom" variant (a `serde_json::Value` or similar)
    /// instead of its typed variant for a standard message.
    Custom(String),
}

pub struct W5Message {
    pub sender: Sender,
    pub json: String,
    pub label: Label,
}

pub struct W5 {
    pub messages: Vec<W5Message>,
    /// All messages joined by `\n` (the workload as it would sit in a stdio stream).
    pub text: String,
}

impl W5 {
    /// Bytes of JSON parsed per iteration (the newlines are not parsed).
    pub fn json_bytes(&self) -> usize {
        self.messages.iter().map(|m| m.json.len()).sum()
    }
}

pub struct Workloads {
    pub w1: String,
    pub w2: String,
    /// The exact text of W2's single content, to compare against.
    pub w2_text: String,
    pub w3: String,
    /// The exact base64 blob of W3's single content.
    pub w3_blob: String,
    pub w4: String,
    pub w5: W5,
}

pub const W1_RESOURCES: usize = 1_000;
pub const W2_TEXT_BYTES: usize = 1 << 20;
pub const W3_BLOB_CHARS: usize = 1 << 20;
pub const W4_TOOLS: usize = 200;
pub const W5_MESSAGES: usize = 10_000;

impl Workloads {
    pub fn build() -> Self {
        let (w2, w2_text) = w2_read_text(0x5EED_0002);
        let (w3, w3_blob) = w3_read_blob(0x5EED_0003);
        Self {
            w1: w1_list_resources(0x5EED_0001),
            w2,
            w2_text,
            w3,
            w3_blob,
            w4: w4_list_tools(0x5EED_0004),
            w5: w5_mixed(0x5EED_0005),
        }
    }
}

const WORDS: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "config",
    "server",
    "client",
    "module",
    "report",
    "résumé",
    "café",
    "naïve",
    "日本",
    "東京",
    "データ",
    "🚀",
    "✅",
    "Ünïcödé",
    "size",
    "index",
];

fn sentence(rng: &mut SplitMix64, words: usize) -> String {
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(WORDS));
    }
    s
}

fn sentence_between(rng: &mut SplitMix64, lo: u64, hi: u64) -> String {
    let n = rng.range(lo, hi) as usize;
    sentence(rng, n)
}

fn timestamp(rng: &mut SplitMix64) -> String {
    format!(
        "2025-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        rng.range(1, 12),
        rng.range(1, 28),
        rng.below(24),
        rng.below(60),
        rng.below(60)
    )
}

const PRIORITIES: &[&str] = &[
    "0.1", "0.2", "0.3", "0.5", "0.7", "0.8", "0.9", "1.0", "0.25", "0.75",
];
const MIME: &[&str] = &[
    "text/x-rust",
    "text/markdown",
    "application/json",
    "text/plain",
    "image/png",
];
const EXT: &[&str] = &["rs", "md", "json", "txt", "png"];

/// An annotation's `audience`: the user, the assistant, or both.
fn audience(rng: &mut SplitMix64) -> &'static str {
    match rng.below(3) {
        0 => r#"["user"]"#,
        1 => r#"["assistant"]"#,
        _ => r#"["user","assistant"]"#,
    }
}

/// W1: a `resources/list` response with 1,000 resources carrying every field.
pub fn w1_list_resources(seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut out = String::from(r#"{"jsonrpc":"2.0","id":1,"result":{"resources":["#);
    for i in 0..W1_RESOURCES {
        if i > 0 {
            out.push(',');
        }
        let k = rng.below(EXT.len() as u64) as usize;
        let module = rng.below(40);
        let file = format!("file_{i:05}.{}", EXT[k]);
        let uri = format!("file:///workspace/project/src/module_{module:02}/{file}");
        let audience = audience(&mut rng);
        out.push_str(&format!(
            concat!(
                r#"{{"uri":{},"name":{},"title":{},"description":{},"mimeType":{},"size":{},"#,
                r#""annotations":{{"audience":{},"priority":{},"lastModified":{}}},"#,
                r#""_meta":{{"example.com/etag":{},"example.com/owner":{},"example.com/revision":{}}}}}"#
            ),
            q(&uri),
            q(&file),
            q(&format!("File {i} — {}", sentence(&mut rng, 2))),
            q(&sentence_between(&mut rng, 8, 15)),
            q(MIME[k]),
            rng.below(10_000_000),
            audience,
            rng.pick(PRIORITIES),
            q(&timestamp(&mut rng)),
            q(&format!("\"{:016x}\"", rng.next_u64())),
            q(&format!("team-{}", rng.below(12))),
            rng.below(1000),
        ));
    }
    out.push_str(r#"],"nextCursor":"eyJvZmZzZXQiOjEwMDB9"}}"#);
    out
}

/// The W2 text: exactly `W2_TEXT_BYTES` bytes of UTF-8 with newlines, tabs, quotes,
/// backslashes and non-ASCII (accented Latin, CJK, emoji).
pub fn w2_text(seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let pieces: &[&str] = &[
        "the",
        "quick",
        "brown",
        "fox",
        "jumps",
        "over",
        "lazy",
        "dog",
        "fn",
        "main()",
        "{",
        "}",
        "let",
        "x",
        "=",
        "42;",
        "café",
        "déjà",
        "vu",
        "é",
        "日本",
        "語",
        "テキスト",
        "😀",
        "🎉",
        "\"quoted\"",
        "C:\\path\\to\\file",
        "\t",
        "tab\tseparated",
        "a\\b",
        "naïve",
    ];
    let mut s = String::with_capacity(W2_TEXT_BYTES + 64);
    while s.len() < W2_TEXT_BYTES {
        s.push_str(rng.pick(pieces));
        match rng.below(12) {
            0 => s.push('\n'),
            1 => s.push_str(",\t"),
            _ => s.push(' '),
        }
    }
    let mut cut = W2_TEXT_BYTES;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    while s.len() < W2_TEXT_BYTES {
        s.push('.');
    }
    s
}

/// W2: a `resources/read` response with one 1 MiB text content.
pub fn w2_read_text(seed: u64) -> (String, String) {
    let text = w2_text(seed);
    let json = format!(
        r#"{{"jsonrpc":"2.0","id":2,"result":{{"contents":[{{"uri":"file:///workspace/notes/big.md","mimeType":"text/markdown","text":{}}}]}}}}"#,
        q(&text)
    );
    (json, text)
}

/// Standard base64 (RFC 4648 alphabet, `=` padding).
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(A[(n >> 18) as usize & 63] as char);
        out.push(A[(n >> 12) as usize & 63] as char);
        out.push(if chunk.len() > 1 {
            A[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if chunk.len() > 2 {
            A[n as usize & 63] as char
        } else {
            '='
        });
    }
    out
}

/// W3: a `resources/read` response with one base64 blob of exactly 1 MiB of characters
/// (786,431 random bytes, so the last quantum carries one `=` of padding).
pub fn w3_read_blob(seed: u64) -> (String, String) {
    let mut rng = SplitMix64::new(seed);
    let raw_len = W3_BLOB_CHARS / 4 * 3 - 1;
    let raw: Vec<u8> = (0..raw_len).map(|_| rng.next_u64() as u8).collect();
    let blob = base64(&raw);
    assert_eq!(blob.len(), W3_BLOB_CHARS);
    assert!(blob.ends_with('=') && !blob.ends_with("=="));
    let json = format!(
        r#"{{"jsonrpc":"2.0","id":3,"result":{{"contents":[{{"uri":"file:///workspace/assets/image.png","mimeType":"image/png","blob":{}}}]}}}}"#,
        q(&blob)
    );
    (json, blob)
}

fn property_schema(rng: &mut SplitMix64, depth: u32) -> String {
    let desc = q(&sentence_between(rng, 4, 9));
    let kind = if depth >= 2 {
        rng.below(4)
    } else {
        rng.below(6)
    };
    match kind {
        0 => format!(
            r#"{{"type":"string","description":{desc},"minLength":1,"maxLength":{}}}"#,
            rng.range(16, 4096)
        ),
        1 => {
            let n = rng.range(2, 5);
            let values: Vec<String> = (0..n)
                .map(|i| q(&format!("{}_{i}", rng.pick(WORDS))))
                .collect();
            format!(
                r#"{{"type":"string","description":{desc},"enum":[{}],"default":{}}}"#,
                values.join(","),
                values[0]
            )
        }
        2 => format!(
            r#"{{"type":"integer","description":{desc},"minimum":0,"maximum":{},"default":{}}}"#,
            rng.range(10, 10_000),
            rng.below(10)
        ),
        3 => format!(
            r#"{{"type":"boolean","description":{desc},"default":{}}}"#,
            rng.chance(50)
        ),
        4 => {
            let n = rng.range(2, 4);
            let props: Vec<String> = (0..n)
                .map(|i| {
                    format!(
                        "{}:{}",
                        q(&format!("field_{i}")),
                        property_schema(rng, depth + 1)
                    )
                })
                .collect();
            format!(
                r#"{{"type":"object","description":{desc},"properties":{{{}}},"required":["field_0"],"additionalProperties":false}}"#,
                props.join(",")
            )
        }
        _ => format!(
            r#"{{"type":"array","description":{desc},"items":{},"minItems":0,"maxItems":{}}}"#,
            property_schema(rng, depth + 1),
            rng.range(1, 100)
        ),
    }
}

/// W4: a `tools/list` response with 200 tools, each with a nested input schema and
/// annotations.
pub fn w4_list_tools(seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut out = String::from(r#"{"jsonrpc":"2.0","id":4,"result":{"tools":["#);
    for i in 0..W4_TOOLS {
        if i > 0 {
            out.push(',');
        }
        let n = rng.range(3, 8);
        let props: Vec<String> = (0..n)
            .map(|p| {
                format!(
                    "{}:{}",
                    q(&format!("param_{p}")),
                    property_schema(&mut rng, 0)
                )
            })
            .collect();
        let required: Vec<String> = (0..rng.range(1, n))
            .map(|p| q(&format!("param_{p}")))
            .collect();
        let name = format!(
            "tool_{i:03}_{}",
            ["search", "fetch", "update", "delete", "list"][rng.below(5) as usize]
        );
        out.push_str(&format!(
            concat!(
                r#"{{"name":{},"title":{},"description":{},"#,
                r#""inputSchema":{{"type":"object","properties":{{{}}},"required":[{}]}},"#,
                r#""annotations":{{"title":{},"readOnlyHint":{},"destructiveHint":{},"idempotentHint":{},"openWorldHint":{}}}}}"#
            ),
            q(&name),
            q(&format!("Tool {i}: {}", sentence(&mut rng, 2))),
            q(&sentence_between(&mut rng, 12, 31)),
            props.join(","),
            required.join(","),
            q(&format!("Tool {i}")),
            rng.chance(50),
            rng.chance(30),
            rng.chance(50),
            rng.chance(70),
        ));
    }
    out.push_str("]}}");
    out
}

fn rid(rng: &mut SplitMix64, n: u64) -> String {
    if rng.chance(70) {
        n.to_string()
    } else {
        q(&format!("req-{n}"))
    }
}

fn token(rng: &mut SplitMix64, n: u64) -> String {
    if rng.chance(50) {
        (n * 7).to_string()
    } else {
        q(&format!("progress-{n}"))
    }
}

fn w5_message(rng: &mut SplitMix64, n: u64) -> W5Message {
    use Label::*;
    use Sender::*;
    let id = rid(rng, n);
    let uri = q(&format!(
        "file:///workspace/project/src/module_{:02}/file_{:05}.rs",
        rng.below(40),
        rng.below(100_000)
    ));
    let r = |s: &str| Some(s.to_owned());
    // Weights out of 100.
    let (sender, json, label) = match rng.below(100) {
        // --- client → server -------------------------------------------------------
        0..=1 => (
            Client,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{"roots":{{"listChanged":true}},"sampling":{{}},"elicitation":{{}}}},"clientInfo":{{"name":"bench-client","title":"Bench Client","version":"1.{}.0"}}}}}}"#,
                rng.below(10)
            ),
            Request("initialize".into()),
        ),
        2..=15 => (
            Client,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"_meta":{{"progressToken":{}}},"name":{},"arguments":{{"query":{},"limit":{},"filters":{{"lang":"en","tags":["a","b"]}}}}}}}}"#,
                token(rng, n),
                q(&format!("tool_{:03}_search", rng.below(200))),
                q(&sentence(rng, 3)),
                rng.range(1, 50)
            ),
            Request("tools/call".into()),
        ),
        16..=27 => (
            Client,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"resources/read","params":{{"uri":{uri}}}}}"#
            ),
            Request("resources/read".into()),
        ),
        28..=32 => (
            Client,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"resources/list","params":{{"cursor":{}}}}}"#,
                q(&format!("cursor-{:08x}", rng.next_u64() as u32))
            ),
            Request("resources/list".into()),
        ),
        33..=36 => (
            Client,
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
            Request("ping".into()),
        ),
        37 => (
            Client,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
            Notification("notifications/initialized".into()),
        ),
        38..=40 => (
            Client,
            format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{},"reason":"User requested cancellation"}}}}"#,
                rid(rng, n.saturating_sub(3))
            ),
            Notification("notifications/cancelled".into()),
        ),
        41..=42 => (
            Client,
            format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#),
            Response(r("empty")),
        ),
        43 => (
            Client,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":"Method not found"}}}}"#
            ),
            Error(-32601),
        ),
        // --- server → client -------------------------------------------------------
        44..=45 => (
            Server,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"protocolVersion":"2025-06-18","capabilities":{{"logging":{{}},"prompts":{{"listChanged":true}},"resources":{{"subscribe":true,"listChanged":true}},"tools":{{"listChanged":true}}}},"serverInfo":{{"name":"bench-server","title":"Bench Server","version":"2.{}.1"}},"instructions":"Use the search tool first."}}}}"#,
                rng.below(10)
            ),
            Response(r("initialize")),
        ),
        46..=59 => (
            Server,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":{}}}],"isError":{}}}}}"#,
                q(&sentence_between(rng, 10, 39)),
                rng.chance(5)
            ),
            Response(r("tools/call")),
        ),
        60..=69 => (
            Server,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"contents":[{{"uri":{uri},"mimeType":"text/x-rust","text":{}}}]}}}}"#,
                q(&format!(
                    "fn main() {{\n\tprintln!(\"{}\");\n}}\n",
                    sentence(rng, 6)
                ))
            ),
            Response(r("resources/read")),
        ),
        70..=73 => (
            Server,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resources":[{{"uri":{uri},"name":"file.rs","mimeType":"text/x-rust"}},{{"uri":"file:///workspace/README.md","name":"README.md","title":"Read me","size":{}}}],"nextCursor":{}}}}}"#,
                rng.below(100_000),
                q(&format!("cursor-{:08x}", rng.next_u64() as u32))
            ),
            Response(r("resources/list")),
        ),
        74..=76 => (
            Server,
            format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#),
            Response(r("empty")),
        ),
        77..=79 => (
            Server,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32002,"message":"Resource not found","data":{{"uri":{uri}}}}}}}"#
            ),
            Error(-32002),
        ),
        80..=81 => (
            Server,
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":"Method not found"}}}}"#
            ),
            Error(-32601),
        ),
        82..=85 => (
            Server,
            format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{{"uri":{uri}}}}}"#
            ),
            Notification("notifications/resources/updated".into()),
        ),
        86..=95 => (
            Server,
            format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{},"progress":{},"total":100,"message":{}}}}}"#,
                token(rng, n.saturating_sub(1)),
                rng.below(100),
                q(&format!("step {}", rng.below(20)))
            ),
            Notification("notifications/progress".into()),
        ),
        96..=97 => (
            Server,
            format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","logger":"bench","data":{{"event":{},"count":{}}}}}}}"#,
                q(&sentence(rng, 3)),
                rng.below(1000)
            ),
            Notification("notifications/message".into()),
        ),
        _ => (
            Server,
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
            Request("ping".into()),
        ),
    };
    W5Message {
        sender,
        json,
        label,
    }
}

/// W5: 10,000 small messages of both directions, one per line.
pub fn w5_mixed(seed: u64) -> W5 {
    let mut rng = SplitMix64::new(seed);
    let messages: Vec<W5Message> = (0..W5_MESSAGES as u64)
        .map(|n| w5_message(&mut rng, n + 1))
        .collect();
    let text = messages
        .iter()
        .map(|m| m.json.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    W5 { messages, text }
}

/// W6: a `resources/list` response with 1,000 small resources, each a `uri`, a `name`, a
/// description of 6-20 words (a third of them non-ASCII) and `annotations` (audience and
/// priority): the shape of a list with nothing kept as raw text, where W1's `_meta` is.
/// Only `examples/ratio.rs` times it. Its id is 1, W1's.
pub fn w6_small_resources(seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut out = String::from(r#"{"jsonrpc":"2.0","id":1,"result":{"resources":["#);
    for i in 0..W1_RESOURCES {
        if i > 0 {
            out.push(',');
        }
        let audience = audience(&mut rng);
        out.push_str(&format!(
            r#"{{"uri":{},"name":{},"description":{},"annotations":{{"audience":{},"priority":{}}}}}"#,
            q(&format!("memo://notes/{i}")),
            q(&format!("note {i}")),
            q(&sentence_between(&mut rng, 6, 20)),
            audience,
            rng.pick(PRIORITIES),
        ));
    }
    out.push_str("]}}");
    out
}

/// W7: a `resources/read` response with one text content of 1 MiB in which escapes are
/// dense: about one character in five is written escaped (quotes, backslashes, newlines,
/// tabs, and control characters as `\u00XX`), between words with non-ASCII. Only
/// `examples/ratio.rs` times it. Its id is 2, W2's.
pub fn w7_read_escaped_text(seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let escaped: &[&str] = &["\"", "\\", "\n", "\t", "\r", "\u{1}", "\u{1f}", "\u{8}"];
    let mut text = String::with_capacity(W2_TEXT_BYTES + 64);
    while text.len() < W2_TEXT_BYTES {
        text.push_str(rng.pick(WORDS));
        for _ in 0..rng.range(1, 3) {
            text.push_str(rng.pick(escaped));
        }
    }
    let mut cut = W2_TEXT_BYTES;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.truncate(cut);
    format!(
        r#"{{"jsonrpc":"2.0","id":2,"result":{{"contents":[{{"uri":"memo://big","text":{}}}]}}}}"#,
        q(&text)
    )
}
