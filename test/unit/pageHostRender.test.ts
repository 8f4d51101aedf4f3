// A render the page host could not post (its `init` failed the message
// protocol) is not recorded as shown: what follows about that request waits
// for a render that reaches the page, rather than landing on the page of the
// request shown before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Inbox } from '../../src/inbox/inbox';
import type { PageInit } from '../../src/shared/webviewMessages';
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
