"""Drives the example resource server over stdio with the official Python SDK client (`mcp`
2.x, pinned in requirements.txt), in one connection mode, and prints what the client saw as one
JSON object. Used by tests/sdk_python.rs.

usage: client.py <server binary> <folder> <auto|legacy>

`auto` discovers the server (`server/discover`) and speaks 2026-07-28; `legacy` opens a
session with `initialize` at the newest revision that has it (2025-11-25). In each mode the
client pages through `resources/list` (two a page), reads a file and a missing one, and
subscribes to a file (`subscriptions/listen` in `auto`, `resources/subscribe` in `legacy`),
then changes it and waits for the update.
"""

import json
import pathlib
import sys
import warnings

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

# `legacy` uses the 2025 revisions' `resources/subscribe` on purpose.
warnings.simplefilter("ignore", MCPDeprecationWarning)


async def main(binary: str, folder: str, mode: str) -> None:
    seen: dict = {}
    updates: list[str] = []
    updated = anyio.Event()

    async def on_message(message) -> None:
        if getattr(message, "method", None) == "notifications/resources/updated":
            updates.append(message.params.uri)
            updated.set()

    hello = pathlib.Path(folder, "hello.txt").resolve()
    params = StdioServerParameters(command=binary, args=["--page-size", "2", folder])
    async with Client(params, mode=mode, message_handler=on_message, read_timeout_seconds=10) as client:
        seen["version"] = client.protocol_version
        names, cursor, pages = [], None, 0
        while True:
            page = await client.list_resources(cursor=cursor)
            names += [resource.name for resource in page.resources]
            pages += 1
            cursor = page.next_cursor
            if cursor is None:
                break
        seen["names"], seen["pages"] = names, pages
        read = await client.read_resource(hello.as_uri())
        seen["text"] = read.contents[0].text
        try:
            await client.read_resource(hello.with_name("missing.txt").as_uri())
            seen["missing"] = None
        except MCPError as error:
            seen["missing"] = error.code
        if mode == "legacy":
            await client.subscribe_resource(hello.as_uri())
            hello.write_text("changed\n")
            with anyio.fail_after(5):
                await updated.wait()
            seen["updated"] = updates[0]
        else:
            async with client.listen(resource_subscriptions=[hello.as_uri()]) as subscription:
                seen["honored"] = sorted(subscription.honored.resource_subscriptions or [])
                hello.write_text("changed\n")
                with anyio.fail_after(5):
                    event = await subscription.__anext__()
                seen["updated"] = event.uri
    print(json.dumps(seen))


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:4])
