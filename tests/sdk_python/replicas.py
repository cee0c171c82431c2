"""Speaks to replicas of the replica example behind a load balancer with the official Python SDK
client (`mcp` 2.x, pinned in requirements.txt), and prints what it saw as one JSON object. Used
by tests/replicas_redis.rs, which runs the replicas, Redis and the load balancer, and is told
through files in <dir> when to act (`<dir>/<step>` appears), and tells it (writes
`<dir>/<step>`) where it waits.

usage: replicas.py <URL> <auto|legacy> <dir>

`auto` (2026-07-28): `whoami` three times (each call lands on the next replica); a
`subscriptions/listen` stream for memo://n/1..3, then `bump` 1..3, each told on the stream
whatever replica bumped it; `confirm`, whose two `input_required` rounds wait, each, for the
test to rotate the replicas' keys (`asked-<k>`, then `go-<k>`).

`legacy` (2025-11-25): a session; `whoami` three times in it; subscribed to memo://n/1..10;
`bump` 1..5, told on the session's stream; then (`ready`) the test stops the replica holding
that stream, bumps 6..10 on the others, kills it, and says so once the client's stream is back
on another (`killed`): the client, making no request meanwhile, must hear 6..10 too.
"""

import json
import os
import sys

import anyio
from mcp import Client, types


async def until(path: str) -> None:
    with anyio.fail_after(60):
        while not os.path.exists(path):
            await anyio.sleep(0.05)


def say(path: str) -> None:
    with open(path, "w") as f:
        f.write("")


async def whoami(client: Client) -> list[str]:
    names = []
    for _ in range(3):
        called = await client.call_tool("whoami", {})
        names.append(called.content[0].text)
    return names


async def auto(url: str, folder: str) -> dict:
    rounds = 0

    async def confirm(context, params: types.ElicitRequestParams) -> types.ElicitResult:
        nonlocal rounds
        rounds += 1
        say(f"{folder}/asked-{rounds}")
        await until(f"{folder}/go-{rounds}")
        return types.ElicitResult(action="accept", content={})

    async with Client(url, mode="auto", elicitation_callback=confirm, read_timeout_seconds=20) as client:
        names = await whoami(client)
        told = []
        uris = [f"memo://n/{n}" for n in range(1, 4)]
        async with client.listen(resource_subscriptions=uris) as events:
            for n in range(1, 4):
                await client.call_tool("bump", {"n": n})
            with anyio.fail_after(10):
                async for event in events:
                    told.append(event.uri)
                    if len(told) == 3:
                        break
        confirmed = await client.call_tool("confirm", {})
        return {
            "version": client.protocol_version,
            "names": names,
            "told": told,
            "confirmed": confirmed.content[0].text,
            "rounds": rounds,
        }


async def legacy(url: str, folder: str) -> dict:
    told = []

    async def on_message(message) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            told.append(str(message.params.uri))

    async def told_at_least(count: int) -> None:
        with anyio.fail_after(15):
            while len(told) < count:
                await anyio.sleep(0.05)

    async with Client(url, mode="legacy", message_handler=on_message, read_timeout_seconds=20) as client:
        names = await whoami(client)
        for n in range(1, 11):
            await client.session.subscribe_resource(f"memo://n/{n}")  # 2025-11-25's way
        say(f"{folder}/subscribed")
        await until(f"{folder}/listening")
        for n in range(1, 6):
            await client.call_tool("bump", {"n": n})
        await told_at_least(5)
        say(f"{folder}/ready")
        await until(f"{folder}/killed")
        await told_at_least(10)
        await anyio.sleep(0.3)  # anything told twice would come now
        return {"version": client.protocol_version, "names": names, "told": told}


async def main(url: str, mode: str, folder: str) -> None:
    seen = await (auto(url, folder) if mode == "auto" else legacy(url, folder))
    print(json.dumps(seen))


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:4])
