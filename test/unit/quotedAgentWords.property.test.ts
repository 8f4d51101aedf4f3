// An agent's name never passes for our product: a name that holds "AEP
// Attention" in any spelling a reader takes for it (case, separators,
// look-alike letters of other scripts, small capitals, marks, full-width
// forms, invisible characters between the letters, misspellings: any name
// that opens with "aep" or holds "attention") is quoted as the agent's wherever a
// sentence names the agent (describe.ts agentName, the one place every
// surface asks). Before, an agent named "AEP Attention cannot connect" raised
// a toast reading "AEP Attention cannot connect: the hub refused the token
// (HTTP 401). Enter the right one?", our own connection failure word for
// word. A kind this version does not know is quoted too: bare, "answered,
// waiting for the agent" passed for our own status in the inbox's row.
// fast-check prints the seed on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readingKey } from '../../src/base/readingKey';
import type { AttentionItem } from '../../src/inbox/inbox';
import { agentName, kindLabel } from '../../src/words/describe';
import { piece, PIECES } from '../../src/words/untrustedText';

const PRODUCT = [
  'AEP Attention', 'aep attention', 'AEP-Attention', 'AEPAttention', 'AEP_attention', 'АЕР Аttention', 'ＡＥＰ Ａｔｔｅｎｔｉｏｎ', 'AEP Attentіon', 'AEP AttentIon',
  // Marks, letters of other scripts and small capitals a reader takes for ours, and misspellings (found in review).
  'AEP Attentioñ', 'AEP Attentȋon', 'AEP Attenţion', 'AEP Attentiøn', 'AEP Attentioո', 'ᎪᎬᏢ Attention', 'ᴀᴇᴘ ᴀᴛᴛᴇɴᴛɪᴏɴ', 'AEP Atten\u0307tion',
  'AEP Atention', 'AEP Atttention', 'Attention', 'A.E.P. Attention',
  'ꓮꓰꓑ ꓮꓔꓔꓰꓠꓔꓲꓳꓠ', 'ᎪᎬᏢ ᎪᎢᎢᎬNᎢIᎾN', 'ᎪᎬᏢ Attenтion', 'ˑAEP Aттention', 'Aτtention',
];
const INVISIBLE = ['\u200b', '\u200c', '\u2060', '\ufeff', '\u00ad', '\u202e', '\u2066'];

/** `text` with invisible characters anywhere. */
const withInvisible = (text: string) => fc
  .array(fc.tuple(fc.nat(), fc.constantFrom(...INVISIBLE)), { maxLength: 4 })
  .map((inserts) => inserts.reduce((out, [at, char]) => {
    const index = at % (out.length + 1);
    return out.slice(0, index) + char + out.slice(index);
  }, text));

const words = fc.constantFrom('', ' cannot connect', ': ', 'Bot ', ' — ', 'the ', ' (hub)');
const posing = fc.tuple(words, fc.constantFrom(...PRODUCT), words).chain(([before, product, after]) => withInvisible(`${before}${product}${after}`));

test("a name holding our product's name, however it is spelled, is quoted as the agent's, and so never opens a sentence as ours", () => {
  fc.assert(
    fc.property(posing, (name) => {
      const shown = agentName(name);
      assert.ok(shown.startsWith('agent “') && shown.endsWith('”'), `${JSON.stringify(name)} shown as ${JSON.stringify(shown)}`);
      assert.ok(!readingKey(shown).startsWith('aep'), shown);
      assert.equal(shown, `agent “${piece(name, PIECES.agent)}”`, 'the name itself stays as every surface shows it');
    }),
  );
});

test('other names are shown as they are', () => {
  for (const name of ['claude-code', 'Codex', 'Kilo Code', 'gemini-cli', 'relay-hub', 'mcp-server']) {
    assert.equal(agentName(name), piece(name, PIECES.agent), name);
  }
});

test("a kind this version does not know is quoted as the agent's word; the kinds it knows are named in ours", () => {
  const itemOfKind = (kind: string) => ({ request: { kind } }) as unknown as AttentionItem;
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.constantFrom('answered, waiting for the agent', 'permission ', 'Form', 'capture full')), (kind) => {
      fc.pre(!['permission', 'form', 'input', 'review', 'auth'].includes(kind));
      assert.equal(kindLabel(itemOfKind(kind)), `kind “${piece(kind, PIECES.kind)}”`);
    }),
  );
  assert.deepEqual(['permission', 'form', 'input', 'review', 'auth'].map((kind) => kindLabel(itemOfKind(kind))), ['permission', 'form', 'question', 'review', 'sign-in']);
});
