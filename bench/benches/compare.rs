//! mcp-spec-types vs rmcp vs rust-mcp-schema on MCP revision 2025-06-18, in one process, with
//! sonic-rs reading and writing mcp-spec-types' own types as a reader row.
//!
//! Every implementation is first checked on every workload (see `src/check.rs`); one that
//! rejects or alters a workload is reported and not timed for it. Then, per workload, two
//! criterion groups: `W<n>_deserialize` (JSON text -> typed value) and `W<n>_serialize`
//! (typed value -> JSON string). Baselines in each group:
//! - deserialize: `floor` = `serde_json::from_str::<serde::de::IgnoredAny>` (validates and
//!   skips the JSON, builds nothing), `value` = `serde_json::from_str::<serde_json::Value>`;
//! - serialize: `floor` = `serde_json::to_string(&serde_json::Value)` of the same document
//!   (there is no "ignore" for writing, so the generic tree is the reference).
//!
//! Throughput is in bytes of the workload's JSON. `BENCH_QUICK=1` shortens the measurement
//! for a smoke run.
//!
//! Clock: by default each sample is the CPU time of the benchmarking thread
//! (`CLOCK_THREAD_CPUTIME_ID`, user + system), not wall time, because the 2-core machines this
//! runs on are shared with other builds and wall time there mostly measures the other work. On
//! an idle machine the two should agree closely for this single-threaded code. `BENCH_CLOCK=wall` switches
//! to criterion's usual wall clock.

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput};
use mcp_spec_types_bench::adapters::{project, rmcp_impl, rms, serde_write, sonic};
use mcp_spec_types_bench::check::{check_doc, check_w5, Verdict};
use mcp_spec_types_bench::stats::{ReadStats, Summary, W1Stats, W4Stats};
use mcp_spec_types_bench::workloads::{Sender, Workloads, W5};
use mcp_spec_types_bench::{status_path, IMPLS};
use serde::de::IgnoredAny;
use serde_json::Value;
use std::hint::black_box;
use std::time::Duration;

/// Criterion measurement: CPU time consumed by the calling thread, in nanoseconds.
struct ThreadCpuTime;

fn thread_cpu_now() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux supports.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

static WALL: WallTime = WallTime;

impl Measurement for ThreadCpuTime {
    type Intermediate = Duration;
    type Value = Duration;
    fn start(&self) -> Duration {
        thread_cpu_now()
    }
    fn end(&self, start: Duration) -> Duration {
        thread_cpu_now().saturating_sub(start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Same unit (nanoseconds) as wall time, so criterion's own formatter fits.
        WALL.formatter()
    }
}

struct Checked {
    name: &'static str,
    what: &'static str,
    bytes: usize,
    /// What the checks compared, as read from the input.
    figures: String,
    verdicts: [Verdict; 4],
}

fn report(checked: &[Checked]) {
    println!("== correctness checks (before timing) ==");
    for c in checked {
        println!(
            "{} ({} bytes): {}; checked: {}",
            c.name, c.bytes, c.what, c.figures
        );
        for (imp, v) in IMPLS.iter().zip(&c.verdicts) {
            match v {
                Verdict::Ok { notes } => {
                    println!("{} {imp}: ok", c.name);
                    for n in notes {
                        println!("    note: {n}");
                    }
                }
                Verdict::Rejected { reason } => {
                    println!("{} {imp}: REJECTED, not timed: {reason}", c.name)
                }
                Verdict::Altered { reason } => {
                    println!("{} {imp}: ALTERED, not timed: {reason}", c.name)
                }
                Verdict::Skipped { reason } => {
                    println!("{} {imp}: SKIPPED, not timed: {reason}", c.name)
                }
            }
        }
    }
}

fn write_status(checked: &[Checked], quick: bool, clock: &str) {
    let workloads: Vec<Value> = checked
        .iter()
        .map(|c| {
            let verdicts: serde_json::Map<String, Value> = IMPLS
                .iter()
                .zip(&c.verdicts)
                .map(|(i, v)| (i.to_string(), serde_json::to_value(v).unwrap()))
                .collect();
            serde_json::json!({
                "name": c.name, "what": c.what, "bytes": c.bytes, "figures": c.figures, "verdicts": verdicts
            })
        })
        .collect();
    let path = status_path();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("create status dir");
    }
    let doc = serde_json::json!({ "quick": quick, "clock": clock, "workloads": workloads });
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).expect("write status file");
}

/// Deserialize + serialize groups for one response workload (W1–W4).
macro_rules! doc_workload {
    ($c:expr, $checked:expr, $name:literal, $input:expr, $p:path, $r:path, $s:path, $k:path) => {{
        let input: &str = $input;
        let ok: Vec<bool> = $checked.verdicts.iter().map(Verdict::is_ok).collect();
        let bytes = input.len() as u64;
        let mut g = $c.benchmark_group(concat!($name, "_deserialize"));
        g.throughput(Throughput::Bytes(bytes));
        if ok[0] {
            g.bench_function("project", |b| b.iter(|| $p(black_box(input)).unwrap()));
        }
        if ok[1] {
            g.bench_function("rmcp", |b| b.iter(|| $r(black_box(input)).unwrap()));
        }
        if ok[2] {
            g.bench_function("rust-mcp-schema", |b| {
                b.iter(|| $s(black_box(input)).unwrap())
            });
        }
        if ok[3] {
            g.bench_function("sonic-rs", |b| b.iter(|| $k(black_box(input)).unwrap()));
        }
        g.bench_function("floor", |b| {
            b.iter(|| serde_json::from_str::<IgnoredAny>(black_box(input)).unwrap())
        });
        g.bench_function("value", |b| {
            b.iter(|| serde_json::from_str::<Value>(black_box(input)).unwrap())
        });
        g.finish();

        let mut g = $c.benchmark_group(concat!($name, "_serialize"));
        g.throughput(Throughput::Bytes(bytes));
        if ok[0] {
            // This crate's own writer (same bytes as serde_json; see `mcp_spec_types::json`).
            let v = $p(input).unwrap();
            g.bench_function("project", |b| {
                b.iter(|| mcp_spec_types::json::to_string(black_box(&v)).unwrap())
            });
        }
        if ok[1] {
            let v = $r(input).unwrap();
            g.bench_function("rmcp", |b| {
                b.iter(|| serde_json::to_string(black_box(&v)).unwrap())
            });
        }
        if ok[2] {
            let v = $s(input).unwrap();
            g.bench_function("rust-mcp-schema", |b| {
                b.iter(|| serde_json::to_string(black_box(&v)).unwrap())
            });
        }
        if ok[3] {
            let v = $k(input).unwrap();
            g.bench_function("sonic-rs", |b| {
                b.iter(|| sonic_rs::to_string(black_box(&v)).unwrap())
            });
        }
        // Serialization floor: writing the generic `serde_json::Value` tree.
        let v: Value = serde_json::from_str(input).unwrap();
        g.bench_function("floor", |b| {
            b.iter(|| serde_json::to_string(black_box(&v)).unwrap())
        });
        g.finish();
    }};
}

fn w5_groups<M: Measurement>(c: &mut Criterion<M>, checked: &Checked, w5: &W5) {
    let ok: Vec<bool> = checked.verdicts.iter().map(Verdict::is_ok).collect();
    let msgs = &w5.messages;
    let bytes = w5.json_bytes() as u64;
    let mut g = c.benchmark_group("W5_deserialize");
    g.throughput(Throughput::Bytes(bytes));
    if ok[0] {
        g.bench_function("project", |b| {
            b.iter(|| {
                for m in msgs {
                    black_box(project::parse_w5_project(black_box(&m.json), m.sender).unwrap());
                }
            })
        });
    }
    if ok[1] {
        g.bench_function("rmcp", |b| {
            b.iter(|| {
                for m in msgs {
                    black_box(rmcp_impl::parse_w5(black_box(&m.json), m.sender).unwrap());
                }
            })
        });
    }
    if ok[2] {
        g.bench_function("rust-mcp-schema", |b| {
            b.iter(|| {
                for m in msgs {
                    black_box(rms::parse_w5(black_box(&m.json), m.sender).unwrap());
                }
            })
        });
    }
    g.bench_function("floor", |b| {
        b.iter(|| {
            for m in msgs {
                black_box(serde_json::from_str::<IgnoredAny>(black_box(&m.json)).unwrap());
            }
        })
    });
    g.bench_function("value", |b| {
        b.iter(|| {
            for m in msgs {
                black_box(serde_json::from_str::<Value>(black_box(&m.json)).unwrap());
            }
        })
    });
    g.finish();

    fn ser_all<T: serde::Serialize>(vs: &[T]) {
        for v in vs {
            black_box(serde_json::to_string(black_box(v)).unwrap());
        }
    }
    fn ser_all_project<T: serde::Serialize>(vs: &[T]) {
        for v in vs {
            black_box(mcp_spec_types::json::to_string(black_box(v)).unwrap());
        }
    }
    let mut g = c.benchmark_group("W5_serialize");
    g.throughput(Throughput::Bytes(bytes));
    if ok[0] {
        let vs: Vec<_> = msgs
            .iter()
            .map(|m| project::parse_w5_project(&m.json, m.sender).unwrap())
            .collect();
        g.bench_function("project", |b| b.iter(|| ser_all_project(&vs)));
    }
    if ok[1] {
        let vs: Vec<_> = msgs
            .iter()
            .map(|m| rmcp_impl::parse_w5(&m.json, m.sender).unwrap())
            .collect();
        g.bench_function("rmcp", |b| b.iter(|| ser_all(&vs)));
    }
    if ok[2] {
        let vs: Vec<_> = msgs
            .iter()
            .map(|m| rms::parse_w5(&m.json, m.sender).unwrap())
            .collect();
        g.bench_function("rust-mcp-schema", |b| b.iter(|| ser_all(&vs)));
    }
    // Serialization floor: writing each message's generic `serde_json::Value`.
    let vs: Vec<Value> = msgs
        .iter()
        .map(|m| serde_json::from_str(&m.json).unwrap())
        .collect();
    g.bench_function("floor", |b| b.iter(|| ser_all(&vs)));
    g.finish();
}

/// W5's mix, by the generator's labels.
fn w5_figures(w5: &W5) -> String {
    use mcp_spec_types_bench::workloads::Label;
    let mut counts: Vec<(String, usize)> = Vec::new();
    for m in &w5.messages {
        let key = match &m.label {
            Label::Request(x) => format!("{x} request"),
            Label::Notification(x) => x.clone(),
            Label::Response(x) => format!("{} result", x.as_deref().unwrap_or("?")),
            Label::Error(code) => format!("error {code}"),
            Label::Custom(x) => x.clone(),
        };
        let key = format!(
            "{} {key}",
            if m.sender == Sender::Client {
                "client"
            } else {
                "server"
            }
        );
        match counts.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => counts.push((key, 1)),
        }
    }
    counts.sort();
    let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
    format!(
        "{} messages, per-message kind and re-serialization: {}",
        w5.messages.len(),
        parts.join(", ")
    )
}

fn main() {
    let quick = std::env::var("BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0");
    let wl = Workloads::build();

    let v = |s: &str| -> Value { serde_json::from_str(s).expect("workloads are JSON") };
    let (w1v, w2v, w3v, w4v) = (v(&wl.w1), v(&wl.w2), v(&wl.w3), v(&wl.w4));
    let w1s = W1Stats::from_value(&w1v);
    let w2s = ReadStats::from_value(&w2v);
    let w3s = ReadStats::from_value(&w3v);
    let w4s = W4Stats::from_value(&w4v);
    // The generator's own figures, so the checks compare against the intended workload.
    assert_eq!(w1s.resources, 1_000);
    assert_eq!(w2s.text_bytes, wl.w2_text.len());
    assert_eq!(
        w2s.text_hash,
        mcp_spec_types_bench::stats::fnv(wl.w2_text.as_bytes())
    );
    assert_eq!(w3s.blob_len, wl.w3_blob.len());
    assert_eq!(w4s.tools, 200);
    drop((w1v, w2v, w3v, w4v));

    let checked = vec![
        Checked {
            name: "W1",
            what: "resources/list response, 1,000 resources with every field",
            bytes: wl.w1.len(),
            figures: w1s.summary(),
            verdicts: [
                check_doc(
                    &wl.w1,
                    true,
                    project::parse_w1,
                    project::write,
                    project::w1_stats,
                    &w1s,
                ),
                check_doc(
                    &wl.w1,
                    false,
                    rmcp_impl::parse_w1,
                    serde_write,
                    rmcp_impl::w1_stats,
                    &w1s,
                ),
                check_doc(
                    &wl.w1,
                    false,
                    rms::parse_w1,
                    serde_write,
                    rms::w1_stats,
                    &w1s,
                ),
                check_doc(
                    &wl.w1,
                    true,
                    sonic::parse_w1,
                    sonic::write,
                    sonic::w1_stats,
                    &w1s,
                ),
            ],
        },
        Checked {
            name: "W2",
            what: "resources/read response, one 1 MiB text content",
            bytes: wl.w2.len(),
            figures: w2s.summary(),
            verdicts: [
                check_doc(
                    &wl.w2,
                    true,
                    project::parse_read,
                    project::write,
                    project::read_stats,
                    &w2s,
                ),
                check_doc(
                    &wl.w2,
                    false,
                    rmcp_impl::parse_read,
                    serde_write,
                    rmcp_impl::read_stats,
                    &w2s,
                ),
                check_doc(
                    &wl.w2,
                    false,
                    rms::parse_read,
                    serde_write,
                    rms::read_stats,
                    &w2s,
                ),
                check_doc(
                    &wl.w2,
                    true,
                    sonic::parse_read,
                    sonic::write,
                    sonic::read_stats,
                    &w2s,
                ),
            ],
        },
        Checked {
            name: "W3",
            what: "resources/read response, one 1 MiB base64 blob",
            bytes: wl.w3.len(),
            figures: w3s.summary(),
            verdicts: [
                check_doc(
                    &wl.w3,
                    true,
                    project::parse_read,
                    project::write,
                    project::read_stats,
                    &w3s,
                ),
                check_doc(
                    &wl.w3,
                    false,
                    rmcp_impl::parse_read,
                    serde_write,
                    rmcp_impl::read_stats,
                    &w3s,
                ),
                check_doc(
                    &wl.w3,
                    false,
                    rms::parse_read,
                    serde_write,
                    rms::read_stats,
                    &w3s,
                ),
                check_doc(
                    &wl.w3,
                    true,
                    sonic::parse_read,
                    sonic::write,
                    sonic::read_stats,
                    &w3s,
                ),
            ],
        },
        Checked {
            name: "W4",
            what: "tools/list response, 200 tools with nested input schemas",
            bytes: wl.w4.len(),
            figures: w4s.summary(),
            verdicts: [
                check_doc(
                    &wl.w4,
                    true,
                    project::parse_w4,
                    project::write,
                    project::w4_stats,
                    &w4s,
                ),
                check_doc(
                    &wl.w4,
                    false,
                    rmcp_impl::parse_w4,
                    serde_write,
                    rmcp_impl::w4_stats,
                    &w4s,
                ),
                check_doc(
                    &wl.w4,
                    false,
                    rms::parse_w4,
                    serde_write,
                    rms::w4_stats,
                    &w4s,
                ),
                check_doc(
                    &wl.w4,
                    true,
                    sonic::parse_w4,
                    sonic::write,
                    sonic::w4_stats,
                    &w4s,
                ),
            ],
        },
        Checked {
            name: "W5",
            what: "10,000 mixed small messages, both directions",
            bytes: wl.w5.json_bytes(),
            figures: w5_figures(&wl.w5),
            verdicts: [
                check_w5(
                    &wl.w5,
                    true,
                    project::parse_w5_project,
                    project::write,
                    project::w5_label,
                ),
                check_w5(
                    &wl.w5,
                    false,
                    rmcp_impl::parse_w5,
                    serde_write,
                    rmcp_impl::w5_label,
                ),
                check_w5(&wl.w5, false, rms::parse_w5, serde_write, rms::w5_label),
                Verdict::Skipped {
                    reason: "this crate's messages are read by `Message::parse` only: there \
                             is no serde `Deserialize` of a message for sonic-rs to drive"
                        .to_owned(),
                },
            ],
        },
    ];
    report(&checked);
    let clock = if std::env::var("BENCH_CLOCK").is_ok_and(|v| v == "wall") {
        "wall"
    } else {
        "thread-cpu"
    };
    write_status(&checked, quick, clock);
    if std::env::var("BENCH_CHECK_ONLY").is_ok_and(|v| !v.is_empty() && v != "0") {
        return;
    }

    let (warm, measure) = if quick {
        (Duration::from_millis(200), Duration::from_millis(600))
    } else {
        (Duration::from_millis(1000), Duration::from_millis(3000))
    };
    let base = Criterion::default()
        .sample_size(10)
        .warm_up_time(warm)
        .measurement_time(measure)
        .nresamples(10_000)
        .without_plots();
    let wall = std::env::var("BENCH_CLOCK").is_ok_and(|v| v == "wall");
    println!(
        "clock: {}",
        if wall { "wall time" } else { "thread CPU time" }
    );
    if wall {
        run(base.configure_from_args(), &checked, &wl);
    } else {
        run(
            base.with_measurement(ThreadCpuTime).configure_from_args(),
            &checked,
            &wl,
        );
    }
}

fn run<M: Measurement>(mut c: Criterion<M>, checked: &[Checked], wl: &Workloads) {
    doc_workload!(
        c,
        checked[0],
        "W1",
        &wl.w1,
        project::parse_w1,
        rmcp_impl::parse_w1,
        rms::parse_w1,
        sonic::parse_w1
    );
    doc_workload!(
        c,
        checked[1],
        "W2",
        &wl.w2,
        project::parse_read,
        rmcp_impl::parse_read,
        rms::parse_read,
        sonic::parse_read
    );
    doc_workload!(
        c,
        checked[2],
        "W3",
        &wl.w3,
        project::parse_read,
        rmcp_impl::parse_read,
        rms::parse_read,
        sonic::parse_read
    );
    doc_workload!(
        c,
        checked[3],
        "W4",
        &wl.w4,
        project::parse_w4,
        rmcp_impl::parse_w4,
        rms::parse_w4,
        sonic::parse_w4
    );
    w5_groups(&mut c, &checked[4], &wl.w5);

    c.final_summary();
}
