// Agent-scoped events (no `session`) are kept where a consumer needs them
// (issue 39 item 10): which agents were heard from, and each one's latest
// event of each type. The golden corpus's sessionless lines, then the bounds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AepEvent } from '../../src/aep/envelope';
import { AgentStatuses, MAX_KEPT_DATA_BYTES } from '../../src/inbox/agentStatuses';
import { approximateBytes } from '../../src/base/byteSize';
import { Inbox } from '../../src/inbox/inbox';
import { validEvent } from '../support/events';
import { goldenEvents } from '../support/fixtures';

const agentEvent = (agent: string, type: string, data: Record<string, unknown>, id: string): AepEvent =>
  validEvent({ id, type, time: '2026-07-03T10:00:00Z', source: `aep://h/agent/${agent}`, agent, data });

test('the golden corpus: every sessionless event is kept as its agent\'s latest of its type, and a full duplicate replay changes nothing', () => {
  const inbox = new Inbox();
  const events = goldenEvents();
  const sessionless = events.filter((event) => event.session === undefined);
  assert.ok(sessionless.length >= 4, 'the corpus has agent-scoped events');
  for (const event of events) inbox.apply(event);
  for (const event of sessionless) assert.equal(inbox.agentStatus(event.source, event.type)?.id, event.id, `${event.type} of ${event.agent} is kept`);
  const before = JSON.stringify(inbox.agents());
  for (const event of events) inbox.apply(event);
  assert.equal(JSON.stringify(inbox.agents()), before);
  const health = sessionless.find((event) => event.type === 'agent.health');
  assert.deepEqual(health && inbox.agentStatus(health.source, 'agent.health')?.data, { status: 'degraded', detail: 'tool latency high' });
});

test('a later event of a type replaces the earlier one; the agents heard least recently go first past the bound, and types past theirs', () => {
  const statuses = new AgentStatuses(2, 2);
  statuses.note(agentEvent('a', 'agent.presence', { state: 'online' }, 'A1'));
  statuses.note(agentEvent('a', 'agent.presence', { state: 'offline' }, 'A2'));
  assert.deepEqual(statuses.list().map((s) => [s.agent, s.latest.map((e) => e.id)]), [['a', ['A2']]]);
  statuses.note(agentEvent('b', 'agent.health', { status: 'ok' }, 'B1'));
  statuses.note(agentEvent('a', 'agent.idle', { since_ms: 5 }, 'A3'));
  statuses.note(agentEvent('c', 'agent.heartbeat', { tick: 1 }, 'C1'));
  assert.deepEqual(statuses.list().map((s) => s.agent), ['a', 'c'], 'b was heard least recently');
  statuses.note(agentEvent('a', 'agent.health', { status: 'ok' }, 'A4'));
  assert.deepEqual(statuses.latest('aep://h/agent/a', 'agent.presence'), undefined, 'the type heard least recently went');
  assert.deepEqual(statuses.list().find((s) => s.agent === 'a')?.latest.map((e) => e.id), ['A3', 'A4']);
});

test('a large agent-scoped event is kept as its envelope: its data would hold memory outside the inbox budget', () => {
  const statuses = new AgentStatuses();
  const huge = { blob: 'x'.repeat(60_000) };
  statuses.note(agentEvent('a', 'agent.health', huge, 'H1'));
  statuses.note(agentEvent('a', 'agent.presence', { state: 'online' }, 'P1'));
  const kept = statuses.latest('aep://h/agent/a', 'agent.health');
  assert.equal(kept?.id, 'H1', 'the event itself is still known');
  assert.equal(kept?.data, undefined, 'its data is not kept');
  assert.deepEqual(statuses.latest('aep://h/agent/a', 'agent.presence')?.data, { state: 'online' }, 'small data stays');
  const total = statuses.list().reduce((sum, s) => sum + s.latest.reduce((n, e) => n + approximateBytes(e.data ?? {}), 0), 0);
  assert.ok(total <= 2 * MAX_KEPT_DATA_BYTES, `kept data ${total} bytes`);
});
