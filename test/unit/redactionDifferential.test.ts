// Our AEP-0003 §9.4 pipeline against the spec's reference rules (upstream
// conformance/run.py `redact_text` / `redact_value`, ported in
// test/support/referenceRedaction.ts), over a seeded generated corpus of
// secrets, PII, home paths and mixtures: every input character the reference
// replaces must be inside one of our replacements. Redacting more is allowed
// (§9.4: "adapters MAY redact more"); keeping what the reference removes is a
// false `capture: "redacted"` claim.
//
// Compared are letters and digits: the quote after a quoted value, or the
// comma and brace that end a JSON member, are the reference's `\S+` running
// on through syntax, not content. For the two rules whose match opens with a
// keyword (`Bearer `, `password=`), the keyword is the label and the value the
// secret. The generator writes phone numbers as people do across the world
// (national formats of FR, BE, CH, DE, ES, DK, NO, NL, IT, IN, BR, JP, AU, UK, US,
// E.164 with any grouping); it leaves out only the number shapes redaction.ts
// lists as not personal data. Set AEP_REDACTION_SEED to run another corpus
// (AEP_REDACTION_SIZE for its size); a failure prints the seed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { redactText, redactValue, SECRET_MARK, PII_MARK, type RedactionOptions } from '../../src/aep/redaction';
import { corpus, prng, type CorpusCase } from '../support/redactionCorpus';
import { referenceDropsKey, referenceRedactText, referenceRedactValue } from '../support/referenceRedaction';

const SEED = Number(process.env['AEP_REDACTION_SEED'] ?? 0x5eed_a3e9);
const SIZE = Number(process.env['AEP_REDACTION_SIZE'] ?? 1500);
/** The many-seed run: each seed its own corpus, smaller, so the whole stays a unit test's time. */
const SEEDS = 100;
const SIZE_PER_SEED = 120;
const CONTENT = /[\p{L}\p{N}]/u;

/** The input characters (letters, digits) the reference removes and our pipeline keeps, as runs of text. */
function survivors(text: string, options: RedactionOptions): string[] {
  const { removed } = referenceRedactText(text, { ...options, phonesWithinLines: true });
  const covered = new Uint8Array(text.length);
  for (const r of redactText(text, options).replacements) covered.fill(1, r.start, r.end);
  const runs: string[] = [];
  let run = '';
  for (let i = 0; i < text.length; i++) {
    const kept = removed.has(i) && covered[i] === 0 && CONTENT.test(text[i] ?? '');
    if (kept) run += text[i];
    else if (run !== '') {
      runs.push(run);
      run = '';
    }
  }
  if (run !== '') runs.push(run);
  return runs;
}

/** Each case that keeps text the reference removes, with what it keeps. */
function missed(cases: readonly CorpusCase[]): string[] {
  const failures: string[] = [];
  for (const [n, c] of cases.entries()) {
    const kept = survivors(c.text, c.options);
    if (kept.length > 0) failures.push(`#${n} ${JSON.stringify(c.text)} ${JSON.stringify(c.options)}: keeps ${JSON.stringify(kept)}; ours ${JSON.stringify(redactText(c.text, c.options).text)}`);
  }
  return failures;
}

describe(`redaction differential: ours against the reference rules (seed ${SEED}, ${SIZE} strings)`, () => {
  const cases = corpus(SEED, SIZE);

  test('the corpus exercises every rule of the reference', () => {
    let secret = 0;
    let pii = 0;
    let home = 0;
    for (const c of cases) {
      const out = referenceRedactText(c.text, c.options).text;
      if (out.includes(SECRET_MARK)) secret++;
      if (out.includes(PII_MARK)) pii++;
      if (out.includes('~')) home++;
    }
    assert.ok(secret > SIZE / 3 && pii > SIZE / 6 && home > SIZE / 10, `secret ${secret}, pii ${pii}, home ${home} of ${SIZE}`);
  });

  test('no text the reference replaces survives our pipeline', () => {
    const failures = missed(cases);
    assert.equal(failures.length, 0, `seed ${SEED}: ${failures.length} of ${SIZE} strings keep text the reference removes:\n${failures.slice(0, 40).join('\n')}`);
  });

  test(`nor over ${SEEDS} more seeds (${SEEDS} corpora of ${SIZE_PER_SEED} strings, ${SEEDS * SIZE_PER_SEED} in all)`, () => {
    for (let n = 1; n <= SEEDS; n++) {
      const seed = (SEED + n) >>> 0;
      const failures = missed(corpus(seed, SIZE_PER_SEED));
      assert.equal(failures.length, 0, `seed ${seed} (AEP_REDACTION_SEED=${seed} AEP_REDACTION_SIZE=${SIZE_PER_SEED}): ${failures.length} of ${SIZE_PER_SEED} strings keep text the reference removes:\n${failures.slice(0, 20).join('\n')}`);
    }
  });

  test('structured values: what the reference drops under a credential-named key, ours drops too', () => {
    const rnd = prng(SEED ^ 0x9e3779b9);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
    const keys = [
      'password', 'Password', 'PASSWORD', 'passwd', 'secret', 'api_key', 'api-key', 'apikey', 'API_KEY', 'token', 'Token',
      'authorization', 'Authorization', 'credential', 'credentials', 'private_key', 'private-key', 'privatekey', 'access_key',
      'accessKey', 'ACCESS-KEY', 'token\n', 'ſecret', 'toKen', 'apı_key', 'kind', 'region', 'user', 'tokens', 'secretary',
    ];
    const texts = cases.slice(0, 50).map((c) => c.text);
    const values: unknown[] = ['', 'plainlooking0value', 'correct horse', '[REDACTED:x]hunter2', '[REDACTED:secret]tail', SECRET_MARK, 42, true, false, null, ['a1b2c3d4'], { nested: 'v4lue' }, ...texts];
    const failures: string[] = [];
    for (let n = 0; n < 400; n++) {
      const input: Record<string, unknown> = {};
      for (let i = 0; i < 3; i++) input[pick(keys)] = pick(values);
      const reference = referenceRedactValue(input) as Record<string, unknown>;
      const ours = redactValue(input) as Record<string, unknown>;
      for (const [key, value] of Object.entries(input)) {
        if (!referenceDropsKey(key) || value === null) continue;
        assert.equal(reference[key], SECRET_MARK);
        const kept = ours[key];
        const nothingLeft = kept === SECRET_MARK || kept === '' || (kept === value && (value === SECRET_MARK || value === PII_MARK));
        if (!nothingLeft) failures.push(`${JSON.stringify(key)}: ${JSON.stringify(value)} → ours ${JSON.stringify(kept)}`);
      }
    }
    assert.equal(failures.length, 0, `seed ${SEED}: ${failures.length} values kept under credential-named keys:\n${[...new Set(failures)].slice(0, 30).join('\n')}`);
  });
});
