// End-to-end client for the README's first server (`examples/first-server.rs`): the
// TypeScript SDK v2 client spawns the server and talks to it over stdio, either pinned to a
// stateless revision (`2026-07-28`) or in its `legacy` mode, the 2025 sequence with
// `initialize` (which asks for 2025-11-25).
//
//   node first-server.mjs <server binary | http://.../mcp> <2026-07-28 | legacy>
//
// With a URL it talks Streamable HTTP to a server already listening there (the first
// server's router over HTTP, `examples/http-server.rs`).
//
// Prints one JSON object with what each call got back; the Rust test asserts on it. A call
// that is meant to fail (an unknown resource) is recorded with its error code.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [binary, mode] = process.argv.slice(2);
if (!binary || !mode) {
    console.error('usage: node first-server.mjs <server binary | URL> <2026-07-28 | legacy>');
    process.exit(2);
}

const client = new Client(
    { name: 'mcp-spec-types-first-server', version: '1.0.0' },
    { versionNegotiation: { mode: mode === 'legacy' ? 'legacy' : { pin: mode } } }
);
const transport = binary.startsWith('http')
    ? new StreamableHTTPClientTransport(new URL(binary))
    : new StdioClientTransport({ command: binary, stderr: 'inherit' });
await client.connect(transport);
// The error codes as the server wrote them: the client maps a legacy -32002 to -32602 for
// its user, so what the server sent is read off the transport.
const wireErrors = [];
const deliver = transport.onmessage;
transport.onmessage = (message, extra) => {
    if (message.error) wireErrors.push(message.error.code);
    deliver(message, extra);
};
const tools = await client.listTools();
const call = await client.callTool({ name: 'add', arguments: { a: 2, b: 3.5 } });
// Arguments the tool's schema refuses: answered as a tool error, for the model to correct.
const bad = await client.callTool({ name: 'add', arguments: { b: 1 } });
// The structured sum, where the server offers it (`examples/http-server.rs`).
const sum = tools.tools.some((tool) => tool.name === 'sum')
    ? await client.callTool({ name: 'sum', arguments: { a: 2, b: 3.5 } })
    : null;
const resources = await client.listResources();
const read = await client.readResource({ uri: 'memo://hi' });
let missing;
try {
    await client.readResource({ uri: 'memo://nothing' });
    missing = 'no error';
} catch (error) {
    missing = { code: error.code, message: error.message, wireCode: wireErrors.at(-1) ?? null };
}
console.log(JSON.stringify({
    protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
    tools: tools.tools,
    call: call.content,
    bad: { isError: bad.isError ?? null, content: bad.content },
    sum: sum && { structuredContent: sum.structuredContent ?? null, content: sum.content },
    resources: resources.resources,
    read: read.contents,
    missing
}));
await client.close();
