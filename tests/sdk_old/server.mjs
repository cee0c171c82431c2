// A server of an older release of the official TypeScript SDK (one of package.json's aliases),
// offering the tools of the crate's HTTP server example: `add` and `sum`, each of `a` and `b`.
// Used by tests/sdk_old.rs, for the README's client to reach a server whose newest revision is
// the alias's.
//
// usage: node server.mjs <sdk-2024-11-05 | sdk-2025-03-26 | sdk-2025-06-18> <stdio | http>
//
// Over stdio it serves its standard input and output. Over Streamable HTTP it listens on a free
// port of 127.0.0.1, prints `listening on http://127.0.0.1:<port>/mcp`, and keeps a transport
// a session, as the SDK's own examples of these releases do.

import http from "node:http";
import { randomUUID } from "node:crypto";
import { z } from "zod";

const [sdk, transport] = process.argv.slice(2);
const { McpServer } = await import(`${sdk}/server/mcp.js`);

function server() {
  const mcp = new McpServer({ name: sdk, version: "1.0.0" });
  const numbers = { a: z.number(), b: z.number() };
  mcp.tool("add", numbers, async ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  mcp.tool("sum", numbers, async ({ a, b }) => ({
    content: [{ type: "text", text: JSON.stringify({ sum: a + b }) }],
  }));
  return mcp;
}

if (transport === "stdio") {
  const { StdioServerTransport } = await import(`${sdk}/server/stdio.js`);
  await server().connect(new StdioServerTransport());
} else if (transport === "http") {
  const { StreamableHTTPServerTransport } = await import(`${sdk}/server/streamableHttp.js`);
  const sessions = new Map();
  const listener = http.createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString();
    let body;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      response.writeHead(400).end();
      return;
    }
    const id = request.headers["mcp-session-id"];
    let session = id ? sessions.get(id) : undefined;
    if (id && !session) {
      response.writeHead(404).end();
      return;
    }
    if (!session) {
      session = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (made) => sessions.set(made, session),
      });
      await server().connect(session);
    }
    await session.handleRequest(request, response, body);
  });
  listener.listen(0, "127.0.0.1", () => {
    console.log(`listening on http://127.0.0.1:${listener.address().port}/mcp`);
  });
} else {
  console.error("usage: node server.mjs <sdk alias> <stdio | http>");
  process.exit(2);
}
