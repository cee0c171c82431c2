"""A server of the official Python SDK (`mcp` 2.x, pinned in tests/sdk_python/requirements.txt)
over Streamable HTTP, offering the tools of the crate's HTTP server example (`add` and `sum`, of
`a` and `b`), for the README's client to reach (tests/sdk_old.rs). The SDK serves 2026-07-28 to
a client that discovers it.

usage: python_server.py <port>
"""

import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("python-adder", version="1.0.0")


@server.tool()
def add(a: float, b: float) -> str:
    """Adds two numbers."""
    return str(a + b)


@server.tool()
def sum(a: float, b: float) -> dict:
    """Adds two numbers, as structured content."""
    return {"sum": a + b}


if __name__ == "__main__":
    server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
