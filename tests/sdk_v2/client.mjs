// End-to-end client: the TypeScript SDK v2 (`@modelcontextprotocol/client`, which speaks
// 2026-07-28) against the crate's example conformance server, over Streamable HTTP.
//
//   node client.mjs <server URL>
//
// Two clients talk to the one server at the same time: one pinned to 2026-07-28 (stateless:
// `server/discover`, per-request `_meta`, `input_required` results fulfilled through the
// elicitation handler) and one with the SDK's legacy handshake (`initialize`, 2025-11-25).
// Prints one JSON object with what each got back; the Rust test asserts on it. Exits non-zero
// when a call throws.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url] = process.argv.slice(2);
if (!url) {
    console.error('usage: node client.mjs <server URL>');
    process.exit(2);
}

const elicited = [];

async function modern() {
    const client = new Client(
        { name: 'mcp-spec-types-sdk-v2', version: '1.0.0' },
        {
            capabilities: { elicitation: {} },
            versionNegotiation: { mode: { pin: '2026-07-28' } }
        }
    );
    // The server asks for input inside a tools/call result (`input_required`); the SDK
    // fulfils it through this handler and retries the call.
    client.setRequestHandler('elicitation/create', async request => {
        elicited.push(request.params.message);
        return { action: 'accept', content: { name: 'Ada' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const resources = await client.listResources();
    const templates = await client.listResourceTemplates();
    const read = await client.readResource({ uri: 'test://static-text' });
    const fromTemplate = await client.readResource({ uri: 'test://template/42/data' });
    const call = await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
    const prompt = await client.getPrompt({
        name: 'test_prompt_with_arguments',
        arguments: { arg1: 'one', arg2: 'two' }
    });
    const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name: 'arg1', value: 'b' }
    });
    const result = {
        protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
        resources: resources.resources.map(r => r.uri).sort(),
        templates: templates.resourceTemplates.map(t => t.uriTemplate),
        read: read.contents,
        fromTemplate: fromTemplate.contents,
        call: call.content,
        elicited,
        prompt: prompt.messages,
        completion: completion.completion
    };
    await client.close();
    return result;
}

async function legacy() {
    const client = new Client({ name: 'mcp-spec-types-sdk-v2-legacy', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const tools = await client.listTools();
    const call = await client.callTool({ name: 'test_simple_text', arguments: {} });
    const result = {
        protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
        tools: tools.tools.length,
        call: call.content
    };
    await client.close();
    return result;
}

try {
    const [m, l] = await Promise.all([modern(), legacy()]);
    console.log(JSON.stringify({ modern: m, legacy: l }));
} catch (e) {
    console.error(e?.stack ?? String(e));
    process.exit(1);
}
