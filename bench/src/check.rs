//! Correctness checks run before any timing. An implementation that rejects a workload
//! (parse error, or a silent fallback to an untyped "custom" variant) or alters it (figures
//! read from its typed fields differ from the input's, or what it writes back means something
//! else) is reported and not timed for that workload.
//!
//! Re-serialization (with the writer the bench times for that implementation) is compared with
//! the input, both parsed as `serde_json::Value`:
//! - for mcp-spec-types, which claims to be lossless, and for sonic-rs reading and writing
//!   mcp-spec-types' types, exactly (`Value` equality, so `1` and `1.0` differ);
//! - for the peers, which make no such claim, numbers are compared by value (`5` == `5.0`);
//!   any other difference counts as an alteration. Differences in number spelling alone are
//!   printed as notes.

use crate::workloads::{Label, Sender, W5};
use serde::Serialize;
use serde_json::Value;
use std::fmt::Debug;

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Verdict {
    Ok {
        notes: Vec<String>,
    },
    Rejected {
        reason: String,
    },
    Altered {
        reason: String,
    },
    /// The workload has no adapter for this implementation (nothing to check or time).
    Skipped {
        reason: String,
    },
}

impl Verdict {
    pub fn is_ok(&self) -> bool {
        matches!(self, Verdict::Ok { .. })
    }
}

/// Where `got` first differs from `want`, if anywhere. `loose_numbers` compares numbers by
/// value.
pub fn first_diff(want: &Value, got: &Value, loose_numbers: bool) -> Option<String> {
    fn go(w: &Value, g: &Value, loose: bool, path: &mut String) -> Option<String> {
        match (w, g) {
            (Value::Object(a), Value::Object(b)) => {
                for (k, va) in a {
                    let len = path.len();
                    path.push('/');
                    path.push_str(k);
                    let d = match b.get(k) {
                        Some(vb) => go(va, vb, loose, path),
                        None => Some(format!("{path}: missing in output (input {})", short(va))),
                    };
                    if d.is_some() {
                        return d;
                    }
                    path.truncate(len);
                }
                b.iter()
                    .find(|(k, _)| !a.contains_key(*k))
                    .map(|(k, v)| format!("{path}/{k}: added in output ({})", short(v)))
            }
            (Value::Array(a), Value::Array(b)) => {
                if a.len() != b.len() {
                    return Some(format!(
                        "{path}: array length {} became {}",
                        a.len(),
                        b.len()
                    ));
                }
                for (i, (va, vb)) in a.iter().zip(b).enumerate() {
                    let len = path.len();
                    path.push_str(&format!("/{i}"));
                    if let Some(d) = go(va, vb, loose, path) {
                        return Some(d);
                    }
                    path.truncate(len);
                }
                None
            }
            (Value::Number(a), Value::Number(b)) if loose => {
                let same = match (a.as_i64(), b.as_i64()) {
                    (Some(x), Some(y)) => x == y,
                    _ => a.as_f64() == b.as_f64(),
                };
                (!same).then(|| format!("{path}: number {a} became {b}"))
            }
            _ => (w != g).then(|| format!("{path}: {} became {}", short(w), short(g))),
        }
    }
    let mut path = String::new();
    go(want, got, loose_numbers, &mut path)
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}

fn reserialize<T>(v: &T, write: impl Fn(&T) -> Result<String, String>) -> Result<Value, String> {
    let s = write(v).map_err(|e| format!("serialize failed: {e}"))?;
    serde_json::from_str(&s).map_err(|e| format!("serialized output is not JSON: {e}"))
}

/// Checks one response workload (W1–W4) for one implementation, written back with `write`.
pub fn check_doc<T, S: PartialEq + Debug>(
    input: &str,
    lossless: bool,
    parse: impl Fn(&str) -> Result<T, String>,
    write: impl Fn(&T) -> Result<String, String>,
    stats: impl Fn(&T) -> S,
    want_stats: &S,
) -> Verdict {
    let typed = match parse(input) {
        Ok(t) => t,
        Err(e) => {
            return Verdict::Rejected {
                reason: format!("parse error: {e}"),
            }
        }
    };
    let got = stats(&typed);
    if &got != want_stats {
        return Verdict::Altered {
            reason: format!(
                "typed fields differ from the input: expected {want_stats:?}, got {got:?}"
            ),
        };
    }
    let want: Value = serde_json::from_str(input).expect("workloads are JSON");
    let back = match reserialize(&typed, write) {
        Ok(v) => v,
        Err(e) => return Verdict::Altered { reason: e },
    };
    let mut notes = Vec::new();
    if let Some(d) = first_diff(&want, &back, !lossless) {
        return Verdict::Altered {
            reason: format!("re-serialized value differs: {d}"),
        };
    }
    if let Some(d) = first_diff(&want, &back, false) {
        notes.push(format!(
            "re-serialization spells numbers differently (same values): {d}"
        ));
    }
    Verdict::Ok { notes }
}

/// Checks W5 for one implementation: every line parses, reads as the message it is, and
/// writes back equivalently with `write`.
pub fn check_w5<T>(
    w5: &W5,
    lossless: bool,
    parse: impl Fn(&str, Sender) -> Result<T, String>,
    write: impl Fn(&T) -> Result<String, String>,
    label: impl Fn(&T) -> Label,
) -> Verdict {
    let mut rejected = Vec::new();
    let mut custom = Vec::new();
    let mut mislabeled = Vec::new();
    let mut result_kind = Vec::new();
    let mut altered = Vec::new();
    let mut altered_kinds: Vec<String> = Vec::new();
    let mut spelled = Vec::new();
    let (mut client, mut server) = (0usize, 0usize);
    for (i, m) in w5.messages.iter().enumerate() {
        let typed = match parse(&m.json, m.sender) {
            Ok(t) => t,
            Err(e) => {
                rejected.push(format!("line {}: {e}: {}", i + 1, m.json));
                continue;
            }
        };
        match m.sender {
            Sender::Client => client += 1,
            Sender::Server => server += 1,
        }
        match (label(&typed), &m.label) {
            (Label::Custom(method), _) => {
                custom.push(format!("line {} ({method}): {}", i + 1, m.json))
            }
            (Label::Response(None), Label::Response(_)) => {}
            (Label::Response(Some(got)), Label::Response(Some(want))) if &got != want => {
                result_kind.push(format!("a `{want}` result read as `{got}`"))
            }
            (got, want) if &got != want => {
                mislabeled.push(format!("line {}: {want:?} read as {got:?}", i + 1))
            }
            _ => {}
        }
        let want: Value = serde_json::from_str(&m.json).expect("workloads are JSON");
        match reserialize(&typed, &write) {
            Err(e) => altered.push(format!("line {}: {e}", i + 1)),
            Ok(back) => {
                if let Some(d) = first_diff(&want, &back, !lossless) {
                    altered.push(format!("line {} ({:?}): {d}", i + 1, m.label));
                    altered_kinds.push(format!(
                        "{:?} {}",
                        m.label,
                        d.split(':').next().unwrap_or("")
                    ));
                } else if let Some(d) = first_diff(&want, &back, false) {
                    spelled.push(format!("{:?}: {d}", m.label));
                }
            }
        }
    }
    let summary = |what: &str, v: &[String]| {
        format!(
            "{} of {} messages {what}, e.g. {}",
            v.len(),
            w5.messages.len(),
            v[0]
        )
    };
    if !rejected.is_empty() {
        return Verdict::Rejected {
            reason: summary("fail to parse", &rejected),
        };
    }
    if !custom.is_empty() {
        return Verdict::Rejected {
            reason: summary(
                "fall back to an untyped custom variant instead of the typed one",
                &custom,
            ),
        };
    }
    if !mislabeled.is_empty() {
        return Verdict::Altered {
            reason: summary("are read as a different message", &mislabeled),
        };
    }
    if !altered.is_empty() {
        return Verdict::Altered {
            reason: format!(
                "{}; by message and first differing member: {}",
                summary("re-serialize to a different value", &altered),
                tally(altered_kinds)
            ),
        };
    }
    let mut notes = vec![format!(
        "{client} client-sent and {server} server-sent messages parsed"
    )];
    if !result_kind.is_empty() {
        let mut kinds = result_kind.clone();
        kinds.sort();
        kinds.dedup();
        notes.push(format!(
            "{} responses land in another result variant of the untagged union (data kept): {}",
            result_kind.len(),
            kinds.join("; ")
        ));
    }
    if !spelled.is_empty() {
        let mut kinds = spelled.clone();
        kinds.sort();
        kinds.dedup();
        kinds.truncate(3);
        notes.push(format!(
            "{} messages re-serialize with numbers spelled differently (same values), e.g. {}",
            spelled.len(),
            kinds.join("; ")
        ));
    }
    Verdict::Ok { notes }
}

/// "a (3), b (1)" from a list with repeats, in first-seen order.
fn tally(items: Vec<String>) -> String {
    let mut seen: Vec<(String, usize)> = Vec::new();
    for it in items {
        match seen.iter_mut().find(|(k, _)| *k == it) {
            Some((_, n)) => *n += 1,
            None => seen.push((it, 1)),
        }
    }
    seen.iter()
        .map(|(k, n)| format!("{k} ({n})"))
        .collect::<Vec<_>>()
        .join(", ")
}
