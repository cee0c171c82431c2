//! One implementation, one workload, one direction, a fixed number of times: a target for
//! `valgrind --tool=callgrind`, whose instruction counts repeat exactly from run to run (unlike
//! timings on a shared machine), to see where the time of one implementation goes.
//!
//! `cargo run --release --example profile -- <project|generic|rmcp|rust-mcp-schema|sonic-rs|floor|value> <W1..W7> <de|ser> [iterations]`
//!
//! `generic` is the one-pass generic read (`parse_answering` with the request pending).
//! `floor` is what `run.sh` calls the floor: `IgnoredAny` when reading (validate and skip, build
//! nothing), the document's `serde_json::Value` when writing; `value` reads into a
//! `serde_json::Value` (the second reading baseline).
//!
//! The workload is built (and for `ser`, parsed) before the loop; callgrind's
//! `--toggle-collect` on `profile::measured` counts only the loop.

use mcp_spec_types_bench::adapters::{project, rmcp_impl, rms, sonic};
use mcp_spec_types_bench::workloads::Workloads;
use serde::de::IgnoredAny;
use std::hint::black_box;

fn usage() -> ! {
    eprintln!("usage: profile <project|generic|rmcp|rust-mcp-schema|sonic-rs|floor|value> <W1|..|W7> <de|ser> [iterations]");
    std::process::exit(2)
}

#[inline(never)]
fn measured(f: &mut dyn FnMut(), iterations: usize) {
    for _ in 0..iterations {
        f();
    }
}

fn time_de<T>(parse: impl Fn(&str) -> Result<T, String>, inputs: &[&str], n: usize) {
    measured(
        &mut || {
            for s in inputs {
                black_box(parse(black_box(s)).expect("workload parses"));
            }
        },
        n,
    );
}

/// Whose writer serializes: this crate's for `project`, sonic-rs's for `sonic-rs`, serde_json
/// for the others (as the bench does).
#[derive(Clone, Copy)]
enum Writer {
    Project,
    SerdeJson,
    Sonic,
}

impl Writer {
    fn of(imp: &str) -> Writer {
        match imp {
            "project" => Writer::Project,
            "sonic-rs" => Writer::Sonic,
            _ => Writer::SerdeJson,
        }
    }

    fn write<T: serde::Serialize>(self, v: &T) -> Result<String, String> {
        match self {
            Writer::Project => mcp_spec_types::json::to_string(v).map_err(|e| e.to_string()),
            Writer::SerdeJson => serde_json::to_string(v).map_err(|e| e.to_string()),
            Writer::Sonic => sonic_rs::to_string(v).map_err(|e| e.to_string()),
        }
    }
}

fn time_ser<T: serde::Serialize>(
    parse: impl Fn(&str) -> Result<T, String>,
    inputs: &[&str],
    n: usize,
    writer: Writer,
) {
    let values: Vec<T> = inputs
        .iter()
        .map(|s| parse(s).expect("workload parses"))
        .collect();
    measured(
        &mut || {
            for v in &values {
                black_box(writer.write(black_box(v)).expect("serializes"));
            }
        },
        n,
    );
}

macro_rules! run {
    ($dir:expr, $parse:expr, $inputs:expr, $n:expr, $writer:expr) => {
        match $dir {
            "de" => time_de($parse, $inputs, $n),
            "ser" => time_ser($parse, $inputs, $n, $writer),
            _ => usage(),
        }
    };
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        usage()
    }
    let n: usize = args
        .get(3)
        .map_or(Ok(1), |s| s.parse())
        .unwrap_or_else(|_| usage());
    let mut wl = Workloads::build();
    let (imp, w, dir) = (args[0].as_str(), args[1].as_str(), args[2].as_str());
    // W6 and W7 are read as W1 and W2 are, from other text (see `examples/ratio.rs`).
    let w = match w {
        "W6" => {
            wl.w1 = mcp_spec_types_bench::workloads::w6_small_resources(6);
            "W1"
        }
        "W7" => {
            wl.w2 = mcp_spec_types_bench::workloads::w7_read_escaped_text(7);
            "W2"
        }
        w => w,
    };
    let w5_lines: Vec<(&str, mcp_spec_types_bench::workloads::Sender)> = wl
        .w5
        .messages
        .iter()
        .map(|m| (m.json.as_str(), m.sender))
        .collect();
    let doc = match w {
        "W1" => vec![wl.w1.as_str()],
        "W2" => vec![wl.w2.as_str()],
        "W3" => vec![wl.w3.as_str()],
        "W4" => vec![wl.w4.as_str()],
        "W5" => Vec::new(),
        _ => usage(),
    };
    if w == "W5" {
        let pairs = &w5_lines;
        let de_loop = |f: &dyn Fn(&str, mcp_spec_types_bench::workloads::Sender) -> bool| {
            measured(
                &mut || {
                    for (s, from) in pairs {
                        black_box(f(black_box(s), *from));
                    }
                },
                n,
            )
        };
        match (imp, dir) {
            ("project", "de") => de_loop(&|s, f| project::parse_w5_project(s, f).is_ok()),
            ("rmcp", "de") => de_loop(&|s, f| rmcp_impl::parse_w5(s, f).is_ok()),
            ("rust-mcp-schema", "de") => de_loop(&|s, f| rms::parse_w5(s, f).is_ok()),
            ("floor", "de") => de_loop(&|s, _| serde_json::from_str::<IgnoredAny>(s).is_ok()),
            ("project", "ser") => {
                let vs: Vec<_> = pairs
                    .iter()
                    .map(|(s, f)| project::parse_w5_project(s, *f).unwrap())
                    .collect();
                measured(
                    &mut || {
                        vs.iter()
                            .for_each(|v| drop(black_box(mcp_spec_types::json::to_string(v))))
                    },
                    n,
                )
            }
            ("rmcp", "ser") => {
                let vs: Vec<_> = pairs
                    .iter()
                    .map(|(s, f)| rmcp_impl::parse_w5(s, *f).unwrap())
                    .collect();
                measured(
                    &mut || {
                        vs.iter()
                            .for_each(|v| drop(black_box(serde_json::to_string(v))))
                    },
                    n,
                )
            }
            _ => usage(),
        }
        return;
    }
    let inputs = doc.as_slice();
    match (imp, w) {
        ("project", "W1") => run!(dir, project::parse_w1, inputs, n, Writer::of(imp)),
        ("project", "W2" | "W3") => run!(dir, project::parse_read, inputs, n, Writer::of(imp)),
        ("project", "W4") => run!(dir, project::parse_w4, inputs, n, Writer::of(imp)),
        ("generic", "W1") => run!(dir, project::parse_w1_generic, inputs, n, Writer::Project),
        ("generic", "W2" | "W3") => {
            run!(dir, project::parse_read_generic, inputs, n, Writer::Project)
        }
        ("generic", "W4") => run!(dir, project::parse_w4_generic, inputs, n, Writer::Project),
        ("rmcp", "W1") => run!(dir, rmcp_impl::parse_w1, inputs, n, Writer::of(imp)),
        ("rmcp", "W2" | "W3") => run!(dir, rmcp_impl::parse_read, inputs, n, Writer::of(imp)),
        ("rmcp", "W4") => run!(dir, rmcp_impl::parse_w4, inputs, n, Writer::of(imp)),
        ("rust-mcp-schema", "W1") => run!(dir, rms::parse_w1, inputs, n, Writer::of(imp)),
        ("rust-mcp-schema", "W2" | "W3") => run!(dir, rms::parse_read, inputs, n, Writer::of(imp)),
        ("rust-mcp-schema", "W4") => run!(dir, rms::parse_w4, inputs, n, Writer::of(imp)),
        ("sonic-rs", "W1") => run!(dir, sonic::parse_w1, inputs, n, Writer::of(imp)),
        ("sonic-rs", "W2" | "W3") => run!(dir, sonic::parse_read, inputs, n, Writer::of(imp)),
        ("sonic-rs", "W4") => run!(dir, sonic::parse_w4, inputs, n, Writer::of(imp)),
        ("floor", _) if dir == "de" => time_de(
            |s: &str| serde_json::from_str::<IgnoredAny>(s).map_err(|e| e.to_string()),
            inputs,
            n,
        ),
        ("floor" | "value", _) => run!(
            dir,
            |s: &str| serde_json::from_str::<serde_json::Value>(s).map_err(|e| e.to_string()),
            inputs,
            n,
            Writer::of(imp)
        ),
        _ => usage(),
    }
}
