// The whole hostile corpus (test/fixtures/hostile/*.strings.json) as an agent
// would send it: every string put into every agent-authored slot of a real
// request (agent name, session, prompt, option, field and choice labels) and
// of the answers' outcomes (a rejection's detail, a hub error's detail),
// applied to a real Inbox, then through every host-side text builder and every
// VS Code surface, and into the webview's view model. Nothing throws, nothing
// stays parseable as a link or an icon, nothing exceeds a surface's cap, and
// the page gets a message its own schema accepts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseEnvelope } from '../../src/aep/envelope';
import { parseWireMessage } from '../../src/aep/frames';
import { Inbox } from '../../src/inbox/inbox';
import { kindLabel, promptLine, provenance } from '../../src/words/describe';
import { describeOutcome } from '../../src/words/outcomeMessages';
import { pageRequest } from '../../src/app/page/pageContent';
import { forSurface, ICON_SYNTAX, LINK_SYNTAX, SURFACES, type Surface } from '../../src/words/untrustedText';
import { pageRequestSchema } from '../../src/shared/webviewMessages';
import { hostileStrings } from '../support/hostileCorpus';

const corpus = hostileStrings();
const surfaces = Object.keys(SURFACES) as Surface[];
const FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** An envelope-level identifier keeps a hostile string when it fits the envelope's cap, else a stand-in. */
const asIdentifier = (text: string, index: number) => (text.length > 0 && text.length <= 512 ? text : `s-${index}`);

function hostileRequest(text: string, index: number): string {
  const agent = asIdentifier(text, index);
  return JSON.stringify({
    aep: '0.1', id: `R${index}`, type: 'attention.requested', time: '2026-07-03T10:00:00.000Z',
    source: `aep://evil/agent/${index}/session/x`, agent, session: asIdentifier(text, index), seq: 1, capture: 'full', severity: 'warning',
    data: {
      kind: 'form', prompt: text,
      fields: [
        { id: 'name', type: 'string', label: text, required: true },
        { id: 'db', type: 'select', label: text, choices: [{ id: 'pg', label: text }, { id: 'other', label: 'Other' }], other: true },
      ],
    },
  });
}

/**
 * Each corpus string's request as read off the wire, and one inbox that applied them all, in
 * corpus order: built once (parsing and applying the megabyte strings is most of this file's
 * time) and read, never changed, by the tests below.
 */
let received: { inbox: Inbox; messages: Array<ReturnType<typeof parseWireMessage>>; outcomes: Array<ReturnType<Inbox['apply']> | undefined> } | undefined;
function receivedCorpus(): NonNullable<typeof received> {
  if (received) return received;
  const inbox = new Inbox();
  const messages = corpus.map((entry, index) => parseWireMessage(hostileRequest(entry.text, index)));
  const outcomes = messages.map((message) => (message.kind === 'event' ? inbox.apply(message.event) : undefined));
  return (received = { inbox, messages, outcomes });
}

describe(`the hostile corpus (${corpus.length} strings) through the inbox, the text builders, the surfaces and the page's view`, () => {
  test('the corpus is not vacuous', () => {
    assert.ok(corpus.length >= 60, `${corpus.length} strings`);
    assert.ok(corpus.some((entry) => entry.text.length >= 1_000_000), 'a megabyte string');
  });

  test('every string, in every agent-authored slot of a request, comes out inert on every surface', () => {
    const { inbox, messages, outcomes } = receivedCorpus();
    corpus.forEach((entry, index) => {
      const message = messages[index];
      assert.ok(message);
      assert.equal(message.kind, 'event', `${entry.name}: ${message.kind === 'invalid' ? message.problem : message.kind}`);
      if (message.kind !== 'event') return;
      const outcome = outcomes[index];
      assert.ok(outcome?.applied, `${entry.name}: ${JSON.stringify(outcome).slice(0, 200)}`);
      const item = inbox.findRequest(message.event.session ?? '', `R${index}`, message.event.source);
      assert.ok(item, entry.name);
      const sentences = [
        promptLine(item), provenance(item), kindLabel(item),
        describeOutcome({ kind: 'rejected', commandId: 'c', reason: 'invalid', detail: entry.text }, item.agent).message,
        describeOutcome({ kind: 'refused-by-hub', commandId: 'c', code: 'no-route', detail: entry.text }, item.agent).message,
        ...(item.request?.options ?? []).map((option) => option.label),
        ...(item.request?.fields ?? []).map((field) => field.label),
      ];
      for (const sentence of sentences) {
        for (const surface of surfaces) {
          const shown = forSurface(surface, sentence);
          const where = `${entry.name} on ${surface}`;
          assert.equal(shown.match(LINK_SYNTAX), null, where);
          assert.equal(shown.match(ICON_SYNTAX), null, where);
          assert.doesNotMatch(shown, FORBIDDEN, where);
          assert.ok(shown.length <= SURFACES[surface].cap, `${where}: ${shown.length} > ${SURFACES[surface].cap}`);
          if (SURFACES[surface].markdown) assert.doesNotMatch(shown, /[<>]/, `${where}: no markup in a Markdown tooltip`);
        }
      }
      // The page's view model: what the webview receives passes the schema it validates with.
      const view = pageRequest(item, { state: 'unknown' });
      const checked = pageRequestSchema.safeParse(view);
      assert.ok(checked.success, `${entry.name}: ${checked.success ? '' : checked.error.message}`);
      // And no agent text it draws holds a bidi control that reorders it (pageContent.ts): it draws what the checks read.
      const drawn = [
        view.agent, view.session, view.source, view.host, view.kind, view.resolution, view.problem, view.prompt.text,
        ...view.options.map((option) => option.label.text),
        ...view.fields.flatMap((field) => [field.label.text, ...field.choices.map((choice) => choice.label.text)]),
        ...(view.context?.rows ?? []).flatMap((row) => [row.key, row.text]),
      ];
      for (const text of drawn) if (text !== undefined) assert.doesNotMatch(text, /[\u202a-\u202e\u2066-\u2069]/u, `${entry.name} on the request page`);
    });
    assert.equal(inbox.open().length, corpus.length, 'every request is open in the inbox');
  });

  test('a restored inbox (the persisted events) reads the same as the live one', () => {
    const live = receivedCorpus().inbox;
    const restored = new Inbox();
    for (const item of live.open()) {
      const again = parseEnvelope(JSON.parse(JSON.stringify(item.requestEvent)));
      assert.ok(again.ok);
      assert.ok(restored.apply(again.value).applied);
    }
    assert.deepEqual(
      restored.open().map((item) => promptLine(item)),
      live.open().map((item) => promptLine(item)),
    );
  });
});
