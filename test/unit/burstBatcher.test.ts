// The notifier's timing (src/base/burstBatcher.ts): the first request of a burst
// goes out after a short lead, later ones are batched per window, and a quiet
// window ends the burst. Node's mock timers move the clock.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { BurstBatcher } from '../../src/base/burstBatcher';

const LEAD = 50;
const WINDOW = 400;

describe('BurstBatcher', () => {
  let batches: Array<{ at: number; items: string[] }>;
  let now: number;
  let batcher: BurstBatcher<string>;
  const advance = (ms: number) => {
    now += ms;
    mock.timers.tick(ms);
  };

  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout'] });
    now = 0;
    batches = [];
    batcher = new BurstBatcher((items) => batches.push({ at: now, items }), LEAD, WINDOW);
  });
  afterEach(() => {
    batcher.dispose();
    mock.timers.reset();
  });

  test('a lone item goes out after the lead, not after the window', () => {
    batcher.push('a');
    advance(LEAD - 1);
    assert.deepEqual(batches, []);
    advance(1);
    assert.deepEqual(batches, [{ at: LEAD, items: ['a'] }]);
  });

  test('what arrives within the lead goes out with the first; the rest of the burst once per window', () => {
    batcher.push('a');
    advance(10);
    batcher.push('b');
    advance(LEAD - 10);
    assert.deepEqual(batches, [{ at: LEAD, items: ['a', 'b'] }]);
    for (const item of ['c', 'd', 'e']) {
      advance(100);
      batcher.push(item);
    }
    advance(WINDOW - 300);
    assert.deepEqual(batches.at(-1), { at: LEAD + WINDOW, items: ['c', 'd', 'e'] });
    assert.equal(batches.length, 2);
  });

  test('a window with nothing in it ends the burst: the next item is again a first one', () => {
    batcher.push('a');
    advance(LEAD);
    advance(WINDOW); // the window after the first batch: empty, the burst ends
    batcher.push('b');
    advance(LEAD);
    assert.deepEqual(batches, [{ at: LEAD, items: ['a'] }, { at: 2 * LEAD + WINDOW, items: ['b'] }]);
  });

  test('an item in the window after the first batch waits for that window, never comes out at once', () => {
    batcher.push('a');
    advance(LEAD);
    batcher.push('b');
    advance(LEAD);
    assert.equal(batches.length, 1, 'b is not a first item: the burst is still on');
    advance(WINDOW - LEAD);
    assert.deepEqual(batches.at(-1), { at: LEAD + WINDOW, items: ['b'] });
  });

  test('a flood of 1 000 items over 2 s is a handful of batches, none lost', () => {
    for (let i = 0; i < 1_000; i++) {
      batcher.push(`r${i}`);
      advance(2);
    }
    advance(LEAD + WINDOW);
    assert.equal(batches.flatMap((batch) => batch.items).length, 1_000);
    assert.ok(batches.length <= 7, `${batches.length} batches`);
  });

  test('the end of a burst is told once, after its quiet window, not between its batches', () => {
    const quiet: number[] = [];
    const told = new BurstBatcher<string>((items) => batches.push({ at: now, items }), LEAD, WINDOW, () => quiet.push(now));
    told.push('a');
    advance(LEAD);
    told.push('b');
    advance(WINDOW);
    assert.deepEqual(quiet, [], 'b came within the window: the burst goes on');
    advance(WINDOW - 1);
    assert.deepEqual(quiet, []);
    advance(1);
    assert.deepEqual(quiet, [LEAD + 2 * WINDOW]);
    told.push('c');
    advance(LEAD);
    advance(WINDOW);
    assert.deepEqual(quiet, [LEAD + 2 * WINDOW, 2 * LEAD + 3 * WINDOW]);
    told.dispose();
  });

  test('dispose drops what waits and delivers nothing later', () => {
    batcher.push('a');
    batcher.dispose();
    advance(LEAD + WINDOW);
    assert.deepEqual(batches, []);
  });
});
