#!/usr/bin/env bash
# Usage: bench/http.sh [--rounds N] [--seconds S] [--warmup S] [--connections C]
#                      [--sessions N] [--compile-rounds N] [--no-compile] [--no-nodelay]
# The HTTP serving comparison (bench/README.md, "HTTP serving"): `tools/call` over Streamable
# HTTP, this crate's `StreamableHttp` against rmcp's `StreamableHttpService`, each serving the
# same `add` tool through axum as a process of its own (bench/http/ours, bench/http/rmcp).
#
# 1. Builds the two servers and the load generator (bench/http/load), release, each package
#    on its own so that each server has exactly its own dependencies' features.
# 2. Runs the load generator on CPU 1, which starts the servers on CPU 0 (`taskset`) and
#    measures, in interleaved rounds (default 3 of 5 s per server and revision, 32 keep-alive
#    connections, 1 s warm-up): calls per second, p50 and p99 latency and the server's CPU
#    time per call, on 2026-07-28 (stateless) and on 2025-11-25 (one session, reused by every
#    call); then the memory per open session (default 1,000 sessions, each server in a fresh
#    process). `--no-nodelay` serves without TCP_NODELAY (axum's default).
# 3. Times the cold `cargo build --release` of each server package (default one round each;
#    rounds alternate which goes first), each in a fresh target directory, dependencies
#    fetched beforehand so that only compilation is timed; `--no-compile` skips it.
#
# Prints the Markdown table (this crate, rmcp, this crate / rmcp) on stdout; each measurement,
# the load average and each build's CPU time go to stderr. Build logs: $CARGO_TARGET_DIR
# (default bench/target/http)/http-*.log.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
http="$here/http"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target/http}"
load_args=()
compile_rounds=1
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds|--seconds|--warmup|--connections|--sessions)
            load_args+=("$1" "${2:?$1 needs a value}"); shift ;;
        --no-nodelay) load_args+=("$1") ;;
        --compile-rounds) compile_rounds=${2:?--compile-rounds needs a number}; shift ;;
        --no-compile) compile_rounds=0 ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done
if [ ! -x /usr/bin/taskset ] || [ "$(nproc)" -lt 2 ]; then
    echo "needs /usr/bin/taskset and two CPUs (the servers on CPU 0, the load on CPU 1)" >&2
    exit 1
fi

mkdir -p "$CARGO_TARGET_DIR"
log="$CARGO_TARGET_DIR/http-build.log"
: >"$log"
cd "$http"
for package in http-bench-ours http-bench-rmcp http-bench-load; do
    echo "building $package (release; log: $log) ..." >&2
    if ! cargo build --release -p "$package" >>"$log" 2>&1; then
        echo "build of $package failed; last lines of $log:" >&2
        tail -n 40 "$log" >&2
        exit 1
    fi
done
bin="$CARGO_TARGET_DIR/release"
echo "commit $(git -C "$here/.." rev-parse --short HEAD)$(git -C "$here/.." diff --quiet HEAD -- . ':!bench' || echo ' (with changes)'), $(date -u +%Y-%m-%d)" >&2
table=$(/usr/bin/taskset -c 1 "$bin/http-bench-load" --ours "$bin/http-bench-ours" \
    --rmcp "$bin/http-bench-rmcp" "${load_args[@]}")

# Cold release builds of the two server packages, each in a fresh target directory.
compile_rows=""
if [ "$compile_rounds" -gt 0 ]; then
    cargo fetch >>"$log" 2>&1 # untimed: only compilation is timed
    work=$(mktemp -d /tmp/mcp-http-compile.XXXXXX)
    trap 'rm -rf "$work"' EXIT
    declare -A walls cpus
    echo "load average before the builds: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)" >&2
    for round in $(seq 1 "$compile_rounds"); do
        if [ $((round % 2)) = 1 ]; then order="http-bench-ours http-bench-rmcp"; else order="http-bench-rmcp http-bench-ours"; fi
        for package in $order; do
            target="$work/$package-$round"
            if ! python3 - "$target" "$package" >"$work/timing" 2>"$CARGO_TARGET_DIR/http-compile-$package.log" <<'PY'
import os, resource, subprocess, sys, time
target, package = sys.argv[1], sys.argv[2]
env = dict(os.environ, CARGO_TARGET_DIR=target)
t0 = time.monotonic()
r = subprocess.run(["cargo", "build", "--release", "--quiet", "-p", package], env=env)
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
if r.returncode != 0:
    sys.exit(r.returncode)
print(f"{wall:.1f} {ru.ru_utime + ru.ru_stime:.1f}")
PY
            then
                echo "cold build of $package failed:" >&2
                tail -n 30 "$CARGO_TARGET_DIR/http-compile-$package.log" >&2
                exit 1
            fi
            read -r wall cpu <"$work/timing"
            rm -rf "$target"
            echo "compile $package round $round: ${wall} s wall, ${cpu} s cpu (user+sys); load average now $(cut -d' ' -f1-3 /proc/loadavg)" >&2
            walls[$package]="${walls[$package]:-} $wall"
            cpus[$package]="${cpus[$package]:-} $cpu"
        done
    done
    compile_rows=$(python3 - "${walls[http-bench-ours]}" "${walls[http-bench-rmcp]}" \
        "${cpus[http-bench-ours]}" "${cpus[http-bench-rmcp]}" "$compile_rounds" <<'PY'
import statistics, sys
ours, rmcp, ours_cpu, rmcp_cpu = ([float(x) for x in a.split()] for a in sys.argv[1:5])
rounds = sys.argv[5]
def m(xs): return statistics.median(xs)
print(f"| cold `cargo build --release` of the server (wall, median of {rounds}) | {m(ours):.1f} s | {m(rmcp):.1f} s | {m(ours) / m(rmcp):.2f}x |")
print(f"| the same build's CPU time (user + sys) | {m(ours_cpu):.1f} s | {m(rmcp_cpu):.1f} s | {m(ours_cpu) / m(rmcp_cpu):.2f}x |")
PY
)
fi
printf '%s\n' "$table"
if [ -n "$compile_rows" ]; then printf '%s\n' "$compile_rows"; fi
