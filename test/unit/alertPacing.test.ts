// The system notifications' budget (src/inbox/alertPacing.ts) over the slots
// every window shares (NoticeClaims.claimSlot, real files), on a fake clock:
// a flood is bounded per minute, the rest held and given as one that names
// the newest, across two windows as in one.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mock, test, type TestContext } from 'node:test';
import { AlertPacing, type Paced } from '../../src/inbox/alertPacing';
import { MINUTE_MS, NoticeClaims } from '../../src/inbox/noticeClaims';

interface Burst { agent: string; ids: string[] }

/** A window: its pacing over the shared slots, what it gave, and which requests are still waiting. */
function windowOf(dir: string, name: string, answered: Set<string>) {
  const claims = new NoticeClaims(dir, name, { perMinute: 3 });
  const given: Array<Paced<Burst>> = [];
  const waiters: Array<() => void> = [];
  const pacing = new AlertPacing<Burst>({
    take: (now) => claims.claimSlot(now),
    still: (burst) => {
      const ids = burst.ids.filter((id) => !answered.has(id));
      return ids.length === 0 ? undefined : { agent: burst.agent, ids };
    },
    give: (alert) => {
      given.push(alert);
      waiters.splice(0).forEach((wake) => wake());
    },
  });
  /** Resolves once the window has given `count` alerts in all. */
  const givenCount = (count: number) => new Promise<void>((resolve) => {
    const check = () => (given.length >= count ? resolve() : waiters.push(check));
    check();
  });
  return { pacing, given, givenCount };
}

function setup(t: TestContext) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alert-pacing-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  // Ten seconds into a minute.
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 5_000 * MINUTE_MS + 10_000 });
  t.after(() => mock.timers.reset());
  return path.join(root, 'claims');
}

const burst = (i: number): Burst => ({ agent: `agent-${i}`, ids: [`r${i}`] });
const agents = (alert: Paced<Burst> | undefined) => (alert === undefined ? [] : alert.kind === 'one' ? [alert.burst.agent] : alert.bursts.map((b) => b.agent));

test('a flood of distinct agents: three notifications this minute, then one for the rest, naming the newest last', async (t) => {
  const dir = setup(t);
  const w = windowOf(dir, 'a', new Set());
  t.after(() => w.pacing.dispose());
  for (let i = 0; i < 10; i++) await w.pacing.offer(burst(i));
  assert.deepEqual(w.given.map((alert) => alert.kind), ['one', 'one', 'one'], 'the minute\'s budget');
  mock.timers.tick(MINUTE_MS - 10_000 - 1);
  assert.equal(w.given.length, 3, 'nothing more before the minute ends');
  mock.timers.tick(1);
  await w.givenCount(4);
  const more = w.given[3];
  assert.equal(more?.kind, 'more');
  assert.deepEqual(agents(more), ['agent-3', 'agent-4', 'agent-5', 'agent-6', 'agent-7', 'agent-8', 'agent-9'], 'all seven held, oldest first: the newest is last');
});

test('while the flood goes on, one notification a minute; a quiet minute ends it', async (t) => {
  const dir = setup(t);
  const w = windowOf(dir, 'a', new Set());
  t.after(() => w.pacing.dispose());
  for (let i = 0; i < 5; i++) await w.pacing.offer(burst(i));
  assert.equal(w.given.length, 3);
  mock.timers.tick(MINUTE_MS - 10_000);
  await w.givenCount(4);
  // The flood goes on in the next minute: though its budget has room, each waits for the minute's one notification.
  for (let i = 5; i < 9; i++) await w.pacing.offer(burst(i));
  assert.equal(w.given.length, 4, 'held, not given');
  mock.timers.tick(MINUTE_MS);
  await w.givenCount(5);
  assert.deepEqual(agents(w.given[4]), ['agent-5', 'agent-6', 'agent-7', 'agent-8']);
  // A minute with nothing: the flood is over, and the next request is given at once.
  mock.timers.tick(MINUTE_MS);
  await w.pacing.offer(burst(9));
  assert.deepEqual(w.given.slice(5).map(agents), [['agent-9']]);
});

test('one request held over the minute is given as itself, not as "1 more"', async (t) => {
  const dir = setup(t);
  const w = windowOf(dir, 'a', new Set());
  t.after(() => w.pacing.dispose());
  for (let i = 0; i < 4; i++) await w.pacing.offer(burst(i));
  assert.equal(w.given.length, 3);
  mock.timers.tick(MINUTE_MS - 10_000);
  await w.givenCount(4);
  assert.deepEqual(w.given[3], { kind: 'one', burst: burst(3) }, 'one held: given as itself, not as "1 more"');
});

test('held requests answered meanwhile are not notified; none left, nothing is given', async (t) => {
  const dir = setup(t);
  const answered = new Set<string>();
  const w = windowOf(dir, 'a', answered);
  t.after(() => w.pacing.dispose());
  for (let i = 0; i < 6; i++) await w.pacing.offer(burst(i));
  answered.add('r3').add('r5');
  mock.timers.tick(MINUTE_MS - 10_000);
  await w.givenCount(4);
  assert.deepEqual(w.given[3], { kind: 'one', burst: burst(4) }, 'only the one still waiting, given as itself');

  for (let i = 6; i < 11; i++) await w.pacing.offer(burst(i));
  for (let i = 6; i < 11; i++) answered.add(`r${i}`);
  // The next minute: all held were answered, so nothing is given, and the flood is over.
  mock.timers.tick(MINUTE_MS);
  await w.pacing.offer(burst(11));
  assert.deepEqual(w.given.slice(4).map(agents), [['agent-11']], 'nothing for the answered ones; the new one at once');
});

test('two windows share one budget: what one window gives counts for the other', async (t) => {
  const dir = setup(t);
  const a = windowOf(dir, 'a', new Set());
  const b = windowOf(dir, 'b', new Set());
  t.after(() => [a, b].forEach((w) => w.pacing.dispose()));
  await a.pacing.offer(burst(0));
  await b.pacing.offer(burst(1));
  await a.pacing.offer(burst(2));
  await b.pacing.offer(burst(3));
  await a.pacing.offer(burst(4));
  assert.equal(a.given.length + b.given.length, 3);
  assert.deepEqual(agents(b.given[1]), [], 'b\'s second was held');
  mock.timers.tick(MINUTE_MS - 10_000);
  await Promise.all([a.givenCount(3), b.givenCount(2)]);
  assert.deepEqual(agents(a.given[2]), ['agent-4']);
  assert.deepEqual(agents(b.given[1]), ['agent-3']);
});
