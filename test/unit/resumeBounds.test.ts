// Resume positions stay bounded (count and size), ended and forgotten
// sessions leave the store, and the `from` sent never names more positions
// than the hub has shown it takes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_KEPT_POSITION_CHARS, MAX_KEPT_POSITIONS, RecentPositions, type KeptPosition } from '../../src/client/positionStore';
import { MemoryPositionStore } from '../support/memoryPositionStore';
import { DEFAULT_FROM_LIMIT, degradeAfterRefusal, planResume, resumeEntries, waitingLast } from '../../src/client/resumePlan';
import { parseEnvelope } from '../../src/aep/envelope';
import type { ResumePosition } from '../../src/aep/frames';
import { Inbox } from '../../src/inbox/inbox';
import { WorkspacePersistence } from '../../src/app/hubs/persistence';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { slotEntries } from '../support/slotEntries';

const ORIGIN = 'http://127.0.0.1:8787';
const POSITIONS_KEY = `aepAttention.positions:${ORIGIN}`;
const at = (session: string, seq = 1, epoch = 0): ResumePosition => ({ session, epoch, seq });
const SRC_A = 'aep://h/agent/a';
const SRC_B = 'aep://h/agent/b';
const of = (source: string, session: string, seq = 1, epoch = 0): KeptPosition => ({ source, session, epoch, seq });

describe('RecentPositions', () => {
  test('recording moves a session to the newest end; past the count the least recently advanced go', () => {
    const positions = new RecentPositions([], 3);
    for (const session of ['a', 'b', 'c']) positions.record(at(session));
    positions.record(at('a', 2));
    positions.record(at('d'));
    assert.deepEqual(positions.list(), [at('c'), at('a', 2), at('d')], 'b was the least recently advanced');
  });

  test('forget drops one session and frees its room', () => {
    const positions = new RecentPositions([], 2);
    positions.record(at('a'));
    positions.record(at('b'));
    positions.forget(SRC_A, 'a');
    positions.forget(SRC_A, 'never-seen');
    positions.record(at('c'));
    assert.deepEqual(positions.list().map((p) => p.session), ['b', 'c']);
  });

  test('long session strings are bounded by size as well as count', () => {
    const positions = new RecentPositions();
    for (let i = 0; i < MAX_KEPT_POSITIONS; i++) positions.record(at(`${'x'.repeat(1_000)}-${i}`));
    const chars = JSON.stringify(positions.list()).length;
    assert.ok(chars <= MAX_KEPT_POSITION_CHARS, `${chars} characters kept`);
    assert.ok(positions.size < MAX_KEPT_POSITIONS && positions.size > 100, `${positions.size} kept`);
    assert.equal(positions.list().at(-1)?.session, `${'x'.repeat(1_000)}-${MAX_KEPT_POSITIONS - 1}`, 'the newest is kept');
  });
});

describe('WorkspacePersistence positions', () => {
  test('1e5 sessions seen: at most 1 000 positions and 128 KiB persisted, the most recently advanced', (t) => {
    const memento = new MemoryMemento();
    const persistence = new WorkspacePersistence(memento, ORIGIN, new RecordingLogger());
    for (let i = 0; i < 100_000; i++) persistence.record(at(`fleet-session-${i.toString(36).padStart(6, '0')}`, i % 50));
    persistence.flush();
    const saved = slotEntries<ResumePosition>(memento, POSITIONS_KEY);
    const chars = JSON.stringify(saved).length;
    assert.equal(saved.length, MAX_KEPT_POSITIONS);
    assert.ok(chars <= MAX_KEPT_POSITION_CHARS, `${chars} characters`);
    assert.equal(saved.at(-1)?.session, `fleet-session-${(99_999).toString(36).padStart(6, '0')}`);
    assert.equal(saved[0]?.session, `fleet-session-${(99_000).toString(36).padStart(6, '0')}`);
    t.diagnostic(`1e5 sessions recorded: ${saved.length} positions persisted, ${chars} characters of JSON (${memento.storedChars} in the whole memento)`);
    persistence.dispose();
  });

  test('a list saved before the bound (every session ever seen) is cut to the newest on load and saved back smaller', (t) => {
    const memento = new MemoryMemento();
    const old = Array.from({ length: 100_000 }, (_, i) => at(`old-${i}`, 3));
    void memento.update(POSITIONS_KEY, old);
    const before = memento.storedChars;
    const log = new RecordingLogger();
    const persistence = new WorkspacePersistence(memento, ORIGIN, log);
    assert.equal(persistence.load().length, MAX_KEPT_POSITIONS);
    assert.equal(persistence.load().at(-1)?.session, 'old-99999');
    persistence.flush();
    const after = memento.storedChars;
    assert.ok(after < before / 50, `${before} → ${after} characters`);
    assert.deepEqual(log.dataOf('info', 'positions-trimmed'), [{ kept: 1000, total: 100000 }], log.lines.join('\n'));
    t.diagnostic(`an unbounded list of 1e5: ${before} characters stored before, ${after} after the first save`);
    persistence.dispose();
  });

  test('forget removes a session from what is persisted', () => {
    const memento = new MemoryMemento();
    const persistence = new WorkspacePersistence(memento, ORIGIN, new RecordingLogger());
    persistence.record(of(SRC_A, 'ended'));
    persistence.record(of(SRC_A, 'live'));
    persistence.forget(SRC_A, 'ended');
    persistence.flush();
    assert.deepEqual(slotEntries<ResumePosition>(memento, POSITIONS_KEY), [of(SRC_A, 'live')]);
    persistence.dispose();
  });

  test('positions saved in the format before they named their emitter still load, and the emitter\'s end forgets them', () => {
    const memento = new MemoryMemento();
    void memento.update(POSITIONS_KEY, [at('main', 4), at('default', 9), { session: '', epoch: 0, seq: 1 }, of(SRC_B, 'main', 2)]);
    const persistence = new WorkspacePersistence(memento, ORIGIN, new RecordingLogger());
    assert.deepEqual(persistence.load(), [at('main', 4), at('default', 9), of(SRC_B, 'main', 2)], 'the malformed one is skipped');
    assert.deepEqual(resumeEntries(persistence.load()), [at('default', 9), at('main', 2)], 'one `from` entry per session string, the earliest');
    persistence.forget(SRC_A, 'default');
    persistence.record(of(SRC_A, 'main', 6));
    persistence.flush();
    assert.deepEqual(slotEntries(memento, POSITIONS_KEY), [at('main', 4), of(SRC_B, 'main', 2), of(SRC_A, 'main', 6)]);
    persistence.dispose();
  });
});

describe('resumeEntries', () => {
  test('one entry per session string: the earliest of its emitters, as recent as the newest of them', () => {
    const kept = [of(SRC_A, 'main', 7), of(SRC_A, 'other', 3), of(SRC_B, 'main', 2, 1), of(SRC_B, 'main2', 0), of(SRC_B, 'other', 1)];
    assert.deepEqual(resumeEntries(kept), [at('main', 7), at('main2', 0), at('other', 1)], 'epoch 1 sorts after epoch 0');
    assert.deepEqual(resumeEntries([]), []);
  });
});

describe('waitingLast', () => {
  test('a session holding an open request is sent ahead of busier ones: 100 sessions advanced after it still leave it in `from`', () => {
    const waiting = of(SRC_A, 'waiting', 3);
    const busy = Array.from({ length: 100 }, (_, i) => of(SRC_B, `busy${i}`, 40));
    const kept = [of(SRC_A, 'old', 1), waiting, ...busy, at('bare')];
    const holdsOpen = (source: string, session: string) => source === SRC_A && session === 'waiting';
    const ordered = waitingLast(kept, holdsOpen);
    assert.deepEqual(ordered.map((p) => p.session).slice(0, 2), ['old', 'busy0'], 'the others keep their order');
    assert.deepEqual(ordered.at(-1), waiting);
    assert.equal(ordered.length, kept.length);
    const plan = planResume({ saved: resumeEntries(ordered), replayAll: false, limit: DEFAULT_FROM_LIMIT });
    assert.ok(Array.isArray(plan.from) && plan.from.some((p) => p.session === 'waiting'), 'in the `from`');
    // By recency alone it was left out.
    const byRecency = planResume({ saved: resumeEntries(kept), replayAll: false, limit: DEFAULT_FROM_LIMIT });
    assert.ok(Array.isArray(byRecency.from) && !byRecency.from.some((p) => p.session === 'waiting'));
    // A position saved without its source names no emitter: it holds no request.
    assert.deepEqual(waitingLast([at('waiting'), at('x')], () => true), [at('waiting'), at('x')]);
  });

  test('another emitter of the same session string holding a request brings the shared entry with it', () => {
    const kept = [of(SRC_A, 'main', 5), ...Array.from({ length: 70 }, (_, i) => of(SRC_B, `busy${i}`)), of(SRC_B, 'main', 2)];
    const entries = resumeEntries(waitingLast(kept, (source, session) => source === SRC_A && session === 'main'));
    assert.deepEqual(entries.at(-1), at('main', 2), 'the earliest of its emitters, sent first');
  });
});

describe('Inbox.onDidForgetSession', () => {
  test('fires once per session the inbox evicts, and the store drops its position', () => {
    const inbox = new Inbox({ maxSessions: 10 });
    const store = new MemoryPositionStore();
    const forgotten: string[] = [];
    inbox.onDidForgetSession(({ source, session }) => {
      forgotten.push(session);
      store.forget(source, session);
    });
    for (let i = 0; i < 30; i++) {
      const event = parseEnvelope({
        aep: '0.1', id: `E${i}`, type: 'session.started', time: '2026-07-03T10:00:00Z',
        source: `aep://h/agent/a/session/s${i}`, agent: 'a', session: `s${i}`, seq: 0,
      });
      assert.ok(event.ok);
      assert.equal(inbox.apply(event.value).applied, true);
      const position = inbox.positionOf(event.value.source, `s${i}`);
      if (position) store.record(position);
    }
    assert.ok(forgotten.length >= 20, `${forgotten.length} forgotten`);
    assert.equal(new Set(forgotten).size, forgotten.length, 'each once');
    const kept = store.load();
    assert.ok(kept.length <= 10, `${kept.length} kept`);
    for (const { source, session } of kept) assert.ok(source !== undefined && inbox.positionOf(source, session), `${session} is still tracked`);
    inbox.dispose();
  });
});

describe('planResume', () => {
  const saved = (n: number) => Array.from({ length: n }, (_, i) => at(`s${i}`));

  test('a replay-all hub is always asked for everything held: positions name no session begun while away', () => {
    for (const n of [0, 3, 300]) assert.deepEqual(planResume({ saved: saved(n), replayAll: true, limit: DEFAULT_FROM_LIMIT }), { from: 'all', leftOut: 0 });
  });

  test('without replay-all, positions within the limit are sent as they are', () => {
    assert.deepEqual(planResume({ saved: saved(3), replayAll: false, limit: 64 }), { from: saved(3), leftOut: 0 });
  });

  test('more positions than the limit, without replay-all: the most recent that fit', () => {
    const plan = planResume({ saved: saved(300), replayAll: false, limit: 64 });
    assert.ok(Array.isArray(plan.from));
    assert.equal(plan.from.length, 64);
    assert.equal(plan.from[0]?.session, 's236');
    assert.equal(plan.from.at(-1)?.session, 's299');
    assert.equal(plan.leftOut, 236);
  });

  test('a limit of zero sends no `from` at all', () => {
    assert.deepEqual(planResume({ saved: saved(5), replayAll: false, limit: 0 }), { from: undefined, leftOut: 5 });
    assert.deepEqual(planResume({ saved: [], replayAll: false, limit: 64 }), { from: undefined, leftOut: 0 });
  });

  test('refusals step down and end: every ladder from 1 000 positions reaches "nothing left to drop"', () => {
    for (const replayAll of [true, false]) {
      let state: { limit: number; replayAll: boolean } | undefined = { limit: DEFAULT_FROM_LIMIT, replayAll };
      const sent: string[] = [];
      for (let step = 0; step < 100 && state; step++) {
        const plan = planResume({ saved: saved(1_000), replayAll: state.replayAll, limit: state.limit });
        sent.push(plan.from === 'all' ? 'all' : plan.from === undefined ? 'none' : String(plan.from.length));
        state = degradeAfterRefusal(plan.from, state);
      }
      assert.equal(state, undefined, `replayAll ${replayAll}: ${sent.join(' → ')}`);
      assert.equal(sent.at(-1), 'none');
      assert.deepEqual(sent, replayAll ? ['all', '64', '32', '16', '8', '4', '2', '1', 'none'] : ['64', '32', '16', '8', '4', '2', '1', 'none']);
    }
  });
});
