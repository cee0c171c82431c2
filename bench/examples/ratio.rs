//! Interleaved timing of one workload and direction: every round times each implementation
//! once (thread CPU time of a fixed number of passes), in turn, so that a change of load on a
//! shared machine hits all of them alike; the report is the median of the rounds for each, and
//! the median over the rounds of each one's ratio to the project's time in the same round.
//!
//! `cargo run --release --example ratio -- <W1..W7> <de|ser> [rounds] [passes]`
//!
//! W6 and W7 are read by W1's and W2's readers, from other text (see `src/workloads.rs`): a
//! list of 1,000 small resources with nothing kept raw, and 1 MiB of text dense with escapes.
//! Their rows are W1's and W2's.
//!
//! Implementations and readers/writers as in the bench (`src/adapters.rs`); sonic-rs where it
//! has an adapter and reads the workload; on W1–W4 also `project-2pass`, the crate's read in
//! two passes (`ServerMessage::parse`, then `result_for`) instead of `Reply::parse`, and the
//! generic read a gateway makes with the request pending: `generic` (`parse_answering`, one
//! pass) and `generic-2pass` (`ServerMessage::parse`, then `ClientCallResult::parse`); on
//! W1–W3 `from-str`, `json::from_str` into a serde envelope around the generated result.

use mcp_spec_types_bench::adapters::client::{Answering, Asked};
use mcp_spec_types_bench::adapters::{project, rmcp_impl, rms, serde_write, sonic};
use mcp_spec_types_bench::workloads::{Sender, Workloads};
use serde::de::IgnoredAny;
use std::hint::black_box;
use std::time::Duration;

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

type Job<'a> = Box<dyn FnMut() + 'a>;

/// One timed job: parse `input` with `parse`, or write the value it parsed with `write`.
fn doc_job<'a, T: 'a>(
    input: &'a str,
    dir: &str,
    parse: fn(&str) -> Result<T, String>,
    write: fn(&T) -> Result<String, String>,
) -> Option<Job<'a>> {
    if dir == "de" {
        parse(input).ok()?;
        Some(Box::new(move || {
            drop(black_box(parse(black_box(input)).ok()))
        }))
    } else {
        let value = parse(input).ok()?;
        Some(Box::new(move || {
            drop(black_box(write(black_box(&value)).ok()))
        }))
    }
}

fn w5_job<'a, T: 'a>(
    lines: &'a [(String, Sender)],
    dir: &str,
    parse: fn(&str, Sender) -> Result<T, String>,
    write: fn(&T) -> Result<String, String>,
) -> Option<Job<'a>> {
    if dir == "de" {
        Some(Box::new(move || {
            for (line, from) in lines {
                drop(black_box(parse(black_box(line), *from).ok()));
            }
        }))
    } else {
        let values = lines
            .iter()
            .map(|(line, from)| parse(line, *from))
            .collect::<Result<Vec<T>, String>>()
            .ok()?;
        Some(Box::new(move || {
            for v in &values {
                drop(black_box(write(black_box(v)).ok()));
            }
        }))
    }
}

/// The client engine answering its request with `doc` (see `adapters::client`): reading only.
fn engine_job<'a>(doc: &str, dir: &str, asked: Asked, id_first: bool) -> Option<Job<'a>> {
    if dir != "de" {
        return None;
    }
    let answering = Answering::new(doc, asked, id_first).and_then(|a| a.check().map(|()| a));
    let answering = answering
        .map_err(|e| eprintln!("client engine not timed: {e}"))
        .ok()?;
    Some(Box::new(move || drop(black_box(answering.receive().ok()))))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(w), Some(dir)) = (args.first(), args.get(1)) else {
        eprintln!("usage: ratio <W1..W7> <de|ser> [rounds] [passes]");
        std::process::exit(2)
    };
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(15);
    let passes: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    let dir = dir.as_str();
    let mut wl = Workloads::build();
    // W6 and W7 read as W1 and W2 do (the same types), from other text: they take W1's and
    // W2's places for this run.
    match w.as_str() {
        "W6" => wl.w1 = mcp_spec_types_bench::workloads::w6_small_resources(6),
        "W7" => wl.w2 = mcp_spec_types_bench::workloads::w7_read_escaped_text(7),
        _ => {}
    }
    let label = w.clone();
    let w = match w.as_str() {
        "W6" => "W1".to_owned(),
        "W7" => "W2".to_owned(),
        _ => w.clone(),
    };
    let lines: Vec<(String, Sender)> = wl
        .w5
        .messages
        .iter()
        .map(|m| (m.json.clone(), m.sender))
        .collect();
    let floor_de = |s: &str| serde_json::from_str::<IgnoredAny>(s).map(drop);
    let mut jobs: Vec<(&str, Option<Job>)> = match w.as_str() {
        "W1" => vec![
            (
                "project",
                doc_job(&wl.w1, dir, project::parse_w1, project::write),
            ),
            (
                "project-2pass",
                doc_job(&wl.w1, dir, project::parse_w1_two_passes, project::write),
            ),
            (
                "generic",
                doc_job(&wl.w1, dir, project::parse_w1_generic, project::write),
            ),
            (
                "generic-2pass",
                doc_job(
                    &wl.w1,
                    dir,
                    project::parse_w1_generic_two_passes,
                    project::write,
                ),
            ),
            (
                "from-str",
                doc_job(&wl.w1, dir, project::parse_w1_from_str, project::write),
            ),
            (
                "rmcp",
                doc_job(&wl.w1, dir, rmcp_impl::parse_w1, serde_write),
            ),
            (
                "rust-mcp-schema",
                doc_job(&wl.w1, dir, rms::parse_w1, serde_write),
            ),
            (
                "sonic-rs",
                doc_job(&wl.w1, dir, sonic::parse_w1, sonic::write),
            ),
            (
                "client-engine",
                engine_job(&wl.w1, dir, Asked::ListResources, true),
            ),
            (
                "client-general",
                engine_job(&wl.w1, dir, Asked::ListResources, false),
            ),
        ],
        "W2" | "W3" => {
            let doc = if w == "W2" { &wl.w2 } else { &wl.w3 };
            vec![
                (
                    "project",
                    doc_job(doc, dir, project::parse_read, project::write),
                ),
                (
                    "project-2pass",
                    doc_job(doc, dir, project::parse_read_two_passes, project::write),
                ),
                (
                    "generic",
                    doc_job(doc, dir, project::parse_read_generic, project::write),
                ),
                (
                    "generic-2pass",
                    doc_job(
                        doc,
                        dir,
                        project::parse_read_generic_two_passes,
                        project::write,
                    ),
                ),
                (
                    "from-str",
                    doc_job(doc, dir, project::parse_read_from_str, project::write),
                ),
                (
                    "rmcp",
                    doc_job(doc, dir, rmcp_impl::parse_read, serde_write),
                ),
                (
                    "rust-mcp-schema",
                    doc_job(doc, dir, rms::parse_read, serde_write),
                ),
                (
                    "sonic-rs",
                    doc_job(doc, dir, sonic::parse_read, sonic::write),
                ),
                (
                    "client-engine",
                    engine_job(doc, dir, Asked::ReadResource, true),
                ),
                (
                    "client-general",
                    engine_job(doc, dir, Asked::ReadResource, false),
                ),
            ]
        }
        "W4" => vec![
            (
                "project",
                doc_job(&wl.w4, dir, project::parse_w4, project::write),
            ),
            (
                "project-2pass",
                doc_job(&wl.w4, dir, project::parse_w4_two_passes, project::write),
            ),
            (
                "generic",
                doc_job(&wl.w4, dir, project::parse_w4_generic, project::write),
            ),
            (
                "generic-2pass",
                doc_job(
                    &wl.w4,
                    dir,
                    project::parse_w4_generic_two_passes,
                    project::write,
                ),
            ),
            (
                "rmcp",
                doc_job(&wl.w4, dir, rmcp_impl::parse_w4, serde_write),
            ),
            (
                "rust-mcp-schema",
                doc_job(&wl.w4, dir, rms::parse_w4, serde_write),
            ),
            (
                "sonic-rs",
                doc_job(&wl.w4, dir, sonic::parse_w4, sonic::write),
            ),
            (
                "client-engine",
                engine_job(&wl.w4, dir, Asked::ListTools, true),
            ),
            (
                "client-general",
                engine_job(&wl.w4, dir, Asked::ListTools, false),
            ),
        ],
        "W5" => vec![
            (
                "project",
                w5_job(&lines, dir, project::parse_w5_project, project::write),
            ),
            (
                "rmcp",
                w5_job(&lines, dir, rmcp_impl::parse_w5, serde_write),
            ),
        ],
        _ => {
            eprintln!("unknown workload {w}");
            std::process::exit(2)
        }
    };
    if dir == "de" {
        let docs: Vec<&str> = match w.as_str() {
            "W1" => vec![&wl.w1],
            "W2" => vec![&wl.w2],
            "W3" => vec![&wl.w3],
            "W4" => vec![&wl.w4],
            _ => lines.iter().map(|(l, _)| l.as_str()).collect(),
        };
        jobs.push((
            "floor",
            Some(Box::new(move || {
                for d in &docs {
                    drop(black_box(floor_de(black_box(d))));
                }
            })),
        ));
    }
    let mut jobs: Vec<(&str, Job)> = jobs
        .into_iter()
        .filter_map(|(name, job)| job.map(|j| (name, j)))
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); jobs.len()];
    for (_, job) in &mut jobs {
        job();
    }
    for _ in 0..rounds {
        for (i, (_, job)) in jobs.iter_mut().enumerate() {
            // One untimed pass first: the heap as the previous job left it (grown, trimmed
            // back to the system, fragmented) is not this job's cost. Without it the job after
            // `floor`, which allocates nothing, paid for growing the heap again: 1.4 ms a
            // pass of W2 where the same read timed elsewhere in the round took 1.2 ms.
            job();
            let t = thread_cpu_now();
            for _ in 0..passes {
                job();
            }
            times[i].push((thread_cpu_now() - t).as_secs_f64() * 1e3 / passes as f64);
        }
    }
    println!("{label} {dir}: median of {rounds} rounds of {passes} passes, thread CPU time");
    let mut best_peer: Option<f64> = None;
    let mut floor = None;
    let mut engine = Vec::new();
    for (i, (name, _)) in jobs.iter().enumerate() {
        let ratio = median(times[i].iter().zip(&times[0]).map(|(t, p)| t / p).collect());
        println!(
            "  {name:<16} {:>9.3} ms   project is {ratio:.3}x faster",
            median(times[i].clone())
        );
        match *name {
            "rmcp" | "rust-mcp-schema" => {
                best_peer = Some(best_peer.map_or(ratio, |best| best.min(ratio)))
            }
            "floor" => floor = Some(ratio),
            "client-engine" | "client-general" | "generic" | "generic-2pass" | "from-str" => {
                engine.push((*name, ratio))
            }
            _ => {}
        }
    }
    // One line for `run.sh`: how many times faster than the fastest peer, and (reading) how
    // many times the floor's time this crate takes.
    let direction = if dir == "de" {
        "deserialize"
    } else {
        "serialize"
    };
    let peer = best_peer.map_or("n/a".to_owned(), |r| format!("{r:.2}x"));
    match floor {
        Some(floor) => println!(
            "{label} {direction} interleaved: vs-best-peer {peer}, floor-time {:.2}x",
            1.0 / floor
        ),
        None => println!("{label} {direction} interleaved: vs-best-peer {peer}"),
    }
    // The client engine's rows against the fastest peer (each ratio above is to the project's
    // time; the quotient of two is the rows' own ratio in the same rounds).
    for (name, ratio) in engine {
        let against = best_peer.map_or("n/a".to_owned(), |best| format!("{:.2}x", best / ratio));
        println!("{label} {direction} interleaved {name}: vs-best-peer {against}");
    }
}
