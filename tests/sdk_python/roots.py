"""Calls an example server's `roots` tool with the official Python SDK client (`mcp` 2.x,
pinned in requirements.txt), answering the server's request for roots with one root, and
prints the revision and the tool's text as one JSON object. Used by tests/sdk_python.rs.

usage: roots.py <server binary | http://... URL> <auto|legacy>

A binary is spoken to over stdio (the async example), a URL over Streamable HTTP (the HTTP
example). `auto` speaks 2026-07-28: the tool's first answer is `input_required`, which the
client answers and retries. `legacy` speaks 2025-11-25: the server asks `roots/list` during the
call (over HTTP, on the call's event stream).
"""

import json
import sys

import anyio
from mcp import Client, types
from mcp.client.stdio import StdioServerParameters


async def main(server: str, mode: str) -> None:
    async def roots(context) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri="file:///work", name="work")])

    target = server if server.startswith("http://") else StdioServerParameters(command=server, args=[])
    async with Client(target, mode=mode, list_roots_callback=roots, read_timeout_seconds=10) as client:
        called = await client.call_tool("roots", {})
        seen = {"version": client.protocol_version, "text": called.content[0].text}
    print(json.dumps(seen))


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:3])
