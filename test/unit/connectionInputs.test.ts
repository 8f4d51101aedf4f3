// Which settings changes rebuild the hub client: only those the connection is made of.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { connectionInputs, needsRebuild } from '../../src/host/connectionInputs';
import type { Settings } from '../../src/host/settings';

const BASE: Settings = {
  hubUrl: 'http://127.0.0.1:8787',
  hubUrlSource: 'user',
  filter: { agent: 'claude-code', session: ['s1', 's2'] },
  captureCeiling: 'redacted',
  notifications: 'all',
  notificationMinSeverity: 'info',
  senderName: 'vscode-aep-attention',
  allowInsecureRemote: false,
  closeFormWhenResolved: false,
};

const rebuilds = (change: Partial<Settings>) => needsRebuild(connectionInputs(BASE), connectionInputs({ ...BASE, ...change }));

describe('needsRebuild', () => {
  test('a change of what the connection is made of rebuilds', () => {
    const changes: Array<Partial<Settings>> = [
      { hubUrl: 'http://127.0.0.1:8788' },
      { hubUrl: 'http://127.0.0.1:8787/other-path' },
      { hubUrl: '' },
      { filter: undefined },
      { filter: { agent: 'codex', session: ['s1', 's2'] } },
      { filter: { agent: 'claude-code', session: ['s2', 's1'] } },
      { filter: { agent: 'claude-code', session: ['s1', 's2'], xproject: 'alpha' } },
      { captureCeiling: undefined },
      { captureCeiling: 'full' },
      { senderName: 'my-editor' },
      { allowInsecureRemote: true },
    ];
    for (const change of changes) assert.equal(rebuilds(change), true, JSON.stringify(change));
  });

  test('settings read where they are used take effect without a rebuild', () => {
    const changes: Array<Partial<Settings>> = [
      { closeFormWhenResolved: true },
      { notifications: 'off' },
      { notifications: 'forms' },
      { notificationMinSeverity: 'warning' },
      // Where the same URL came from words a log line; the connection is the same.
      { hubUrlSource: 'workspace' },
      {},
    ];
    for (const change of changes) assert.equal(rebuilds(change), false, JSON.stringify(change));
  });

  test('the same filter rewritten, keys in another order, is the same subscription', () => {
    assert.equal(rebuilds({ filter: { session: ['s1', 's2'], agent: 'claude-code' } }), false);
    assert.equal(rebuilds({ filter: { ...BASE.filter } }), false);
  });

  test('a filter that differs only by a missing or an extra key, or a type, rebuilds', () => {
    assert.equal(rebuilds({ filter: { agent: 'claude-code' } }), true);
    assert.equal(rebuilds({ filter: { agent: 'claude-code', session: 's1' } }), true);
    assert.equal(rebuilds({ filter: { agent: 'claude-code', session: { 0: 's1', 1: 's2' } } }), true);
    assert.equal(needsRebuild(connectionInputs({ ...BASE, filter: { epoch: 1 } }), connectionInputs({ ...BASE, filter: { epoch: '1' } })), true);
  });
});
