// Which pending requests can take the same answer (src/answer/similarRequests.ts),
// over a real Inbox fed real events: same kind and the same words for each
// option id group; different options or words, oob, forms, an agent that
// takes no answers and a closed request do not; a request whose labels are
// withheld (capture metadata) groups only with others withheld too.
// The property test (similarRequests.property.test.ts) holds the promise
// over generated hostile agents.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupOf, similarGroups, similarOffers } from '../../src/answer/similarRequests';
import { Inbox, type AttentionItem } from '../../src/inbox/inbox';
import { similarOptionWords } from '../../src/words/similarWords';
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

test('same kind and the same words for each option id group, whatever their order, case or spacing; the largest group first', () => {
  const { items } = inboxOf([
    { agent: 'a', data: ALLOW_DENY },
    { agent: 'b', data: { ...ALLOW_DENY, prompt: 'Run npm test in api/?', options: [{ id: 'deny', label: 'DENY' }, { id: 'allow', label: ' allow ' }] } },
    { agent: 'c', data: ALLOW_DENY },
    { agent: 'd', data: { ...ALLOW_DENY, options: [{ id: 'once', label: 'Once' }, { id: 'always', label: 'Always' }] } },
    { agent: 'e', data: { ...ALLOW_DENY, options: [{ id: 'once', label: 'Once' }, { id: 'always', label: 'Always' }] } },
  ]);
  const groups = similarGroups(items(), () => true, similarOptionWords);
  assert.deepEqual(groups.map((group) => keys(group.items)), [['a', 'b', 'c'], ['d', 'e']]);
  assert.deepEqual(groups[0]?.options.map((option) => option.id), ['allow', 'deny']);
  assert.deepEqual(groups[0]?.options.map((option) => option.label), ['Allow', 'Deny']);
  assert.equal(groups[0]?.kind, 'permission');
  assert.equal(groups[0]?.withheld, false);
});

test('the issue\'s case: one id with other words in another request makes no group', () => {
  // A hostile agent's "1" is a refusal of everything; claude-code's "1" is Yes.
  const { items } = inboxOf([
    { agent: 'hostile', data: { kind: 'permission', prompt: 'Anything', options: [{ id: '1', label: 'No — refuse this and every similar…' }, { id: '2', label: 'Yes' }] } },
    { agent: 'claude-code', data: { kind: 'permission', prompt: 'Run terraform destroy on prod?', options: [{ id: '1', label: 'Yes' }, { id: '2', label: 'No' }] } },
  ]);
  assert.deepEqual(similarGroups(items(), () => true, similarOptionWords), []);
});

test('labels alike only as far as a surface shows them are other words: compared in full', () => {
  const long = 'Allow this command and every command like it in this workspace '.repeat(4);
  const { items } = inboxOf([
    { agent: 'a', data: { ...ALLOW_DENY, options: [{ id: 'allow', label: `${long} once` }, { id: 'deny', label: 'Deny' }] } },
    { agent: 'b', data: { ...ALLOW_DENY, options: [{ id: 'allow', label: `${long} forever` }, { id: 'deny', label: 'Deny' }] } },
  ]);
  assert.deepEqual(similarGroups(items(), () => true, similarOptionWords), []);
});

test('a request with words the pick and the dialog would cut joins no group, even with its twin: the person could not read what decides', () => {
  // Two options alike in all the pick shows, differing after the cut.
  const long = 'Allow this command and every command like it in this workspace '.repeat(4);
  const cutAlike = { ...ALLOW_DENY, options: [{ id: 'once', label: `${long} once` }, { id: 'always', label: `${long} forever` }] };
  assert.deepEqual(similarGroups(inboxOf([{ agent: 'a', data: cutAlike }, { agent: 'b', data: cutAlike }]).items(), () => true, similarOptionWords), []);
  // One long option beside a short one: its end is not shown either.
  const cut = { ...ALLOW_DENY, options: [{ id: 'allow', label: `${long} once` }, { id: 'deny', label: 'Deny' }] };
  assert.deepEqual(similarGroups(inboxOf([{ agent: 'a', data: cut }, { agent: 'b', data: cut }]).items(), () => true, similarOptionWords), []);
  // As long as the pick shows whole: they group.
  const whole = 'Allow this and every command like it, '.repeat(4).slice(0, 140);
  assert.equal(similarOptionWords(whole), whole);
  const shown = { ...ALLOW_DENY, options: [{ id: 'allow', label: whole }, { id: 'deny', label: 'Deny' }] };
  assert.equal(similarGroups(inboxOf([{ agent: 'a', data: shown }, { agent: 'b', data: shown }]).items(), () => true, similarOptionWords).length, 1);
});

test('look-alike letters of other scripts, full-width forms and invisible characters read as the words they show', () => {
  const { items } = inboxOf([
    { agent: 'a', data: { ...ALLOW_DENY, options: [{ id: 'y', label: 'Yes' }, { id: 'n', label: 'No' }] } },
    // Cyrillic е, Greek Ν, a zero-width space, full-width letters
    { agent: 'b', data: { ...ALLOW_DENY, options: [{ id: 'y', label: 'Y\u0435s' }, { id: 'n', label: '\u039d\u200bo' }] } },
    { agent: 'c', data: { ...ALLOW_DENY, options: [{ id: 'y', label: '\uff39\uff45\uff53' }, { id: 'n', label: 'no' }] } },
  ]);
  const [group] = similarGroups(items(), () => true, similarOptionWords);
  assert.deepEqual(keys(group?.items ?? []), ['a', 'b', 'c']);
});

test('characters that draw nothing are no words: a label with a Hangul filler or a braille blank reads as without; one made only of them joins no group', () => {
  const { items } = inboxOf([
    { agent: 'a', data: { ...ALLOW_DENY, options: [{ id: 'y', label: 'Yes' }, { id: 'n', label: 'No' }] } },
    { agent: 'b', data: { ...ALLOW_DENY, options: [{ id: 'y', label: 'Y\u3164es' }, { id: 'n', label: 'No\u2800' }] } },
    { agent: 'c', data: { ...ALLOW_DENY, options: [{ id: 'y', label: 'Y\u034fes\uffa0' }, { id: 'n', label: '\u115fNo\u1160' }] } },
    // "Yes" and a blank: the blank option is no words at all.
    { agent: 'd', data: { ...ALLOW_DENY, options: [{ id: 'y', label: 'Yes' }, { id: 'n', label: '\u3164\u2800' }] } },
    { agent: 'e', data: { ...ALLOW_DENY, options: [{ id: 'y', label: 'Yes' }, { id: 'n', label: '\u3164' }] } },
  ]);
  const groups = similarGroups(items(), () => true, similarOptionWords);
  assert.deepEqual(groups.map((group) => keys(group.items)), [['a', 'b', 'c']]);
});

test('a request whose own options a reader could take for each other joins no group: the person could not tell which one they pick', () => {
  const twins = { ...ALLOW_DENY, options: [{ id: 'once', label: 'Allow' }, { id: 'always', label: 'A\u0406\u0406ow' }] };
  const { items } = inboxOf([{ agent: 'a', data: twins }, { agent: 'b', data: twins }]);
  assert.deepEqual(similarGroups(items(), () => true, similarOptionWords), []);
});

test('different options, another kind, oob, a form and one request alone make no group', () => {
  const { items } = inboxOf([
    { agent: 'a', data: ALLOW_DENY },
    { agent: 'b', data: { ...ALLOW_DENY, options: [{ id: 'allow', label: 'Allow' }] } },
    { agent: 'c', data: { ...ALLOW_DENY, kind: 'review' } },
    { agent: 'd', data: { ...ALLOW_DENY, respond_via: ['oob'] } },
    { agent: 'e', data: { kind: 'form', prompt: 'Configure', fields: [{ id: 'x', type: 'boolean', label: 'X' }] } },
  ]);
  assert.deepEqual(similarGroups(items(), () => true, similarOptionWords), []);
});

test('a request that takes no answer from here now (the agent refuses editors, an answer in flight) is left out; a closed one too', () => {
  const { items } = inboxOf([{ agent: 'a', data: ALLOW_DENY }, { agent: 'b', data: ALLOW_DENY }, { agent: 'c', data: ALLOW_DENY }]);
  assert.deepEqual(keys(similarGroups(items(), (item) => item.agent !== 'b', similarOptionWords)[0]?.items ?? []), ['a', 'c']);
  const closed = items().map((item) => (item.agent === 'c' ? { ...item, status: 'resolved' as const } : item));
  assert.deepEqual(similarGroups(closed, (item) => item.agent !== 'b', similarOptionWords), [], 'with c closed, a is alone');
});

test('a request whose labels are withheld (capture metadata) groups only with others withheld, by the same ids in the same places', () => {
  const { items } = inboxOf([
    { agent: 'a', data: ALLOW_DENY },
    { agent: 'b', data: ALLOW_DENY, capture: 'metadata' },
    { agent: 'c', data: ALLOW_DENY },
    { agent: 'd', data: ALLOW_DENY, capture: 'metadata' },
    { agent: 'e', data: { ...ALLOW_DENY, options: [{ id: 'deny', label: 'Deny' }, { id: 'allow', label: 'Allow' }] }, capture: 'metadata' },
  ]);
  const groups = similarGroups(items(), () => true, similarOptionWords);
  assert.deepEqual(groups.map((group) => [keys(group.items), group.withheld]), [[['a', 'c'], false], [['b', 'd'], true]]);
  const withheld = groups[1];
  assert.ok(withheld);
  assert.deepEqual(withheld.options, [{ id: 'allow', label: undefined, position: 1 }, { id: 'deny', label: undefined, position: 2 }]);
  const b = items().find((item) => item.agent === 'b');
  assert.ok(b);
  assert.equal(groupOf(groups, b), withheld);
});

test('a notification offers Answer Similar when its group holds two or more requests of one burst, counting the whole group; a batch alone does not decide', () => {
  const { items } = inboxOf([
    { agent: 'a', data: ALLOW_DENY },
    { agent: 'b', data: ALLOW_DENY },
    { agent: 'c', data: ALLOW_DENY },
    { agent: 'd', data: { ...ALLOW_DENY, options: [{ id: 'once', label: 'Once' }] } },
  ]);
  const all = items();
  const groups = similarGroups(all, () => true, similarOptionWords);
  const byAgent = (agent: string) => all.find((item) => item.agent === agent)!;
  const burst = (...agents: string[]) => new Set(agents.map((agent) => byAgent(agent).key));
  // c came in a later batch than a and b, in the same burst: its notification offers all three.
  assert.deepEqual([...similarOffers(groups, burst('a', 'b', 'c'), [byAgent('c')])], [[byAgent('c').key, 3]]);
  // One of the group in the burst, the others from before: nothing arrived together.
  assert.deepEqual([...similarOffers(groups, burst('c', 'd'), [byAgent('c'), byAgent('d')])], []);
  // Two of the group in the burst: the offer counts the group as it stands (three), d has no group.
  assert.deepEqual([...similarOffers(groups, burst('a', 'c', 'd'), [byAgent('a'), byAgent('d')])], [[byAgent('a').key, 3]]);
});
