// Connect to Hub's decisions: where a changed address is saved, and which typed addresses it accepts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addressError, saveTarget } from '../../src/app/hubs/connectPlan';
import { askForToken } from '../../src/words/failureMessages';

describe('saveTarget', () => {
  test('a hub of the user\'s list is changed in that list', () => {
    assert.equal(saveTarget('list', true), 'list');
    assert.equal(saveTarget('list', false), 'list');
  });
  test('with a workspace open, the person chooses; without one, the user settings', () => {
    for (const source of ['folder', 'workspace', 'user', 'environment', undefined] as const) {
      assert.equal(saveTarget(source, true), 'ask');
      assert.equal(saveTarget(source, false), 'user');
    }
  });
});

describe('addressError', () => {
  test('accepts a loopback hub and a TLS one, spaces around them included', () => {
    assert.equal(addressError(' http://127.0.0.1:8787 ', false), undefined);
    assert.equal(addressError('wss://hub.example/team', false), undefined);
  });
  test('refuses what a connection would refuse, in its words', () => {
    assert.match(addressError('hub', false) ?? '', /not a URL/);
    assert.match(addressError('ftp://hub.example', false) ?? '', /ftp:/);
    assert.match(addressError('https://user:secret@hub.example', false) ?? '', /token or credentials/);
    assert.match(addressError('http://hub.example', false) ?? '', /allowInsecureRemote/);
  });
  test('plain http off this machine only with allowInsecureRemote', () => {
    assert.equal(addressError('http://hub.example', true), undefined);
  });
});

describe('askForToken', () => {
  test('a refused or missing token is asked for, with no command to run', () => {
    for (const failure of [{ code: 'token-refused', httpStatus: 401 }, { code: 'token-missing', httpStatus: 401 }] as const) {
      const asked = askForToken(failure as Parameters<typeof askForToken>[0]) ?? '';
      assert.match(asked, /\?$/);
      assert.doesNotMatch(asked, /Set Hub Token|AEP Attention:/);
    }
  });
  test('other failures keep their own words', () => {
    assert.equal(askForToken({ code: 'bad-address', address: { code: 'not-a-url' } } as Parameters<typeof askForToken>[0]), undefined);
  });
});
