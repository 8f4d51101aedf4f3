// `npm run check`: the type check of the four projects (eslint.config.mjs
// lists them; tsconfig.base.json says what each is for), then the lint, with
// one TypeScript program per project for both. Run as four `tsc -p` and one
// `eslint`, the programs were built twice: the lint's type-aware rule
// (no-floating-promises) reads the programs the type check built instead
// (typescript-eslint's `programs`), which saves about 25 of their 70
// CPU-seconds. Reports as `tsc -p <project> --noEmit` for each, then
// `eslint --max-warnings=0 .`, did: it stops at the first project with a
// type error.
//
//   node scripts/check.mjs
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The projects are the lint's (eslint.config.mjs, which editors read too): one list of them.
const linted = (await import('../eslint.config.mjs')).default.find((entry) => entry.languageOptions?.parserOptions?.project);
const PROJECTS = linted?.languageOptions.parserOptions.project ?? [];
if (PROJECTS.length === 0) {
  process.stderr.write('npm run check: eslint.config.mjs names no TypeScript projects (parserOptions.project)\n');
  process.exit(2);
}

const host = {
  getCanonicalFileName: (name) => (ts.sys.useCaseSensitiveFileNames ? name : name.toLowerCase()),
  getCurrentDirectory: () => root,
  getNewLine: () => ts.sys.newLine,
};
// Coloured with context at a terminal, one plain line each elsewhere, as tsc prints them.
const report = (diagnostics) =>
  process.stdout.write(`${(process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host) : ts.formatDiagnostics(diagnostics, host)).trimEnd()}\n`);

/** The project's program, as `tsc -p <project> --noEmit` builds it; undefined when its config cannot be read. */
function program(project) {
  const file = path.join(root, project);
  const config = ts.getParsedCommandLineOfConfigFile(file, { noEmit: true }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => report([diagnostic]),
  });
  if (!config) return undefined;
  if (config.errors.length > 0) {
    report(config.errors);
    return undefined;
  }
  return ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences, configFileParsingDiagnostics: config.errors });
}

const programs = [];
for (const project of PROJECTS) {
  const built = program(project);
  if (!built) {
    process.stderr.write(`npm run check: ${project} could not be read\n`);
    process.exit(2);
  }
  const diagnostics = ts.getPreEmitDiagnostics(built);
  if (diagnostics.length > 0) {
    report(diagnostics);
    process.stderr.write(`npm run check: ${project} has ${diagnostics.length} type error(s)\n`);
    process.exit(2);
  }
  programs.push(built);
}

const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { project: null, programs } } },
});
const results = await eslint.lintFiles(['.']);
const formatter = await eslint.loadFormatter('stylish');
const output = await formatter.format(results);
if (output) process.stdout.write(output);
const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
const warnings = results.reduce((sum, result) => sum + result.warningCount, 0);
if (errors > 0 || warnings > 0) {
  process.stderr.write(`npm run check: the lint found ${errors} error(s) and ${warnings} warning(s) (none allowed)\n`);
  process.exit(1);
}
