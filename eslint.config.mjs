// @ts-check
// The rules of the VS Code extension generator's TypeScript template (naming of
// imports, curly, eqeqeq, no-throw-literal, semi), plus no-floating-promises, which
// needs type information: the parser reads the projects `npm run check` type-checks
// (see tsconfig.base.json), so each file is linted with its own lib. That script
// (scripts/check.mjs) reads this list and gives the lint the programs it built.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import local from './scripts/eslint/jsdocPlacement.mjs';

export default defineConfig(
  {
    ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', '.bench/**', 'test/fixtures/**', '**/*.d.ts', '**/*.js', '**/*.mjs'],
  },
  {
    files: ['**/*.ts'],
    plugins: { '@typescript-eslint': tseslint.plugin, local },
    languageOptions: {
      parser: tseslint.parser,
      ecmaVersion: 2022,
      sourceType: 'module',
      parserOptions: {
        project: ['./tsconfig.json', './webview/tsconfig.json', './src/shared/tsconfig.json', './test/tsconfig.chromium.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/naming-convention': ['error', { selector: 'import', format: ['camelCase', 'PascalCase'] }],
      // The codebase writes a one-line body without braces on purpose (`if (done) return;`);
      // braces are required once a body spans lines.
      curly: ['error', 'multi-line'],
      eqeqeq: 'error',
      'no-throw-literal': 'error',
      semi: 'error',
      // A JSDoc block directly above what it documents (scripts/eslint/jsdocPlacement.mjs).
      'local/jsdoc-placement': 'error',
      // node:test's test()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
    },
  },
);
