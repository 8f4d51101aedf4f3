import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HeldUntilReady, MAX_HELD, VIEW_WAIT_MS } from '../../src/inbox/heldUntilReady';

/** A burst of request ids; `waiting` is what still waits for an answer. */
function held(waiting: Set<string>) {
  const expired: number[] = [];
  const holder = new HeldUntilReady<string[]>({
    still: (burst) => {
      const left = burst.filter((id) => waiting.has(id));
      return left.length === 0 ? undefined : left;
    },
    expired: (dropped) => expired.push(dropped),
  });
  return { holder, expired };
}

test('the view ready: what still waits is given, oldest first; what was answered meanwhile is not', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const waiting = new Set(['r1', 'r2', 'r3']);
  const { holder, expired } = held(waiting);
  holder.hold(['r1']);
  holder.hold(['r2', 'r3']);
  waiting.delete('r1');
  waiting.delete('r3');
  assert.deepEqual(holder.release(), [['r2']]);
  t.mock.timers.tick(VIEW_WAIT_MS);
  assert.deepEqual(expired, [], 'released: the wait is over, nothing expires later');
  assert.equal(holder.count, 0);
});

test('a view that does not come in time: everything held is dropped once, and said', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { holder, expired } = held(new Set(['r1', 'r2']));
  holder.hold(['r1']);
  t.mock.timers.tick(VIEW_WAIT_MS - 1);
  holder.hold(['r2']);
  assert.deepEqual(expired, [], 'the wait runs from the first burst held, not the last');
  t.mock.timers.tick(1);
  assert.deepEqual(expired, [2]);
  assert.deepEqual(holder.release(), [], 'nothing is given late');
});

test('past the bound the first burst, the one the hold is for, stays; the second oldest goes', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const ids = Array.from({ length: MAX_HELD + 3 }, (_, i) => `r${i}`);
  const { holder } = held(new Set(ids));
  for (const id of ids) holder.hold([id]);
  const given = holder.release().map(([id]) => id);
  assert.equal(given.length, MAX_HELD);
  assert.equal(given[0], 'r0');
  assert.equal(given.at(-1), ids.at(-1), 'and the newest');
});

test('disposed: nothing is held and no timer fires', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { holder, expired } = held(new Set(['r1']));
  holder.hold(['r1']);
  holder.dispose();
  t.mock.timers.tick(VIEW_WAIT_MS);
  assert.deepEqual(expired, []);
  assert.deepEqual(holder.release(), []);
});
