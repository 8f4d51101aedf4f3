// The acknowledgements of our answers arrive on a subscription of their own, whatever the
// user's filter: real sockets against the local hub and the demo agent, and a fake hub for
// the order of confirmations and a refusal.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HubClient, type HubClientOptions } from '../../src/client/hubClient';
import { MemoryPositionStore } from '../support/memoryPositionStore';
import { Inbox } from '../../src/inbox/inbox';
import { startAgent } from '../peers/agent/agent';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { freshSession } from '../support/events';
import { FAKE_HUB_HELLO, fakeHub } from '../support/fakeHub';
import { RecordingLogger } from '../support/recordingLogger';
import { ScriptedTarget } from '../support/scriptedTarget';
import { waitUntil } from '../support/waitUntil';

const TOKEN = 'ack-subscription-token';

interface Harness {
  client: HubClient;
  inbox: Inbox;
  log: RecordingLogger;
  problems: string[];
  positions: MemoryPositionStore;
}

const clients: HubClient[] = [];
function startClient(hubUrl: string, options: Partial<HubClientOptions> = {}): Harness {
  const inbox = new Inbox();
  const log = new RecordingLogger();
  const positions = new MemoryPositionStore();
  const client = new HubClient({ hubUrl, token: TOKEN, senderName: 'test-editor', inbox, positions, log, backoffBaseMs: 50, backoffCapMs: 400, ...options });
  const problems: string[] = [];
  client.onDidReportProblem((problem) => problems.push(problem.message));
  client.start();
  clients.push(client);
  return { client, inbox, log, problems, positions };
}

const connected = (h: Harness) =>
  waitUntil(() => h.client.state.kind === 'connected', 'the client to connect', 5_000, () => JSON.stringify(h.client.state) + h.log.lines.slice(-3).join(' | '));

after(() => {
  for (const client of clients) client.dispose();
});

describe('acks under a user filter, against the local hub', () => {
  let hub: RunningHub;
  const targets: ScriptedTarget[] = [];
  const target = async () => {
    const t = await ScriptedTarget.start(hub.url, TOKEN, freshSession('ack'));
    targets.push(t);
    return t;
  };
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
  });
  after(async () => {
    await Promise.all(targets.map((t) => t.close()));
    await hub.close();
  });

  test('filter { "capture": "redacted" }: the demo agent\'s metadata acks still settle the answers, rejected then accepted', async () => {
    const agentLog: string[] = [];
    const agent = await startAgent({ hubUrl: hub.url, token: TOKEN, scenarios: ['form'], everyMs: 600_000, log: (line) => agentLog.push(line) });
    try {
      const h = startClient(hub.url, { filter: { capture: 'redacted' } });
      await waitUntil(() => h.inbox.open().some((item) => item.request?.renderKind === 'form'), 'the demo form', 5_000, () => h.log.lines.slice(-5).join(' | '));
      const item = h.inbox.open().find((candidate) => candidate.request?.renderKind === 'form')!;
      assert.equal(item.request!.capture, 'redacted');
      const invalid = await h.client.respond(item.request!, { values: { staged: true } });
      assert.equal(invalid.kind === 'rejected' && invalid.reason, 'invalid', JSON.stringify(invalid));
      const accepted = await h.client.respond(item.request!, { values: { name: 'billing-api', staged: true, regions: ['1', '3'], db: 'MariaDB' } });
      assert.equal(accepted.kind, 'accepted', JSON.stringify(accepted));
      assert.equal(agent.requests().find((r) => r.id === item.requestId)?.state, 'answered');
      assert.deepEqual(h.log.find({ code: 'ack-subscription-refused' }).concat(h.log.find({ code: 'subscription-refused' })), [], h.log.lines.join('\n'));
    } finally {
      await agent.close();
    }
  });

  test('filter on an extension key { "xproject": "alpha" }: accepted and rejected settle; a filtered-out session\'s acks stay out of the inbox', async () => {
    const alpha = await target();
    const other = await target();
    const h = startClient(hub.url, { filter: { xproject: 'alpha' } });
    await connected(h);
    const requestId = alpha.raise({ kind: 'approval', prompt: 'Deploy?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], respond_via: ['control'] }, { extensions: { xproject: 'alpha' } });
    await waitUntil(() => h.inbox.open().some((item) => item.requestId === requestId), 'the alpha request in the inbox');
    // The other session raises nothing this filter lets through; it acks someone else's command first.
    other.raise({ kind: 'approval', prompt: 'Not for this editor', options: [{ id: 'allow', label: 'Allow' }], respond_via: ['control'] });
    other.emit('control.accepted', undefined, { cause: 'someone-elses-command' });

    const request = h.inbox.open().find((item) => item.requestId === requestId)!.request!;
    const first = h.client.respond(request, { option: 'deny' });
    const firstCommand = await alpha.nextCommand(0);
    alpha.reject(firstCommand, 'conflict', 'already decided elsewhere');
    assert.deepEqual(await first, { kind: 'rejected', commandId: firstCommand.value['id'], reason: 'conflict', detail: 'already decided elsewhere' });
    const second = h.client.respond(request, { option: 'allow' });
    const secondCommand = await alpha.nextCommand(1);
    alpha.accept(secondCommand);
    assert.deepEqual(await second, { kind: 'accepted', commandId: secondCommand.value['id'] });

    // An answer into the filtered-out session: its ack comes through the ack subscription only,
    // after the foreign ack on the same socket, so that one has been handled too by now.
    const otherOutcome = h.client.respond({ id: 'R-other', session: other.session, source: `aep://test-host/agent/${other.agent}/session/${other.session}`, fields: [] }, { option: 'allow' });
    other.accept(await other.nextCommand(0));
    assert.equal((await otherOutcome).kind, 'accepted');
    assert.equal(h.inbox.positionOf(other.source, other.session), undefined, 'no timeline for a session the filter leaves out');
    assert.ok(h.positions.load().every((position) => position.session !== other.session), 'no resume position for it either');
    assert.ok(h.positions.load().some((position) => position.session === alpha.session));
    assert.equal(h.inbox.open().some((item) => item.request?.session === other.session), false);
  });

  test('without a user filter there is one subscription, as before', async () => {
    const alpha = await target();
    const h = startClient(hub.url);
    await connected(h);
    const requestId = alpha.raise({ kind: 'approval', prompt: 'Go?', options: [{ id: 'allow', label: 'Allow' }], respond_via: ['control'] });
    await waitUntil(() => h.inbox.open().some((item) => item.requestId === requestId), 'the request');
    const outcome = h.client.respond(h.inbox.open().find((item) => item.requestId === requestId)!.request!, { option: 'allow' });
    alpha.accept(await alpha.nextCommand(0));
    assert.equal((await outcome).kind, 'accepted');
    assert.equal(h.client.stats.duplicatesDropped, 0, 'no ack arrived twice: there is no second subscription');
  });
});

describe('the ack subscription against a scripted hub', () => {
  test('not connected, and no command written, until both subscriptions are confirmed', async () => {
    const frames: Array<Record<string, unknown>> = [];
    let heldAcks: (() => void) | undefined;
    let pong: (() => void) | undefined;
    const hub = await fakeHub((ws, frame) => {
      frames.push(frame);
      if (frame['type'] === 'hello') ws.send(JSON.stringify({ ...FAKE_HUB_HELLO, capabilities: { control: {} } }));
      if (frame['type'] === 'pong') pong?.();
      if (frame['type'] !== 'subscribe') return;
      const id = frame['id'];
      const filter = frame['filter'] as Record<string, unknown>;
      if (Object.keys(filter).length === 1) heldAcks = () => ws.send(JSON.stringify({ type: 'subscribed', id }));
      else ws.send(JSON.stringify({ type: 'subscribed', id }));
      if (heldAcks && frames.filter((f) => f['type'] === 'subscribe').length === 2) {
        // Both subscribe frames are in: ping, so the pong proves the main `subscribed` was read first.
        ws.send(JSON.stringify({ type: 'ping', t: 1 }));
      }
    });
    try {
      const h = startClient(hub.url, { filter: { run: 'r1' }, captureCeiling: 'metadata' });
      const pongSeen = new Promise<void>((resolve) => (pong = resolve));
      await waitUntil(() => heldAcks !== undefined, 'the ack subscription');
      const subscribes = frames.filter((f) => f['type'] === 'subscribe');
      assert.deepEqual(subscribes[0], { type: 'subscribe', id: subscribes[0]!['id'], filter: { type: ['control.accepted', 'control.rejected'] }, capture: 'metadata' });
      assert.notEqual(subscribes[0]!['id'], subscribes[1]!['id']);
      assert.deepEqual((subscribes[1]!['filter'] as Record<string, unknown>)['run'], 'r1');
      const outcome = h.client.respond({ id: 'R', session: 's1', source: 'aep://test-host/agent/a/session/s1', fields: [] }, { option: 'allow' });
      await pongSeen;
      assert.equal(h.client.state.kind, 'connecting', 'the main subscription alone is not connected');
      assert.equal(frames.some((f) => String(f['type']).startsWith('control.')), false, 'no command before the ack subscription is confirmed');
      heldAcks!();
      await connected(h);
      await waitUntil(() => frames.some((f) => String(f['type']).startsWith('control.')), 'the command, once both are confirmed');
      h.client.dispose();
      assert.equal((await outcome).kind, 'cancelled');
    } finally {
      await hub.close();
    }
  });

  test('a refused ack subscription is reported in words; the connection goes on with the main one', async () => {
    const hub = await fakeHub((ws, frame) => {
      if (frame['type'] === 'hello') ws.send(JSON.stringify(FAKE_HUB_HELLO));
      if (frame['type'] !== 'subscribe') return;
      const filter = frame['filter'] as Record<string, unknown>;
      if (Object.keys(filter).length === 1) ws.send(JSON.stringify({ type: 'error', id: frame['id'], code: 'limit-exceeded', detail: 'this hub allows 1 subscription per connection' }));
      else ws.send(JSON.stringify({ type: 'subscribed', id: frame['id'] }));
    });
    try {
      const h = startClient(hub.url, { filter: { xproject: 'alpha' } });
      await connected(h);
      await waitUntil(() => h.problems.length > 0, 'the refusal to be reported');
      assert.match(h.problems[0]!, /refused the subscription for the acknowledgements of your answers \(limit-exceeded\): this hub allows 1 subscription per connection/);
      assert.match(h.problems[0]!, /aepAttention\.filter/);
      assert.equal(hub.connections(), 1, 'no reconnect over it');
    } finally {
      await hub.close();
    }
  });
});
