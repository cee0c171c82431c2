#!/usr/bin/env bash
# Usage: bench/store.sh [--rounds N] [--seconds S] [--warmup S] [--connections C]
# What keeping a server's state in Redis costs one replica (bench/README.md, "Replicas"):
# `tools/call` over Streamable HTTP, this crate's `StreamableHttp` with its state in memory (the
# default) against the same server with its state in Redis (`with_store(RedisStore)`), in one
# run of the HTTP load generator (bench/http/load: interleaved rounds, 2026-07-28 stateless and
# 2025-11-25 in one session). The servers and Redis share CPU 0, the load runs on CPU 1.
# Then the state one session holds in Redis: its record's JSON (STRLEN) and what Redis spends
# on the key (MEMORY USAGE). Needs redis-server and redis-cli (the package redis-server).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target/store}"
load_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds|--seconds|--warmup|--connections)
            load_args+=("$1" "${2:?$1 needs a value}"); shift ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done
for tool in redis-server redis-cli /usr/bin/taskset; do
    command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }
done

mkdir -p "$CARGO_TARGET_DIR"
log="$CARGO_TARGET_DIR/store-build.log"
cd "$here/http"
echo "building (release; log: $log) ..." >&2
cargo build --release -p http-bench-ours --features redis >"$log" 2>&1
cargo build --release -p http-bench-load >>"$log" 2>&1
bin="$CARGO_TARGET_DIR/release"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/bin/taskset -c 0 redis-server --bind 127.0.0.1 --port "$port" --save "" --appendonly no \
    >"$CARGO_TARGET_DIR/redis.log" 2>&1 &
redis=$!
trap 'kill "$redis" 2>/dev/null || true' EXIT
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done
# The same server, its state in Redis.
with_redis="$CARGO_TARGET_DIR/http-bench-ours-redis"
printf '#!/bin/sh\nexec "%s" --redis redis://127.0.0.1:%s/ "$@"\n' "$bin/http-bench-ours" "$port" >"$with_redis"
chmod +x "$with_redis"

echo "commit $(git -C "$here/.." rev-parse --short HEAD), $(date -u +%Y-%m-%d)" >&2
/usr/bin/taskset -c 1 "$bin/http-bench-load" --ours "$bin/http-bench-ours" --rmcp "$with_redis" \
    --names "in memory,in Redis" --sessions 0 "${load_args[@]}"

key=$(redis-cli -p "$port" --scan --pattern 'mcp:session:*' | head -n 1)
[ -n "$key" ] || { echo "no session in Redis" >&2; exit 1; }
echo
echo "one 2025-11-25 session in Redis: its record $(redis-cli -p "$port" STRLEN "$key") bytes of JSON," \
    "$(redis-cli -p "$port" MEMORY USAGE "$key") bytes of Redis memory ($key)"
