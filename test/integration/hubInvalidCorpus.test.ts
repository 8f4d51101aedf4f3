// Every case of the vendored `invalid` corpus sent to the local hub over real
// loopback sockets, on both emit bindings: envelope cases are refused, and
// payload and stream cases are forwarded (test/support/invalidCorpus.ts says
// why), so a consumer can see and refuse them itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { isCommandType } from '../peers/hub/admission';
import { postEvents } from '../support/events';
import { invalidCases } from '../support/invalidCorpus';
import { WsPeer } from '../support/wsPeer';

const TOKEN = 'invalid-corpus-token';
const cases = invalidCases();

describe('the invalid corpus at the hub', () => {
  let hub: RunningHub;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
  });
  after(() => hub.close());

  test('HTTP POST /events: 400 invalid-event for each envelope case, 202 for the rest (AEP-0003 §3.2.3)', async () => {
    const verdicts: string[] = [];
    const expected: string[] = [];
    for (const c of cases) {
      // Commands never ride HTTP (AEP-0004 §4.1); the streams that hold one are sent on the socket below.
      if (c.events.some((event) => isCommandType(String(event['type'])))) continue;
      const response = await postEvents(hub.url, TOKEN, [...c.events]);
      verdicts.push(`${c.name}: ${response.status} ${response.status === 400 ? String(response.body['error']) : ''}`.trim());
      expected.push(`${c.name}: ${c.level === 'envelope' ? '400 invalid-event' : '202'}`);
    }
    assert.deepEqual(verdicts, expected);
    assert.ok(verdicts.length >= 30, `${verdicts.length} cases over HTTP`);
  });

  test('WebSocket: an invalid-event error naming each envelope case\'s event (but a dotless type is a frame), nothing else refused as invalid', async () => {
    const peer = await WsPeer.connect(hub.url, { token: TOKEN, role: 'both', agent: 'a' });
    try {
      for (const c of cases) for (const event of c.events) peer.send(event);
      const t = 'after-the-corpus';
      peer.send({ type: 'ping', t });
      await peer.waitFor((r) => r.value['type'] === 'pong' && r.value['t'] === t);
      const refused = peer.received.filter((r) => r.value['type'] === 'error' && r.value['code'] === 'invalid-event').map((r) => r.value['cause']);
      // On the socket a `type` without a dot makes a frame, not an event, and an unknown
      // frame type is ignored (AEP-0003 §2): the single-segment case draws nothing at all.
      const envelope = cases.filter((c) => c.level === 'envelope');
      const frames = envelope.filter((c) => !String(c.events[0]?.['type']).includes('.'));
      assert.deepEqual(frames.map((c) => c.name), ['single-segment type']);
      assert.deepEqual(refused, envelope.filter((c) => !frames.includes(c)).map((c) => c.events[0]?.['id']));
      // The commands in the ack streams are routed, and refused only because no one claims their session.
      const routing = peer.received.filter((r) => r.value['type'] === 'error' && r.value['code'] !== 'invalid-event').map((r) => r.value['code']);
      assert.deepEqual(routing, ['no-route', 'no-route']);
      assert.equal(peer.closed, false);
    } finally {
      await peer.close();
    }
  });
});
