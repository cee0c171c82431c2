// The TypeScript SDK v2 client (`@modelcontextprotocol/client`, 2026-07-28) against replicas
// of the replica example behind a load balancer; prints what it saw as one JSON object. Used
// by tests/replicas_redis.rs, which runs the replicas, Redis and the load balancer, and is
// told through files in <dir> when to act, as tests/sdk_python/replicas.py is.
//
//   node replicas.mjs <URL> <dir>
//
// `whoami` three times (each call lands on the next replica); a `subscriptions/listen` stream
// for memo://n/1..3, then `bump` 1..3, each told on the stream whatever replica bumped it;
// `confirm`, whose two `input_required` rounds wait, each, for the test to rotate the
// replicas' keys (`asked-<k>`, then `go-<k>`).

import { existsSync, writeFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, dir] = process.argv.slice(2);
if (!url || !dir) {
    console.error('usage: node replicas.mjs <URL> <dir>');
    process.exit(2);
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

async function until(path, seconds = 60) {
    for (let waited = 0; !existsSync(path); waited += 50) {
        if (waited > seconds * 1000) throw new Error(`${path} never came`);
        await sleep(50);
    }
}

const client = new Client(
    { name: 'mcp-spec-types-replicas', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } }
);
let rounds = 0;
client.setRequestHandler('elicitation/create', async () => {
    rounds += 1;
    writeFileSync(`${dir}/asked-${rounds}`, '');
    await until(`${dir}/go-${rounds}`);
    return { action: 'accept', content: {} };
});
const told = [];
client.setNotificationHandler('notifications/resources/updated', notification => {
    told.push(notification.params.uri);
});
await client.connect(new StreamableHTTPClientTransport(new URL(url)));

const text = result => result.content[0].text;
const names = [];
for (let i = 0; i < 3; i++) names.push(text(await client.callTool({ name: 'whoami', arguments: {} })));

const uris = [1, 2, 3].map(n => `memo://n/${n}`);
const subscription = await client.listen({ resourceSubscriptions: uris });
for (let n = 1; n <= 3; n++) await client.callTool({ name: 'bump', arguments: { n } });
for (let waited = 0; told.length < 3 && waited < 10000; waited += 50) await sleep(50);
await subscription.close();

const confirmed = text(await client.callTool({ name: 'confirm', arguments: {} }));
console.log(JSON.stringify({
    version: client.getNegotiatedProtocolVersion() ?? null,
    names,
    told,
    confirmed,
    rounds
}));
await client.close();
