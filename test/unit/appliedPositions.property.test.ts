// The applied positions of a session, as a property over arrival orders with
// gaps, backfill, duplicates and epoch changes: every applied position is
// known, in memory and after a save and reload; a position never applied is
// known only where it lies at or below the floor the run bound made (the one
// place something never applied is held back). fast-check prints the seed and
// the shrunk case on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AppliedPositions } from '../../src/inbox/appliedPositions';
import { comparePositions, type Position } from '../../src/inbox/position';

const position = fc.record({ epoch: fc.integer({ min: 0, max: 2 }), seq: fc.integer({ min: 0, max: 40 }) });
const everyPosition: Position[] = [];
for (let epoch = 0; epoch <= 2; epoch++) for (let seq = 0; seq <= 40; seq++) everyPosition.push({ epoch, seq });
const keyOf = (p: Position) => `${p.epoch}:${p.seq}`;

test('applied positions: every applied one is known, in memory and after a reload; a never-applied one only under the floor', () => {
  fc.assert(
    fc.property(fc.array(position, { maxLength: 120 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }), (arrivals, maxRuns, savedRuns) => {
      const applied = new AppliedPositions(undefined, maxRuns);
      const reference = new Set<string>();
      for (const p of arrivals) {
        const added = applied.add(p);
        if (reference.has(keyOf(p))) assert.equal(added, false, `${keyOf(p)} again is not added`);
        reference.add(keyOf(p));
      }
      assert.ok(applied.runCount <= maxRuns);
      const saved = applied.saved(savedRuns);
      assert.ok(saved.runs.length <= savedRuns);
      const reloaded = new AppliedPositions(saved);
      const highest = [...reference].map((k) => ({ epoch: Number(k.split(':')[0]), seq: Number(k.split(':')[1]) })).sort(comparePositions).at(-1);
      assert.deepEqual(applied.highest, highest, 'the highest applied is the resume point');
      for (const p of everyPosition) {
        if (reference.has(keyOf(p))) {
          assert.ok(applied.has(p), `${keyOf(p)} applied, known in memory`);
          assert.ok(reloaded.has(p), `${keyOf(p)} applied, known after a reload`);
        } else {
          const underFloor = saved.floor !== undefined && comparePositions(p, saved.floor) <= 0;
          if (!underFloor) assert.ok(!reloaded.has(p), `${keyOf(p)} never applied and above the floor: not held back`);
          if (maxRuns >= arrivals.length) assert.ok(!applied.has(p), `${keyOf(p)} never applied, no run folded: not held back`);
        }
      }
    }),
    { numRuns: 400 },
  );
});

test('a save from another version is read sorted and merged; runs under the floor are dropped', () => {
  const applied = new AppliedPositions({ floor: { epoch: 0, seq: 5 }, runs: [[1, 4, 6], [0, 3, 8], [1, 1, 2], [0, 12, 10], [1, 3, 3]] });
  assert.deepEqual(applied.saved(), { floor: { epoch: 0, seq: 5 }, runs: [[0, 6, 8], [1, 1, 6]] });
});
