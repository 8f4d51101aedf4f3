// The promise of Answer Similar (issue 38), as a property over generated
// hostile agents: whatever options several agents send, the person picks
// an option of a group by the words shown, and every request of the group
// receives the option id whose label reads as those words. The generator
// knows what each label says (its entry in WORDS) and writes it the ways a
// reader takes for the same: case, width, spacing, trailing dots, invisible
// characters (format characters, Hangul fillers, the braille blank), Cyrillic
// and Greek letters drawn like Latin ones. Other entries are other words,
// some made to look alike ("Allow" and "AIIow"), some alike as far as a pick
// shows them (long labels, some ending about where the pick cuts), some no
// words at all (blanks). The person must read each option of a group whole,
// in the pick and in the dialog. Requests come at
// capture redacted, full and metadata (labels withheld), of two kinds, with
// ids reused across agents for other words. fast-check prints the seed and
// the shrunk case on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { lookAlikeKey, readingKey } from '../../src/answer/ownItems';
import { similarGroups } from '../../src/answer/similarRequests';
import { textHonesty } from '../../src/aep/labels';
import { Inbox } from '../../src/inbox/inbox';
import { similarConfirmation, similarOptionItems, similarOptionWords } from '../../src/words/similarWords';
import { forSurface } from '../../src/words/untrustedText';
import { emitterEvents } from '../support/events';

const LONG = 'Allow this command and every later command like it in this workspace without asking again '.repeat(3);
/** A prefix that leaves the end of its labels just inside or just past what the pick shows, as they are spelled. */
const NEAR_CUT = 'Allow this command and every later command like it in this workspace, '.repeat(2).slice(0, 133);

/**
 * What labels say; `looks` names entries a reader could take for each
 * other; `near` is the entry a hostile agent swaps in for it: other words
 * made to look alike, or alike as far as a pick shows them (long labels).
 */
const WORDS: ReadonlyArray<{ text: string; looks: string; near: number }> = [
  { text: 'Yes', looks: 'yes', near: 1 },
  { text: 'Yes!', looks: 'yes!', near: 0 },
  { text: 'No', looks: 'no', near: 3 },
  { text: 'N0', looks: 'no', near: 2 },
  { text: 'No — refuse this and every similar…', looks: 'refuse', near: 0 },
  { text: 'Allow', looks: 'allow', near: 6 },
  { text: 'AIIow', looks: 'allow', near: 5 },
  { text: 'Allow once', looks: 'allow once', near: 8 },
  { text: 'Allow always', looks: 'allow always', near: 7 },
  { text: 'Deny', looks: 'deny', near: 2 },
  { text: `${LONG}once`, looks: 'long once', near: 11 },
  { text: `${LONG}forever`, looks: 'long forever', near: 10 },
  // Characters that draw nothing, and nothing else: no words at all.
  { text: '\u3164', looks: 'blank', near: 13 },
  { text: '\u2800\u034f\uffa0', looks: 'blank', near: 12 },
  { text: `${NEAR_CUT}once`, looks: 'near cut once', near: 15 },
  { text: `${NEAR_CUT}always`, looks: 'near cut always', near: 14 },
];

/** Letters drawn exactly like these Latin ones. */
const SAME_LOOKING: Readonly<Record<string, readonly string[]>> = {
  a: ['а'], e: ['е'], o: ['о', 'ο'], p: ['р'], c: ['с'], x: ['х'], y: ['у'], i: ['і'], s: ['ѕ'],
  A: ['А', 'Α'], E: ['Е', 'Ε'], O: ['О', 'Ο'], N: ['Ν'], T: ['Т', 'Τ'], H: ['Н'], K: ['К'], M: ['М'], Y: ['Υ', 'Ү'], I: ['І', 'Ι'],
};
/** Characters that draw nothing: format characters, and blanks Unicode calls letters or symbols (Hangul fillers, the braille blank, the grapheme joiner). */
const INVISIBLE = ['\u200b', '\u200d', '\u00ad', '\u200e', '\u2060', '\ufeff', '\u202c', '\u3164', '\u115f', '\u1160', '\uffa0', '\u034f', '\u2800'];

const word = fc.nat({ max: WORDS.length - 1 });
const id = fc.constantFrom('1', '2', '3', 'allow', 'deny');

/** One way of writing a label, whatever it says. */
const spelling = fc.record({
  letterCase: fc.constantFrom('as is', 'upper', 'lower'),
  lookAlikes: fc.array(fc.nat(), { maxLength: 4 }),
  invisible: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...INVISIBLE)), { maxLength: 3 }),
  fullWidth: fc.boolean(),
  spaces: fc.constantFrom('', ' ', '  ', '\t'),
  trailing: fc.constantFrom('', '.', '...', '…'),
});

type Spelling = typeof spelling extends fc.Arbitrary<infer T> ? T : never;

/** `WORDS[entry]`, written as `s` says. */
function write(entry: number, s: Spelling): string {
  const words = WORDS[entry]?.text ?? '';
  let chars = [...(s.letterCase === 'upper' ? words.toUpperCase() : s.letterCase === 'lower' ? words.toLowerCase() : words)];
  for (const at of s.lookAlikes) {
    const index = at % chars.length;
    const choices = SAME_LOOKING[chars[index] ?? ''];
    if (choices) chars[index] = choices[at % choices.length] ?? chars[index] ?? '';
  }
  if (s.fullWidth) chars = chars.map((ch) => (ch >= '!' && ch <= '~' ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : ch));
  for (const [at, mark] of s.invisible) chars.splice(at % (chars.length + 1), 0, mark);
  return `${s.spaces}${chars.join('')}${s.trailing}${s.spaces}`;
}

/**
 * A few option sets (id → what it says) that agents share, so requests
 * meet; each request writes its set its own way, and may change one
 * option's id or words (the same id for other words, or the reverse), or
 * put words that look alike in an option's place (`near`).
 */
const scenario = fc.record({
  sets: fc.array(fc.array(fc.tuple(id, word), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
  requests: fc.array(
    fc.record({
      agent: fc.constantFrom('claude-code', 'hostile', 'codex', 'aider'),
      kind: fc.constantFrom('permission', 'permission', 'review'),
      capture: fc.constantFrom('redacted', 'full', 'metadata'),
      set: fc.nat(),
      spellings: fc.array(spelling, { minLength: 3, maxLength: 3 }),
      change: fc.option(fc.tuple(fc.nat(), id, word), { freq: 3 }),
      twist: fc.option(fc.nat(), { freq: 2 }),
      // The same hub under a second address (or a second hub relaying the agent): the request comes twice.
      twice: fc.boolean(),
    }),
    { minLength: 2, maxLength: 7 },
  ),
});

test('every request of a group gets the option id whose label reads as the words the person picked', () => {
  let grouped = 0;
  let withheldGroups = 0;
  fc.assert(
    fc.property(scenario, ({ sets, requests }) => {
      const inbox = new Inbox({ hub: 'h1' });
      const again = new Inbox({ hub: 'h2' });
      const said = new Map<string, number>(); // each written label → which WORDS entry it says
      requests.forEach((r, index) => {
        const set = [...(sets[r.set % sets.length] ?? [])];
        if (r.change) set[r.change[0] % set.length] = [r.change[1], r.change[2]];
        if (r.twist !== null) {
          const at = r.twist % set.length;
          const [twistedId, entry] = set[at] ?? ['1', 0];
          set[at] = [twistedId, WORDS[entry]?.near ?? entry];
        }
        const options = set.map(([optionId, entry], at) => {
          const label = write(entry, r.spellings[at] ?? { letterCase: 'as is', lookAlikes: [], invisible: [], fullWidth: false, spaces: '', trailing: '' });
          said.set(label, entry);
          return { id: optionId, label };
        });
        const emitter = emitterEvents({ agent: r.agent, session: `s${index}`, requestFields: { capture: r.capture, severity: 'notice' } });
        const event = emitter.request(`req-${index}`, 1, { kind: r.kind, prompt: 'Go on?', options });
        if (r.twice) again.apply(structuredClone(event));
        inbox.apply(event);
      });
      for (const group of similarGroups([...inbox.open(), ...again.open()], () => true, similarOptionWords)) {
        grouped++;
        const requestKeys = group.items.map((item) => `${item.source} ${item.requestId}`);
        assert.equal(new Set(requestKeys).size, requestKeys.length, `one request, one answer: ${requestKeys.join(', ')} came through two hubs and would be sent twice`);
        const requestsOf = group.items.map((item) => item.request).filter((r) => r !== undefined);
        assert.equal(requestsOf.length, group.items.length);
        assert.ok(requestsOf.every((r) => r.kind === group.kind), 'one kind');
        const picks = similarOptionItems(group);
        assert.deepEqual(picks.map((item) => item.value), [...group.options], 'the pick lists the group\'s options');
        for (const member of requestsOf) assert.equal(member.options.length, group.options.length, 'no option the person does not see');
        if (group.withheld) {
          withheldGroups++;
          // Named "Option 2 (deny)": the same id at the same place in every request, all withheld.
          for (const member of requestsOf) {
            assert.equal(textHonesty(member.capture), 'structural');
            group.options.forEach((option) => assert.equal(member.options[option.position - 1]?.id, option.id));
          }
          continue;
        }
        const looks = new Set<string>();
        for (const option of group.options) {
          assert.ok(option.label !== undefined, 'real words are named');
          const picked = said.get(option.label);
          assert.ok(picked !== undefined);
          looks.add(WORDS[picked]?.looks ?? '');
          assert.notEqual(WORDS[picked]?.looks, 'blank', `${JSON.stringify(option.label)} draws nothing, yet the person would pick it`);
          for (const member of requestsOf) {
            assert.notEqual(textHonesty(member.capture), 'structural', 'withheld labels never join real ones');
            const sent = member.options.find((o) => o.id === option.id);
            assert.ok(sent, `every request offers ${option.id}`);
            assert.equal(WORDS[said.get(sent.label) ?? -1]?.text, WORDS[picked]?.text, `picked ${JSON.stringify(option.label)}, id ${option.id} is ${JSON.stringify(sent.label)} to ${member.agent}`);
          }
        }
        assert.equal(looks.size, group.options.length, 'no two options of the pick look alike');
        // What the person reads: each option's words whole in the pick and in the dialog, no two alike as shown.
        const shownPicks = picks.map((item) => forSurface('quickPickLabel', item.label));
        group.options.forEach((option, at) => {
          const words = readingKey(option.label ?? '');
          assert.ok(readingKey(shownPicks[at] ?? '').startsWith(words), `the pick shows ${JSON.stringify(option.label)} whole, not ${JSON.stringify(shownPicks[at])}`);
          const dialog = forSurface('notificationMessage', similarConfirmation(group, option, group.items).message);
          assert.ok(readingKey(dialog).includes(words), `the dialog shows ${JSON.stringify(option.label)} whole, not ${JSON.stringify(dialog)}`);
        });
        assert.equal(new Set(shownPicks.map(lookAlikeKey)).size, shownPicks.length, 'no two options look alike as the pick shows them');
      }
    }),
    { numRuns: 400 },
  );
  // Not a vacuous pass: the generator makes groups of both sorts.
  assert.ok(grouped > 20, `${grouped} groups`);
  assert.ok(withheldGroups > 5, `${withheldGroups} withheld groups`);
});
