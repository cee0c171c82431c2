//! Support code for the `compare` benchmark: workloads, per-implementation adapters and the
//! correctness checks that gate timing. See `README.md`.

pub mod adapters;
pub mod check;
pub mod rng;
pub mod stats;
pub mod workloads;

/// The implementations compared, in the order the report prints them. `floor` and `value`
/// are the `serde_json` baselines. The peers are rmcp and rust-mcp-schema; sonic-rs is a
/// reader and writer of this crate's own types, compared with the project on its own.
pub const IMPLS: [&str; 4] = ["project", "rmcp", "rust-mcp-schema", "sonic-rs"];

/// Where the bench writes the check verdicts and workload sizes for `report` to read.
pub fn status_path() -> std::path::PathBuf {
    if let Ok(p) = std::env::var("BENCH_STATUS") {
        return p.into();
    }
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("bench-status.json")
}
