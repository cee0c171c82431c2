"""A server of the official Python SDK (`mcp` 2.x, pinned in requirements.txt) over stdio: two
tools (one of which asks the client for its roots) and one resource, for tests/sdk_python.rs to drive with the crate's client engine. The
SDK serves 2026-07-28 to a client that discovers it and the revisions with `initialize` to
one that initializes.
"""

from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("python-memo", version="1.0.0")


@server.tool()
def echo(text: str) -> str:
    """Says the text back."""
    return text


@server.tool()
async def roots(ctx: Context) -> str:
    """Names the client's roots, asked of the client with `roots/list`."""
    listed = await ctx.session.list_roots()
    return " ".join(f"{root.name}={root.uri}" for root in listed.roots)


@server.resource("memo://hi", name="hi", mime_type="text/plain")
def hi() -> str:
    """A greeting."""
    return "Hi!"


if __name__ == "__main__":
    server.run("stdio")
