#!/usr/bin/env bash
# Usage: bench/app-build.sh [--rounds N] [--modes "release dev"] [--keep]
# A user's first build of a server: the README's HTTP server (examples/http-server.rs) as a
# crate of its own (mcp-spec-types with `http-server` and `v2025_11_25` as a path dependency,
# tokio, serde, schemars), and the same server on rmcp 3.11.0 (bench/http/rmcp: `server`,
# `macros`, `transport-streamable-http-server`, axum), both with the versions of
# bench/http/Cargo.lock. For each mode (`release`: `cargo build --release`, `dev`:
# `cargo build`), each crate is built cold (a fresh target directory, the sources already
# downloaded), one after the other, the order swapped each round; in dev mode `src/main.rs` is
# then touched and built again (the incremental rebuild after an edit of the program).
# Prints each build's wall and CPU (user + sys) seconds and, per mode, the ratios of the
# means (mcp-spec-types / rmcp), with the machine's core count. The crates and their targets
# are in a throwaway directory, removed at the end (kept with --keep).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
rounds=1
modes="release dev"
keep=0
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=${2:?--rounds needs a number}; shift ;;
        --modes) modes=${2:?--modes needs release and/or dev}; shift ;;
        --keep) keep=1 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

work=$(mktemp -d /tmp/mcp-app-build.XXXXXX)
cleanup() { if [ "$keep" = 0 ]; then rm -rf "$work"; else echo "kept $work" >&2; fi; }
trap cleanup EXIT

# The README's server, its dependencies as a user adds them.
mkdir -p "$work/ours/src" "$work/rmcp/src"
cat >"$work/ours/Cargo.toml" <<TOML
[package]
name = "app-build-ours"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
mcp-spec-types = { path = "$repo", features = ["http-server", "v2025_11_25"] }
tokio = { version = "1.38", features = ["rt-multi-thread", "net", "macros"] }
serde = { version = "1", features = ["derive"] }
schemars = { version = "1.0", features = ["derive"] }
TOML
cp "$repo/examples/http-server.rs" "$work/ours/src/main.rs"
# rmcp's, as the HTTP bench builds it.
sed -e '/^\[dependencies\]/,$d' "$here/http/rmcp/Cargo.toml" >"$work/rmcp/Cargo.toml"
cat >>"$work/rmcp/Cargo.toml" <<'TOML'
[workspace]

[dependencies]
rmcp = { version = "=3.11.0", default-features = false, features = ["server", "macros", "transport-streamable-http-server"] }
axum = { version = "0.8", default-features = false, features = ["tokio", "http1"] }
tokio = { version = "1.38", features = ["rt-multi-thread", "net", "macros"] }
serde = { version = "1", features = ["derive"] }
schemars = { version = "1.0", features = ["derive"] }
TOML
cp "$here/http/rmcp/src/main.rs" "$work/rmcp/src/main.rs"
for name in ours rmcp; do
    # The HTTP bench's versions; cargo drops what a crate does not use.
    cp "$here/http/Cargo.lock" "$work/$name/Cargo.lock"
    (cd "$work/$name" && cargo fetch --quiet) >"$work/$name/fetch.log" 2>&1 || {
        echo "fetch of $name failed:" >&2; tail -n 20 "$work/$name/fetch.log" >&2; exit 1; }
done

# One timed cargo run: "wall cpu" in seconds.
timed() { # dir, target dir, cargo arguments...
    local dir=$1 target=$2
    shift 2
    python3 - "$dir" "$target" "$@" <<'PY'
import os, resource, subprocess, sys, time
d, target, args = sys.argv[1], sys.argv[2], sys.argv[3:]
env = dict(os.environ, CARGO_TARGET_DIR=target)
t0 = time.monotonic()
r = subprocess.run(["cargo", *args, "--quiet"], cwd=d, env=env,
                   stdout=subprocess.DEVNULL, stderr=open(os.path.join(target + ".log"), "a"))
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
if r.returncode != 0:
    sys.exit(r.returncode)
print(f"{wall:.1f} {ru.ru_utime + ru.ru_stime:.1f}")
PY
}

echo "commit $(git -C "$repo" rev-parse --short HEAD), $(date -u +%Y-%m-%d), $(nproc) cores," \
    "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
results="$work/results"
: >"$results"
for mode in $modes; do
    case "$mode" in
        release) args="build --release" ;;
        dev) args="build" ;;
        *) echo "a mode is release or dev, not $mode" >&2; exit 2 ;;
    esac
    for round in $(seq 1 "$rounds"); do
        order="ours rmcp"
        [ $((round % 2)) = 0 ] && order="rmcp ours"
        for name in $order; do
            target="$work/target-$name-$mode-$round"
            mkdir -p "$target"
            if ! read -r wall cpu < <(timed "$work/$name" "$target" $args); then
                echo "build of $name ($mode) failed:" >&2; tail -n 30 "$target.log" >&2; exit 1
            fi
            echo "$mode cold $name $wall $cpu" >>"$results"
            echo "$mode round $round: $name cold: $wall s wall, $cpu s CPU" \
                "(load average $(cut -d' ' -f1 /proc/loadavg))"
            if [ "$mode" = dev ]; then
                touch "$work/$name/src/main.rs"
                read -r wall cpu < <(timed "$work/$name" "$target" $args)
                echo "$mode incremental $name $wall $cpu" >>"$results"
                echo "$mode round $round: $name after an edit of main.rs: $wall s wall, $cpu s CPU"
            fi
            rm -rf "$target"
        done
    done
done
python3 - "$results" <<'PY'
import sys
from collections import defaultdict
runs = defaultdict(list)
for line in open(sys.argv[1]):
    mode, kind, name, wall, cpu = line.split()
    runs[(mode, kind, name)].append((float(wall), float(cpu)))
for (mode, kind, name) in sorted(k for k in runs if k[2] == "ours"):
    ours, rmcp = runs[(mode, kind, "ours")], runs.get((mode, kind, "rmcp"))
    if not rmcp:
        continue
    mean = lambda xs, i: sum(x[i] for x in xs) / len(xs)
    print(f"{mode} {kind}: mcp-spec-types {mean(ours, 0):.1f} s wall, {mean(ours, 1):.1f} s CPU;"
          f" rmcp {mean(rmcp, 0):.1f} s wall, {mean(rmcp, 1):.1f} s CPU;"
          f" ratio {mean(ours, 0) / mean(rmcp, 0):.2f}x wall, {mean(ours, 1) / mean(rmcp, 1):.2f}x CPU")
PY
