// End-to-end client for the README's first server (`examples/first-server.rs`): the
// TypeScript SDK v2 client, pinned to 2026-07-28, spawns the server and talks to it over stdio.
//
//   node first-server.mjs <server binary>
//
// Prints one JSON object with what each call got back; the Rust test asserts on it. A call
// that is meant to fail (an unknown resource) is recorded with its error code.

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [binary] = process.argv.slice(2);
if (!binary) {
    console.error('usage: node first-server.mjs <server binary>');
    process.exit(2);
}

const client = new Client(
    { name: 'mcp-spec-types-first-server', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } }
);
await client.connect(new StdioClientTransport({ command: binary, stderr: 'inherit' }));
const tools = await client.listTools();
const call = await client.callTool({ name: 'add', arguments: { a: 2, b: 3.5 } });
const resources = await client.listResources();
const read = await client.readResource({ uri: 'memo://hi' });
let missing;
try {
    await client.readResource({ uri: 'memo://nothing' });
    missing = 'no error';
} catch (error) {
    missing = { code: error.code, message: error.message };
}
console.log(JSON.stringify({
    protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
    tools: tools.tools,
    call: call.content,
    resources: resources.resources,
    read: read.contents,
    missing
}));
await client.close();
