// The one home of time words (src/shared/timeText.ts), run with the strings
// the host loads (configureHostStrings); the page loads the same bundle
// (test/webview/l10n.test.ts shows the countdown translated on the page).
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { configureHostStrings } from '../../src/words/l10n';
import { agoExact, agoRounded, durationExact, leftRounded } from '../../src/shared/timeText';

const T0 = Date.parse('2026-07-03T10:00:00Z');

afterEach(() => configureHostStrings(undefined));

describe('leftRounded', () => {
  test('counts down, then says the deadline passed (never "expired")', () => {
    assert.equal(leftRounded(T0 + 30_000, T0), '30 s left');
    assert.equal(leftRounded(T0 + 400, T0), '1 s left', 'not yet passed is not "passed"');
    assert.equal(leftRounded(T0 + 59_001, T0), '1 min left', '59.001 s rounds up to 60 s');
    assert.equal(leftRounded(T0 + 5 * 60_000, T0), '5 min left');
    assert.equal(leftRounded(T0, T0), 'deadline passed');
    assert.equal(leftRounded(T0 - 3_600_000, T0), 'deadline passed');
  });
});

describe('agoRounded', () => {
  test('seconds, then minutes, then hours, each rounded', () => {
    assert.equal(agoRounded(T0, T0), '0 s ago');
    assert.equal(agoRounded(T0 + 5_000, T0), '0 s ago', 'a clock that ran ahead is not negative');
    assert.equal(agoRounded(T0 - 12_400, T0), '12 s ago');
    assert.equal(agoRounded(T0 - 59_400, T0), '59 s ago');
    assert.equal(agoRounded(T0 - 150_000, T0), '3 min ago', '2.5 min rounds to 3');
    assert.equal(agoRounded(T0 - 59 * 60_000, T0), '59 min ago');
    assert.equal(agoRounded(T0 - 60 * 60_000, T0), '1 h ago');
    assert.equal(agoRounded(T0 - 150 * 60_000, T0), '3 h ago');
  });
});

describe('durationExact and agoExact', () => {
  test('to the second, rounded up', () => {
    assert.equal(durationExact(400), '1 s');
    assert.equal(durationExact(59_000), '59 s');
    assert.equal(durationExact(59_001), '1 min 0 s');
    assert.equal(durationExact(125_000), '2 min 5 s');
    assert.equal(durationExact(3 * 3_600_000), '180 min 0 s', 'no hours: a countdown reads in minutes');
  });

  test('"just now" under 5 s, then the exact age', () => {
    assert.equal(agoExact(0), 'just now');
    assert.equal(agoExact(4_999), 'just now');
    assert.equal(agoExact(5_000), '5 s ago');
    assert.equal(agoExact(125_000), '2 min 5 s ago');
  });
});

describe('localized', () => {
  test('every message, including the nested one, comes from the bundle of the `t` passed in', () => {
    configureHostStrings({ '{0} ago': 'vor {0}', '{0} min {1} s': '{0} Min. {1} Sek.', '{0} min left': 'noch {0} Min.', '{0} h ago': 'vor {0} Std.', 'just now': 'gerade eben' });
    assert.equal(agoExact(125_000), 'vor 2 Min. 5 Sek.');
    assert.equal(agoExact(1_000), 'gerade eben');
    assert.equal(leftRounded(T0 + 5 * 60_000, T0), 'noch 5 Min.');
    assert.equal(agoRounded(T0 - 2 * 3_600_000, T0), 'vor 2 Std.');
    assert.equal(leftRounded(T0 + 30_000, T0), '30 s left', 'a message the bundle lacks stays English');
  });
});
