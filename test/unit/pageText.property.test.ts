// The request page draws the words its checks read: whatever bidi controls,
// direction marks and invisible characters an agent puts in its labels, the
// text the page receives (src/app/page/pageContent.ts) reads, to every check
// (secretAsking.ts, ownItems.ts, both through readingKey), exactly as the
// host's own text of the request does, and holds no control that reorders
// what is drawn. Before, a right-to-left override drew "drowssap" as
// "password" on the page, in a plain text box, and "ylno ylper dneS" as our
// own "Send reply only" button. fast-check prints the seed on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { AepEvent } from '../../src/aep/envelope';
import { honestRequestText } from '../../src/aep/labels';
import { fieldAsksForSecret, requestAsksForSecret } from '../../src/aep/secretAsking';
import { optionPassesForOurs } from '../../src/answer/ownItems';
import { pageRequest } from '../../src/app/page/pageContent';
import { readingKey } from '../../src/base/readingKey';
import { Inbox } from '../../src/inbox/inbox';
import { ownActionWords } from '../../src/shared/ownActionWords';

const REORDERING = /[\u202a-\u202e\u2066-\u2069]/u;
const HOSTILE = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200b', '\u200e', '\u200f', '\u061c', '\u2060', '\ufeff', '\u00ad'];
const reversed = (text: string) => [...text].reverse().join('');

/** `words`, as sent or reversed behind an override, with hostile characters anywhere. */
const hostile = (words: fc.Arbitrary<string>) => fc
  .tuple(words, fc.boolean(), fc.array(fc.tuple(fc.nat(), fc.constantFrom(...HOSTILE)), { maxLength: 4 }))
  .map(([words, flip, inserts]) => {
    let text = flip ? `\u202e${reversed(words)}` : words;
    for (const [at, char] of inserts) {
      const index = at % (text.length + 1);
      text = text.slice(0, index) + char + text.slice(index);
    }
    return text;
  });
/** Words a check cares about, ours among them. */
const label = hostile(fc.constantFrom('password', 'Password', 'API token', 'one-time code', 'Allow', 'Deny', 'Branch name', 'مفتاح', 'סיסמה', ...ownActionWords()));

function item(labels: string[], kind = 'form') {
  const event: AepEvent = {
    aep: '0.1', id: 'R1', type: 'attention.requested', time: '2026-12-06T00:00:00Z', source: 'aep://h/agent/a', agent: 'a', session: 's', seq: 1, capture: 'full',
    data: {
      kind,
      prompt: labels[0] ?? 'Fill in',
      options: labels.map((text, index) => ({ id: `o${index}`, label: text })),
      fields: labels.map((text, index) => ({ id: `f${index}`, type: 'select', label: text, choices: [{ id: 'c', label: text }] })),
    },
  };
  const inbox = new Inbox();
  assert.equal(inbox.apply(event).applied, true);
  const [open] = inbox.open();
  assert.ok(open?.request, JSON.stringify(open?.problem));
  return open;
}

test('the request page draws what its checks and the host read, in every label, whatever the agent puts in it', () => {
  fc.assert(
    fc.property(fc.uniqueArray(label, { minLength: 1, maxLength: 4 }), (labels) => {
      const open = item(labels);
      const host = honestRequestText(open.request!);
      const page = pageRequest(open, { state: 'unknown' });
      assert.equal(readingKey(page.prompt.text), readingKey(host.prompt.text), 'the prompt');
      page.options.forEach((option, index) => {
        const sent = host.options[index]!.label.text;
        assert.doesNotMatch(option.label.text, REORDERING, `option ${index}`);
        assert.equal(readingKey(option.label.text), readingKey(sent), `option ${index} reads otherwise`);
        assert.equal(optionPassesForOurs(option.label.text), optionPassesForOurs(sent), `option ${index}: passes for ours on one side only`);
      });
      page.fields.forEach((field, index) => {
        const sent = host.fields[index]!;
        assert.doesNotMatch(field.label.text, REORDERING, `field ${index}`);
        assert.equal(fieldAsksForSecret(field.spec.id, field.label), fieldAsksForSecret(sent.id, sent.label), `field ${index}: a secret on one side only`);
        assert.equal(readingKey(field.choices[0]!.label.text), readingKey(sent.choices[0]!.label.text), `field ${index}'s choice`);
        assert.doesNotMatch(field.choices[0]!.label.text, REORDERING, `field ${index}'s choice`);
      });
    }),
    { numRuns: 500 },
  );
});

test('a kind the page draws as "auth" asks for a secret on the host as well, and one it does not, nowhere', () => {
  fc.assert(
    fc.property(hostile(fc.constantFrom('auth', 'AUTH', 'form', 'question', 'htua')), (kind) => {
      const open = item(['Token'], kind);
      const page = pageRequest(open, { state: 'unknown' });
      assert.doesNotMatch(page.kind, REORDERING);
      assert.equal(requestAsksForSecret(page), requestAsksForSecret(open.request!), `kind ${JSON.stringify(kind)}`);
    }),
    { numRuns: 300 },
  );
});

test('a right-to-left override no longer draws a reversed word as "password", nor as our own button', () => {
  const open = item(['\u202edrowssap', '\u202eylno ylper dneS', 'Pass\u200bword']);
  const page = pageRequest(open, { state: 'unknown' });
  assert.deepEqual(page.fields.map((field) => field.label.text), ['drowssap', 'ylno ylper dneS', 'Pass\u200bword']);
  assert.deepEqual(page.fields.map((field) => fieldAsksForSecret(field.spec.id, field.label)), [false, false, true]);
  assert.deepEqual(page.options.map((option) => optionPassesForOurs(option.label.text)), [false, false, false]);
  // Direction marks stay: right-to-left text needs them, and they cannot reverse letters.
  const hebrew = item(['\u200fסיסמה\u200f']);
  assert.equal(pageRequest(hebrew, { state: 'unknown' }).fields[0]!.label.text, '\u200fסיסמה\u200f');
});
