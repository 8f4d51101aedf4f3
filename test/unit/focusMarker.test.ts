// The focused window's marker kept fresh (src/inbox/focusMarker.ts) on a fake
// clock: written again every FOCUS_REFRESH_MS while the window's page answers
// its round trip, never once the page is gone (so the marker ages out, as
// NoticeClaims reads it), never for a focus that has changed since, and never
// where no directory is shared.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { FocusMarker } from '../../src/inbox/focusMarker';
import { FOCUS_REFRESH_MS, type FocusedHub } from '../../src/inbox/noticeClaims';

type Write = { kind: 'set'; hubs: string[] } | { kind: 'clear' };

/** A marker over recorded writes; the page's round trips are answered by the test (or never). */
function setup(t: TestContext, shared = true) {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const writes: Write[] = [];
  const trips: Array<() => void> = [];
  let hubs: FocusedHub[] = [{ hub: 'https://hub.example', policy: { notifications: 'all', minSeverity: 'info' } }];
  const marker = new FocusMarker(
    {
      shared,
      setFocused: async (focused) => {
        writes.push({ kind: 'set', hubs: focused.map(({ hub }) => hub) });
      },
      clearFocused: async () => {
        writes.push({ kind: 'clear' });
      },
    },
    () => new Promise<void>((resolve) => trips.push(resolve)),
    (error) => assert.fail(`unexpected problem: ${String(error)}`),
  );
  t.after(() => marker.dispose());
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    marker, writes, trips, settle,
    hubs: () => hubs,
    setHubs: (next: FocusedHub[]) => { hubs = next; },
  };
}

test('a focused window whose page answers writes its marker again every refresh, naming its hubs of the time', async (t) => {
  const { marker, writes, trips, settle, hubs, setHubs } = setup(t);
  marker.mark(true, hubs);
  assert.deepEqual(writes, [{ kind: 'set', hubs: ['https://hub.example'] }]);
  t.mock.timers.tick(FOCUS_REFRESH_MS - 1);
  assert.equal(trips.length, 0, 'no round trip before the refresh is due');
  t.mock.timers.tick(1);
  assert.equal(trips.length, 1, 'one round trip when it is due');
  assert.equal(writes.length, 1, 'nothing written before the page answers');
  setHubs([{ hub: 'https://other.example', policy: { notifications: 'forms', minSeverity: 'info' } }]);
  trips.shift()?.();
  await settle();
  assert.deepEqual(writes.at(-1), { kind: 'set', hubs: ['https://other.example'] });
  t.mock.timers.tick(FOCUS_REFRESH_MS);
  trips.shift()?.();
  await settle();
  assert.equal(writes.length, 3, 'and again at the next refresh');
});

test('a page that never answers never refreshes: the marker is left to age out', async (t) => {
  const { marker, writes, trips, settle, hubs } = setup(t);
  marker.mark(true, hubs);
  for (let i = 0; i < 10; i++) {
    t.mock.timers.tick(FOCUS_REFRESH_MS);
    await settle();
  }
  assert.equal(trips.length, 1, 'one round trip, still waiting; none started beside it');
  assert.deepEqual(writes, [{ kind: 'set', hubs: ['https://hub.example'] }]);
});

test('a round trip answered after the focus moved away writes nothing: the window stays unfocused', async (t) => {
  const { marker, writes, trips, settle, hubs } = setup(t);
  marker.mark(true, hubs);
  t.mock.timers.tick(FOCUS_REFRESH_MS);
  marker.mark(false, hubs);
  trips.shift()?.();
  await settle();
  t.mock.timers.tick(10 * FOCUS_REFRESH_MS);
  await settle();
  assert.deepEqual(writes, [{ kind: 'set', hubs: ['https://hub.example'] }, { kind: 'clear' }]);
});

test('disposed, a marker neither refreshes nor writes for a round trip still out', async (t) => {
  const { marker, writes, trips, settle, hubs } = setup(t);
  marker.mark(true, hubs);
  t.mock.timers.tick(FOCUS_REFRESH_MS);
  marker.dispose();
  trips.shift()?.();
  await settle();
  t.mock.timers.tick(10 * FOCUS_REFRESH_MS);
  await settle();
  assert.equal(writes.length, 1);
  assert.equal(trips.length, 0);
});

test('with no directory shared with other windows, nothing is written and the page is never asked a round trip for it', async (t) => {
  const { marker, writes, trips, settle, hubs } = setup(t, false);
  marker.mark(true, hubs);
  for (let i = 0; i < 3; i++) {
    t.mock.timers.tick(FOCUS_REFRESH_MS);
    await settle();
  }
  marker.mark(false, hubs);
  await settle();
  assert.deepEqual(writes, []);
  assert.equal(trips.length, 0);
});
