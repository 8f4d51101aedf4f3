// The inbox's levels (src/app/inboxTree.ts): a level is shown only where
// it tells rows apart, and a row whose level was left out names it itself.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Inbox } from '../../src/inbox/inbox';
import { inboxChildren, type HubItems, type InboxNode } from '../../src/app/inboxTree';
import { emitterEvents } from '../support/events';

/** One hub's open requests, as the inbox parses them: `[agent, session, host?]` per request. */
function hub(name: string, requests: Array<[string, string, string?]>): HubItems<string> {
  const inbox = new Inbox();
  requests.forEach(([agent, session, host], i) => {
    inbox.apply(emitterEvents({ agent, session, host: host ?? 'host-a' }).request(`${name}-r${i}`, i));
  });
  return { hub: name, items: inbox.open() };
}

/** The tree drawn as text, one line per row, indented by depth. */
function draw(hubs: Array<HubItems<string>>): string[] {
  const lines: string[] = [];
  const walk = (node: InboxNode<string> | undefined, depth: number) => {
    for (const child of inboxChildren(node, hubs)) {
      lines.push('  '.repeat(depth) + rowText(child));
      walk(child, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

function rowText(node: InboxNode<string>): string {
  switch (node.kind) {
    case 'hub':
      return `hub ${node.hub} (${node.items.length})`;
    case 'agent':
      return `agent ${node.agent} (${node.items.length})`;
    case 'session':
      return `session ${node.session}${node.byAgent ? ` by ${node.agent}` : ''} (${node.items.length})`;
    case 'request':
      return `request ${node.item.requestId}${node.byAgent ? ` by ${node.item.agent}` : ''}${node.bySession ? ` in ${node.item.session}` : ''}`;
  }
}

describe('inbox levels', () => {
  test('one hub, one agent, one session: the requests are the top rows and name their agent and session', () => {
    assert.deepEqual(draw([hub('h', [['claude', 's1'], ['claude', 's1']])]), [
      'request h-r0 by claude in s1',
      'request h-r1 by claude in s1',
    ]);
  });

  test('one hub, one agent, two sessions: a session row per session, naming the agent; requests under it name nothing', () => {
    assert.deepEqual(draw([hub('h', [['claude', 's1'], ['claude', 's2'], ['claude', 's1']])]), [
      'session s1 by claude (2)',
      '  request h-r0',
      '  request h-r2',
      'session s2 by claude (1)',
      '  request h-r1',
    ]);
  });

  test('one hub, two agents with one session each: agent rows, and the requests name their session only', () => {
    assert.deepEqual(draw([hub('h', [['claude', 's1'], ['codex', 'c1']])]), [
      'agent claude (1)',
      '  request h-r0 in s1',
      'agent codex (1)',
      '  request h-r1 in c1',
    ]);
  });

  test('two agents, one of them with two sessions: the session level only under that agent', () => {
    assert.deepEqual(draw([hub('h', [['claude', 's1'], ['codex', 'c1'], ['claude', 's2']])]), [
      'agent claude (2)',
      '  session s1 (1)',
      '    request h-r0',
      '  session s2 (1)',
      '    request h-r2',
      'agent codex (1)',
      '  request h-r1 in c1',
    ]);
  });

  test('the same session name from two hosts is two sessions (AEP-0001 §5.2: a session is its source and id)', () => {
    assert.deepEqual(draw([hub('h', [['claude', 's1', 'laptop'], ['claude', 's1', 'server']])]), [
      'session s1 by claude (1)',
      '  request h-r0',
      'session s1 by claude (1)',
      '  request h-r1',
    ]);
  });

  test('several hubs: a row per hub, an empty one too, and the levels below follow the same rules per hub', () => {
    assert.deepEqual(draw([hub('a', [['claude', 's1']]), hub('b', []), hub('c', [['claude', 's1'], ['codex', 'c1']])]), [
      'hub a (1)',
      '  request a-r0 by claude in s1',
      'hub b (0)',
      'hub c (2)',
      '  agent claude (1)',
      '    request c-r0 in s1',
      '  agent codex (1)',
      '    request c-r1 in c1',
    ]);
  });

  test('no hub, or one with nothing waiting: no rows', () => {
    assert.deepEqual(draw([]), []);
    assert.deepEqual(draw([hub('h', [])]), []);
  });
});
