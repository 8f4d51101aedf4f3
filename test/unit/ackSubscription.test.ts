// The acknowledgements of our answers never depend on the user's filter: which filters need their own subscription.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ACK_TYPES, ackSubscriptionFilter, subscriptionFilter } from '../../src/client/userFilter';

describe('ackSubscriptionFilter', () => {
  test('no second subscription while the main one already carries every ack', () => {
    for (const filter of [undefined, {}]) {
      const main = subscriptionFilter(filter);
      assert.ok(main.ok);
      if (main.ok) assert.equal(ackSubscriptionFilter(main.value), undefined, JSON.stringify(filter));
    }
  });
  test('any user key, the envelope\'s or an extension\'s, gets the acks a subscription of their own', () => {
    for (const filter of [{ capture: 'redacted' }, { xproject: 'alpha' }, { run: 'r1' }, { subject: 'x' }, { session: 's1' }, { agent: 'claude-code' }]) {
      const main = subscriptionFilter(filter);
      assert.ok(main.ok, JSON.stringify(filter));
      if (main.ok) assert.deepEqual(ackSubscriptionFilter(main.value), { type: [...ACK_TYPES] }, JSON.stringify(filter));
    }
    assert.deepEqual([...ACK_TYPES], ['control.accepted', 'control.rejected']);
  });
});
