#!/usr/bin/env bash
# Builds and runs every fuzz target for <seconds-per-target> seconds each (stable toolchain,
# libFuzzer without a sanitizer), printing exactly one line per target on stdout:
#   fuzz <target>: <execs> execs, <crashes> crashes
# Seeds the corpora first (seed.sh) and installs cargo-fuzz when it is missing. Build output
# goes to stderr; each run's libFuzzer log to fuzz/target/logs/<target>.log; crashes to
# fuzz/artifacts/<target>/ (a crash stops that target's run; re-run an artifact with
# `cargo fuzz run -s none <target> fuzz/artifacts/<target>/<file>`).
# Inputs are at most FUZZ_MAX_LEN bytes (4096): longer lines and sessions add little coverage
# and slow every execution. Each corpus is minimized (`-merge=1`) before its run, so a corpus
# grown by earlier runs does not slow the start and the corpus bookkeeping.
# Environment: FUZZ_TARGETS="dispatch results" limits the targets; FUZZ_RUNS=N also stops a
# target after N executions (whichever comes first, per worker); FUZZ_WORKERS=N runs N fuzzing
# processes per target at once on the same corpus (libFuzzer reloads what the others add), the
# printed count being their sum and their logs fuzz/target/logs/<target>.<n>.log; FUZZ_ARGS
# adds libFuzzer flags.
set -uo pipefail
seconds="${1:?usage: fuzz/run.sh <seconds-per-target>}"
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
targets="${FUZZ_TARGETS:-dispatch results uri_template base64 validate json_reader www_authenticate http_headers input_required auth_metadata server client}"

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "installing cargo-fuzz" >&2
  cargo install cargo-fuzz --locked >&2 || exit 2
fi
./seed.sh >&2 || exit 2
# Many codegen units: the generated modules are large and a build with one unit takes long;
# FUZZ_CODEGEN_UNITS=1 trades build time for slightly faster runs.
units="${FUZZ_CODEGEN_UNITS:-16}"
max_len="${FUZZ_MAX_LEN:-4096}"
workers="${FUZZ_WORKERS:-1}"
cargo fuzz build -s none --codegen-units "$units" >&2 || exit 2
binaries="target/$(rustc -vV | sed -n 's/^host: //p')/release"

mkdir -p target/logs
status=0
for target in $targets; do
  mkdir -p "artifacts/$target" "corpus/$target"
  before="$(ls "artifacts/$target" | sort)"
  log="target/logs/$target.log"
  # Minimize: keep the smallest inputs that reach every feature the corpus reaches.
  rm -rf "target/minimized/$target" && mkdir -p "target/minimized/$target"
  if "$binaries/$target" -merge=1 -max_len="$max_len" -timeout=30 "target/minimized/$target" \
    "corpus/$target" >"target/logs/$target.merge.log" 2>&1; then
    rm -rf "corpus/$target" && mv "target/minimized/$target" "corpus/$target"
  fi
  # An input that crashes is left out of the merge, which writes it here and succeeds: it is
  # this target's crash all the same.
  for found in crash-* timeout-* oom-*; do
    if [ -e "$found" ]; then mv "$found" "artifacts/$target/"; fi
  done
  logs=()
  pids=()
  for ((worker = 1; worker <= workers; worker++)); do
    [ "$workers" -eq 1 ] || log="target/logs/$target.$worker.log"
    logs+=("$log")
    # shellcheck disable=SC2086
    cargo fuzz run -s none --codegen-units "$units" "$target" -- -max_total_time="$seconds" -timeout=30 -max_len="$max_len" \
      -print_final_stats=1 ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} ${FUZZ_ARGS:-} >"$log" 2>&1 &
    pids+=($!)
  done
  code=0
  for pid in "${pids[@]}"; do
    wait "$pid" || code=$?
  done
  execs=0
  for log in "${logs[@]}"; do
    count="$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -1)"
    if [ -z "$count" ]; then
      count="$(sed -n 's/^#\([0-9]*\).*\(DONE\|pulse\|NEW\|REDUCE\|INITED\).*/\1/p' "$log" | tail -1)"
    fi
    execs=$((execs + ${count:-0}))
  done
  after="$(ls "artifacts/$target" | sort)"
  crashes="$(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after") | grep -c .)"
  if [ "$code" -ne 0 ] && [ "$crashes" -eq 0 ]; then
    crashes=1 # failed without an artifact (build or startup failure): see the log
  fi
  [ "$crashes" -eq 0 ] || status=1
  echo "fuzz $target: ${execs:-0} execs, $crashes crashes"
done
exit "$status"
