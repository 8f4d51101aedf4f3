// What waits for the person, counted across hubs (the status bar's total and
// the inbox's badge, Hubs.visibleCount), as a property over generated windows
// of two or three hubs that each get some of an agent's requests (one hub under
// two addresses, or two hubs relaying one agent), in any order, closed or
// dismissed in some of them: each request counts once while any hub still shows
// it, and never after every copy is closed or dismissed. fast-check prints the
// seed and the shrunk case on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { AepEvent } from '../../src/aep/envelope';
import { AttentionStore, countWaiting } from '../../src/app/hubs/attentionStore';
import { MemoryMemento } from '../support/memoryMemento';
import { validEvent, type EventFields } from '../support/events';
import { RecordingLogger } from '../support/recordingLogger';

// Two agents using the same ids: a request is its source, session and id, never its id alone.
const AGENTS = [
  { source: 'aep://host-a/agent/claude-code/session/s1', agent: 'claude-code', session: 's1' },
  { source: 'aep://host-b/agent/codex/session/s1', agent: 'codex', session: 's1' },
];
const REQUESTS = AGENTS.flatMap((from, agent) => ['R0', 'R1', 'R2'].map((id) => ({ ...from, id, name: `${agent}:${id}` })));
type Request = (typeof REQUESTS)[number];

const ev = (from: Request, fields: EventFields & Pick<AepEvent, 'type'>): AepEvent =>
  validEvent({ time: '2026-07-03T10:00:00Z', source: from.source, agent: from.agent, session: from.session, ...fields });

const step = fc.record({
  hub: fc.nat({ max: 2 }),
  request: fc.constantFrom(...REQUESTS),
  act: fc.constantFrom('deliver', 'deliver', 'close', 'dismiss'),
});

test('requests waiting across hubs: each counts once while any hub shows it, none once every copy is closed or dismissed', () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 3 }), fc.array(step, { maxLength: 40 }), (hubCount, steps) => {
      const stores = Array.from({ length: hubCount }, (_, index) => {
        const store = new AttentionStore(new MemoryMemento(), new RecordingLogger());
        store.switchTo(`http://127.0.0.1:${8700 + index}`);
        return store;
      });
      // The model: each hub's copy of each request, absent, open (shown or dismissed) or closed.
      const copies = stores.map(() => new Map<string, 'open' | 'dismissed' | 'closed'>());
      // Each hub's own positions, per agent.
      const seqs = stores.map(() => AGENTS.map(() => 0));
      try {
        for (const { hub, request, act } of steps) {
          const index = hub % hubCount;
          const store = stores[index];
          const copy = copies[index];
          if (!store || !copy) continue;
          const positions = seqs[index];
          const agent = AGENTS.findIndex((one) => one.source === request.source);
          const seq = positions?.[agent] ?? 0;
          const held = store.inbox.findRequest(request.session, request.id, request.source);
          const { id, name } = request;
          if (act === 'deliver' && !copy.has(name)) {
            assert.ok(store.inbox.apply(ev(request, { id, type: 'attention.requested', seq, capture: 'redacted', data: { kind: 'permission', prompt: 'Run it?' } })).applied);
            copy.set(name, 'open');
          } else if (act === 'close' && held && copy.get(name) !== 'closed') {
            assert.ok(store.inbox.apply(ev(request, { id: `${id}-resolved`, type: 'attention.resolved', subject: id, cause: id, seq, data: { resolution: 'answered' } })).applied);
            copy.set(name, 'closed');
          } else if (act === 'dismiss' && held && copy.get(name) === 'open') {
            store.dismiss(held);
            copy.set(name, 'dismissed');
          } else {
            continue;
          }
          if (positions) positions[agent] = seq + 1;
          const waiting = REQUESTS.filter((one) => copies.some((of) => of.get(one.name) === 'open')).map((one) => one.name);
          assert.equal(countWaiting(stores), waiting.length, `waiting: ${waiting.join(', ') || 'none'}`);
          const listed = new Set(stores.flatMap((one) => one.visibleItems().map((item) => `${AGENTS.findIndex((from) => from.source === item.source)}:${item.requestId}`)));
          assert.equal(countWaiting(stores), listed.size, 'the count agrees with what the hubs list');
        }
      } finally {
        for (const store of stores) store.dispose();
      }
    }),
  );
});
