// The local hub without a token refuses WebSocket upgrades from web pages: a
// browser always sends `Origin`, so without this any page the person visits
// could read every request and emit its own under any agent name. Our own
// clients run in Node and send none: the extension's socket, the demo agent
// and a bare peer connect as before. With a token, the token is the gate, and
// a page that holds it connects as any client does. Real sockets on loopback.
//
// A page can also re-point a DNS name of its own at 127.0.0.1 (DNS
// rebinding) and then call the hub as same-origin, where no Origin check or
// CORS stops it; the `Host` it sends is still its name. So without a token
// the hub serves only requests addressed to localhost or an IP address.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { HubSocket } from '../../src/client/hubSocket';
import { startAgent } from '../peers/agent/agent';
import { TOKENLESS_HOST_REFUSAL, tokenlessHostAllowed } from '../peers/hub/hostCheck';
import { startHub, TOKENLESS_ORIGIN_REFUSAL, type RunningHub } from '../peers/hub/hub';
import { freshSession, makeEvent } from '../support/events';
import { WsPeer } from '../support/wsPeer';

const TOKEN = 'hub-origin-token';
const EVIL = 'https://evil.example';

type Upgrade = { opened: true } | { opened: false; status: number; body: string };

/** Opens `/socket` as a browser would (with `Origin`), and reports whether it opened, or the refusal's status and body. */
function upgrade(hub: RunningHub, headers: Record<string, string>): Promise<Upgrade> {
  return upgradeTo(`${hub.url.replace(/^http/, 'ws')}/socket`, headers);
}

function upgradeTo(url: string, headers: Record<string, string>): Promise<Upgrade> {
  const ws = new WebSocket(url, { headers });
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

/** One HTTP request to the hub's port with the `Host` header a browser on a rebound name would send. */
function httpAs(hub: RunningHub, host: string, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1', port: hub.port, method, path, setHost: false,
        headers: { host, ...(body === undefined ? {} : { 'content-type': 'application/json', 'aep-version': '0.1', 'content-length': Buffer.byteLength(body) }) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function sessionCount(hub: RunningHub): Promise<number> {
  return ((await (await fetch(`${hub.url}/healthz`)).json()) as { sessions: number }).sessions;
}

describe('hub without a token: requests addressed to a name are refused (DNS rebinding)', () => {
  let hub: RunningHub;
  const hubLog: string[] = [];
  before(async () => {
    hub = await startHub({ port: 0, log: (line) => hubLog.push(line) });
  });
  after(() => hub.close());

  test('POST /events with Host evil.example is refused 403 with a reason that says how to set a token, and nothing is stored', async () => {
    const before = await sessionCount(hub);
    const event = JSON.stringify(makeEvent('session.started', freshSession(), 0));
    const result = await httpAs(hub, `evil.example:${hub.port}`, 'POST', '/events', event);
    assert.deepEqual(result, { status: 403, body: TOKENLESS_HOST_REFUSAL });
    assert.match(TOKENLESS_HOST_REFUSAL, /AEP_TOKEN=/);
    assert.equal(await sessionCount(hub), before);
    assert.ok(hubLog.some((line) => line.includes('refused a request addressed to Host') && line.includes('evil.example')), hubLog.join('\n'));
  });

  test('every route is refused to a name: discovery, the stream, health', async () => {
    for (const path of ['/events', '/.well-known/aep', '/stream', '/healthz']) {
      assert.equal((await httpAs(hub, `evil.example:${hub.port}`, 'GET', path)).status, 403, path);
    }
  });

  test('a WebSocket upgrade addressed to a name is refused 403, Origin or not', async () => {
    const url = `${hub.url.replace(/^http/, 'ws')}/socket`;
    const tries: Record<string, string>[] = [{ host: `evil.example:${hub.port}` }, { host: `evil.example:${hub.port}`, origin: `http://evil.example:${hub.port}` }];
    for (const headers of tries) {
      const result = await upgradeTo(url, headers);
      assert.deepEqual(result, { opened: false, status: 403, body: TOKENLESS_HOST_REFUSAL }, JSON.stringify(headers));
    }
  });

  test('localhost and IP addresses, any port, are served as before', async () => {
    const event = JSON.stringify(makeEvent('session.started', freshSession(), 0));
    assert.equal((await httpAs(hub, `127.0.0.1:${hub.port}`, 'POST', '/events', event)).status, 202);
    for (const host of [`localhost:${hub.port}`, 'LocalHost', '127.0.0.1', `[::1]:${hub.port}`, '192.168.1.20:8787', '[fe80::1]']) {
      assert.equal((await httpAs(hub, host, 'GET', '/healthz')).status, 200, host);
    }
    assert.deepEqual(await upgradeTo(`${hub.url.replace(/^http/, 'ws')}/socket`, { host: `localhost:${hub.port}` }), { opened: true });
  });

  test('what counts as an address: a name that merely contains one, or a Host with extra parts, does not', () => {
    const refused = [
      undefined, '', 'evil.example', 'localhost.evil.example', 'sub.localhost', 'localhost.', '127.0.0.1.nip.io',
      'evil@127.0.0.1', '127.0.0.1:80:81', '127.0.0.1/x', '[evil.example]', '::1', '[::1', '127.1', '0x7f.0.0.1',
    ];
    for (const host of refused) assert.equal(tokenlessHostAllowed(host), false, String(host));
    for (const host of ['localhost', 'LOCALHOST:1', '127.0.0.1', '10.0.0.5:8787', '[::1]', '[::ffff:127.0.0.1]:80']) {
      assert.equal(tokenlessHostAllowed(host), true, host);
    }
  });
});

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

  test('any Host is served: a proxy or a name of the person\'s own is fine when the token gates', async () => {
    assert.equal((await httpAs(hub, 'hub.corp.example', 'GET', '/healthz')).status, 200);
    assert.equal((await httpAs(hub, 'hub.corp.example', 'GET', '/events')).status, 401);
  });
});

