// The local hub without a token refuses WebSocket upgrades from web pages: a
// browser always sends `Origin`, so without this any page the person visits
// could read every request and emit its own under any agent name. Our own
// clients run in Node and send none: the extension's socket, the demo agent
// and a bare peer connect as before. With a token, the token is the gate, and
// a page that holds it connects as any client does. Real sockets on loopback.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { HubSocket } from '../../src/client/hubSocket';
import { startAgent } from '../peers/agent/agent';
import { startHub, TOKENLESS_ORIGIN_REFUSAL, type RunningHub } from '../peers/hub/hub';
import { WsPeer } from '../support/wsPeer';

const TOKEN = 'hub-origin-token';
const EVIL = 'https://evil.example';

type Upgrade = { opened: true } | { opened: false; status: number; body: string };

/** Opens `/socket` as a browser would (with `Origin`), and reports whether it opened, or the refusal's status and body. */
function upgrade(hub: RunningHub, headers: Record<string, string>): Promise<Upgrade> {
  const ws = new WebSocket(`${hub.url.replace(/^http/, 'ws')}/socket`, { headers });
  return new Promise<Upgrade>((resolve, reject) => {
    ws.once('open', () => {
      ws.close();
      resolve({ opened: true });
    });
    ws.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ opened: false, status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    ws.once('error', reject);
  });
}

describe('hub without a token: web pages are refused', () => {
  let hub: RunningHub;
  const hubLog: string[] = [];
  before(async () => {
    hub = await startHub({ port: 0, log: (line) => hubLog.push(line) });
  });
  after(() => hub.close());

  test('an upgrade with Origin is refused with 403 and a plain reason that says how to set a token', async () => {
    const result = await upgrade(hub, { origin: EVIL });
    assert.deepEqual(result, { opened: false, status: 403, body: TOKENLESS_ORIGIN_REFUSAL });
    assert.match(TOKENLESS_ORIGIN_REFUSAL, /AEP_TOKEN=/);
    assert.ok(hubLog.some((line) => line.includes('refused a WebSocket from a web page') && line.includes(EVIL)), hubLog.join('\n'));
  });

  test('any Origin is a web page, a local one included', async () => {
    for (const origin of ['http://127.0.0.1:8080', 'null', 'vscode-webview://abc']) {
      const result = await upgrade(hub, { origin });
      assert.equal(result.opened ? 'opened' : result.status, 403, origin);
    }
  });

  test('without Origin a client connects and is greeted', async () => {
    assert.deepEqual(await upgrade(hub, {}), { opened: true });
    const peer = await WsPeer.connect(hub.url, { role: 'consumer' });
    try {
      peer.send({ type: 'subscribe', id: 'sub', filter: {} });
      await peer.waitFor((r) => r.value['type'] === 'subscribed');
    } finally {
      await peer.close();
    }
  });

  test("the extension's own socket sends no Origin and opens", async () => {
    let opened: () => void = () => undefined;
    let failed: (why: Error) => void = () => undefined;
    const open = new Promise<void>((resolve, reject) => {
      opened = resolve;
      failed = reject;
    });
    const socket = new HubSocket(
      { url: `${hub.url.replace(/^http/, 'ws')}/socket`, handshakeTimeoutMs: 5_000, maxFrameBytes: 1024 * 1024, maxQueuedMessages: 100 },
      {
        open: () => opened(),
        message: () => undefined,
        problem: () => undefined,
        lost: (why) => failed(new Error(`lost: ${JSON.stringify(why)}`)),
        unauthorized: (status) => failed(new Error(`unauthorized: ${status}`)),
      },
    );
    try {
      await open;
    } finally {
      socket.close(1000, 'done');
    }
  });

  test('the demo agent connects without a token', async () => {
    const agent = await startAgent({ hubUrl: hub.url, scenarios: ['permission'], everyMs: 600_000, log: () => undefined });
    await agent.close();
  });
});

describe('hub with a token: the token is the gate, Origin or not', () => {
  let hub: RunningHub;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
  });
  after(() => hub.close());

  test('a page that holds the token connects; one without it is refused 401 as before', async () => {
    assert.deepEqual(await upgrade(hub, { origin: EVIL, authorization: `Bearer ${TOKEN}` }), { opened: true });
    const refused = await upgrade(hub, { origin: EVIL });
    assert.equal(refused.opened ? 'opened' : refused.status, 401);
  });
});

