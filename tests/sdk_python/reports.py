"""Calls a tool of an example server with the official Python SDK client (`mcp` 2.x, pinned in
requirements.txt), asking for progress (and, with `log`, for log messages at `info`), and prints
the revision, the progress reports, the log messages and the tool's text as one JSON object,
with when each report and the answer came (`arrived`: milliseconds after the call was made,
the reports in order, then the answer) and in what order each report, log message and the
answer reached the client (`order`). Used by tests/sdk_python.rs.

usage: reports.py <server binary | http://... URL> <auto|legacy> <tool> <arguments as JSON> [log]

A binary is spoken to over stdio, a URL over Streamable HTTP.

`auto` speaks 2026-07-28, where each request asks for its log messages in `_meta` (the
client's `log_level`); `legacy` speaks 2025-11-25, where the session asks once with
`logging/setLevel`.
"""

import json
import sys
import time

import anyio
from mcp import Client, types
from mcp.client.stdio import StdioServerParameters


async def main(server: str, mode: str, tool: str, arguments: str, log: str = "") -> None:
    progress = []
    logs = []
    arrived = []
    order = []
    started = time.monotonic()

    def since_start() -> int:
        return round((time.monotonic() - started) * 1000)

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append([done, total, message])
        arrived.append(since_start())
        order.append(f"progress {done:g}")

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        logs.append([params.level, params.data])
        order.append("log")

    target = server if server.startswith("http://") else StdioServerParameters(command=server, args=[])
    level = "info" if log == "log" else None
    async with Client(
        target, mode=mode, logging_callback=on_log, log_level=level, read_timeout_seconds=10
    ) as client:
        if mode == "legacy" and level:
            await client.set_logging_level(level)
        started = time.monotonic()
        called = await client.call_tool(tool, json.loads(arguments), progress_callback=on_progress)
        arrived.append(since_start())
        order.append("answer")
        seen = {
            "version": client.protocol_version,
            "progress": progress,
            "logs": logs,
            "text": called.content[0].text,
            "arrived": arrived,
            "order": order,
        }
    print(json.dumps(seen))


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:6])
