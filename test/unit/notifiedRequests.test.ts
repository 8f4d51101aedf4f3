// The notifier's memory of what it already notified (src/inbox/notifiedRequests.ts),
// fed by a real Inbox exactly as the notifier feeds it: it holds the open requests
// only, however many come and go, and a redelivery never notifies twice.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Inbox, type AttentionItem } from '../../src/inbox/inbox';
import { NotifiedRequests } from '../../src/inbox/notifiedRequests';
import { emitterEvents } from '../support/events';

const claude = emitterEvents({ agent: 'claude-code', host: 'host-a', time: '2026-07-03T10:00:00Z' });
const request = (id: string, seq: number) => claude.request(id, seq, { prompt: `question ${id}` });
const { resolved } = claude;

/** An inbox wired to the bookkeeping as the notifier wires it; `notified` lists what would be notified. */
function watched() {
  const inbox = new Inbox();
  const owner = {};
  const memory = new NotifiedRequests<object>();
  const notified: Array<Readonly<AttentionItem>> = [];
  inbox.onDidChange((change) => {
    const fresh = memory.observe(owner, change);
    if (fresh) notified.push(fresh);
  });
  return { inbox, owner, memory, notified };
}

describe('NotifiedRequests', () => {
  test('5 000 requests opened and closed leave nothing remembered', () => {
    const { inbox, owner, memory, notified } = watched();
    // Past the inbox's own bounds on closed requests (1 000) and on a session's timeline (200).
    const cycles = 5_000;
    let seq = 0;
    for (let i = 0; i < cycles; i++) {
      inbox.apply(request(`R${i}`, seq++));
      assert.equal(memory.count(owner), 1);
      inbox.apply(resolved(`X${i}`, `R${i}`, seq++));
    }
    assert.equal(notified.length, cycles, 'each request was notified once');
    assert.equal(memory.count(owner), 0, 'a closed request is forgotten');
  });

  test('a redelivered request that is still open is not notified again, and stays remembered while open', () => {
    const { inbox, owner, memory, notified } = watched();
    const open = request('R-open', 0);
    inbox.apply(open);
    // Churn past it: other requests come and go while this one stays open.
    let seq = 1;
    for (let i = 0; i < 1_000; i++) {
      inbox.apply(request(`R${i}`, seq++));
      inbox.apply(resolved(`X${i}`, `R${i}`, seq++));
    }
    inbox.apply(open);
    assert.equal(notified.filter((item) => item.request?.prompt === 'question R-open').length, 1);
    assert.equal(memory.count(owner), 1, 'only the open request is held');
    // The same `added` seen twice (two listeners' worth of replay) is still one notification.
    const item = notified[0];
    assert.ok(item);
    assert.equal(memory.observe(owner, { kind: 'added', item }), undefined);
  });

  test('a restored inbox: what it holds counts as notified, what it held before is gone', () => {
    const memory = new NotifiedRequests<object>();
    const owner = {};
    memory.restore(owner, ['a', 'b']);
    assert.equal(memory.count(owner), 2);
    memory.restore(owner, ['c']);
    assert.equal(memory.count(owner), 1);
    const other = {};
    const inbox = new Inbox();
    const fresh: Array<string | undefined> = [];
    inbox.onDidChange((change) => fresh.push(memory.observe(other, change)?.key));
    inbox.apply(request('R1', 0));
    assert.equal(fresh.length, 1);
    assert.ok(fresh[0], 'another inbox is unaffected by this one');
    assert.equal(memory.count(owner), 1);
  });
});
