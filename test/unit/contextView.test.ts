// The context an agent attaches to a request (AEP-0002 §5.3), as the rows the
// page draws: nesting, bounds, folding, and hostile text kept as given (the
// page sets every key and value as a text node; test/webview/context.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CONTEXT_FOLD_CHARS, CONTEXT_MAX_CHARS, CONTEXT_MAX_DEPTH, CONTEXT_MAX_ENTRIES, CONTEXT_MAX_ROWS,
  contextSummary, contextView, contextViewSchema,
} from '../../src/shared/contextView';
import { hostileStrings } from '../support/hostileCorpus';

test('key: value rows, depth first in the agent\'s order, objects and lists with their size', () => {
  const view = contextView({ branch: 'main', files: ['a.ts', 'b.ts'], tests: { passed: 12, failed: 0, flaky: null }, dirty: true });
  assert.deepEqual(view.rows, [
    { depth: 0, key: 'branch', kind: 'text', text: 'main' },
    { depth: 0, key: 'files', kind: 'list', count: 2 },
    { depth: 1, key: '1', kind: 'text', text: 'a.ts' },
    { depth: 1, key: '2', kind: 'text', text: 'b.ts' },
    { depth: 0, key: 'tests', kind: 'object', count: 3 },
    { depth: 1, key: 'passed', kind: 'number', text: '12' },
    { depth: 1, key: 'failed', kind: 'number', text: '0' },
    { depth: 1, key: 'flaky', kind: 'null', text: 'null' },
    { depth: 0, key: 'dirty', kind: 'boolean', text: 'true' },
  ]);
  assert.equal(view.truncated, false);
  assert.equal(contextSummary(view), 'branch: main · files: (2) · tests: (3) · …');
});

test('a deep value stops at the depth shown, its last level one row with its size', () => {
  let deep: Record<string, unknown> = { leaf: 'bottom' };
  for (let level = 0; level < 40; level++) deep = { next: deep };
  const view = contextView(deep);
  assert.equal(Math.max(...view.rows.map((row) => row.depth)), CONTEXT_MAX_DEPTH);
  assert.equal(view.rows.length, CONTEXT_MAX_DEPTH + 1);
  assert.deepEqual(view.rows.at(-1), { depth: CONTEXT_MAX_DEPTH, key: 'next', kind: 'object', count: 1 });
  assert.ok(contextViewSchema.safeParse(view).success);
});

test('a wide object shows its first entries and counts the rest; the whole view is capped in rows', () => {
  const wide = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`k${i}`, i]));
  const view = contextView(wide);
  assert.equal(view.rows.length, CONTEXT_MAX_ENTRIES + 1);
  assert.deepEqual(view.rows.at(-1), { depth: 0, key: '', kind: 'more', count: 120 - CONTEXT_MAX_ENTRIES });

  const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`g${i}`, Object.fromEntries(Array.from({ length: 30 }, (_, j) => [`v${j}`, j]))]));
  const capped = contextView(many);
  assert.equal(capped.rows.length, CONTEXT_MAX_ROWS);
  assert.equal(capped.truncated, true);
  assert.ok(contextViewSchema.safeParse(capped).success);
});

test('a long value is folded with its size, and cut past what the page is given without splitting a character', () => {
  const folded = contextView({ diff: 'x'.repeat(CONTEXT_FOLD_CHARS + 1) }).rows[0];
  assert.equal(folded?.chars, CONTEXT_FOLD_CHARS + 1);
  assert.equal(folded?.text?.length, CONTEXT_FOLD_CHARS + 1);
  const short = contextView({ note: 'x'.repeat(CONTEXT_FOLD_CHARS) }).rows[0];
  assert.equal(short?.chars, undefined, 'a value that fits is not folded');

  const huge = `${'y'.repeat(CONTEXT_MAX_CHARS - 1)}😀tail`;
  const row = contextView({ log: huge }).rows[0];
  assert.equal(row?.chars, huge.length);
  assert.equal(row?.text, 'y'.repeat(CONTEXT_MAX_CHARS - 1), 'the emoji that would be split is left out whole');
  assert.ok(contextViewSchema.safeParse(contextView({ log: huge })).success);
});

test('hostile keys and values stay exactly the agent\'s text (bounded), and every view passes the page\'s schema', () => {
  const corpus = hostileStrings();
  assert.ok(corpus.length >= 10, `found ${corpus.length} hostile strings`);
  for (const { name, text } of corpus) {
    const view = contextView({ [text]: text, nested: { [text]: [text] } });
    assert.ok(contextViewSchema.safeParse(view).success, `${name}: the view passes the schema`);
    const [first] = view.rows;
    assert.equal(first?.text, text.slice(0, first?.text?.length), `${name}: the value is the agent's text, only shortened`);
    assert.ok((first?.key.length ?? 0) <= 201, `${name}: the key is bounded`);
    assert.ok(contextSummary(view).length <= 3 * 250, `${name}: the summary is bounded`);
  }
});

test('the page refuses a view past its bounds (it validates what the host sends)', () => {
  assert.equal(contextViewSchema.safeParse({ rows: [{ depth: CONTEXT_MAX_DEPTH + 1, key: 'k', kind: 'text', text: 'v' }], truncated: false }).success, false);
  assert.equal(contextViewSchema.safeParse({ rows: [{ depth: 0, key: 'k', kind: 'text', text: 'v'.repeat(CONTEXT_MAX_CHARS + 1) }], truncated: false }).success, false);
  assert.equal(contextViewSchema.safeParse({ rows: [{ depth: 0, key: 'k', kind: 'script' }], truncated: false }).success, false);
});
