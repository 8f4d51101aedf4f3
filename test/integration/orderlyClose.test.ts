// The client's orderly close (AEP-0003 §3.5.4): a `closing` frame with the
// last delivered positions, then the close handshake.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { HubClient } from '../../src/client/hubClient';
import { Inbox } from '../../src/inbox/inbox';
import { FAKE_HUB_HELLO, fakeHub, type FakeHub } from '../support/fakeHub';
import { makeEvent, makeRequest } from '../support/events';
import { MemoryPositionStore } from '../support/memoryPositionStore';
import { RecordingLogger } from '../support/recordingLogger';
import { waitUntil } from '../support/waitUntil';

/** What the fake hub heard on each connection, in order; `closed` marks the close handshake's arrival. */
type Heard = Array<Record<string, unknown> | 'closed'>;

async function recordingHub(events: unknown[]): Promise<{ hub: FakeHub; heard: Heard[] }> {
  const heard: Heard[] = [];
  const byConnection = new WeakMap<object, Heard>();
  const hub = await fakeHub((ws, frame) => {
    let mine = byConnection.get(ws);
    if (!mine) {
      mine = [];
      heard.push(mine);
      byConnection.set(ws, mine);
      const list = mine;
      ws.on('close', () => list.push('closed'));
    }
    mine.push(frame);
    if (frame['type'] === 'hello') ws.send(JSON.stringify(FAKE_HUB_HELLO));
    if (frame['type'] !== 'subscribe') return;
    ws.send(JSON.stringify({ type: 'subscribed', id: frame['id'] }));
    if (String(frame['id']).startsWith('attention-')) for (const event of events) ws.send(JSON.stringify(event));
  });
  return { hub, heard };
}

describe('orderly close (AEP-0003 §3.5.4)', () => {
  const hubs: FakeHub[] = [];
  after(async () => {
    for (const hub of hubs) await hub.close();
  });

  test('disposing the client sends `closing` with the last delivered position per session, then closes', async () => {
    const events = [makeEvent('session.started', 'alpha', 0), makeRequest('alpha', 1), makeEvent('session.started', 'beta', 4, { epoch: 2 })];
    const { hub, heard } = await recordingHub(events);
    hubs.push(hub);
    const inbox = new Inbox();
    const client = new HubClient({ hubUrl: hub.url, senderName: 'test-editor', inbox, positions: new MemoryPositionStore(), log: new RecordingLogger() });
    client.start();
    await waitUntil(() => client.state.kind === 'connected' && client.stats.eventsApplied === 3, 'connected and the events applied');
    client.dispose();
    await waitUntil(() => heard[0]?.includes('closed') === true, 'the close handshake');
    const frames = heard[0] ?? [];
    const closingAt = frames.findIndex((frame) => frame !== 'closed' && frame['type'] === 'closing');
    assert.ok(closingAt >= 0, `a closing frame: ${JSON.stringify(frames)}`);
    assert.equal(closingAt, frames.length - 2, 'the last frame before the close handshake');
    assert.deepEqual(frames[closingAt], {
      type: 'closing',
      reason: 'client disposed',
      delivered: [{ sub: 'attention-1', session: 'alpha', epoch: 0, seq: 1 }, { sub: 'attention-1', session: 'beta', epoch: 2, seq: 4 }],
    });
  });

  test('with nothing delivered, `closing` names no position', async () => {
    const { hub, heard } = await recordingHub([]);
    hubs.push(hub);
    const positions = new MemoryPositionStore();
    const client = new HubClient({ hubUrl: hub.url, senderName: 'test-editor', inbox: new Inbox(), positions, log: new RecordingLogger() });
    client.start();
    await waitUntil(() => client.state.kind === 'connected', 'connected');
    client.dispose();
    await waitUntil(() => heard[0]?.includes('closed') === true, 'the close handshake');
    const closing = heard[0]?.find((frame) => frame !== 'closed' && frame['type'] === 'closing');
    assert.deepEqual(closing, { type: 'closing', reason: 'client disposed', delivered: [] }, 'nothing delivered: nothing named');
  });
});
