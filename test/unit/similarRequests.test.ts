// Which pending requests can take the same answer (src/answer/similarRequests.ts),
// over a real Inbox fed real events: same kind and option ids group; different
// options, oob, forms, an agent that takes no answers and a closed request
// do not; a request at capture metadata is one like any other.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupOf, similarGroups } from '../../src/answer/similarRequests';
import { Inbox, type AttentionItem } from '../../src/inbox/inbox';
import { emitterEvents, type RequestData } from '../support/events';

const ALLOW_DENY: Partial<RequestData> = { kind: 'permission', prompt: 'Run npm test?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] };

function inboxOf(requests: Array<{ agent: string; data: Partial<RequestData>; capture?: 'metadata' | 'redacted' }>): { inbox: Inbox; items: () => Array<Readonly<AttentionItem>> } {
  const inbox = new Inbox({ hub: 'h1' });
  requests.forEach(({ agent, data, capture }, index) => {
    const emitter = emitterEvents({ agent, session: `s-${agent}`, requestFields: { capture: capture ?? 'redacted', severity: 'notice' } });
    inbox.apply(emitter.request(`req-${agent}-${index}`, index + 1, data));
  });
  return { inbox, items: () => inbox.open() };
}

const keys = (items: ReadonlyArray<Readonly<AttentionItem>>) => items.map((item) => item.agent);

test('same kind and the same option ids group, whatever their order or labels; the largest group first', () => {
  const { items } = inboxOf([
    { agent: 'a', data: ALLOW_DENY },
    { agent: 'b', data: { ...ALLOW_DENY, prompt: 'Run npm test in api/?', options: [{ id: 'deny', label: 'No' }, { id: 'allow', label: 'Yes' }] } },
    { agent: 'c', data: ALLOW_DENY },
    { agent: 'd', data: { ...ALLOW_DENY, options: [{ id: 'once', label: 'Once' }, { id: 'always', label: 'Always' }] } },
    { agent: 'e', data: { ...ALLOW_DENY, options: [{ id: 'once', label: 'Once' }, { id: 'always', label: 'Always' }] } },
  ]);
  const groups = similarGroups(items(), () => true);
  assert.deepEqual(groups.map((group) => keys(group.items)), [['a', 'b', 'c'], ['d', 'e']]);
  assert.deepEqual(groups[0]?.optionIds, ['allow', 'deny']);
  assert.equal(groups[0]?.kind, 'permission');
});

test('different options, another kind, oob, a form and one request alone make no group', () => {
  const { items } = inboxOf([
    { agent: 'a', data: ALLOW_DENY },
    { agent: 'b', data: { ...ALLOW_DENY, options: [{ id: 'allow', label: 'Allow' }] } },
    { agent: 'c', data: { ...ALLOW_DENY, kind: 'review' } },
    { agent: 'd', data: { ...ALLOW_DENY, respond_via: ['oob'] } },
    { agent: 'e', data: { kind: 'form', prompt: 'Configure', fields: [{ id: 'x', type: 'boolean', label: 'X' }] } },
  ]);
  assert.deepEqual(similarGroups(items(), () => true), []);
});

test('a request that takes no answer from here now (the agent refuses editors, an answer in flight) is left out; a closed one too', () => {
  const { items } = inboxOf([{ agent: 'a', data: ALLOW_DENY }, { agent: 'b', data: ALLOW_DENY }, { agent: 'c', data: ALLOW_DENY }]);
  assert.deepEqual(keys(similarGroups(items(), (item) => item.agent !== 'b')[0]?.items ?? []), ['a', 'c']);
  const closed = items().map((item) => (item.agent === 'c' ? { ...item, status: 'resolved' as const } : item));
  assert.deepEqual(similarGroups(closed, (item) => item.agent !== 'b'), [], 'with c closed, a is alone');
});

test('a request at capture metadata joins its group (the page and the list show its prompt as withheld)', () => {
  const { items } = inboxOf([{ agent: 'a', data: ALLOW_DENY }, { agent: 'b', data: ALLOW_DENY, capture: 'metadata' }]);
  const [group] = similarGroups(items(), () => true);
  assert.deepEqual(keys(group?.items ?? []), ['a', 'b']);
  const b = items().find((item) => item.agent === 'b');
  assert.ok(b);
  assert.equal(groupOf([group!], b), group);
});
