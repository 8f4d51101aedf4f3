// What activation no longer loads (issue 40): a part loaded on its first need
// (src/base/onFirstNeed.ts), and the drafts the quick input keeps before any
// page is loaded (src/app/page/pageDrafts.ts). Plain Node, over loads the test
// settles by hand, as a slow disk would.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OnFirstNeed } from '../../src/base/onFirstNeed';
import { PageDrafts, restoreSavedPage } from '../../src/app/page/pageDrafts';
import { Inbox } from '../../src/inbox/inbox';
import { emitterEvents } from '../support/events';
import { RecordingLogger } from '../support/recordingLogger';

/** A load that waits until the test settles it; each call is one load. `made` counts the parts made from what a load imported. */
function manualLoads<T>(): { load: () => Promise<() => T>; calls: Array<{ resolve: (value: T) => void; reject: (error: Error) => void }>; made: T[] } {
  const calls: Array<{ resolve: (value: T) => void; reject: (error: Error) => void }> = [];
  const made: T[] = [];
  const load = () => new Promise<() => T>((resolve, reject) => calls.push({
    resolve: (value) => resolve(() => {
      made.push(value);
      return value;
    }),
    reject,
  }));
  return { calls, load, made };
}

interface Part {
  readonly name: string;
  disposed: number;
}
const part = (name: string): Part => ({ name, disposed: 0 });

function made(loads: ReturnType<typeof manualLoads<Part>>, log = new RecordingLogger()) {
  const told: string[] = [];
  const need = new OnFirstNeed<Part>('request-pages', loads.load, log, () => told.push('told'), (value) => value.disposed++);
  return { need, told, log };
}

/** What `now` answers at this moment (read through a call, so an earlier assertion does not narrow it). */
const loadedNow = (need: OnFirstNeed<Part>): Part | undefined => need.now;

describe('OnFirstNeed', () => {
  test('nothing is loaded until first needed; callers before the load ends share the one load, and get it in the order they asked', async () => {
    const loads = manualLoads<Part>();
    const { need } = made(loads);
    assert.equal(loads.calls.length, 0);
    assert.equal(need.now, undefined, 'what asks synchronously answers without the part');
    const order: string[] = [];
    const first = need.get().then((value) => order.push(`first ${value?.name}`));
    const second = need.get().then((value) => order.push(`second ${value?.name}`));
    assert.equal(loads.calls.length, 1);
    loads.calls[0]?.resolve(part('pages'));
    await Promise.all([first, second]);
    assert.deepEqual(order, ['first pages', 'second pages']);
    assert.equal(loadedNow(need)?.name, 'pages');
    assert.equal((await need.get())?.name, 'pages');
    assert.equal(loads.calls.length, 1, 'loaded once');
  });

  test('a failed load is logged with its code and told to the person, never swallowed; the next need tries again', async () => {
    const loads = manualLoads<Part>();
    const { need, told, log } = made(loads);
    const failed = need.get();
    loads.calls[0]?.reject(new Error('chunk missing'));
    assert.equal(await failed, undefined);
    assert.deepEqual(told, ['told']);
    const lines = log.entries.filter((entry) => entry.code === 'part-load-failed');
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.level, 'error');
    assert.deepEqual(lines[0]?.data, { part: 'request-pages' });
    assert.match(lines[0]?.message ?? '', /chunk missing/);
    assert.equal(need.now, undefined);
    const again = need.get();
    assert.equal(loads.calls.length, 2, 'the next need loads again');
    loads.calls[1]?.resolve(part('pages'));
    assert.equal((await again)?.name, 'pages');
    assert.deepEqual(told, ['told'], 'told once, for the one failure');
  });

  test('disposed while loading: nothing is made from what the load imported, and nobody gets it', async () => {
    const loads = manualLoads<Part>();
    const { need } = made(loads);
    const pending = need.get();
    need.dispose();
    const loaded = part('pages');
    loads.calls[0]?.resolve(loaded);
    assert.equal(await pending, undefined);
    assert.deepEqual(loads.made, [], 'a part made after its window closed would register listeners and write files for nobody');
    assert.equal(loaded.disposed, 0);
    assert.equal(need.now, undefined);
    assert.equal(await need.get(), undefined);
    assert.equal(loads.calls.length, 1, 'nothing is loaded after disposal');
  });

  test('a part that keeps failing to load is logged each time and told once: a background need (a system notification per burst) raises no toast each time', async () => {
    const loads = manualLoads<Part>();
    const { need, told, log } = made(loads);
    for (let attempt = 0; attempt < 3; attempt++) {
      const failed = need.get();
      loads.calls[attempt]?.reject(new Error('chunk missing'));
      assert.equal(await failed, undefined);
    }
    assert.equal(loads.calls.length, 3, 'each need tries again');
    assert.equal(log.entries.filter((entry) => entry.code === 'part-load-failed').length, 3);
    assert.deepEqual(told, ['told']);
  });

  test('disposed once loaded: the part is released once; a load failing after disposal is not told', async () => {
    const loads = manualLoads<Part>();
    const { need, told, log } = made(loads);
    const pending = need.get();
    const loaded = part('pages');
    loads.calls[0]?.resolve(loaded);
    await pending;
    need.dispose();
    need.dispose();
    assert.equal(loaded.disposed, 1);
    assert.equal(need.now, undefined);

    const other = manualLoads<Part>();
    const late = made(other, log);
    const failing = late.need.get();
    late.need.dispose();
    other.calls[0]?.reject(new Error('window closing'));
    assert.equal(await failing, undefined);
    assert.deepEqual([...told, ...late.told], []);
    assert.equal(log.entries.filter((entry) => entry.code === 'part-load-failed').length, 0);
  });
});

describe('PageDrafts', () => {
  test('a draft is kept until a page takes it once; an empty one forgets it', () => {
    const drafts = new PageDrafts(() => true);
    assert.equal(drafts.get('a'), undefined);
    drafts.keep('a', { reply: 'half typed' });
    assert.equal(drafts.has('a'), true);
    assert.deepEqual(drafts.get('a'), { reply: 'half typed' });
    assert.deepEqual(drafts.take('a'), { reply: 'half typed' });
    assert.equal(drafts.has('a'), false);
    assert.equal(drafts.take('a'), undefined);
    drafts.keep('b', { fields: { name: { value: 'x' } } });
    drafts.keep('b', {});
    assert.equal(drafts.has('b'), false);
  });

  test('keeping a draft drops those of requests gone from the inbox', () => {
    const inInbox = new Set(['a', 'b']);
    const drafts = new PageDrafts((key) => inInbox.has(key));
    drafts.keep('a', { reply: 'one' });
    drafts.keep('b', { reply: 'two' });
    inInbox.delete('a');
    assert.deepEqual(drafts.get('a'), { reply: 'one' }, 'still there until the next keep');
    drafts.keep('b', { reply: 'two, more' });
    assert.equal(drafts.has('a'), false);
    assert.deepEqual(drafts.get('b'), { reply: 'two, more' });
  });

  test("a page restored after a reload whose code does not load closes, and what the person had typed in it is kept for the request's next page", async () => {
    const inbox = new Inbox({ hub: 'hub-a' });
    const claude = emitterEvents({ agent: 'claude-code' });
    inbox.apply(claude.request('R1', 1));
    inbox.apply(claude.request('R2', 2));
    const [first, second] = inbox.open();
    assert.ok(first && second);
    const requests = { item: (key: string) => inbox.item(key), list: () => [{ id: 'hub-a' }] };
    const drafts = new PageDrafts((key) => inbox.item(key) !== undefined);
    const log = new RecordingLogger();
    const told: string[] = [];
    const loads = manualLoads<{ restore(panel: { dispose(): void }, state: unknown): void }>();
    const pages = new OnFirstNeed('request-pages', loads.load, log, () => told.push('told'));
    const panel = () => {
      const closed = { count: 0 };
      return { closed, dispose: () => void closed.count++ };
    };

    // Two panels VS Code kept, one saved before keys named their hub; the pages' code fails to load.
    const [one, two, empty] = [panel(), panel(), panel()];
    const legacyKey = first.key.slice('hub-a\u0000'.length);
    assert.ok(inbox.item(legacyKey) === undefined && legacyKey !== first.key, 'the legacy key is found only under its hub');
    const restored = [
      restoreSavedPage(() => pages.get(), one, { key: legacyKey, reply: 'half typed' }, drafts, requests, log),
      restoreSavedPage(() => pages.get(), two, { key: second.key, fields: { name: { value: 'api' } } }, drafts, requests, log),
      restoreSavedPage(() => pages.get(), empty, { key: 'gone', reply: 'for nobody' }, drafts, requests, log),
    ];
    loads.calls[0]?.reject(new Error('chunk missing'));
    await Promise.all(restored);
    assert.deepEqual([one.closed.count, two.closed.count, empty.closed.count], [1, 1, 1], 'a panel that cannot be shown closes');
    assert.deepEqual(drafts.get(first.key), { reply: 'half typed' });
    assert.deepEqual(drafts.get(second.key), { fields: { name: { value: 'api' } } });
    assert.equal(drafts.has('gone'), false, 'a request no longer in the inbox keeps nothing');
    assert.deepEqual(told, ['told'], 'told once for the three panels');
    assert.equal(log.entries.filter((entry) => entry.code === 'part-load-failed').length, 1);

    // The request's page opens later, its code loaded: the page takes the draft, once.
    loads.calls.length = 0;
    const shown: unknown[] = [];
    const later = restoreSavedPage(() => pages.get(), panel(), { key: second.key }, drafts, requests, log);
    loads.calls[0]?.resolve({ restore: (_panel, state) => shown.push(state) });
    await later;
    assert.deepEqual(shown, [{ key: second.key }], 'once loaded, the panel goes to the pages as it is');
    assert.deepEqual(drafts.take(first.key), { reply: 'half typed' });
  });
});
