// The client's WebSocket limits against a real ws server on loopback: the
// default frame limit (1 MiB) in both directions, no compression, and the
// per-event bounds reported in words while the connection stays up.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { WebSocketServer, type ServerOptions, type WebSocket } from 'ws';
import { HubClient, MAX_FRAME_BYTES, type ClientState } from '../../src/client/hubClient';
import { MemoryPositionStore } from '../support/memoryPositionStore';
import { Inbox } from '../../src/inbox/inbox';
import { RecordingLogger } from '../support/recordingLogger';
import { waitUntil } from '../support/waitUntil';
import { describeLost } from '../../src/words/failureMessages';

interface FakeHub {
  url: string;
  connections: Array<{ ws: WebSocket; extensionsOffered: string | undefined }>;
  close: () => Promise<void>;
}

/** A ws server that says hello, acknowledges the subscription, then runs `afterSubscribe` (first connection only, unless `every`). */
async function fakeHub(afterSubscribe: (ws: WebSocket) => void, options: ServerOptions = {}, every = false): Promise<FakeHub> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', ...options });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const connections: FakeHub['connections'] = [];
  wss.on('connection', (ws, request) => {
    connections.push({ ws, extensionsOffered: request.headers['sec-websocket-extensions'] });
    const first = connections.length === 1;
    ws.on('error', () => undefined);
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
      if (frame['type'] === 'hello') ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'both', identity: { agent: 'fake-hub' }, capabilities: {} }));
      if (frame['type'] === 'subscribe') {
        ws.send(JSON.stringify({ type: 'subscribed', id: frame['id'] }));
        if (first || every) afterSubscribe(ws);
      }
    });
  });
  return {
    url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}

const cleanup: Array<() => unknown> = [];
after(async () => {
  for (const step of cleanup.reverse()) await step();
});

function start(url: string) {
  const log = new RecordingLogger();
  const inbox = new Inbox();
  const problems: string[] = [];
  const states: ClientState[] = [];
  const client = new HubClient({ hubUrl: url, token: 't', senderName: 'test-editor', inbox, positions: new MemoryPositionStore(), log, backoffBaseMs: 50, backoffCapMs: 200 });
  client.onDidReportProblem((problem) => problems.push(problem.message));
  client.onDidChangeState((state) => states.push(state));
  client.start();
  cleanup.push(() => client.dispose());
  return { client, inbox, log, problems, states };
}

function request(id: string, data: Record<string, unknown>): string {
  return JSON.stringify({ aep: '0.1', id, type: 'attention.requested', time: '2026-07-03T10:00:00Z', source: 'aep://h/agent/big', agent: 'big', session: 's1', seq: Number(id.replace(/\D/g, '') || 0), severity: 'warning', capture: 'full', data });
}

describe('WebSocket limits', () => {
  test('the default frame limit is 1 MiB: a larger frame closes the socket in words the user can act on, and the client reconnects', async () => {
    assert.equal(MAX_FRAME_BYTES, 1_048_576);
    const hub = await fakeHub((ws) => ws.send(request('R1', { kind: 'input', prompt: 'A'.repeat(MAX_FRAME_BYTES) })));
    cleanup.push(() => hub.close());
    const h = start(hub.url);
    const refused = (state: ClientState) => state.kind === 'backing-off' && state.lost.code === 'frame-too-large';
    await waitUntil(() => h.states.some(refused), 'the size refusal', 5_000, () => h.log.lines.join('\n'));
    const state = h.states.find(refused);
    assert.equal(
      state?.kind === 'backing-off' && describeLost(state.lost),
      'the hub sent a message larger than 1 MiB, the most AEP Attention accepts, so the connection was closed (WebSocket 1009). If this repeats after reconnecting, an agent is sending events that large and needs to send smaller ones',
    );
    assert.ok(h.log.dataOf('warn', 'connection-lost').some((data) => data['reason'] === 'frame-too-large' && data['limitBytes'] === 1024 * 1024), 'and logged');
    await waitUntil(() => h.client.state.kind === 'connected' && hub.connections.length === 2, 'the reconnect');
    assert.equal(h.inbox.stats().items, 0);
  });

  test('a frame just under the limit is read, and its 1 MB prompt is kept cut with a mark', async () => {
    const prompt = 'B'.repeat(1_000_000);
    const hub = await fakeHub((ws) => ws.send(request('R1', { kind: 'input', prompt })));
    cleanup.push(() => hub.close());
    const h = start(hub.url);
    await waitUntil(() => h.inbox.open().length === 1, 'the request', 5_000, () => h.log.lines.join('\n'));
    const shown = h.inbox.open()[0]?.request?.prompt ?? '';
    assert.ok(shown.length <= 8_192, `${shown.length} characters kept`);
    assert.match(shown, /… \[truncated by AEP Attention: 1,000,000 characters, first [\d,]+ shown\]$/);
    assert.equal(hub.connections.length, 1, 'no reconnect');
    assert.equal(h.client.state.kind, 'connected');
  });

  test('no compression is offered, even to a hub that would accept it', async () => {
    const hub = await fakeHub(() => undefined, { perMessageDeflate: true });
    cleanup.push(() => hub.close());
    const h = start(hub.url);
    await waitUntil(() => h.client.state.kind === 'connected', 'connected');
    assert.equal(hub.connections[0]?.extensionsOffered, undefined, 'no Sec-WebSocket-Extensions header');
    assert.equal(hub.connections[0]?.ws.extensions, '', 'no extension negotiated');
  });

  test('a hub that closes 1009 because of our message is told apart from an oversized frame of its own', async () => {
    // The hub accepts at most 1 KiB from us; a long answer is more.
    const hub = await fakeHub((ws) => ws.send(request('R1', { kind: 'input', prompt: 'Name?' })), { maxPayload: 1_024 });
    cleanup.push(() => hub.close());
    const h = start(hub.url);
    await waitUntil(() => h.inbox.open().length === 1 && h.client.state.kind === 'connected', 'the request');
    void h.client.respond({ id: 'R1', session: 's1', source: 'aep://h/agent/big', fields: [] }, { text: 'x'.repeat(4_000) });
    await waitUntil(() => h.states.some((s) => s.kind === 'backing-off'), 'the close', 5_000, () => h.log.lines.join('\n'));
    const state = h.states.find((s) => s.kind === 'backing-off');
    assert.equal(
      state?.kind === 'backing-off' && describeLost(state.lost),
      'the hub closed the connection because a message from this window was larger than it accepts (WebSocket 1009); a very long answer may need to be shorter',
    );
  });

  test('nesting past the cap and a form past the field cap are reported in words; the connection stays up', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const fields = Array.from({ length: 10_000 }, (_, i) => ({ id: `f${i}`, type: 'string', label: `Field ${i}` }));
    const hub = await fakeHub((ws) => {
      ws.send(request('R1', { kind: 'input', prompt: 'x' }).replace('{"aep"', `{"deepnest":${deep},"aep"`));
      ws.send(request('R2', { kind: 'form', prompt: 'Fill in', fields }));
      ws.send(request('R3', { kind: 'input', prompt: 'still here?' }));
    });
    cleanup.push(() => hub.close());
    const h = start(hub.url);
    await waitUntil(() => h.inbox.open().length === 2, 'the second and third requests', 5_000, () => `${h.problems.join('\n')}\n${h.log.lines.join('\n')}`);
    assert.deepEqual(h.inbox.open().map((item) => item.requestId), ['R2', 'R3']);
    assert.equal(h.inbox.open()[0]?.request, undefined, 'the 10 000-field form waits as one that cannot be answered here');
    assert.equal(h.problems.length, 2, h.problems.join('\n'));
    assert.match(h.problems[0] ?? '', /^the hub sent something unreadable: a message of [\d]+ characters with arrays and objects nested more than 64 levels deep \(AEP Attention reads at most 64\)$/);
    assert.equal(h.problems[1], 'agent big sent a form that cannot be rendered: this form has 10,000 fields, and AEP Attention shows at most 200');
    assert.equal(hub.connections.length, 1);
    assert.equal(h.client.state.kind, 'connected');
  });
});
