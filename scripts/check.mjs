// `npm run check`: the type check of the four projects (eslint.config.mjs
// lists them; tsconfig.base.json says what each is for), then the lint, with
// one TypeScript program per project for both. Run as four `tsc -p` and one
// `eslint`, the programs were built twice: the lint's type-aware rule
// (no-floating-promises) reads the programs the type check built instead
// (typescript-eslint's `programs`), which saves about 25 of their 70
// CPU-seconds. Reports as `tsc -p <project> --noEmit` for each, then
// `eslint --max-warnings=0 .`, did: it stops at the first project the
// compiler finds an error in.
//
//   node scripts/check.mjs
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const host = {
  getCanonicalFileName: (name) => (ts.sys.useCaseSensitiveFileNames ? name : name.toLowerCase()),
  getCurrentDirectory: () => root,
  getNewLine: () => ts.sys.newLine,
};
// Coloured with context at a terminal, one plain line each elsewhere, as tsc prints them.
const report = (diagnostics) =>
  process.stdout.write(`${(process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host) : ts.formatDiagnostics(diagnostics, host)).trimEnd()}\n`);
const fail = (message) => process.stderr.write(`npm run check: ${message}\n`);

/** The projects the lint reads (eslint.config.mjs, which editors read too): one list of them. */
async function projects() {
  const config = (await import('../eslint.config.mjs')).default;
  const project = config.find((entry) => entry.languageOptions?.parserOptions?.project)?.languageOptions.parserOptions.project;
  const list = typeof project === 'string' ? [project] : project;
  return Array.isArray(list) && list.length > 0 && list.every((item) => typeof item === 'string') ? list : undefined;
}

/**
 * The project's program, as `tsc -p <project> --noEmit` builds it: its config file's own diagnostics (a syntax
 * error the parser recovered from included) go with it, and getPreEmitDiagnostics reports them as tsc does.
 */
function program(project) {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, project), { noEmit: true }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => report([diagnostic]),
  });
  if (!config) return undefined;
  return ts.createProgram({
    rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
  });
}

/** The exit code: 0, 1 when the lint found something, 2 when a project could not be read or has type errors. */
async function check() {
  const names = await projects();
  if (!names) {
    fail('eslint.config.mjs names no TypeScript projects (parserOptions.project, a list of tsconfig files)');
    return 2;
  }
  const programs = [];
  for (const name of names) {
    const built = program(name);
    if (!built) {
      fail(`${name} could not be read`);
      return 2;
    }
    const diagnostics = ts.getPreEmitDiagnostics(built);
    if (diagnostics.length > 0) {
      report(diagnostics);
      fail(`${name} has ${diagnostics.length} error(s) (the TypeScript compiler's)`);
      return 2;
    }
    programs.push(built);
  }
  // Given programs, typescript-eslint builds none of its own; `project` is unset so that nothing asks it to.
  const eslint = new ESLint({ cwd: root, overrideConfig: { languageOptions: { parserOptions: { project: null, programs } } } });
  const results = await eslint.lintFiles(['.']);
  const output = await (await eslint.loadFormatter('stylish')).format(results);
  if (output) process.stdout.write(output);
  const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
  const warnings = results.reduce((sum, result) => sum + result.warningCount, 0);
  if (errors > 0 || warnings > 0) {
    fail(`the lint found ${errors} error(s) and ${warnings} warning(s) (none allowed)`);
    return 1;
  }
  return 0;
}

// Not process.exit: a pipe takes what was written after the process would have left (a long report is written in pieces).
process.exitCode = await check();
