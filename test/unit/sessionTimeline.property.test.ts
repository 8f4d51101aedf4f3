// A session's timeline answers "is this event kept?" two ways: `find`, which
// hands out the envelope, and `has`, which the inbox asks for each foreign
// event only to learn where it belongs (issue 40: no envelope copy per ask).
// They must agree with each other and with what `events` lists, after any
// mix of ordered, backfilled, seq-less and cleared events, past the limit.
// fast-check prints the seed and the shrunk case on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SessionTimeline } from '../../src/inbox/sessionTimeline';
import { makeCommand, makeEvent } from '../support/events';

const IDS = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'] as const;

type Op =
  | { kind: 'sequenced'; id: string; epoch: number; seq: number; data: boolean }
  | { kind: 'unsequenced'; id: string }
  | { kind: 'clear' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('sequenced' as const), id: fc.constantFrom(...IDS), epoch: fc.integer({ min: 0, max: 2 }), seq: fc.integer({ min: 1, max: 12 }), data: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('unsequenced' as const), id: fc.constantFrom(...IDS) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
);

test('has, find and events agree on which events a timeline keeps, and find hands out envelopes only', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 6 }), fc.array(op, { maxLength: 40 }), (limit, ops) => {
      const timeline = new SessionTimeline(limit);
      for (const step of ops) {
        if (step.kind === 'clear') timeline.clear();
        else if (step.kind === 'unsequenced') timeline.addUnsequenced(makeCommand('control.attention.respond', 's', { id: step.id, data: { request_id: 'r' } }));
        else {
          const event = makeEvent('tool.requested', 's', step.seq, { id: step.id, ...(step.data ? { data: { tool: { name: 'Bash' } } } : {}) });
          timeline.addSequenced(event, { epoch: step.epoch, seq: step.seq });
        }
        const listed = new Set(timeline.events().map((event) => event.id));
        assert.ok(listed.size <= limit);
        for (const id of IDS) {
          const found = timeline.find(id);
          assert.equal(timeline.has(id), listed.has(id), `has(${id}) against events()`);
          assert.equal(found !== undefined, listed.has(id), `find(${id}) against events()`);
          assert.equal(found?.data, undefined, 'find hands out the envelope, without data');
        }
      }
    }),
    { numRuns: 1_500 },
  );
});
