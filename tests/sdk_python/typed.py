"""Calls the typed tools of the HTTP example with the official Python SDK client (`mcp` 2.x,
pinned in requirements.txt): `sum`, whose result is structured, and `add` without its `a`,
which the server answers as a tool error. Prints the revision and what each call gave as one
JSON object. Used by tests/sdk_python.rs.

usage: typed.py <http://... URL> <auto|legacy>
"""

import json
import sys

import anyio
from mcp import Client


async def main(server: str, mode: str) -> None:
    async with Client(server, mode=mode, read_timeout_seconds=10) as client:
        # Listing first: the client then checks each structured result against the tool's
        # `outputSchema`.
        await client.list_tools()
        summed = await client.call_tool("sum", {"a": 2, "b": 3.5})
        bad = await client.call_tool("add", {"b": 1})
        seen = {
            "version": client.protocol_version,
            "structured": summed.structured_content,
            "text": summed.content[0].text,
            "bad": {"isError": bad.is_error, "text": bad.content[0].text},
        }
    print(json.dumps(seen))


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:3])
