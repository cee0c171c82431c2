#!/usr/bin/env bash
# Regenerates the seed corpora fuzz/corpus/<target>/ (git-ignored) from the vendored spec
# examples: tests/fixtures/spec/** when present, else ../shared/mcp-spec/examples/**.
# Seeds are only added: files libFuzzer wrote to the corpora during earlier runs are kept.
# Needs python3.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
if [ -d "$root/tests/fixtures/spec" ]; then
  examples="$root/tests/fixtures/spec"
elif [ -d "$root/../shared/mcp-spec/examples" ]; then
  examples="$(cd "$root/../shared/mcp-spec/examples" && pwd)"
else
  echo "seed.sh: no spec examples (tests/fixtures/spec or ../shared/mcp-spec/examples)" >&2
  exit 1
fi
exec python3 - "$examples" "$here/corpus" <<'EOF'
import hashlib, json, os, re, sys

examples, corpus = sys.argv[1], sys.argv[2]
REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"]
counts = {}

def put(target, data):
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    directory = os.path.join(corpus, target)
    os.makedirs(directory, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    path = os.path.join(directory, name)
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
        counts[target] = counts.get(target, 0) + 1

def revision_of(path):
    # .../<revision>/... or a file name that carries the revision
    for part in path.split(os.sep)[::-1]:
        for i, r in enumerate(REVISIONS):
            if part == r or part.startswith(r):
                return i
    for i, r in enumerate(REVISIONS):
        if r in path:
            return i
    return None

def strip_comments(text):
    # The documentation's examples carry `// ...` comments; drop them outside strings.
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < len(text):
                out.append(text[i + 1]); i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True; out.append(c)
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        else:
            out.append(c)
        i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))

def walk(value, key=None):
    yield key, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v, key)

def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

sessions = {i: [] for i in range(len(REVISIONS))}
templates, uris, blobs = set(), set(), set()
files = []
for dirpath, _, names in os.walk(examples):
    for name in sorted(names):
        if name.endswith(".json"):
            files.append(os.path.join(dirpath, name))
files.sort()
for path in files:
    rev = revision_of(os.path.relpath(path, examples))
    if rev is None:
        continue
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    try:
        value = json.loads(raw)
    except ValueError:
        try:
            value = json.loads(strip_comments(raw))
        except ValueError:
            value = None
    if value is None:
        # Kept as text: the fuzzer learns from the shapes even where they are not JSON.
        put("dispatch", raw)
        continue
    for key, v in walk(value):
        if key == "uriTemplate" and isinstance(v, str):
            templates.add(v)
        elif key == "uri" and isinstance(v, str):
            uris.add(v)
        elif key in ("blob", "data") and isinstance(v, str):
            blobs.add(v)
    # Every example as it is written (whitespace and all) and compact.
    put("json_reader", raw)
    put("json_reader", compact(value))
    messages = value if isinstance(value, list) else [value]
    is_message = all(isinstance(m, dict) and "jsonrpc" in m for m in messages)
    if is_message:
        put("dispatch", compact(value))
        put("dispatch", raw)
        for m in messages:
            sessions[rev].append(compact(m))
            put("validate", compact(m))
            for d in ("c2s", "s2c"):
                put("validate", compact({"dir": d, "msg": m}))
    elif isinstance(value, dict):
        # A definition's example: as params of a notification nobody defines, and as a result.
        put("dispatch", compact({"jsonrpc": "2.0", "method": "x/example", "params": value}))
        put("dispatch", compact({"jsonrpc": "2.0", "id": 1, "result": value}))
    results = [m["result"] for m in messages if isinstance(m, dict) and "result" in m]
    if not is_message and isinstance(value, dict) and "Result" in path:
        results.append(value)
    for result in results:
        if isinstance(result, dict):
            put("results", compact(result))

for rev, lines in sessions.items():
    if lines:
        put("validate", "\n".join(lines))
        put("validate", "\r\n".join(lines[:20]))
put("results", b"{}")
put("results", compact({"contents": [
    {"uri": "file:///a", "text": "hi"}, {"uri": "file:///b", "blob": "aGk="}]}))

# RFC 6570 section 1.2 and 3.2 examples, and the templates and URIs the spec shows.
RFC = ["{var}", "{hello}", "{+var}", "{+hello}", "{+path}/here", "here?ref={+path}", "X{#var}",
       "X{#hello}", "map?{x,y}", "{x,hello,y}", "{+x,hello,y}", "{+path,x}/here", "{#x,hello,y}",
       "{#path,x}/here", "X{.var}", "X{.x,y}", "{/var}", "{/var,x}/here", "{;x,y}", "{;x,y,empty}",
       "{?x,y}", "{?x,y,empty}", "?fixed=yes{&x}", "{&x,y,empty}", "{var:3}", "{var:30}", "{list}",
       "{list*}", "{keys}", "{keys*}", "{+path:6}/here", "{+list*}", "{+keys*}", "{#path:6}/here",
       "{#list*}", "{#keys*}", "X{.list*}", "X{.keys*}", "{/var:1,var}", "{/list*}", "{/list*,path:4}",
       "{/keys*}", "{;hello:5}", "{;list*}", "{;keys*}", "{?var:3}", "{?list*}", "{?keys*}", "{&var:3}",
       "{&list*}", "{&keys*}", "file:///{path}", "file:///{+path}", "users://{userId}/profile",
       "repo://{owner}/{repo}/issues{?state,page}", "weather://forecast/{city}/{date}",
       "github://repos/{owner}/{repo}/contents{/path*}", "{a}{b}", "{+a}/{+b}", "x{a}-{b}y", "{a%20b}"]
values = ["value", "Hello World!", "/foo/bar", "", "1024", "768", "fred", "a,b", "%41", "caf\u00e9",
          "semi;dot.comma,", "\u00e9t\u00e9/\u00e0?#"]
for i, template in enumerate(sorted(templates) + RFC):
    vs = [values[(i + k) % len(values)] for k in range(3)]
    put("uri_template", template)
    put("uri_template", "\0".join([template] + vs))
    for uri in sorted(uris)[:40]:
        if i % 7 == 0:
            put("uri_template", "\0".join([template, vs[0], uri]))

for blob in sorted(blobs) + ["", "QQ==", "QUI=", "QUJD", "QR==", "Q===", "aGk=\n", "-_8=", "//4="]:
    put("base64", b"\x01" + blob.encode())
for data in [b"", b"\x00", b"hello", bytes(range(256)), b"\xff\xfe\xfd"]:
    put("base64", b"\x00" + data)

for target in ("dispatch", "results", "uri_template", "base64", "validate"):
    os.makedirs(os.path.join(corpus, target), exist_ok=True)
    total = len(os.listdir(os.path.join(corpus, target)))
    print(f"seed {target}: {counts.get(target, 0)} new, {total} in corpus")
EOF
