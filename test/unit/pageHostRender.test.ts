// A render the page host could not post (its `init` failed the message
// protocol) is not recorded as shown: what follows about that request waits
// for a render that reaches the page, rather than landing on the page of the
// request shown before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Inbox } from '../../src/inbox/inbox';
import type { PageDraft, PageInit } from '../../src/shared/webviewMessages';
import { PageHost } from '../../src/app/page/pageHost';
import { pageRequest } from '../../src/app/page/pageContent';
import { makeRequest } from '../support/events';
import { FakeWebview } from '../support/fakeWebview';
import { RecordingLogger } from '../support/recordingLogger';

function initFor(seq: number, prompt: string): PageInit {
  const inbox = new Inbox({ hub: 'h1' });
  inbox.apply(makeRequest('s1', seq, { kind: 'permission', prompt }));
  const [item] = inbox.open();
  assert.ok(item);
  return { type: 'init', request: pageRequest(item, { state: 'unknown' }), now: 1 };
}

test('a render refused by the protocol is not taken as shown, and updates wait for one that is', () => {
  const webview = new FakeWebview();
  const log = new RecordingLogger();
  const first = initFor(1, 'Deploy to staging?');
  let init: PageInit = first;
  const host = new PageHost(webview, log, { name: 'request page', init: () => init, onMessage: () => undefined });
  webview.fromPage({ type: 'ready' });
  assert.equal(webview.shown().key, first.request.key);
  // The same panel, reused for another request whose init fails the check.
  const second = initFor(2, 'Delete the bucket?');
  init = { ...second, request: { ...second.request, beforeAsking: { actions: [], earlier: 'bogus' } } } as unknown as PageInit;
  host.refresh();
  assert.deepEqual(log.dataOf('error', 'page-message-invalid'), [{ page: 'request page', type: 'init' }], log.lines.join('\n'));
  host.post({ type: 'update', status: 'resolved', resolution: 'answered', reachability: { state: 'unknown' }, now: 2 });
  assert.deepEqual(webview.types(), ['init'], 'nothing about the new request reaches the page still showing the old one');
  // Once a render reaches the page, what waited follows it.
  init = second;
  host.refresh();
  assert.deepEqual(webview.types(), ['init', 'init', 'update']);
  assert.equal(webview.shown().key, second.request.key);
});

test('a page loaded with its first render in its HTML: the ready that names it takes no init, and what waited follows at once', () => {
  const webview = new FakeWebview();
  const init = initFor(1, 'Deploy to staging?');
  let builds = 0;
  const messages: string[] = [];
  const host = new PageHost(webview, new RecordingLogger(), { name: 'request page', init: () => (builds++, init), onMessage: (m) => messages.push(m.type) });
  host.load();
  const held = webview.loads[0];
  assert.ok(held, 'the HTML holds a render');
  assert.equal(held.request.key, init.request.key);
  // Before ready, nothing is posted; an update waits.
  host.post({ type: 'update', status: 'resolved', resolution: 'answered', reachability: { state: 'unknown' }, now: 2 });
  assert.deepEqual(webview.types(), []);
  webview.fromPage({ type: 'ready', shows: { key: held.request.key, generation: held.generation } });
  assert.deepEqual(webview.types(), ['update'], 'no init: the page drew the one its HTML held');
  assert.equal(builds, 1);
  // What the page sends about that render is about what it shows.
  webview.fromPage({ type: 'pin', key: held.request.key, generation: held.generation });
  assert.deepEqual(messages, ['pin']);
  assert.ok(host.isReady);
});

test('a ready that names no render, or another one than the HTML held, gets a fresh init; a held render is taken once', () => {
  const webview = new FakeWebview();
  const init = initFor(1, 'Deploy to staging?');
  const messages: string[] = [];
  const host = new PageHost(webview, new RecordingLogger(), { name: 'request page', init: () => init, onMessage: (m) => messages.push(m.type) });
  host.load();
  const held = webview.loads[0];
  assert.ok(held);
  // A page that saved state (rebuilt) ignores the render in its HTML: plain ready.
  webview.fromPage({ type: 'ready' });
  assert.deepEqual(webview.types(), ['init']);
  assert.notEqual(webview.shown().generation, held.generation, 'a fresh render, not the one in the HTML');
  // The HTML's render, named later (the page rebuilt from it once more), is stale: a fresh init again.
  webview.setVisible(false);
  webview.setVisible(true);
  webview.fromPage({ type: 'ready', shows: { key: held.request.key, generation: held.generation } });
  assert.deepEqual(webview.types(), ['init', 'init']);
  // A message about the render in the HTML, which the page no longer shows, is dropped.
  webview.fromPage({ type: 'pin', key: held.request.key, generation: held.generation });
  assert.deepEqual(messages, []);
  webview.fromShown({ type: 'pin' });
  assert.deepEqual(messages, ['pin']);
});

test('a first render the protocol refuses is not put in the HTML: the page loads without one and gets it on ready', () => {
  const webview = new FakeWebview();
  const log = new RecordingLogger();
  const good = initFor(1, 'Deploy to staging?');
  let init: PageInit = { ...good, request: { ...good.request, beforeAsking: { actions: [], earlier: 'bogus' } } } as unknown as PageInit;
  const host = new PageHost(webview, log, { name: 'request page', init: () => init, onMessage: () => undefined });
  host.load();
  assert.deepEqual(webview.loads, [undefined]);
  assert.deepEqual(log.dataOf('error', 'page-message-invalid'), [{ page: 'request page', type: 'init' }], log.lines.join('\n'));
  init = good;
  webview.fromPage({ type: 'ready' });
  assert.deepEqual(webview.types(), ['init']);
  assert.equal(webview.shown().key, good.request.key);
});

test('a draft handed to a page still loading reaches it: its ready takes a fresh init, not the render its HTML held', () => {
  const webview = new FakeWebview();
  const base = initFor(1, 'Deploy to staging?');
  // RequestPages.show(item, draft) on an existing page: keepDraft, then host.refresh(); init() takes the draft.
  let draft: PageDraft | undefined;
  const host = new PageHost(webview, new RecordingLogger(), {
    name: 'request page',
    init: () => { const d = draft; draft = undefined; return { ...base, ...(d ? { draft: d } : {}) }; },
    onMessage: () => undefined,
  });
  host.load();
  const held = webview.loads[0];
  assert.ok(held && held.draft === undefined);
  draft = { reply: 'typed in the quick input' };
  host.refresh();
  webview.fromPage({ type: 'ready', shows: { key: held.request.key, generation: held.generation } });
  assert.ok(webview.posted.some((m) => m.type === 'init' && m.draft !== undefined), `the handed draft never reached the page; posted: ${JSON.stringify(webview.types())}; still waiting in the owner: ${JSON.stringify(draft)}`);
});

test('a page hidden before its first ready and rebuilt later takes a fresh init: the render its HTML held (its clock, its state) is from when it loaded', () => {
  const webview = new FakeWebview();
  let now = 1_000;
  const base = initFor(1, 'Deploy to staging?');
  const host = new PageHost(webview, new RecordingLogger(), { name: 'request page', init: () => ({ ...base, now }), onMessage: () => undefined });
  host.load();
  const held = webview.loads.at(-1);
  assert.ok(held);
  webview.setVisible(false);
  now += 10 * 60_000; // ten minutes in another tab
  webview.setVisible(true);
  // The rebuilt page saved no state (it never ran): it draws the HTML's render and names it.
  webview.fromPage({ type: 'ready', shows: { key: held.request.key, generation: held.generation } });
  const inits = webview.posted.filter((m) => m.type === 'init');
  assert.ok(inits.length > 0, `no fresh init: the page would keep now=${held.now}, ten minutes stale`);
});
