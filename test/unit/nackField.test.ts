// Which field an `invalid` nack's detail names. The detail is agent-authored
// and may be a megabyte; the form may have thousands of fields. Correctness
// only here; the time it takes is measured by `npm run bench -- --only=hostile` (bench/hostile.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fieldNamedIn } from '../../src/aep/nackField';
import { hostileStrings } from '../support/hostileCorpus';

/** The previous implementation (one RegExp per field), kept as the reference for ids without quote marks. */
function regexReference(detail: string | undefined, fieldIds: readonly string[]): string | undefined {
  if (!detail) return undefined;
  const named = fieldIds.filter((id) => new RegExp(`["'\`]${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["'\`]`).test(detail));
  return named.length === 1 ? named[0] : undefined;
}

const MANY_FIELDS = Array.from({ length: 10_000 }, (_, i) => `f${i}`);

describe('fieldNamedIn', () => {
  const cases: Array<[string, string | undefined, string[], string | undefined]> = [
    ['backticks', 'field `db` is required', ['db', 'name'], 'db'],
    ['double quotes', 'value for "name" is not a string', ['db', 'name'], 'name'],
    ['single quotes', "unknown choice for 'db'", ['db', 'name'], 'db'],
    ['mixed quote marks', 'field "db\' is odd', ['db'], 'db'],
    ['two fields named', 'fields `db` and `name` are required', ['db', 'name'], undefined],
    ['one field named twice', '`db` is required; `db` must be a choice', ['db', 'name'], 'db'],
    ['a prefix of another id', 'field `db2` is required', ['db', 'db2'], 'db2'],
    ['unquoted mention', 'db is required', ['db'], undefined],
    ['regular-expression characters in ids', 'field `a.b(c)*$1` is wrong', ['a.b(c)*$1', 'aXb(c)'], 'a.b(c)*$1'],
    ['neighbouring quoted tokens', '"db""name"', ['db', 'name'], undefined],
    ['a quoted id between other quoted words', '"see" `db` "below"', ['db'], 'db'],
    ['empty detail', '', ['db'], undefined],
    ['no detail', undefined, ['db'], undefined],
    ['no fields', '`db`', [], undefined],
    ['an empty quoted token', 'field `` is required', ['db'], undefined],
  ];
  for (const [name, detail, ids, expected] of cases) {
    test(`${name}: ${JSON.stringify(expected)}`, () => {
      assert.equal(fieldNamedIn(detail, ids), expected);
      assert.equal(fieldNamedIn(detail, ids), regexReference(detail, ids), 'agrees with the one-RegExp-per-field reference');
    });
  }

  test('an id containing a quote mark is never matched (it cannot be told apart from the quoting)', () => {
    assert.equal(fieldNamedIn('field "it\'s" is required', ["it's"]), undefined);
  });

  test('a 1 MB detail naming one of 10 000 fields at its very end finds it', () => {
    const detail = `${'word '.repeat(200_000)}field \`f9999\` is required`;
    assert.equal(fieldNamedIn(detail, MANY_FIELDS), 'f9999');
  });

  test('a 1 MB detail of nothing but quote marks names no field', () => {
    assert.equal(fieldNamedIn('"\'`'.repeat(350_000), MANY_FIELDS), undefined);
  });

  test('a 1 MB detail quoting every one of 10 000 fields names none (more than one)', () => {
    const detail = MANY_FIELDS.map((id) => `\`${id}\``).join(' ').padEnd(1_000_000, ' ');
    assert.equal(fieldNamedIn(detail, MANY_FIELDS), undefined);
  });

  test('every oversize string of the hostile corpus as a detail, against 10 000 fields', () => {
    const strings = hostileStrings().filter((s) => s.name.startsWith('oversize/'));
    assert.ok(strings.length > 0);
    for (const { name, text } of strings) {
      const expected = name.includes('quoted-field-id') ? 'f9999' : undefined;
      assert.equal(fieldNamedIn(text, MANY_FIELDS), expected, name);
    }
  });

  test('agrees with the reference on random details (differential)', () => {
    let state = 12345;
    const random = (n: number) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return (state >>> 8) % n;
    };
    const ids = ['db', 'name', 'a.b', 'x', 'db2', 'f(1)'];
    const pieces = [...ids, '"', "'", '`', ' ', 'field ', 'is required', '\\', '\n'];
    let named = 0;
    for (let round = 0; round < 3_000; round++) {
      const detail = Array.from({ length: random(12) + 1 }, () => pieces[random(pieces.length)]).join('');
      const fieldIds = ids.filter(() => random(3) > 0);
      const got = fieldNamedIn(detail, fieldIds);
      assert.equal(got, regexReference(detail, fieldIds), JSON.stringify({ detail, fieldIds }));
      if (got !== undefined) named++;
    }
    assert.ok(named > 100, `${named} details named a field`);
  });
});
