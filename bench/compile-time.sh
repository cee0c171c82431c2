#!/usr/bin/env bash
# Usage: bench/compile-time.sh [--keep] [--mode release|dev|check]
# Cold `cargo build --release` wall time (`--mode dev`: `cargo build`, `--mode check`:
# `cargo check`) of seven throwaway crates. Five are one line that depends on exactly one
# of: mcp-spec-types with its default features, mcp-spec-types with `all-revisions` (both
# path dependencies on this repository), rmcp (default-features = false: its `model` module
# needs no feature), rust-mcp-schema (default features), and a serde-only baseline (serde with
# `derive` and serde_json: what any serde-based types crate builds at the least). Two read and
# write every message of both directions, one with each of mcp-spec-types (2026-07-28) and
# rmcp: what a consumer that uses the types compiles. Each gets a
# fresh target directory; dependencies are fetched first, so only compilation is timed. The
# crates are built one after the other in the same run.
# Prints one line per crate on stdout (wall-clock seconds):
#   compile <name> (<mode>): <seconds> s
# and, on stderr, each build's CPU time (user + sys) and the load average, since on a shared
# machine the wall time also measures everyone else's work.
# Build logs go to the throwaway directory, which is removed at the end (kept with --keep).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
keep=0
mode=release
while [ $# -gt 0 ]; do
    case "$1" in
        --keep) keep=1 ;;
        --mode) mode=${2:?--mode needs release, dev or check}; shift ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
case "$mode" in
    release) cargo_args="build --release" ;;
    dev) cargo_args="build" ;;
    check) cargo_args="check" ;;
    *) echo "--mode is release, dev or check, not $mode" >&2; exit 2 ;;
esac

work=$(mktemp -d /tmp/mcp-compile-time.XXXXXX)
cleanup() { if [ "$keep" = 0 ]; then rm -rf "$work"; else echo "kept $work" >&2; fi; }
trap cleanup EXIT

make_crate() { # name, dependency line, crate to re-export, [library source]
    local dir="$work/$1"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "compile-time-$1"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
$2
TOML
    if [ $# -ge 4 ]; then
        printf '%s\n' "$4" >"$dir/src/lib.rs"
    else
        echo "pub use $3 as dep;" >"$dir/src/lib.rs"
    fi
}

make_crate mcp-spec-types "mcp-spec-types = { path = \"$repo\" }" mcp_spec_types
make_crate mcp-spec-types-all-revisions \
    "mcp-spec-types = { path = \"$repo\", features = [\"all-revisions\"] }" mcp_spec_types
make_crate rmcp 'rmcp = { version = "3.9.0", default-features = false }' rmcp
make_crate rust-mcp-schema 'rust-mcp-schema = "2.0.0"' rust_mcp_schema
# A consumer that reads and writes every message of both directions, results included: the
# readers a one-line consumer does not call are compiled where they are called (the crate's
# message readers are `#[inline]` roots), so this is what a server or client pays.
make_crate mcp-spec-types-reading "mcp-spec-types = { path = \"$repo\" }
serde_json = { version = \"1\", features = [\"raw_value\"] }" mcp_spec_types '
use mcp_spec_types::dispatch::PendingRequest;
use mcp_spec_types::v2026_07_28::{ClientCallResult, ClientMessage, ServerCallResult, ServerMessage};
pub fn client(text: &str) -> Option<String> {
    Some(ClientMessage::parse(text).ok()?.to_json())
}
pub fn server(text: &str) -> Option<String> {
    Some(ServerMessage::parse(text).ok()?.to_json())
}
pub fn result(method: &str, result: &serde_json::value::RawValue) -> Option<String> {
    let request = PendingRequest::without_task(method);
    let server = ServerCallResult::parse(&request, result).ok()?;
    let client = ClientCallResult::parse(&request, result).ok()?;
    mcp_spec_types::json::to_string(&(server, client)).ok()
}'
# rmcp reads its results untagged, within the message.
make_crate rmcp-reading 'rmcp = { version = "3.9.0", default-features = false }
serde_json = "1"' rmcp '
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
pub fn client(text: &str) -> Option<String> {
    let message: ClientJsonRpcMessage = serde_json::from_str(text).ok()?;
    serde_json::to_string(&message).ok()
}
pub fn server(text: &str) -> Option<String> {
    let message: ServerJsonRpcMessage = serde_json::from_str(text).ok()?;
    serde_json::to_string(&message).ok()
}'
make_crate serde-only 'serde = { version = "1.0.200", features = ["derive"] }
serde_json = "1.0.120"' serde_json

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)" >&2
for name in mcp-spec-types mcp-spec-types-all-revisions rmcp rust-mcp-schema serde-only \
    mcp-spec-types-reading rmcp-reading; do
    dir="$work/$name"
    # Untimed: resolve and download, so the timing is compilation only.
    (cd "$dir" && cargo fetch --quiet) >"$dir/fetch.log" 2>&1
    # Wall time of the cold build; its CPU time (user + sys of cargo and every rustc it ran)
    # goes to stderr, as it depends less on what else the machine is doing.
    if ! python3 - "$name" "$dir" $cargo_args >"$dir/timing" 2>"$dir/build.log" <<'PY'
import os, resource, subprocess, sys, time
name, d, args = sys.argv[1], sys.argv[2], sys.argv[3:]
env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(d, "target"))
t0 = time.monotonic()
r = subprocess.run(["cargo", *args, "--quiet"], cwd=d, env=env)
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
if r.returncode != 0:
    sys.exit(r.returncode)
print(f"{wall:.1f} {ru.ru_utime + ru.ru_stime:.1f}")
PY
    then
        echo "build of $name failed:" >&2
        tail -n 30 "$dir/build.log" >&2
        exit 1
    fi
    read -r wall cpu <"$dir/timing"
    version=$(cd "$dir" && cargo tree --depth 1 --prefix none 2>/dev/null | sed -n 2p)
    echo "  $version: cpu (user+sys) ${cpu} s; load average now $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    echo "compile $name ($mode): $wall s"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
