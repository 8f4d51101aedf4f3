// Every string of the hostile corpus through every surface of untrustedText:
// nothing VS Code would parse as a link or an icon survives, no control or
// bidi character, nothing beyond the surface's cap, and ordinary text (names
// `plain/…`) comes out exactly as it went in. The sentence builders that put
// agent text into our own words (describe.ts, outcomeMessages.ts) are driven
// with the same corpus.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SendOutcome } from '../../src/client/controlSender';
import type { AttentionItem } from '../../src/inbox/inbox';
import { agentName, kindLabel, promptLine, provenance } from '../../src/words/describe';
import { describeOutcome } from '../../src/words/outcomeMessages';
import {
  ELLIPSIS, forSurface, ICON_SYNTAX, LINK_SYNTAX, piece, SURFACES, WORD_JOINER, type Surface,
} from '../../src/words/untrustedText';
import { hostileStrings, type HostileString } from '../support/hostileCorpus';

const corpus = hostileStrings();
const surfaces = Object.keys(SURFACES) as Surface[];
const plainSurfaces = surfaces.filter((surface) => !SURFACES[surface].markdown);

/** Characters no surface may show: C0/C1 controls and DEL (line feed allowed where a surface keeps lines), bidi controls. */
const FORBIDDEN_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;
const FORBIDDEN_MANY_LINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

/** Reads the result as a user does: the word joiners are invisible; in Markdown text, our entities are what the renderer shows. */
function asRead(surface: Surface, shown: string): string {
  const visible = shown.split(WORD_JOINER).join('');
  return SURFACES[surface].markdown ? visible.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&') : visible;
}

function label(entry: HostileString, surface: Surface): string {
  return `${entry.name} on ${surface}`;
}

test('the corpus holds at least 30 strings, the plain ones among them, and a 1 MB one', () => {
  assert.ok(corpus.length >= 30, `${corpus.length} strings`);
  assert.ok(corpus.filter((entry) => entry.name.startsWith('plain/')).length >= 5);
  assert.ok(corpus.some((entry) => entry.text.length >= 1_000_000));
});

describe('every corpus string on every surface', () => {
  for (const surface of surfaces) {
    test(surface, () => {
      const rule = SURFACES[surface];
      for (const entry of corpus) {
        const shown = forSurface(surface, entry.text);
        const where = label(entry, surface);
        assert.ok(shown.length <= rule.cap, `${where}: ${shown.length} > cap ${rule.cap}`);
        assert.equal(shown.match(LINK_SYNTAX), null, `${where}: a link VS Code would parse: ${JSON.stringify(shown.slice(0, 200))}`);
        assert.equal(shown.match(ICON_SYNTAX), null, `${where}: an icon VS Code would render: ${JSON.stringify(shown.slice(0, 200))}`);
        // Stricter than VS Code's own patterns: the two openings never appear at all.
        assert.ok(!shown.includes('](') && !shown.includes('$('), `${where}: an opening left: ${JSON.stringify(shown.slice(0, 200))}`);
        assert.doesNotMatch(shown, rule.lines === 'one' ? FORBIDDEN_ONE_LINE : FORBIDDEN_MANY_LINES, where);
        if (rule.lines === 'many') assert.ok(shown.split('\n').length <= rule.maxLines, `${where}: ${shown.split('\n').length} lines`);
        if (rule.markdown) {
          // Nothing left for the Markdown renderer to make a tag, an autolink or a bare link of.
          assert.doesNotMatch(shown, /[<>]/, `${where}: an angle bracket`);
          assert.doesNotMatch(shown, /&(?!amp;|lt;|gt;)/, `${where}: an entity the renderer would decode`);
          assert.doesNotMatch(shown, /:\/\/|www\.|@(?!\u2060)/i, `${where}: an autolink`);
          assert.doesNotMatch(shown, /^\d+[.)]/m, `${where}: an ordered list marker`);
        }
      }
    });
  }
});

test('ordinary text, emoji sequences and every script come out unchanged wherever they fit', () => {
  const plain = corpus.filter((entry) => entry.name.startsWith('plain/'));
  for (const entry of plain) {
    for (const surface of surfaces) {
      const shown = forSurface(surface, entry.text);
      if (entry.text.length <= SURFACES[surface].cap) assert.equal(shown, entry.text, label(entry, surface));
      else assert.ok(shown.endsWith(ELLIPSIS) && entry.text.startsWith(shown.slice(0, -1)), label(entry, surface));
    }
  }
});

test('hostile text stays readable: once the invisible joiners are skipped, it reads as the agent wrote it', () => {
  // Strings with nothing to remove (no control, bidi or invisible character, one line, short).
  const readable = corpus.filter(
    (entry) => /^(link|codicon|markdown|html)\//.test(entry.name) && !/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/.test(entry.text),
  );
  assert.ok(readable.length >= 15, `${readable.length} strings`);
  for (const entry of readable) {
    for (const surface of plainSurfaces) {
      if (entry.text.length > SURFACES[surface].cap) continue;
      assert.equal(asRead(surface, forSurface(surface, entry.text)), entry.text.replace(/\s+/g, ' ').trim(), label(entry, surface));
    }
    const markdown = forSurface('markdownText', entry.text);
    assert.equal(asRead('markdownText', markdown).replace(/\n+/g, '\n'), entry.text.split('\n').map((line) => line.replace(/\s+/g, ' ').trim()).filter(Boolean).join('\n'), label(entry, 'markdownText'));
  }
});

test('what is removed: controls, bidi controls, invisible characters, smuggled tags; what stays: ZWJ, ZWNJ, flag tags', () => {
  assert.equal(forSurface('treeLabel', 'before\u0000after'), 'beforeafter');
  assert.equal(forSurface('treeLabel', 'access_level = "user\u202e \u2066// Check if admin\u2069 \u2066" // approve'), 'access_level = "user // Check if admin " // approve');
  assert.equal(forSurface('treeLabel', 'adm\u200bin \ufeffroot'), 'admin root');
  assert.equal(forSurface('treeLabel', `hello${[...'ignore'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')} world`), 'hello world');
  assert.equal(forSurface('treeLabel', '\ud800abc'), '\ufffdabc');
  assert.equal(forSurface('treeLabel', 'a\u200db\u200cc'), 'a\u200db\u200cc');
  // A joiner already in the text is not trusted: it is removed and put back where it belongs.
  assert.equal(forSurface('treeLabel', '[x]\u200b(command:y)'), `[x]${WORD_JOINER}(command:y)`);
});

test('one-line surfaces collapse whitespace; Markdown text keeps lines but no floods', () => {
  assert.equal(forSurface('notificationMessage', ' a\t\tb \r\n\r\n c\u2028d '), 'a b c d');
  assert.equal(forSurface('markdownText', `top${'\r\n'.repeat(1000)}bottom`), 'top\n\nbottom');
  assert.equal(forSurface('markdownText', 'one\ntwo  three\n\n\n\nfour'), 'one\ntwo three\n\nfour');
});

test('caps cut at a grapheme boundary and say so with an ellipsis', () => {
  const family = '\u{1F468}\u200d\u{1F469}\u200d\u{1F467}\u200d\u{1F466}';
  const shown = forSurface('notificationButton', family.repeat(10));
  assert.ok(shown.endsWith(ELLIPSIS));
  assert.equal(shown.slice(0, -1), family.repeat((shown.length - 1) / family.length), 'only whole emoji sequences');
  const huge = forSurface('notificationMessage', 'A'.repeat(1_048_576));
  assert.equal(huge, `${'A'.repeat(SURFACES.notificationMessage.cap - 1)}${ELLIPSIS}`);
  // Markdown text is capped as encoded, never inside an entity.
  assert.match(forSurface('markdownText', '<'.repeat(5000)), /^(&lt;)+…$/);
  // A string hiding its link behind half a million invisible characters is cut, not searched to the end.
  assert.equal(forSurface('treeLabel', `${'\u200b'.repeat(500_000)}[Open](command:x)`), ELLIPSIS);
});

test('plain surfaces are idempotent, so a sentence of sanitised pieces can be sanitised whole', () => {
  for (const entry of corpus) {
    for (const surface of plainSurfaces) {
      const once = forSurface(surface, entry.text);
      assert.equal(forSurface(surface, once), once, label(entry, surface));
    }
  }
});

test('the whole corpus through every surface, and the time it takes', (t) => {
  const started = performance.now();
  let calls = 0;
  for (const entry of corpus) {
    for (const surface of surfaces) {
      forSurface(surface, entry.text);
      calls++;
    }
  }
  const ms = performance.now() - started;
  t.diagnostic(`${calls} calls over ${corpus.length} strings (${corpus.reduce((sum, e) => sum + e.text.length, 0)} code units) in ${ms.toFixed(1)} ms`);
  assert.equal(calls, corpus.length * surfaces.length);
});

describe('sentences built from agent and hub text', () => {
  const item = (agent: string, prompt: string, extra: Partial<AttentionItem> = {}): AttentionItem =>
    ({
      key: 'k', requestId: 'r', source: `aep://${agent}/agent/a/session/s`, agent, session: prompt, status: 'pending', receivedAt: 0,
      request: { kind: prompt, prompt, capture: 'full', options: [], fields: [], answerableHere: true },
      ...extra,
    }) as unknown as AttentionItem;

  const sentences = (agent: string, text: string): string[] => {
    const outcomes: SendOutcome[] = [
      { kind: 'accepted', commandId: 'c' },
      { kind: 'rejected', commandId: 'c', reason: text, detail: text },
      { kind: 'rejected', commandId: 'c', reason: 'invalid', detail: text },
      { kind: 'refused-by-hub', commandId: 'c', code: text, detail: text },
      { kind: 'refused-by-hub', commandId: 'c', code: text },
      { kind: 'cancelled', commandId: 'c', code: 'would-redact', parts: 2 },
    ];
    const it = item(agent, text);
    return [
      agentName(agent), kindLabel(it), promptLine(it), provenance(it),
      promptLine(item(agent, text, { problem: { message: text } } as Partial<AttentionItem>)),
      ...outcomes.map((outcome) => describeOutcome(outcome, agent).message),
    ];
  };

  test('every piece is one line, capped and inert before any surface sees it', () => {
    const hostile = corpus.filter((entry) => !entry.name.startsWith('plain/'));
    for (const entry of hostile) {
      for (const sentence of sentences(entry.text, entry.text)) {
        assert.equal(sentence.match(LINK_SYNTAX), null, entry.name);
        assert.equal(sentence.match(ICON_SYNTAX), null, entry.name);
        assert.doesNotMatch(sentence, FORBIDDEN_ONE_LINE, entry.name);
        // The longest sentence: the invalid-answer one, with an agent name and a detail at their caps.
        assert.ok(sentence.length <= 600, `${entry.name}: ${sentence.length}`);
      }
    }
  });

  test('a hub code is never a key into an object prototype', () => {
    assert.equal(describeOutcome({ kind: 'refused-by-hub', commandId: 'c', code: 'constructor' }, 'a').message, 'The hub did not deliver the answer (constructor): constructor.');
  });

  test('ordinary names and prompts read as before', () => {
    assert.equal(describeOutcome({ kind: 'accepted', commandId: 'c' }, 'demo-agent').message, 'demo-agent accepted the answer.');
    assert.equal(provenance(item('demo-agent', 'Deploy?')), 'demo-agent · session Deploy? · demo-agent');
    assert.equal(promptLine(item('demo-agent', '  Deploy\n now? ')), 'Deploy now?');
    assert.equal(piece('x'.repeat(100), 10), `${'x'.repeat(9)}${ELLIPSIS}`);
  });
});
