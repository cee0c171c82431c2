#!/usr/bin/env bash
# Builds what a user gets from the registry: `cargo package`, then a small consumer crate
# against the unpacked package with the default features (a file the build needs that
# `include` leaves out fails here: every build reads every revision's schema, enabled or not,
# for the table of methods), then `cargo install` of the packaged crate's `mcp-validate`, run
# on the bundled sample session. The consumer asks for `cli` too and builds with the profile
# the package's own manifest sets, so the install finds the library already built: one build of
# the packaged crate serves both. Every revision's module compiles from these same sources in
# the test run; the package adds no file of its own to check. That `latest` follows the enabled
# revisions is the library's own test (`src/lib.rs`), run with one revision.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# Reuse the compiled dependencies of the target directory the caller uses (the checkout's by
# default): only the packaged crate itself is new.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"

cargo package --no-verify --allow-dirty --quiet
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)
packaged="$CARGO_TARGET_DIR/package/mcp-spec-types-$version"
# The runtime is packaged beside it (same version): a registry would serve it from its own
# package, so the consumer and the install take it from there, not from the repository.
packaged_runtime="$CARGO_TARGET_DIR/package/mcp-spec-types-runtime-$version"
rm -rf "$packaged" "$packaged_runtime"
tar -xzf "$CARGO_TARGET_DIR/package/mcp-spec-types-$version.crate" -C "$CARGO_TARGET_DIR/package"
tar -xzf "$CARGO_TARGET_DIR/package/mcp-spec-types-runtime-$version.crate" -C "$CARGO_TARGET_DIR/package"
runtime_patch="patch.crates-io.mcp-spec-types-runtime.path=\"$packaged_runtime\""
for needed in LICENSE-MIT LICENSE-APACHE CHANGELOG.md README.md schema/LICENSE.md schema/revisions.json; do
    [ -f "$packaged/$needed" ] || { echo "the package lacks $needed" >&2; exit 1; }
done

consumer=$(mktemp -d)
trap 'rm -rf "$consumer"' EXIT
mkdir -p "$consumer/src"
cat >"$consumer/Cargo.toml" <<TOML
[package]
name = "consumer"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
mcp-spec-types = { path = "$packaged", features = ["cli"] }
serde_json = "1"

# The package's own dev profile, which an install with --debug builds it with.
[profile.dev]
debug = "line-tables-only"
[profile.dev.package."*"]
debug = false
[profile.dev.package.mcp-spec-types]
debug = "line-tables-only"

[workspace]
TOML
cat >"$consumer/src/main.rs" <<'RS'
//! Reads one message with the newest enabled revision, as a user's first program would.
use mcp_spec_types::dispatch::Message;
use mcp_spec_types::latest::{ClientCall, ClientMessage, ProgressNotificationParams};

/// A long decimal survives parse -> write -> parse when a user reads the crate's types with
/// serde_json itself (tests/regressions.rs, `a_long_decimal_survives_the_round_trip`). The
/// crate's own reader rounds correctly whatever serde_json's features; serde_json does only
/// with `float_roundtrip`, which the crate's dependency turns on. Checked here because this
/// build has none of the crate's dev-dependencies (the `jsonschema` one turns it on too).
fn check_float_round_trip() {
    let text = r#"{"progressToken":"t","progress":999999999999999999999999999999999999999999999950,"total":100}"#;
    let first: ProgressNotificationParams = serde_json::from_str(text).expect("the params read");
    let written = serde_json::to_string(&first).expect("the params write");
    let second: ProgressNotificationParams = serde_json::from_str(&written).expect("read back");
    if first != second {
        eprintln!("consumer: a long decimal changed in a round trip: {text} -> {written}");
        std::process::exit(1);
    }
}

fn main() {
    check_float_round_trip();
    let line = r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a.txt","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    match ClientMessage::parse(line) {
        Ok(Message::Request(request)) if matches!(request.call, ClientCall::ReadResource(_)) => {
            println!("consumer: read resources/read with revision {}", mcp_spec_types::latest::REVISION);
        }
        other => {
            eprintln!("consumer: unexpected {other:?}");
            std::process::exit(1);
        }
    }
}
RS
cp Cargo.lock "$consumer/Cargo.lock"
got=$(cd "$consumer" && cargo run --quiet --config "$runtime_patch")
echo "$got"
[ "$got" = "consumer: read resources/read with revision 2026-07-28" ] || { echo "expected revision 2026-07-28" >&2; exit 1; }

install_root="$consumer/install"
cargo install --quiet --debug --locked --path "$packaged" --features cli --root "$install_root" \
    --config "$runtime_patch"
summary=$("$install_root/bin/mcp-validate" "$root/examples/data/sample-session.jsonl")
echo "installed mcp-validate: $summary"
case "$summary" in
    *"valid, 0 invalid") ;;
    *) echo "the installed mcp-validate did not validate the sample" >&2; exit 1 ;;
esac
