// The local ESLint rule that keeps each JSDoc block directly above what it documents
// (scripts/eslint/jsdocPlacement.mjs), run through ESLint's own Linter on small sources.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { Linter, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { repoRoot } from '../support/fixtures';

async function lint(code: string): Promise<Array<{ line: number; messageId: string | undefined }>> {
  const file = pathToFileURL(path.join(repoRoot(), 'scripts', 'eslint', 'jsdocPlacement.mjs')).href;
  const { jsdocPlacement } = (await import(file)) as { jsdocPlacement: Rule.RuleModule };
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(code, [{
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser },
    plugins: { local: { rules: { 'jsdoc-placement': jsdocPlacement } } },
    rules: { 'local/jsdoc-placement': 'error' },
  }], 'example.ts');
  return messages.map((message) => ({ line: message.line, messageId: message.messageId }));
}

test('a JSDoc block right above a declaration, a member or a property passes; so does a file header', async () => {
  assert.deepEqual(await lint([
    '/** The file header may stand alone. */',
    '',
    'import * as fs from "node:fs";',
    '/** Documents f. */',
    'export function f(): void {}',
    'export interface I {',
    '  /** Documents a. */',
    '  a: string;',
    '}',
    'const o = {',
    '  /** Documents b. */',
    '  b: 1,',
    '};',
    '// A line comment may be followed by a blank line.',
    '',
    'export const g = (/** inline */ x: number) => x + o.b + fs.constants.F_OK;',
  ].join('\n')), []);
});

test('two JSDoc blocks stacked over one declaration: the first is reported', async () => {
  assert.deepEqual(await lint([
    'const a = 1;',
    '/** Meant for another function. */',
    '/** Documents f. */',
    'export function f(): number { return a; }',
  ].join('\n')), [{ line: 2, messageId: 'stacked' }]);
});

test('a JSDoc block followed by a line comment, a blank line, a closing brace or the end of the file is reported', async () => {
  assert.deepEqual(await lint([
    'const a = 1;',
    '/** Orphaned by a line comment. */',
    '// something else',
    'export const b = a;',
    '/** Orphaned by a blank line. */',
    '',
    'export const c = b;',
    'export class K {',
    '  n = c;',
    '  /** Documents nothing at the end of the class. */',
    '}',
    '/** Documents nothing at the end of the file. */',
  ].join('\n')), [
    { line: 2, messageId: 'stacked' },
    { line: 5, messageId: 'detached' },
    { line: 10, messageId: 'detached' },
    { line: 12, messageId: 'detached' },
  ]);
});
