// "Before asking" as the host builds it for the page: only what came before
// the request in session order, newest first, within the schema the page checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Inbox } from '../../src/inbox/inbox';
import { pageBeforeAskingSchema } from '../../src/shared/beforeAsking';
import { pageBeforeAsking } from '../../src/ui/words/beforeAskingContent';
import { makeEvent, makeRequest } from '../support/events';

const SOURCE = 'aep://test-host/agent/test-agent/session/s1';
const call = (seq: number, name: string) => makeEvent('tool.requested', 's1', seq, { data: { tool: { name, call_id: `c${seq}` } } });

test('only the actions before the request in session order, newest first; later ones and backfill after it are left out', () => {
  const inbox = new Inbox();
  inbox.apply(call(1, 'Read'));
  inbox.apply(call(2, 'Bash'));
  const request = makeRequest('s1', 4, { kind: 'permission', prompt: 'Go?' });
  inbox.apply(request);
  inbox.apply(call(5, 'After'));
  // Backfilled: arrives after the request, but its position is before it.
  inbox.apply(call(3, 'Backfill'));
  const view = pageBeforeAsking(inbox.recentActions(SOURCE, 's1'), request);
  assert.deepEqual(view.actions.map((a) => a.name), ['Backfill', 'Bash', 'Read']);
  assert.equal(view.earlier, 'not-available');
  assert.ok(pageBeforeAskingSchema.safeParse(view).success);
});

test('the page refuses a view past the bounds (the host is not trusted blindly either)', () => {
  const action = { kind: 'tool', name: 'Bash', at: 0, capture: 'full', args: { shown: 'text', honesty: 'verbatim', text: 'x', chars: 1 }, outcome: { state: 'running' } };
  assert.ok(pageBeforeAskingSchema.safeParse({ actions: [action], earlier: 'complete' }).success);
  assert.equal(pageBeforeAskingSchema.safeParse({ actions: Array.from({ length: 51 }, () => action), earlier: 'complete' }).success, false);
  assert.equal(pageBeforeAskingSchema.safeParse({ actions: [{ ...action, args: { ...action.args, text: 'x'.repeat(1_001) } }], earlier: 'complete' }).success, false);
  assert.equal(pageBeforeAskingSchema.safeParse({ actions: [{ ...action, name: 'n'.repeat(121) }], earlier: 'complete' }).success, false);
});
