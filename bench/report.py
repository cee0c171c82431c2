#!/usr/bin/env python3
"""Turns one run of the `compare` bench into the summary lines (see README.md).

Reads the check verdicts and workload sizes that the bench wrote (bench-status.json) and the
mean point estimate of every timed function from criterion's
<criterion>/<group>/<function>/new/estimates.json.

stdout: exactly one line per workload and direction:
  W<n> <deserialize|serialize>: project <a> MB/s, rmcp <b> MB/s, rust-mcp-schema <c> MB/s,
  sonic-rs <s> MB/s, floor <f> MB/s, vs-best-peer <a/max(b,c)>x, vs-sonic-rs <a/s>x
(MB = 10^6 bytes). The peers are rmcp and rust-mcp-schema; sonic-rs (reading and writing this
crate's own types) is a row of its own. An implementation that was not timed (it rejected or
altered the workload, or has no adapter for it) shows `n/a`. For serialize, "floor" is
serializing the serde_json::Value of the document.
stderr: the check verdicts, so that whatever was not timed is said, with the reason.

--markdown prints a Markdown table (with the serde_json::Value column too) instead.
"""

import json
import os
import sys

IMPLS = ["project", "rmcp", "rust-mcp-schema", "sonic-rs"]
PEERS = ["rmcp", "rust-mcp-schema"]


def mean_ns(criterion_dir, group, function):
    path = os.path.join(criterion_dir, group, function, "new", "estimates.json")
    try:
        with open(path) as f:
            return json.load(f)["mean"]["point_estimate"]
    except FileNotFoundError:
        return None


def mbps(nbytes, ns):
    # bytes per nanosecond * 1e9 = bytes/s; / 1e6 = MB/s
    return None if ns is None or ns <= 0 else nbytes * 1e3 / ns


def fmt(x):
    return "n/a" if x is None else f"{x:.1f}"


def fmt_ratio(x):
    return "n/a" if x is None else f"{x:.2f}x"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(here, "target"))
    criterion_dir = os.environ.get("CRITERION_HOME", os.path.join(target, "criterion"))
    status_path = os.environ.get("BENCH_STATUS", os.path.join(target, "bench-status.json"))
    markdown = "--markdown" in sys.argv[1:]

    with open(status_path) as f:
        status = json.load(f)

    rows = []
    for w in status["workloads"]:
        for direction in ("deserialize", "serialize"):
            group = f"{w['name']}_{direction}"
            speed = {}
            for imp in IMPLS:
                ok = w["verdicts"][imp]["status"] == "ok"
                speed[imp] = mbps(w["bytes"], mean_ns(criterion_dir, group, imp)) if ok else None
            speed["floor"] = mbps(w["bytes"], mean_ns(criterion_dir, group, "floor"))
            speed["value"] = mbps(w["bytes"], mean_ns(criterion_dir, group, "value"))
            peers = [speed[p] for p in PEERS if speed[p] is not None]
            ratio = None
            if speed["project"] is not None and peers:
                ratio = speed["project"] / max(peers)
            vs_sonic = None
            if speed["project"] is not None and speed["sonic-rs"] is not None:
                vs_sonic = speed["project"] / speed["sonic-rs"]
            rows.append((w, direction, speed, ratio, vs_sonic))

    if markdown:
        print(
            "| workload | direction | bytes | mcp-spec-types | rmcp | rust-mcp-schema | sonic-rs "
            "| floor | serde_json::Value | vs best peer | vs sonic-rs |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for w, direction, s, ratio, vs_sonic in rows:
            value = fmt(s["value"]) if direction == "deserialize" else "(= floor)"
            print(
                f"| {w['name']} | {direction} | {w['bytes']:,} | {fmt(s['project'])} | {fmt(s['rmcp'])} "
                f"| {fmt(s['rust-mcp-schema'])} | {fmt(s['sonic-rs'])} | {fmt(s['floor'])} | {value} "
                f"| {fmt_ratio(ratio)} | {fmt_ratio(vs_sonic)} |"
            )
    else:
        for w, direction, s, ratio, vs_sonic in rows:
            print(
                f"{w['name']} {direction}: project {fmt(s['project'])} MB/s, rmcp {fmt(s['rmcp'])} MB/s, "
                f"rust-mcp-schema {fmt(s['rust-mcp-schema'])} MB/s, sonic-rs {fmt(s['sonic-rs'])} MB/s, "
                f"floor {fmt(s['floor'])} MB/s, vs-best-peer {fmt_ratio(ratio)}, "
                f"vs-sonic-rs {fmt_ratio(vs_sonic)}"
            )

    for w in status["workloads"]:
        print(f"{w['name']} ({w['bytes']:,} bytes, {w['what']}): checked {w.get('figures', '')}", file=sys.stderr)
        for imp in IMPLS:
            v = w["verdicts"][imp]
            if v["status"] != "ok":
                print(f"{w['name']} {imp}: {v['status'].upper()}, not timed: {v['reason']}", file=sys.stderr)
            else:
                print(f"{w['name']} {imp}: ok", file=sys.stderr)
                for note in v.get("notes", []):
                    print(f"{w['name']} {imp}: note: {note}", file=sys.stderr)
    print(f"clock: {status.get('clock', 'wall')}", file=sys.stderr)
    if status.get("quick"):
        print("(quick run: short measurement, numbers are rough)", file=sys.stderr)


if __name__ == "__main__":
    main()
