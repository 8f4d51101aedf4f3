import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as z from 'zod/mini';
import { matchesFilter, unsatisfiablePredicate, validateFilter, type AttrFilter } from '../../src/aep/attrMatch';
import { readAepJson, repoRoot } from '../support/fixtures';

const jsonObject = z.record(z.string(), z.unknown());
const corpusSchema = z.object({
  match: z.array(z.object({ name: z.string(), filter: jsonObject, event: jsonObject, match: z.boolean() })),
  invalid: z.array(z.object({ name: z.string(), filter: jsonObject })),
});
const corpus = corpusSchema.parse(readAepJson('attr-match/cases.json'));

/** Validates (the test fails if it does not) and returns the filter. */
function valid(filter: unknown): AttrFilter {
  const parsed = validateFilter(filter);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
  return parsed.value;
}

/** Asserts the filter is refused and returns the problem sentence. */
function refused(filter: unknown): string {
  const parsed = validateFilter(filter);
  assert.equal(parsed.ok, false, `accepted ${JSON.stringify(filter)}`);
  return parsed.ok ? '' : parsed.problem;
}

const event = (attrs: Record<string, unknown>): Record<string, unknown> => ({
  aep: '0.1', id: 'E1', type: 'run.started', time: '2026-07-03T10:00:00Z',
  source: 'aep://h/agent/a/session/s1', agent: 'a', session: 's1', seq: 0, ...attrs,
});

describe('attr-match corpus (AEP-0003 §6)', () => {
  test('the corpus has its 14 verdicts and 10 refusals', () => {
    assert.equal(corpus.match.length, 14);
    assert.equal(corpus.invalid.length, 10);
  });
  for (const c of corpus.match) {
    test(`match: ${c.name}`, () => {
      assert.equal(matchesFilter(valid(c.filter), c.event), c.match);
    });
  }
  for (const c of corpus.invalid) {
    test(`invalid: ${c.name}`, () => {
      const keys = Object.keys(c.filter);
      assert.equal(keys.length, 1, 'each refusal isolates one key');
      const problem = refused(c.filter);
      assert.ok(problem.includes(`\`${keys[0]}\``), `the problem names the key: ${problem}`);
    });
  }
});

describe('validateFilter: problems a user can act on', () => {
  test('seq: positions are for resuming', () => {
    assert.equal(
      refused({ seq: 5 }),
      "filter key `seq` is not filterable: positions are for resuming, not filtering (resume with the subscription's `from` instead)",
    );
  });
  test('data and paths into it: routing never parses payloads', () => {
    assert.match(refused({ data: {} }), /^filter key `data` is not filterable: routing never looks inside payloads/);
    assert.match(refused({ 'data.kind': 'form' }), /^filter key `data\.kind` is not filterable: routing never looks inside payloads/);
  });
  test('time, aep, traceparent each say why', () => {
    assert.match(refused({ time: '2026' }), /`time` is not filterable: time is display metadata/);
    assert.match(refused({ aep: '0.1' }), /`aep` is not filterable: it is the envelope version/);
    assert.match(refused({ traceparent: '00-x' }), /`traceparent` is not filterable: trace context is passed through/);
  });
  test('an unknown key lists what can be filtered, and hints at lowercase', () => {
    const problem = refused({ NotAnAttr: 'y' });
    assert.match(problem, /^filter key `NotAnAttr` is not an event attribute: filter on id, type, subject/);
    assert.match(problem, /1 to 20 lowercase letters and digits/);
    assert.match(refused({ Type: 'tool.completed' }), /`Type` is not an event attribute \(attribute names are lowercase: `type`\)/);
  });
  test('extension names: 1 to 20 lowercase alphanumerics (AEP-0001 §5.4)', () => {
    valid({ acmeregion: 'eu-1' });
    valid({ a1: true, b2: 7 });
    valid({ abcdefghij0123456789: 'x' });
    assert.match(refused({ abcdefghij01234567890: 'x' }), /is not an event attribute/);
    assert.match(refused({ 'acme-region': 'x' }), /`acme-region` is not an event attribute/);
    assert.match(refused({ acme_region: 'x' }), /`acme_region` is not an event attribute/);
    assert.match(refused({ '': 'x' }), /filter key `` is not an event attribute/);
  });
  test('a `__proto__` key from JSON is refused, not a prototype', () => {
    const filter: unknown = JSON.parse('{"__proto__": {"type": "x.y"}}');
    assert.match(refused(filter), /`__proto__` is not an event attribute/);
  });
  test('a bare star says how to match every type', () => {
    assert.match(refused({ type: '*' }), /`type` has "\*", which is not a pattern: remove the `type` key/);
    assert.match(refused({ type: ['attention.*', '*'] }), /which is not a pattern/);
  });
  test('a star anywhere but a trailing `.*` segment is refused', () => {
    for (const pattern of ['att*', 'attention*', '*.requested', 'attention.*.x', 'attention.**', '.*', 'Attention.*', 'a..*']) {
      assert.match(refused({ type: pattern }), /`type` has .* which is not a pattern/, pattern);
    }
  });
  test('globs only on type: a `*` in any other key\'s value is refused, as the corpus pins', () => {
    // The §6.1 grammar alone would read "claude*" as a scalar; the conformance corpus
    // (normative for the badge, AEP-0001 §10) refuses it as "glob on non-type key", and
    // the upstream spec-text runner refuses any `*` outside `type`. We follow the corpus.
    assert.equal(
      refused({ agent: 'claude*' }),
      'filter key `agent` has "claude*", but only `type` takes `*` patterns: `agent` values are compared exactly',
    );
    assert.match(refused({ agent: 'x*' }), /`agent` has "x\*", but only `type` takes/);
    assert.match(refused({ subject: 'a*b' }), /`subject` has "a\*b", but only `type` takes/);
    assert.match(refused({ session: ['s1', 's*'] }), /only `type` takes `\*` patterns/);
    assert.match(refused({ acmeregion: 'eu-*' }), /`acmeregion` has "eu-\*", but only `type` takes/);
  });
  test('empty lists, nested lists, objects, null, fractions', () => {
    assert.match(refused({ agent: [] }), /`agent` has an empty list, which would match nothing/);
    assert.match(refused({ agent: [['a']] }), /`agent` has a list inside its list/);
    assert.match(refused({ agent: [{ eq: 'a' }] }), /`agent` has an object inside its list/);
    assert.match(refused({ agent: { eq: 'a' } }), /`agent` has an object: a predicate is a string, integer or boolean/);
    assert.match(refused({ agent: null }), /`agent` has null/);
    assert.match(refused({ acmeweight: 1.5 }), /`acmeweight` has 1.5: numbers in a filter must be integers/);
    assert.match(refused({ acmeflags: [true, null] }), /`acmeflags` has null/);
  });
  test('a scalar of the wrong wire type is grammatical (AEP-0003 §6.1, §6.5): valid, and it matches nothing', () => {
    // §6.5 keeps `invalid-filter` for a malformed filter or an illegal key. A scalar is
    // a string, integer or boolean on any key, so these subscribe and never match.
    for (const filter of [{ session: 5 }, { session: [5, true] }, { epoch: '0' }, { epoch: -1 }, { severity: 'warn' }, { capture: ['verbatim'] }, { agent: false }]) {
      valid(filter);
      assert.equal(matchesFilter(valid(filter), event({ epoch: 0, severity: 'info', capture: 'metadata' })), false, JSON.stringify(filter));
    }
    assert.equal(matchesFilter(valid({ session: 5 }), event({ session: '5' })), false, '5 never equals "5" (§6.2 rule 2)');
    valid({ epoch: [0, 1], severity: ['warning', 'error'], capture: 'full' });
  });
  test('severity comparisons: gte/lte only, at least one, real levels, a non-empty band', () => {
    assert.match(refused({ severity: { gt: 'info' } }), /`severity` compares with `gt`, which is not supported: use `gte` and\/or `lte`/);
    assert.match(refused({ severity: { gte: 'info', eq: 'info' } }), /compares with `eq`/);
    assert.match(refused({ severity: {} }), /`severity` has an empty comparison/);
    assert.match(refused({ severity: { gte: 'warn' } }), /`severity` has `gte` "warn", which is not a severity/);
    assert.match(refused({ severity: { lte: 3 } }), /`severity` has `lte` 3, which is not a severity/);
    assert.match(refused({ severity: [{ gte: 'info' }] }), /`severity` has an object inside its list/);
    assert.match(refused({ type: { gte: 'info' } }), /only `severity` takes/);
    valid({ severity: { gte: 'info', lte: 'info' } });
  });
  test('an inverted severity band is grammatical (§6.1 SeverityCmp): valid, and no level falls in it', () => {
    const band = valid({ severity: { gte: 'error', lte: 'info' } });
    for (const severity of ['debug', 'info', 'notice', 'warning', 'error', 'critical']) {
      assert.equal(matchesFilter(band, event({ severity })), false, severity);
    }
    assert.equal(matchesFilter(band, event({})), false, 'nor the default');
  });
  test('a filter must be an object', () => {
    for (const bad of [null, [], 'type=attention.*', 3, undefined]) {
      assert.match(refused(bad), /^a filter must be a JSON object of attribute predicates/);
    }
  });
  test('the first bad key is the one reported, and the input is returned untouched', () => {
    assert.match(refused({ type: 'attention.*', seq: 1, time: 'x' }), /`seq`/);
    const filter = { type: ['attention.*'], severity: { gte: 'notice' } };
    const before = structuredClone(filter);
    assert.equal(valid(filter), filter);
    assert.deepEqual(filter, before);
  });
  test('long keys and values are shortened in the message', () => {
    const problem = refused({ agent: `${'x'.repeat(200)}*` });
    assert.ok(problem.length < 200, problem);
  });
});

describe('unsatisfiablePredicate: a valid filter that can never match, for a user to fix', () => {
  const problemOf = (filter: unknown) => unsatisfiablePredicate(valid(filter));
  test('a core attribute compared with a value of another wire type, since 1 never equals "1"', () => {
    assert.match(problemOf({ session: 5 }) ?? '', /`session` has 5, but `session` is a string .* write "5"/);
    assert.match(problemOf({ session: ['s1', 5] }) ?? '', /`session` has 5/);
    assert.match(problemOf({ epoch: '0' }) ?? '', /`epoch` has "0", but an epoch is a non-negative integer/);
    assert.match(problemOf({ epoch: -1 }) ?? '', /`epoch` has -1/);
    assert.match(problemOf({ severity: 'warn' }) ?? '', /`severity` has "warn", which is not a severity: use one of debug, info, notice/);
    assert.match(problemOf({ capture: ['metadata', 'verbatim'] }) ?? '', /`capture` has "verbatim", which is not a capture level/);
  });
  test('an inverted severity band', () => {
    assert.match(problemOf({ severity: { gte: 'error', lte: 'info' } }) ?? '', /at least "error" and at most "info", which no event can be: swap the bounds/);
  });
  test('nothing to say about filters that can match', () => {
    for (const filter of [{}, { epoch: [0, 1], severity: ['warning', 'error'], capture: 'full' }, { severity: { gte: 'info', lte: 'info' } }, { acmeshard: 3 }, { type: 'attention.*', session: 's1' }]) {
      assert.equal(problemOf(filter), undefined, JSON.stringify(filter));
    }
  });
});

describe('matchesFilter', () => {
  const matches = (filter: unknown, attrs: Record<string, unknown>) => matchesFilter(valid(filter), event(attrs));

  test('lists of type patterns compose with exact types (§6.2 rule 3)', () => {
    const filter = { type: ['attention.*', 'error.*', 'tool.completed'] };
    assert.equal(matches(filter, { type: 'attention.requested' }), true);
    assert.equal(matches(filter, { type: 'error.raised' }), true);
    assert.equal(matches(filter, { type: 'tool.completed' }), true);
    assert.equal(matches(filter, { type: 'tool.failed' }), false);
  });
  test('a pattern needs its dot and something after it', () => {
    assert.equal(matches({ type: 'attention.*' }, { type: 'attention' }), false);
    assert.equal(matches({ type: 'attention.*' }, { type: 'attentionx.requested' }), false);
    assert.equal(matches({ type: 'attention.*' }, { type: 'attention.' }), false);
    assert.equal(matches({ type: 'x.acme.*' }, { type: 'x.acmecorp.foo' }), false);
    assert.equal(matches({ type: 'x.acme.*' }, { type: 'x.acme.foo' }), true);
    assert.equal(matches({ type: 'control.attention.*' }, { type: 'control.attention.respond' }), true);
  });
  test('an exact type is not a prefix', () => {
    assert.equal(matches({ type: 'attention' }, { type: 'attention.requested' }), false);
  });
  test('severity bands are inclusive at both ends (AEP-0001 §8.1 order)', () => {
    const band = { severity: { gte: 'notice', lte: 'error' } };
    const verdicts = ['debug', 'info', 'notice', 'warning', 'error', 'critical'].map((severity) => matches(band, { severity }));
    assert.deepEqual(verdicts, [false, false, true, true, true, false]);
    assert.equal(matches({ severity: { lte: 'info' } }, {}), true, 'absent severity is info');
    assert.equal(matches({ severity: { lte: 'debug' } }, {}), false);
    assert.equal(matches({ severity: { gte: 'debug' } }, { severity: 'fatal' }), false, 'an unknown level is in no band');
  });
  test('severity equality and inclusion use the default too', () => {
    assert.equal(matches({ severity: 'info' }, {}), true);
    assert.equal(matches({ severity: ['warning', 'error'] }, {}), false);
    assert.equal(matches({ severity: ['warning', 'error'] }, { severity: 'error' }), true);
  });
  test('capture and epoch defaults (§6.2 rule 5)', () => {
    assert.equal(matches({ capture: 'metadata' }, {}), true);
    assert.equal(matches({ capture: ['redacted', 'full'] }, {}), false);
    assert.equal(matches({ capture: 'full' }, { capture: 'full' }), true);
    assert.equal(matches({ epoch: 0 }, { epoch: 0 }), true);
    assert.equal(matches({ epoch: 1 }, {}), false);
    assert.equal(matches({ epoch: [1, 2] }, { epoch: 2 }), true);
  });
  test('other absent attributes never match, whatever the predicate', () => {
    assert.equal(matches({ subject: 'R1' }, {}), false);
    assert.equal(matches({ run: ['r1', 'r2'] }, {}), false);
    assert.equal(matches({ acmeregion: 'eu-1' }, {}), false);
  });
  test('extension attributes compare exactly: no coercion between JSON types', () => {
    assert.equal(matches({ acmeshard: 3 }, { acmeshard: 3 }), true);
    assert.equal(matches({ acmeshard: 3 }, { acmeshard: '3' }), false);
    assert.equal(matches({ acmeshard: '3' }, { acmeshard: 3 }), false);
    assert.equal(matches({ acmebeta: true }, { acmebeta: true }), true);
    assert.equal(matches({ acmebeta: true }, { acmebeta: 'true' }), false);
    assert.equal(matches({ acmebeta: false }, { acmebeta: 0 }), false);
    assert.equal(matches({ acmeregion: ['eu-1', 'eu-2'] }, { acmeregion: 'eu-2' }), true);
    assert.equal(matches({ acmeregion: 'eu-1' }, { acmeregion: ['eu-1'] }), false, 'a non-scalar value never equals');
  });
  test('only own attributes count: a name on Object.prototype is absent', () => {
    assert.equal(matches({ constructor: 'Object' }, {}), false);
  });
  test('conjunction: one miss is enough', () => {
    const filter = { type: 'attention.*', agent: ['claude-code', 'codex'], session: 's1' };
    assert.equal(matches(filter, { type: 'attention.requested', agent: 'codex' }), true);
    assert.equal(matches(filter, { type: 'attention.requested', agent: 'codex', session: 's2' }), false);
  });
  test('the spec examples (§6.3) behave as written', () => {
    const urgent = { type: ['attention.*', 'error.*'], severity: { gte: 'notice' } };
    assert.equal(matches(urgent, { type: 'error.raised', severity: 'error' }), true);
    assert.equal(matches(urgent, { type: 'attention.requested' }), false);
    assert.equal(matches({ agent: ['claude-code', 'codex'], type: 'tool.denied' }, { agent: 'codex', type: 'tool.denied' }), true);
  });
});

test('attrMatch.ts imports nothing that would keep it out of a browser', () => {
  const source = fs.readFileSync(path.join(repoRoot(), 'src', 'aep', 'attrMatch.ts'), 'utf8');
  const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
  assert.ok(imports.length > 0);
  // Its own folder, or base/ (plain helpers that import nothing a browser lacks).
  for (const specifier of imports) assert.match(specifier ?? '', /^(\.\/|\.\.\/base\/)[a-zA-Z]+$/, `import of ${specifier}`);
});
