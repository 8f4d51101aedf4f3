// The demo agent over real loopback sockets, through the local hub: a form
// request arrives; an invalid answer is nacked and the request stays
// pending; the corrected answer is accepted, answered and resolved
// cause-linked; a resent command draws the byte-identical recorded ack; the
// expiring request times out; a --count run closes everything and ends its
// sessions before hanging up.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseAttentionRequest, type Answer, type AttentionRequest } from '../../src/aep/attention';
import { buildRespondCommand, type RespondCommand } from '../../src/aep/control';
import { parseEnvelope } from '../../src/aep/envelope';
import { AgentStartError, startAgent, type RunningAgent } from '../peers/agent/agent';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { WsPeer, type Received } from '../support/wsPeer';
import { waitUntil } from '../support/waitUntil';

const TOKEN = 'agent-test-token';
const SENDER = { agent: 'test-editor', source: 'aep://test-host/agent/test-editor' };

const isEvent = (type: string, match: (value: Record<string, unknown>) => boolean = () => true) => (r: Received) =>
  r.value['type'] === type && match(r.value);
const dataOf = (r: Received) => (r.value['data'] ?? {}) as Record<string, unknown>;

function requestFrom(received: Received): AttentionRequest {
  const envelope = parseEnvelope(received.value);
  assert.ok(envelope.ok, envelope.ok ? '' : envelope.problem);
  const parsed = parseAttentionRequest(envelope.value);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem.message);
  return parsed.value;
}

async function consumer(hub: RunningHub, filter: Record<string, unknown>): Promise<WsPeer> {
  const peer = await WsPeer.connect(hub.url, { token: TOKEN, role: 'both', agent: SENDER.agent });
  peer.send({ type: 'subscribe', id: 'sub', filter });
  await peer.waitFor((r) => r.value['type'] === 'subscribed');
  return peer;
}

describe('demo agent through the local hub', () => {
  let hub: RunningHub;
  let agent: RunningAgent | undefined;
  let editor: WsPeer | undefined;
  const lines: string[] = [];

  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
    editor = await consumer(hub, { type: ['attention.*', 'control.*'] });
    agent = await startAgent({
      hubUrl: hub.url, token: TOKEN, scenarios: ['form', 'expiring'], everyMs: 400, expireMs: 1_000, log: (line) => lines.push(line),
    });
  });

  after(async () => {
    await agent?.close();
    await editor?.close();
    await hub.close();
  });

  test('a form answer: invalid is nacked and stays pending, the correction is accepted, answered, resolved; a resend is re-acked byte-identically', async () => {
    assert.ok(agent && editor);
    const formSession = agent.sessions[0];
    const arrived = await editor.waitFor(isEvent('attention.requested', (v) => v['session'] === formSession), 5_000);
    const request = requestFrom(arrived);
    assert.equal(request.kind, 'form');
    assert.deepEqual(request.fields.map((f) => f.id), ['name', 'staged', 'regions', 'db']);
    assert.equal(request.severity, 'notice');

    const send = (answer: Answer): RespondCommand => {
      const built = buildRespondCommand(request, answer, SENDER);
      assert.ok(built.ok, 'these answers pass the redaction pipeline unchanged');
      editor?.send(built.command);
      return built.command;
    };

    const invalid = send({ values: { staged: true, regions: ['1'] } });
    const nack = await editor.waitFor(isEvent('control.rejected', (v) => v['cause'] === invalid.id), 5_000);
    assert.equal(dataOf(nack)['reason'], 'invalid');
    assert.match(String(dataOf(nack)['detail']), /field "name" is required/);
    assert.equal(nack.value['session'], request.session);
    assert.equal(typeof nack.value['seq'], 'number');
    assert.equal(agent.requests().find((r) => r.id === request.id)?.state, 'pending');

    const values = { name: 'billing-api', staged: true, regions: ['1', '3'], db: 'MariaDB' };
    const corrected = send({ values });
    const ack = await editor.waitFor(isEvent('control.accepted', (v) => v['cause'] === corrected.id), 5_000);
    const answered = await editor.waitFor(isEvent('attention.answered', (v) => v['subject'] === request.id), 5_000);
    const resolved = await editor.waitFor(isEvent('attention.resolved', (v) => v['subject'] === request.id), 5_000);
    assert.equal(answered.value['cause'], corrected.id);
    assert.deepEqual(dataOf(answered), { answer: { values }, via: 'control', by: SENDER.agent });
    assert.equal(resolved.value['cause'], answered.value['id']);
    assert.equal(dataOf(resolved)['resolution'], 'answered');
    assert.ok(Number(ack.value['seq']) < Number(answered.value['seq']) && Number(answered.value['seq']) < Number(resolved.value['seq']));

    // The retry is the same envelope, same id (AEP-0004 §2.3): the recorded ack comes back unchanged.
    editor.send(corrected);
    const acks = await editor.waitForCount(isEvent('control.accepted', (v) => v['cause'] === corrected.id), 2, 5_000);
    assert.equal(acks[1]?.text, acks[0]?.text);
    assert.equal(editor.received.filter(isEvent('attention.answered', (v) => v['subject'] === request.id)).length, 1, 'never re-executed');
    const about = agent?.decisions().filter((decision) => decision.commandId === corrected.id).map((decision) => decision.kind);
    assert.deepEqual(about, ['accepted', 'replayed'], 'applied once, then its recorded ack resent');
    assert.ok(agent?.decisions().some((decision) => decision.kind === 'accepted' && decision.commandId === corrected.id && decision.requestId === request.id), 'for that request');
    assert.ok(!lines.some((line) => line.includes(TOKEN)), 'the token is never logged');
  });

  test('the expiring request ends in attention.timeout', async () => {
    assert.ok(agent && editor);
    const expiringSession = agent.sessions[1];
    const raised = await editor.waitFor(isEvent('attention.requested', (v) => v['session'] === expiringSession), 5_000);
    const request = requestFrom(raised);
    assert.ok(request.expiresAt !== undefined);
    const timeout = await editor.waitFor(isEvent('attention.timeout', (v) => v['subject'] === request.id), 5_000);
    assert.ok(Number(dataOf(timeout)['after_ms']) >= 900);
    assert.equal(agent.requests().find((r) => r.id === request.id)?.state, 'timed-out');
  });
});

describe('demo agent lifecycle', () => {
  let hub: RunningHub;
  let watcher: WsPeer | undefined;

  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
    watcher = await consumer(hub, { type: ['attention.*', 'session.*'] });
  });

  after(async () => {
    await watcher?.close();
    await hub.close();
  });

  test('with a count, it finishes: every request closed before its session ends, then the socket closes', async () => {
    assert.ok(watcher);
    const agent = await startAgent({
      hubUrl: hub.url, token: TOKEN, scenarios: ['oob', 'permission'], everyMs: 50, count: 2, oobMs: 150, lingerMs: 300, log: () => undefined,
    });
    try {
      assert.deepEqual(await agent.done, { reason: 'completed' });
      const requests = agent.requests();
      assert.deepEqual(requests.map((r) => [r.scenario, r.state]), [['oob', 'answered'], ['permission', 'dismissed']]);
      const peer = watcher;
      await waitUntil(() => peer.events().filter((e) => e['type'] === 'session.ended').length === 2, 'both session.ended', 15_000);
      for (const session of agent.sessions) {
        const events = peer.events().filter((e) => e['session'] === session);
        assert.equal(events[0]?.['type'], 'session.started');
        assert.equal(events.at(-1)?.['type'], 'session.ended');
        const seqs = events.map((e) => Number(e['seq']));
        assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b));
      }
      const oob = peer.events().find((e) => e['type'] === 'attention.answered' && e['session'] === agent.sessions[0]);
      assert.equal((oob?.['data'] as Record<string, unknown> | undefined)?.['via'], 'oob');
    } finally {
      await agent.close();
    }
  });

  test('a wrong token fails the start with one clear sentence', async () => {
    await assert.rejects(
      startAgent({ hubUrl: hub.url, token: 'wrong-token', log: () => undefined }),
      (error: unknown) => error instanceof AgentStartError && /refused the token/.test(error.message) && !error.message.includes('wrong-token'),
    );
  });

  test('no token fails the start saying that one is needed, not that one was refused', async () => {
    await assert.rejects(startAgent({ hubUrl: hub.url, log: () => undefined }), (error: unknown) => {
      assert.ok(error instanceof AgentStartError);
      assert.match(error.message, /requires a token and none was given \(HTTP 401 unauthorized\); set AEP_TOKEN/);
      assert.doesNotMatch(error.message, /refused/);
      return true;
    });
  });
});
