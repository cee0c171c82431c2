// End-to-end client: the official MCP TypeScript SDK against the crate's example resource
// server (examples/resource-server.rs), for one protocol version.
//
//   node client.mjs <server-binary> <data-dir> <protocol-version> <recording.jsonl>
//
// <data-dir> is a scratch copy of examples/data/resources (this script modifies it). The whole
// session is recorded as JSON Lines {"dir":"c2s"|"s2c","msg":...}, as sent and received on the
// wire, for the crate's validator. Exits non-zero on any failed expectation.
//
// Versions with `initialize` (2024-11-05 .. 2025-11-25) use the SDK's Client as is; the SDK
// always asks for its LATEST_PROTOCOL_VERSION, so the transport rewrites the initialize
// request's protocolVersion to the version under test. The stateless revision 2026-07-28 (which
// this SDK predates) is driven through the same Client with initialization skipped and the
// version carried in every request's _meta, as that revision specifies.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
    McpError,
    ResultSchema,
    ResourceUpdatedNotificationSchema,
    ResourceListChangedNotificationSchema,
    SUPPORTED_PROTOCOL_VERSIONS
} from '@modelcontextprotocol/sdk/types.js';
import fs from 'node:fs';
import path from 'node:path';

const [serverBinary, dataDir, version, recordingPath] = process.argv.slice(2);
if (!serverBinary || !dataDir || !version || !recordingPath) {
    console.error('usage: node client.mjs <server-binary> <data-dir> <protocol-version> <recording.jsonl>');
    process.exit(2);
}
const STATELESS = ['2026-07-28'];
const stateless = STATELESS.includes(version);
if (!stateless && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    console.error(`the SDK does not support protocol version ${version} (it supports ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
    process.exit(2);
}
const TIMEOUT_MS = 5000;
const root = fs.realpathSync(dataDir);

// ---- recording -------------------------------------------------------------------------------

const records = [];
const record = (dir, msg) => records.push(JSON.stringify({ dir, msg }));
const saveRecording = () => fs.writeFileSync(recordingPath, records.map(r => r + '\n').join(''));

const transport = new StdioClientTransport({
    command: serverBinary,
    args: ['--page-size', '1', root],
    stderr: 'inherit'
});

// Outgoing: force the version under test into `initialize`, then record what goes on the wire.
const send = transport.send.bind(transport);
transport.send = async (message, options) => {
    if (message.method === 'initialize') {
        message = { ...message, params: { ...message.params, protocolVersion: version } };
    }
    record('c2s', message);
    return send(message, options);
};
// Incoming: the Client installs its handler by assigning `onmessage`; record before it runs.
let handler;
const recordingHandler = (message, extra) => {
    record('s2c', message);
    return handler?.(message, extra);
};
Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (handler ? recordingHandler : undefined),
    set: h => {
        handler = h;
    }
});
if (stateless) {
    // The Client skips `initialize` for a transport that already has a session.
    transport.sessionId = 'stateless';
}

// ---- helpers ---------------------------------------------------------------------------------

const step = name => console.error(`[${version}] ${name}`);

function expect(condition, what) {
    if (!condition) throw new Error(`expectation failed: ${what}`);
}

async function expectError(promise, code, what) {
    try {
        await promise;
    } catch (e) {
        expect(e instanceof McpError, `${what}: an McpError, got ${e}`);
        expect(e.code === code, `${what}: error code ${code}, got ${e.code} (${e.message})`);
        return e;
    }
    throw new Error(`expectation failed: ${what}: the request succeeded`);
}

// Waits for a notification `match` accepts, seen since `since` (an index into `seen`).
const seen = [];
function waitFor(match, what, since = 0) {
    return new Promise((resolve, reject) => {
        const deadline = Date.now() + TIMEOUT_MS;
        const poll = () => {
            const found = seen.slice(since).find(match);
            if (found) return resolve(found);
            if (Date.now() > deadline) return reject(new Error(`timed out after ${TIMEOUT_MS} ms waiting for ${what}`));
            setTimeout(poll, 20);
        };
        poll();
    });
}

const fileUri = rel => new UriTemplate('file:///{+path}').expand({ path: path.join(root, rel).slice(1) });

// Stateless requests carry the version and the client's capabilities in `_meta`.
const meta = stateless
    ? {
          _meta: {
              'io.modelcontextprotocol/protocolVersion': version,
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': { name: 'mcp-spec-types-e2e', version: '1.0.0' }
          }
      }
    : {};

// ---- the session -----------------------------------------------------------------------------

const client = new Client({ name: 'mcp-spec-types-e2e', version: '1.0.0' }, { capabilities: {} });
client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => void seen.push(n));
client.setNotificationHandler(ResourceListChangedNotificationSchema, n => void seen.push(n));
client.fallbackNotificationHandler = async n => void seen.push(n);

async function run() {
    step('connect');
    await client.connect(transport);
    if (stateless) {
        const discovered = await client.request({ method: 'server/discover', params: { ...meta } }, ResultSchema);
        expect(discovered.supportedVersions?.includes(version), `server/discover lists ${version}`);
        expect(discovered.capabilities?.resources?.subscribe === true, 'resources.subscribe capability');
    } else {
        const init = records.map(r => JSON.parse(r)).find(r => r.dir === 's2c' && r.msg.result?.protocolVersion);
        expect(init?.msg.result.protocolVersion === version, `the server negotiated ${version}, got ${init?.msg.result.protocolVersion}`);
        const caps = client.getServerCapabilities();
        expect(caps?.resources?.subscribe === true && caps?.resources?.listChanged === true, 'resources capabilities');
        await client.ping();
    }

    step('list resources, one per page');
    const listed = [];
    let cursor;
    let pages = 0;
    do {
        const page = await client.listResources({ ...meta, ...(cursor ? { cursor } : {}) });
        pages += 1;
        expect(page.resources.length <= 1, 'page size 1');
        listed.push(...page.resources);
        cursor = page.nextCursor;
    } while (cursor && pages < 100);
    const names = listed.map(r => r.name).sort();
    expect(JSON.stringify(names) === JSON.stringify(['hello.txt', 'notes/readme.md', 'pixel.png']), `the listed files, got ${names}`);
    expect(pages >= 3, `several pages, got ${pages}`);
    await expectError(client.listResources({ ...meta, cursor: 'forged' }), -32602, 'a forged cursor');

    step('read a text resource');
    const hello = listed.find(r => r.name === 'hello.txt');
    expect(hello.uri === fileUri('hello.txt'), `hello.txt's URI ${hello.uri}`);
    const text = await client.readResource({ ...meta, uri: hello.uri });
    expect(text.contents.length === 1 && text.contents[0].text === fs.readFileSync(path.join(root, 'hello.txt'), 'utf8'), 'hello.txt text');
    expect(text.contents[0].mimeType === 'text/plain', 'hello.txt MIME type');

    step('read a binary resource');
    const pixel = listed.find(r => r.name === 'pixel.png');
    const blob = await client.readResource({ ...meta, uri: pixel.uri });
    expect(blob.contents[0].mimeType === 'image/png', 'pixel.png MIME type');
    const bytes = Buffer.from(blob.contents[0].blob, 'base64');
    expect(bytes.equals(fs.readFileSync(path.join(root, 'pixel.png'))), 'pixel.png bytes');
    expect(pixel.size === bytes.length, 'pixel.png size');

    step('list templates and read through one');
    const templates = await client.listResourceTemplates({ ...meta });
    const template = templates.resourceTemplates.find(t => t.uriTemplate === 'file:///{+path}');
    expect(template, 'the file:///{+path} template');
    const viaTemplate = new UriTemplate(template.uriTemplate).expand({ path: path.join(root, 'notes', 'readme.md').slice(1) });
    const readme = await client.readResource({ ...meta, uri: viaTemplate });
    expect(readme.contents[0].text === fs.readFileSync(path.join(root, 'notes', 'readme.md'), 'utf8'), 'readme.md via the template');

    step('missing and refused resources');
    const missing = fileUri('missing.txt');
    // The resources page: -32002 up to 2025-11-25; from 2026-07-28 (SEP-2164) -32602, -32002
    // being reserved.
    const notFoundCode = stateless ? -32602 : -32002;
    const notFound = await expectError(client.readResource({ ...meta, uri: missing }), notFoundCode, 'a missing resource');
    expect(notFound.message.includes('Resource not found'), `the page's message, got ${JSON.stringify(notFound.message)}`);
    expect(notFound.data?.uri === missing, `${notFoundCode} data.uri, got ${JSON.stringify(notFound.data)}`);
    await expectError(client.readResource({ ...meta, uri: `file://${root}/../outside.txt` }), -32602, 'a .. traversal');
    await expectError(client.readResource({ ...meta, uri: 'https://example.com/hello.txt' }), -32602, 'another scheme');

    step('subscribe and watch a file change');
    let listen;
    const abort = new AbortController();
    if (stateless) {
        const before = seen.length;
        listen = client.request(
            {
                method: 'subscriptions/listen',
                params: { ...meta, notifications: { resourceSubscriptions: [hello.uri], resourcesListChanged: true } }
            },
            ResultSchema,
            { signal: abort.signal, timeout: 60000 }
        );
        listen.catch(() => {});
        const ack = await waitFor(n => n.method === 'notifications/subscriptions/acknowledged', 'the subscription acknowledgement', before);
        expect(ack.params.notifications.resourceSubscriptions?.includes(hello.uri), 'the acknowledged subscription');
    } else {
        await client.subscribeResource({ uri: hello.uri });
    }
    let since = seen.length;
    fs.appendFileSync(path.join(root, 'hello.txt'), 'One more line.\n');
    const updated = await waitFor(
        n => n.method === 'notifications/resources/updated' && n.params.uri === hello.uri,
        'notifications/resources/updated',
        since
    );
    if (stateless) {
        expect(updated.params._meta?.['io.modelcontextprotocol/subscriptionId'] !== undefined, 'the subscription id on the notification');
    }
    const reread = await client.readResource({ ...meta, uri: hello.uri });
    expect(reread.contents[0].text.endsWith('One more line.\n'), 'the changed text');

    step('a new file changes the list');
    since = seen.length;
    fs.writeFileSync(path.join(root, 'new.txt'), 'new\n');
    await waitFor(n => n.method === 'notifications/resources/list_changed', 'notifications/resources/list_changed', since);

    if (stateless) {
        step('unsupported version');
        const bad = { _meta: { ...meta._meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } };
        const e = await expectError(client.listResources(bad), -32022, 'an unsupported protocol version');
        expect(e.data?.supported?.includes(version), 'the supported versions in the error');
        abort.abort('done');
    } else {
        await client.unsubscribeResource({ uri: hello.uri });
    }
    await client.close();
}

try {
    await run();
    saveRecording();
    console.error(`[${version}] ok: ${records.length} messages recorded to ${recordingPath}`);
    process.exit(0);
} catch (e) {
    saveRecording();
    console.error(`[${version}] FAILED: ${e?.stack ?? e}`);
    try {
        await client.close();
    } catch {}
    process.exit(1);
}
