// Watch-only is decided once (src/client/watchOnly.ts); every surface reads it through the same state.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isWatchOnly } from '../../src/client/watchOnly';
import { describeOutcome } from '../../src/words/outcomeMessages';
import { pageReachability } from '../../src/app/page/pageContent';
import { REACHABILITY_STATES, sendingBlockedBy } from '../../src/aep/reachability';

describe('watch-only', () => {
  test('a hub is watch-only when its hello declared no control and no token is set; not before a hello, nor with control or a token', () => {
    assert.equal(isWatchOnly({ capabilities: { replay: { buffer: 10 } } }, false), true);
    assert.equal(isWatchOnly({}, false), true, 'a hello with no capabilities declares no control either');
    assert.equal(isWatchOnly(undefined, false), false, 'before any hello nothing is known');
    assert.equal(isWatchOnly({ capabilities: { control: { accepts: [] } } }, false), false);
    assert.equal(isWatchOnly({ capabilities: {} }, true), false, 'with a token the hub has the last word');
  });

  test('every surface reads the same state: the page blocks sending, the host offers no answer, a refusal says the sentence', () => {
    assert.deepEqual(pageReachability({ state: 'watch-only' }), { state: 'watch-only' });
    assert.ok((REACHABILITY_STATES as readonly string[]).includes('watch-only'));
    assert.equal(sendingBlockedBy('watch-only'), 'watch-only');
    assert.equal(sendingBlockedBy('not-accepting'), 'not-accepting');
    for (const state of ['unknown', 'unreachable', 'ambiguous', 'reachable'] as const) assert.equal(sendingBlockedBy(state), undefined, state);
    const refused = describeOutcome({ kind: 'cancelled', commandId: '', code: 'watch-only' }, 'claude-code');
    assert.deepEqual(refused, { ok: false, message: 'Not sent. This hub is watch-only: set a token to answer.' });
  });
});
