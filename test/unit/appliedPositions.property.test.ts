// The applied positions of a session, as a property over arrival orders with
// gaps, backfill, duplicates and epoch changes: every applied position is
// known, in memory and after a save and reload; a position never applied is
// known only where it lies at or below the floor the run bound made, and a
// request never applied is held back only at or below the request floor (the
// far deeper bound of the request list), never merely for being under the
// floor. fast-check prints the seed and the shrunk case on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AppliedPositions } from '../../src/inbox/appliedPositions';
import { comparePositions, type Position } from '../../src/inbox/position';

const position = fc.record({ epoch: fc.integer({ min: 0, max: 2 }), seq: fc.integer({ min: 0, max: 40 }), request: fc.boolean() });
const everyPosition: Position[] = [];
for (let epoch = 0; epoch <= 2; epoch++) for (let seq = 0; seq <= 40; seq++) everyPosition.push({ epoch, seq });
const keyOf = (p: Position) => `${p.epoch}:${p.seq}`;

test('applied positions: every applied one is known, in memory and after a reload; a never-applied one only under the floor', () => {
  fc.assert(
    fc.property(
      fc.array(position, { maxLength: 120 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 30 }),
      fc.integer({ min: 1, max: 30 }),
      (arrivals, maxRuns, savedRuns, maxRequests, savedRequests) => {
      const applied = new AppliedPositions(undefined, maxRuns, maxRequests);
      const reference = new Set<string>();
      const requests = new Set<string>();
      for (const p of arrivals) {
        const added = applied.add(p, p.request);
        if (p.request ? requests.has(keyOf(p)) : reference.has(keyOf(p))) assert.equal(added, false, `${keyOf(p)} again is not added`);
        reference.add(keyOf(p));
        // A request at a position another event took is not applied (reported as a second event there).
        if (p.request && added) requests.add(keyOf(p));
      }
      assert.ok(applied.runCount <= maxRuns);
      const saved = applied.saved(savedRuns, savedRequests);
      assert.ok(saved.runs.length <= savedRuns);
      assert.ok((saved.requests ?? []).length <= savedRequests);
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
        if (requests.has(keyOf(p))) {
          assert.ok(applied.hasRequest(p), `request ${keyOf(p)} applied, known in memory`);
          assert.ok(reloaded.hasRequest(p), `request ${keyOf(p)} applied, known after a reload`);
        } else {
          const underRequestFloor = saved.requestFloor !== undefined && comparePositions(p, saved.requestFloor) <= 0;
          // Above the floor a position another event took is known exactly (a second event there is reported, not applied).
          const takenAboveFloor = reference.has(keyOf(p)) && (saved.floor === undefined || comparePositions(p, saved.floor) > 0);
          if (!underRequestFloor && !takenAboveFloor) assert.ok(!reloaded.hasRequest(p), `no request applied at ${keyOf(p)}, under the floor or free: a request there is not held back`);
          if (maxRequests >= arrivals.length && maxRuns >= arrivals.length && !reference.has(keyOf(p))) assert.ok(!applied.hasRequest(p), `nothing applied at ${keyOf(p)}, nothing let go: not held back`);
        }
      }
    }),
    { numRuns: 400 },
  );
});

test('a save without a request list (an earlier version) holds every request under its floor; one with it, only those listed', () => {
  const earlier = new AppliedPositions({ floor: { epoch: 0, seq: 10 }, runs: [[0, 12, 12]] });
  assert.ok(earlier.hasRequest({ epoch: 0, seq: 9 }));
  const listed = new AppliedPositions({ floor: { epoch: 0, seq: 10 }, runs: [[0, 12, 12]], requests: [[0, 4]] });
  assert.ok(listed.hasRequest({ epoch: 0, seq: 4 }));
  assert.ok(!listed.hasRequest({ epoch: 0, seq: 9 }));
  assert.ok(listed.has({ epoch: 0, seq: 9 }), 'any other event under the floor stays held back');
  assert.ok(listed.remove({ epoch: 0, seq: 4 }), 'a listed request can be taken out under the floor');
  assert.ok(!listed.hasRequest({ epoch: 0, seq: 4 }));
});

test('a save from another version is read sorted and merged; runs under the floor are dropped', () => {
  const applied = new AppliedPositions({ floor: { epoch: 0, seq: 5 }, runs: [[1, 4, 6], [0, 3, 8], [1, 1, 2], [0, 12, 10], [1, 3, 3]] });
  assert.deepEqual(applied.saved(), { floor: { epoch: 0, seq: 5 }, runs: [[0, 6, 8], [1, 1, 6]], requests: [], requestFloor: { epoch: 0, seq: 5 } });
});
