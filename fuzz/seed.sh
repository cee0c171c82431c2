#!/usr/bin/env bash
# Regenerates the seed corpora fuzz/corpus/<target>/ (git-ignored), or <dir>/<target>/ when
# given a directory (replay.sh's, which replays the seeds alone), from the vendored spec
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
exec python3 - "$examples" "${1:-$here/corpus}" <<'EOF'
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
schemas, requests, retry_params, input_results, auth_documents = [], [], [], [], []
# What a server sends a client: results (with the revision whose shape they have), error
# objects, and the lines with a method (its requests and notifications, and others).
server_results, server_errors, server_lines = [], [], []
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
        if key == "inputSchema" and isinstance(v, dict):
            schemas.append(v)
        if isinstance(v, dict):
            if v.get("resultType") == "input_required":
                input_results.append(v)
            elif "inputResponses" in v or "requestState" in v:
                retry_params.append(v)
            if isinstance(v.get("method"), str) and isinstance(v.get("params"), dict):
                requests.append((v["method"], v["params"]))
    base = os.path.basename(path)
    if "authorization" in base and isinstance(value, dict):
        auth_documents.append(raw)
        auth_documents.append(compact(value))
    if os.sep + "InputResponses" + os.sep in path and isinstance(value, dict):
        retry_params.append({"inputResponses": value})
    if os.sep + "InputRequests" + os.sep in path and isinstance(value, dict):
        input_results.append({"resultType": "input_required", "inputRequests": value})
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
            server_results.append((rev, result))
    for m in messages:
        if isinstance(m, dict) and isinstance(m.get("error"), dict):
            server_errors.append(m["error"])
        elif isinstance(m, dict) and "jsonrpc" in m and isinstance(m.get("method"), str):
            server_lines.append(m)
    if not is_message and isinstance(value, dict) and "code" in value and "message" in value:
        server_errors.append(value)

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

# `WWW-Authenticate` values: RFC 6750 §3, RFC 9728 §5.1, RFC 9110 §11.6.1, RFC 9449 §7.1 and
# §8, RFC 7617, and the MCP authorization pages (including their folded lines).
CHALLENGES = [
    'Bearer realm="example"',
    'Bearer realm="example", error="invalid_token", error_description="The access token expired"',
    'Bearer error="invalid_request", error_description="No access token was provided in this request", resource_metadata="https://resource.example.com/.well-known/oauth-protected-resource"',
    'Bearer resource_metadata="https://resource.example.com/.well-known/oauth-protected-resource"',
    'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read"',
    'Bearer error="insufficient_scope", scope="files:read files:write user:profile:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", error_description="Additional file write permission required"',
    'Bearer error="insufficient_scope",\r\n                         scope="files:read files:write",\r\n                         resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"',
    'Bearer realm="example",\n  error="invalid_token",\n  error_description="The access token expired"',
    'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"',
    'Basic realm="WallyWorld", charset="UTF-8"',
    'Basic realm="simple", Bearer, Negotiate YIIFyQYGKwYBBQUCoIIFvTCCBbmgMDAuBgkqhkiC9xIBAgIGCSqGSIb3EgECAgYKKwYBBAGCNwICHgYKKwYBBAGCNwICCqKCBYMEggV/',
    'DPoP algs="ES256 PS256"',
    'DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof"',
    'DPoP algs="ES256", Bearer realm="example", error="invalid_token"',
    'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
    'Newauth abc==, Bearer',
    'bearer REALM=x , , error = invalid_token',
    ', Bearer',
    'Bearer realm="caf\u00e9", error_description="\\\\ and \\" escaped"',
]
for header in CHALLENGES:
    put("www_authenticate", header)
put("www_authenticate", "\0".join(CHALLENGES[:3]))
put("www_authenticate", "\0".join(['Basic realm="simple"', CHALLENGES[5]]))
put("www_authenticate", "\0".join(["Bearer", "realm", "example", "scope", "files:read files:write"]))
put("www_authenticate", "\0".join(["Newauth", "abc=="]))

# `http_headers`: inputSchema \0 arguments \0 method \0 params \0 name:value...
SCHEMA = {"type": "object", "properties": {
    "region": {"type": "string", "description": "The region", "x-mcp-header": "Region"},
    "priority": {"type": "integer", "x-mcp-header": "Priority"},
    "verbose": {"type": ["boolean", "null"], "x-mcp-header": "Verbose"},
    "query": {"type": "string"},
    "target": {"type": "object", "properties": {
        "tenant": {"type": "string", "x-mcp-header": "Tenant-Id"}}}},
    "required": ["region"]}
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
tool_schemas = [SCHEMA] + schemas[:20] + [
    {"type": "object", "properties": {"list": {"type": "array", "items": {"type": "string", "x-mcp-header": "L"}}}},
    {"type": "object", "properties": {"p": {"type": "number", "x-mcp-header": "P"}}},
    {"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "Dup"}, "b": {"type": "string", "x-mcp-header": "dup"}}},
    {"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "My Region"}}},
]
ARGUMENTS = [
    {"region": "us-west1", "priority": 42, "verbose": True, "query": "SELECT 1", "target": {"tenant": "acme"}},
    {"region": "Hello, \u4e16\u754c", "priority": 42.0, "verbose": None},
    {"region": " padded ", "priority": -9007199254740991},
    {"region": "=?base64?literal?=", "priority": 1.5},
    {"location": "New York"},
]
HEADER_VALUES = ["us-west1", "=?base64?SGVsbG8sIOS4lueVjA==?=", "=?base64?IHBhZGRlZCA=?=",
                 "=?base64?SGVsbG8?=", " 42 ", "true", "\u00e9t\u00e9", "=?base64?/w==?="]
for i, schema in enumerate(tool_schemas):
    arguments = ARGUMENTS[i % len(ARGUMENTS)]
    params = {"name": "execute_sql", "arguments": arguments, "_meta": META}
    headers = ["Mcp-Method:tools/call", "Mcp-Name:execute_sql", "MCP-Protocol-Version:2026-07-28",
               "Mcp-Param-Region:" + HEADER_VALUES[i % len(HEADER_VALUES)], "mcp-param-priority: 42"]
    put("http_headers", "\0".join([compact(schema), compact(arguments), "tools/call", compact(params)] + headers))
    put("http_headers", compact(schema))
for method, params in requests[:40]:
    headers = ["Mcp-Method:" + method, "MCP-Protocol-Version:2026-07-28"]
    name = params.get("name", params.get("uri", params.get("taskId")))
    if isinstance(name, str):
        headers.append("Mcp-Name:" + name)
    put("http_headers", "\0".join([compact(SCHEMA), compact(params.get("arguments", {})), method, compact(params)] + headers))
for method, params in [("resources/read", {"uri": "file:///a b", "_meta": META}),
                       ("prompts/get", {"name": "m\u00e9t\u00e9o", "_meta": META}),
                       ("tasks/get", {"taskId": "t-1", "_meta": META}),
                       ("tools/list", {"_meta": META})]:
    put("http_headers", "\0".join(["{}", "{}", method, compact(params), "mcp-method: " + method, "Mcp-Name:=?base64?bcOpdMOpbw==?="]))
for value in HEADER_VALUES:
    put("http_headers", value)

# `input_required`: retried params \0 InputRequiredResult \0 client capabilities \0 state.
CAPABILITIES = [{"elicitation": {}, "sampling": {}, "roots": {}},
                {"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}, "context": {}}},
                {"roots": {"listChanged": True}}, {}]
STATES = [b'{"round":1,"tool":"get_weather","asked":["github_login"]}',
          b'{"round":2,"tool":"scan","asked":[],"answers":{"name":"Ada"}}',
          b'"opaque"', b'AEAD-protected blob', b'v1.eyJyb3VuZCI6MX0=', b'\xff{"round":1}']
ROUND_TRIP = {"name": "get_weather", "arguments": {"location": "New York"},
              "inputResponses": {"github_login": {"action": "accept", "content": {"name": "octocat"}},
                                 "capital_of_france": {"role": "assistant", "model": "claude-3-sonnet-20240307",
                                                       "content": {"type": "text", "text": "Paris."}},
                                 "client_roots": {"roots": [{"uri": "file:///work", "name": "work"}]}},
              "requestState": "AEAD-protected blob", "_meta": META}
retries = retry_params[:20] + [ROUND_TRIP, {"name": "t"}, {"inputResponses": None}, {"requestState": 7},
                               {"uri": "file:///a", "inputResponses": {"k": {"neither": "kind"}}}]
results = input_results[:20] + [
    {"resultType": "input_required", "requestState": "s"},
    {"resultType": "input_required", "inputRequests": {"client_roots": {"method": "roots/list"}}}]
for i, retry in enumerate(retries):
    result = results[i % len(results)]
    put("input_required", "\0".join([compact(retry), compact(result),
                                      compact(CAPABILITIES[i % len(CAPABILITIES)])]).encode() + b"\0" + STATES[i % len(STATES)])
for i, result in enumerate(results):
    put("input_required", "\0".join([compact(ROUND_TRIP), compact(result),
                                      compact(CAPABILITIES[i % len(CAPABILITIES)])]).encode() + b"\0" + STATES[i % len(STATES)])
for state in STATES:
    put("input_required", b"{}\0{}\0{}\0" + state)

# `auth_metadata`: a document \0 a URL, scope or expected value \0 a redirect \0 a redirect URI.
AUTH_DOCUMENTS = [
    # RFC 9728 §3.2
    {"resource": "https://resource.example.com", "authorization_servers": ["https://as1.example.com", "https://as2.example.net"],
     "bearer_methods_supported": ["header", "body"], "scopes_supported": ["profile", "email", "phone"],
     "resource_documentation": "https://resource.example.com/resource_documentation.html"},
    # The MCP authorization pages
    {"resource": "https://mcp.example.com/mcp", "authorization_servers": ["https://auth.example.com"],
     "scopes_supported": ["mcp:tools", "mcp:resources"], "resource_name#ja-Jpan-JP": "\u30ea\u30bd\u30fc\u30b9",
     "dpop_bound_access_tokens_required": False, "jwks_uri": None},
    # RFC 8414 §3.2
    {"issuer": "https://server.example.com", "authorization_endpoint": "https://server.example.com/authorize",
     "token_endpoint": "https://server.example.com/token",
     "token_endpoint_auth_methods_supported": ["client_secret_basic", "private_key_jwt"],
     "token_endpoint_auth_signing_alg_values_supported": ["RS256", "ES256"],
     "userinfo_endpoint": "https://server.example.com/userinfo", "jwks_uri": "https://server.example.com/jwks.json",
     "registration_endpoint": "https://server.example.com/register",
     "scopes_supported": ["openid", "profile", "email", "address", "phone", "offline_access"],
     "response_types_supported": ["code", "code token"],
     "service_documentation": "http://server.example.com/service_documentation.html",
     "ui_locales_supported": ["en-US", "en-GB", "en-CA", "fr-FR", "fr-CA"]},
    {"issuer": "https://auth.example.com", "authorization_endpoint": "https://auth.example.com/authorize",
     "token_endpoint": "https://auth.example.com/token", "code_challenge_methods_supported": ["S256"],
     "grant_types_supported": ["authorization_code", "refresh_token"],
     "authorization_response_iss_parameter_supported": True, "client_id_metadata_document_supported": True,
     "dpop_signing_alg_values_supported": ["ES256"], "protected_resources": ["https://mcp.example.com/mcp"]},
    # RFC 7591 §3.2.1 and §3.2.2
    {"client_id": "s6BhdRkqt3", "client_secret": "cf136dc3c1fc93f31185e5885805d", "client_id_issued_at": 2893256800,
     "client_secret_expires_at": 2893276800, "redirect_uris": ["https://client.example.org/callback",
     "https://client.example.org/callback2"], "grant_types": ["authorization_code", "refresh_token"],
     "client_name": "My Example Client", "client_name#ja-Jpan-JP": "\u30af\u30e9\u30a4\u30a2\u30f3\u30c8\u540d",
     "token_endpoint_auth_method": "client_secret_basic", "logo_uri": "https://client.example.org/logo.png",
     "jwks_uri": "https://client.example.org/my_public_keys.jwks", "example_extension_parameter": "example_value"},
    {"error": "invalid_redirect_uri", "error_description": "The redirection URI http://sketchy.example.com is not allowed by this server."},
    {"error": "invalid_client_metadata", "error_description": "The grant type 'authorization_code' must be registered along with the response type 'code' but found only 'implicit' instead."},
    # RFC 6749 §5.1 and §5.2
    {"access_token": "2YotnFZFEjr1zCsicMWpAA", "token_type": "example", "expires_in": 3600,
     "refresh_token": "tGzv3JOkF0XG5Qx2TlKWIA", "example_parameter": "example_value"},
    {"access_token": "eyJhbGciOiJFUzI1NiJ9.e30.sig", "token_type": "DPoP", "expires_in": 3600, "scope": "mcp:tools offline_access",
     "issued_token_type": "urn:ietf:params:oauth:token-type:access_token"},
    {"error": "invalid_request"},
    {"error": "use_dpop_nonce", "error_description": "Authorization server requires nonce in DPoP proof", "error_uri": "https://as.example.com/errors"},
    # RFC 7591 §2 client metadata
    {"redirect_uris": ["http://localhost:3000/callback"], "client_name": "Example MCP Client", "application_type": "native",
     "token_endpoint_auth_method": "none", "grant_types": ["authorization_code"], "response_types": ["code"],
     "jwks": {"keys": [{"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}},
]
EXTRAS = [
    ["https://mcp.example.com/mcp", "http://localhost:3000/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz&iss=https%3A%2F%2Fauth.example.com", "http://localhost:3000/callback"],
    ["xyz", "code=SplxlOBeZQQYbYS6WxSbIA&state=xyz", "http://localhost:3000/callback"],
    ["https://auth.example.com", "error=access_denied&error_description=denied&state=xyz", "https://client.example.org/callback"],
    ["dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "https://evil.example.com/callback?code=c", "http://localhost:3000/callback"],
    ["HTTPS://MCP.Example.com:8443/mcp/?q=1#frag", "mcp:basic mcp:write", "offline_access"],
]
documents = auth_documents + [compact(d) for d in AUTH_DOCUMENTS]
for i, document in enumerate(documents):
    put("auth_metadata", document)
    put("auth_metadata", "\0".join([document] + EXTRAS[i % len(EXTRAS)]))
put("auth_metadata", "\0".join(["https://mcp.example.com"] + EXTRAS[0]))
put("auth_metadata", '{"resource": 1}')
put("auth_metadata", '{"issuer": "https://a", "issuer": "https://b"}')
put("auth_metadata", '"not an object"')

# `server`: sessions, one message a line: each lifecycle, a stateless client, and bad input.
SERVER_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": {}}
def initialize(version):
    return {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}
STATEFUL_REQUESTS = [{"jsonrpc": "2.0", "method": "notifications/initialized"},
                     {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                     {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}},
                     {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "note:///7"}},
                     {"jsonrpc": "2.0", "id": 4, "method": "resources/list", "params": {"cursor": "1"}},
                     {"jsonrpc": "2.0", "id": 5, "method": "prompts/get", "params": {"name": "greet"}},
                     {"jsonrpc": "2.0", "id": "p", "method": "ping"},
                     {"jsonrpc": "2.0", "id": 6, "method": "resources/subscribe", "params": {"uri": "memo://hi"}},
                     {"jsonrpc": "2.0", "id": 7, "method": "resources/unsubscribe", "params": {"uri": "memo://hi"}},
                     {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}]
for version in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "1999-01-01"):
    put("server", "\n".join(compact(m) for m in [initialize(version)] + STATEFUL_REQUESTS))
put("server", "\n".join([compact(initialize("2025-03-26")), compact(STATEFUL_REQUESTS[1:4])]))
stateless = [dict(m, params=dict(m.get("params", {}), _meta=SERVER_META)) for m in STATEFUL_REQUESTS[1:]]
stateless.append({"jsonrpc": "2.0", "id": 8, "method": "server/discover", "params": {"_meta": SERVER_META}})
stateless.append({"jsonrpc": "2.0", "id": "s", "method": "subscriptions/listen", "params": {"_meta": SERVER_META,
    "notifications": {"resourceSubscriptions": ["memo://hi"], "resourcesListChanged": True, "toolsListChanged": True}}})
stateless.append({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "s", "_meta": SERVER_META}})
put("server", "\n".join(compact(m) for m in stateless))
put("server", "\n".join(compact(dict(m, params=dict(m.get("params", {}), _meta=dict(SERVER_META, **{
    "io.modelcontextprotocol/protocolVersion": v})))) for m, v in zip(stateless, ["draft", "2099-01-01", "2025-11-25"])))
put("server", '{"jsonrpc":"2.0","id":6,\n[1,2]\n{"jsonrpc":"2.0","id":null,"method":"tools/list"}\n')
# The `roots` tool: relayed to a stateful client as `roots/list` (answered, refused, late).
ROOTS_CALL = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "roots"}}
put("server", "\n".join(compact(m) for m in [initialize("2025-11-25"), STATEFUL_REQUESTS[0], ROOTS_CALL,
    {"jsonrpc": "2.0", "id": 1, "result": {"roots": [{"uri": "file:///w"}]}}, dict(ROOTS_CALL, id=10),
    {"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "no"}},
    {"jsonrpc": "2.0", "id": 2, "result": {"roots": []}}]))
put("server", "\n".join(compact(m) for m in [dict(ROOTS_CALL, params={"name": "roots", "_meta": SERVER_META})]))
# Over HTTP: a session's GET stream, a subscription told on it, the roots asked on the call's
# stream, a versioned line, a closed stream, and the session's end.
put("server", "\n".join([compact(initialize("2025-11-25")), "GET", "GET", compact(STATEFUL_REQUESTS[7]),
    compact(ROOTS_CALL), compact({"jsonrpc": "2.0", "id": 1, "result": {"roots": []}}),
    " 2025-11-25" + compact(STATEFUL_REQUESTS[1]), "CLOSE", "GET", "DELETE", "GET"]))
# A long call answered on a stream opened first (the roots asked on it), and the annotated
# `region` tool called statelessly (its header is missing from what the target sends).
put("server", "\n".join([compact(initialize("2025-11-25")), "LONG" + compact(ROOTS_CALL),
    compact({"jsonrpc": "2.0", "id": 1, "result": {"roots": []}}),
    "LONG" + compact(dict(ROOTS_CALL, id=11, params={"name": "echo"})),
    compact({"jsonrpc": "2.0", "id": 12, "method": "tools/call",
             "params": {"name": "region", "arguments": {"region": "eu"}, "_meta": SERVER_META}})]))

# `client`: what a server sends to clients with requests in flight. Each connected client of
# the target sent the same method under the same id (fuzz_targets/client.rs).
CLIENT_IDS = {"server/discover": 2, "initialize": 2, "tools/list": 3, "tools/call": 4,
              "resources/read": 5, "prompts/get": 6, "resources/list": 7,
              "resources/templates/list": 8, "prompts/list": 9, "completion/complete": 10,
              "subscriptions/listen": 11}
# The id of a request the 2026-07-28 client sends again (after `input_required` or a refused
# version): the first after those above.
RETRY_ID = 12
# Which request a result answers, by a member only its result has.
RESULT_KEYS = [("tools", "tools/list"), ("contents", "resources/read"), ("messages", "prompts/get"),
               ("resourceTemplates", "resources/templates/list"), ("resources", "resources/list"),
               ("prompts", "prompts/list"), ("completion", "completion/complete"),
               ("supportedVersions", "server/discover"), ("protocolVersion", "initialize"),
               ("content", "tools/call"), ("structuredContent", "tools/call"), ("isError", "tools/call")]
STATELESS_MEMBERS = ("resultType", "ttlMs", "cacheScope")

def answered_method(result):
    for key, method in RESULT_KEYS:
        if key in result:
            return method
    return None

def shapes(rev, result):
    # As its revision writes it, and in the other revisions' shape: a stateful server's
    # result has no `resultType` nor cache hints, a 2026-07-28 server's has them.
    yield result
    if REVISIONS[rev] >= "2026-07-28":
        yield {k: v for k, v in result.items() if k not in STATELESS_MEMBERS}
    else:
        yield dict(result, resultType="complete")
        yield dict(result, resultType="complete", ttlMs=0, cacheScope="private")

def response(id, result):
    return compact({"jsonrpc": "2.0", "id": id, "result": result})

def error_response(id, error):
    return compact({"jsonrpc": "2.0", "id": id, "error": error})

first_answers = {}
for rev, result in server_results:
    method = answered_method(result)
    if method is None:
        continue
    for shaped in shapes(rev, result):
        line = response(CLIENT_IDS[method], shaped)
        put("client", line)
        first_answers.setdefault((method, "resultType" in shaped), line)
        # The `result` first: the one-pass read leaves it to the general path.
        put("client", '{"result":%s,"id":%d,"jsonrpc":"2.0"}' % (compact(shaped), CLIENT_IDS[method]))
CLIENT_ROUND = {"resultType": "input_required", "requestState": "eyJyb3VuZCI6MX0",
                "inputRequests": {"roots": {"method": "roots/list"},
                                  "name": {"method": "elicitation/create", "params": {"message": "Name?",
                                           "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}},
                                  "capital": {"method": "sampling/createMessage", "params": {"maxTokens": 10,
                                              "messages": [{"role": "user", "content": {"type": "text", "text": "Capital of France?"}}]}}}}
for result in input_results[:20] + [CLIENT_ROUND]:
    for method in ("tools/call", "resources/read", "prompts/get"):
        put("client", response(CLIENT_IDS[method], result))
UNSUPPORTED = {"code": -32022, "message": "Unsupported protocol version",
               "data": {"supported": ["2026-07-28"], "requested": "2026-07-28"}}
errors = server_errors[:40] + [UNSUPPORTED, {"code": -32002, "message": "Resource not found", "data": {"uri": "file:///a"}}]
for i, error in enumerate(errors):
    put("client", error_response(3 + i % 9, error))
for error in errors[:10]:
    for id in (1, 2, 99, "x", None):
        put("client", error_response(id, error))
for m in server_lines[:200]:
    put("client", compact(m))
# Sessions: every request answered, then answered again (each answer is unpaired the second
# time); an input round and the request's answer sent again; a refused version and the retry's
# answer; the server's requests between answers.
for stateless in (True, False):
    answers = [line for (method, shaped), line in sorted(first_answers.items()) if shaped == stateless]
    put("client", "\n".join(answers + answers))
call_result = {"content": [{"type": "text", "text": "done"}], "resultType": "complete"}
put("client", "\n".join([response(4, CLIENT_ROUND), response(RETRY_ID, call_result), response(RETRY_ID, call_result)]))
put("client", "\n".join([response(6, dict(CLIENT_ROUND, inputRequests={"roots": {"method": "roots/list"}})),
                           response(RETRY_ID, dict(CLIENT_ROUND, inputRequests={"roots": {"method": "roots/list"}})),
                           response(RETRY_ID + 1, {"messages": [], "resultType": "complete"})]))
put("client", "\n".join([error_response(5, UNSUPPORTED), error_response(RETRY_ID, UNSUPPORTED),
                           response(RETRY_ID, {"contents": [], "resultType": "complete", "ttlMs": 0, "cacheScope": "private"})]))
put("client", "\n".join([compact({"jsonrpc": "2.0", "id": "s1", "method": "roots/list"}),
                           compact({"jsonrpc": "2.0", "id": 7, "method": "ping"}),
                           compact({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
                           response(3, {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]})]))
# The answers that connect the discovering and the initializing clients.
put("client", "\n".join([error_response(1, {"code": -32601, "message": "Method not found"}),
                           response(2, {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}})]))
put("client", response(1, {"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "supportedVersions": ["2026-07-28"],
                           "capabilities": {}}))
# Lines that are not a plain response: broken, duplicated members, ids of another type, batches.
READ = {"contents": [{"uri": "file:///a", "text": "hi"}], "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}
for line in ["", "{", "[]", "null", "{}", "7", '"text"', '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","id":5}',
             '{"jsonrpc":"1.0","id":5,"result":%s}' % compact(READ),
             '{"id":5,"result":%s}' % compact(READ),
             '{"jsonrpc":"2.0","id":5,"result":%s,"error":{"code":1,"message":"x"}}' % compact(READ),
             '{"jsonrpc":"2.0","id":5,"id":6,"result":%s}' % compact(READ),
             '{"jsonrpc":"2.0","id":5,"result":%s,"result":%s}' % (compact(READ), compact(READ)),
             '{"jsonrpc":"2.0","jsonrpc":"2.0","id":5,"result":%s}' % compact(READ),
             '{"jsonrpc":"2.0","id":5.0,"result":%s}' % compact(READ),
             '{"jsonrpc":"2.0","id":"5","result":%s}' % compact(READ),
             '{"jsonrpc":"2.0","id":18446744073709551621,"result":{}}',
             '{"jsonrpc":"2.0","id":5,"x-trace":[1,{"a":null}],"result":%s}' % compact(READ),
             '{"jsonrpc":"2.0","id":5,"method":"ping","result":{}}',
             '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
             '{"jsonrpc":"2.0","id":5,"error":{"message":"no code"}}',
             '[%s,%s]' % (response(3, {"tools": []}), response(4, call_result)),
             '{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":{"maxTokens":"ten"}}',
             '{"jsonrpc":"2.0","id":9,"method":"x/custom","params":{}}',
             '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1}}',
             "[" * 200 + "]" * 200, '{"jsonrpc":"2.0","id":5,"result":%s}' % ('{"a":' * 100 + "1" + "}" * 100)]:
    put("client", line)
put("client", b'{"jsonrpc":"2.0","id":5,"result":{"contents":[{"uri":"\xff","text":"\xc3"}]}}')

for target in ("dispatch", "results", "uri_template", "base64", "validate", "json_reader",
               "www_authenticate", "http_headers", "input_required", "auth_metadata", "server",
               "client"):
    os.makedirs(os.path.join(corpus, target), exist_ok=True)
    total = len(os.listdir(os.path.join(corpus, target)))
    print(f"seed {target}: {counts.get(target, 0)} new, {total} in corpus")
EOF
