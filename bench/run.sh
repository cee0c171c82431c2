#!/usr/bin/env bash
# Builds (release) and runs the mcp-spec-types / rmcp / rust-mcp-schema / sonic-rs comparison, then
# prints exactly one line per workload and direction on stdout:
#   W<n> <deserialize|serialize>: project <a> MB/s, rmcp <b> MB/s, rust-mcp-schema <c> MB/s, sonic-rs <s> MB/s, floor <f> MB/s, vs-best-peer <r>x, vs-sonic-rs <q>x
# then one more per workload and direction from interleaved rounds (examples/ratio.rs):
#   W<n> <deserialize|serialize> interleaved: vs-best-peer <r>x[, floor-time <t>x]
# and, reading W1-W4, two for the sans-IO client engine (src/adapters/client.rs):
#   W<n> deserialize interleaved client-engine: vs-best-peer <r>x
#   W<n> deserialize interleaved client-general: vs-best-peer <r>x
# The correctness verdicts (what was not timed, and why) go to stderr; cargo's and criterion's
# own output goes to $CARGO_TARGET_DIR/bench-run.log.
#
#   bench/run.sh            full run (criterion: 10 samples, 1 s warm-up, 3 s measurement)
#   bench/run.sh --quick    smoke run (0.2 s warm-up, 0.6 s measurement)
#   bench/run.sh --markdown also print the Markdown table used in README.md (after the lines)
#   BENCH_CLOCK=wall bench/run.sh  time with the wall clock instead of the benchmarking
#                                  thread's CPU time (the default; see benches/compare.rs)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target}"
export CRITERION_HOME="$CARGO_TARGET_DIR/criterion"
export BENCH_STATUS="$CARGO_TARGET_DIR/bench-status.json"

quick=0
markdown=0
for arg in "$@"; do
    case "$arg" in
        --quick) quick=1 ;;
        --markdown) markdown=1 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "unknown argument: $arg (try --help)" >&2; exit 2 ;;
    esac
done

mkdir -p "$CARGO_TARGET_DIR"
log="$CARGO_TARGET_DIR/bench-run.log"
# No stale numbers: a function that is not timed this run must not be read from a past run.
rm -rf "$CRITERION_HOME" "$BENCH_STATUS"

cd "$here"
fail() {
    echo "$1; last lines of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
}
start=$(date +%s)
echo "building the bench (release profile 'bench'; log: $log) ..." >&2
cargo bench --bench compare --no-run >"$log" 2>&1 || fail "build failed"
echo "running (load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, clock ${BENCH_CLOCK:-thread-cpu}) ..." >&2
BENCH_QUICK=$quick cargo bench --bench compare >>"$log" 2>&1 || fail "bench failed"
echo "done in $(( $(date +%s) - start )) s (load average now $(cut -d' ' -f1-3 /proc/loadavg))" >&2

python3 "$here/report.py"

# The same comparisons in interleaved rounds (examples/ratio.rs): each round times every
# implementation in turn, so a slow spell of a shared machine hits all of them alike, where
# criterion above times one implementation for seconds before the next. One line each.
cargo build --profile bench --example ratio >>"$log" 2>&1 || fail "ratio build failed"
if [ "$quick" = 1 ]; then rounds=5 passes=3; else rounds=21 passes=10; fi
for w in W1 W2 W3 W4 W5; do
    for dir in de ser; do
        out=$("$CARGO_TARGET_DIR/release/examples/ratio" "$w" "$dir" "$rounds" "$passes" 2>&1) \
            || { echo "$out" >>"$log"; fail "ratio $w $dir failed"; }
        echo "$out" >>"$log"
        # The crate's line, then the client engine's (W1-W4 reading) when it has them.
        grep "^$w .* interleaved" <<<"$out" || true
    done
done

if [ "$markdown" = 1 ]; then
    echo
    python3 "$here/report.py" --markdown 2>/dev/null
fi
