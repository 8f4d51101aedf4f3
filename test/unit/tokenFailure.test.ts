// A refused token and a missing one are two problems with two fixes: the
// client knows whether it sent a token, the code says which, and every
// sentence about it says what the person has to do.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { failureLogLine, tokenCanFix, tokenFailure } from '../../src/client/connectionFailure';
import { askForToken, describeFailure } from '../../src/words/failureMessages';

describe('a 401 or 403 on the upgrade', () => {
  test('is a refused token when the client sent one, a missing token when it sent none', () => {
    for (const status of [401, 403]) {
      assert.deepEqual(tokenFailure(true, status), { code: 'token-refused', httpStatus: status });
      assert.deepEqual(tokenFailure(false, status), { code: 'token-missing', httpStatus: status });
    }
  });

  test('either way, a token is the fix the UI offers', () => {
    assert.ok(tokenCanFix(tokenFailure(true, 401)));
    assert.ok(tokenCanFix(tokenFailure(false, 401)));
  });
});

describe('the words for each', () => {
  const refused = tokenFailure(true, 401);
  const missing = tokenFailure(false, 401);

  test('a refused token asks for the right one, and says the hub refused it', () => {
    assert.equal(askForToken(refused), 'the hub refused the token (HTTP 401). Enter the right one?');
    assert.match(describeFailure(refused), /^the hub refused the token \(HTTP 401\)\. Set the right one with "AEP Attention: Set Hub Token"\.$/);
    assert.equal(failureLogLine(refused), 'the hub refused the token (HTTP 401)');
  });

  test('a missing token asks for one, and never says a token was refused', () => {
    assert.equal(askForToken(missing), 'the hub requires a token (HTTP 401). Enter it?');
    assert.match(describeFailure(missing), /^the hub requires a token \(HTTP 401\)\. Set it with "AEP Attention: Set Hub Token"\.$/);
    assert.equal(failureLogLine(missing), 'the hub requires a token and none is set (HTTP 401)');
    for (const words of [askForToken(missing) ?? '', describeFailure(missing), failureLogLine(missing)]) assert.doesNotMatch(words, /refused|right one/);
  });

  test('no two of the sentences for the two read alike', () => {
    assert.notEqual(askForToken(refused), askForToken(missing));
    assert.notEqual(describeFailure(refused), describeFailure(missing));
    assert.notEqual(failureLogLine(refused), failureLogLine(missing));
  });
});
