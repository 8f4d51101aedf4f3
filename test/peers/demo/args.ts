// Command-line options of `npm run demo` (node:util parseArgs).
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { SCENARIOS, isScenarioName, type ScenarioName } from '../agent/scenarios';

export const DEFAULT_HUB_PORT = 8787;
export const DEFAULT_EDITOR_PORT = 8788;
export const DEFAULT_EVERY_MS = 8_000;

export const USAGE = `usage: npm run demo -- [options]

Builds and packages AEP Attention, starts the local AEP hub (with a fresh token)
and the demo agent, and opens an editor with the extension installed and the
token handed over: VS Code in the browser (code-server, on Linux x64), or your
desktop VS Code. Ctrl+C stops the hub and the agent (and code-server).

Which editor, unless told: code-server when it is installed (npm run test:e2e:setup), else
your desktop VS Code when its command line is on PATH (code, code-insiders,
codium, in that order), else code-server installed now (Linux x64 only).

  --desktop          open your desktop VS Code: install the VSIX into a profile
                     of the demo's own (under --dir) and open a new window on the
                     demo workspace; the window stays when the demo stops
  --editor-cli CLI   the VS Code command line to use, a name on PATH or a path
                     (code, code-insiders, codium, ...); implies --desktop
  --no-editor        start only the hub and the agent; print the settings and
                     the token for your desktop VS Code
  --port N           the hub's port (default ${DEFAULT_HUB_PORT}, or the next free one;
                     0 = any free port)
  --editor-port N    code-server's port (default ${DEFAULT_EDITOR_PORT}, or the next free one;
                     0 = any free port)
  --scenario NAME    ${SCENARIOS.join(' | ')} (repeatable; default all)
  --every MS         delay between two requests of the agent (default ${DEFAULT_EVERY_MS})
  --dir PATH         where the demo keeps its VSIX, workspace, editor state and
                     logs (default .cache/demo in the repository)
  -h, --help         this text`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A port: the default scans upwards from it when busy; a port given explicitly is used as is. */
export interface PortChoice {
  port: number;
  explicit: boolean;
}

export interface DemoOptions {
  help: boolean;
  /** False with --no-editor. */
  editor: boolean;
  /** --desktop (or --editor-cli): the desktop VS Code, even where code-server runs. */
  desktop: boolean;
  /** --editor-cli: a command name or a path. */
  editorCli: string | undefined;
  hubPort: PortChoice;
  editorPort: PortChoice;
  scenarios: ScenarioName[];
  everyMs: number;
  /** Absolute. */
  dir: string;
}

function port(name: string, value: string | undefined, fallback: number): PortChoice {
  if (value === undefined) return { port: fallback, explicit: false };
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) {
    throw new UsageError(`--${name} needs a port number (0-65535), got ${JSON.stringify(value)}`);
  }
  return { port: parsed, explicit: true };
}

export function parseDemoArgs(argv: string[], repoRoot: string): DemoOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'no-editor': { type: 'boolean' },
        desktop: { type: 'boolean' },
        'editor-cli': { type: 'string' },
        port: { type: 'string' },
        'editor-port': { type: 'string' },
        scenario: { type: 'string', multiple: true },
        every: { type: 'string' },
        dir: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const scenarios: ScenarioName[] = [];
  for (const name of values.scenario ?? []) {
    if (!isScenarioName(name)) throw new UsageError(`unknown scenario ${JSON.stringify(name)}; choose from ${SCENARIOS.join(', ')}`);
    if (!scenarios.includes(name)) scenarios.push(name);
  }
  let everyMs = DEFAULT_EVERY_MS;
  if (values.every !== undefined) {
    everyMs = Number(values.every);
    if (values.every.trim() === '' || !Number.isFinite(everyMs) || everyMs <= 0) {
      throw new UsageError(`--every needs a positive number of milliseconds, got ${JSON.stringify(values.every)}`);
    }
  }
  if (values.dir !== undefined && values.dir.trim() === '') throw new UsageError('--dir needs a path');
  const editorCli = values['editor-cli'];
  if (editorCli !== undefined && editorCli.trim() === '') throw new UsageError('--editor-cli needs a command name or a path');
  const noEditor = values['no-editor'] ?? false;
  if (noEditor && (values.desktop || editorCli !== undefined)) throw new UsageError(`--no-editor and ${values.desktop ? '--desktop' : '--editor-cli'} contradict each other`);
  return {
    help: values.help ?? false,
    editor: !noEditor,
    desktop: (values.desktop ?? false) || editorCli !== undefined,
    editorCli,
    hubPort: port('port', values.port, DEFAULT_HUB_PORT),
    editorPort: port('editor-port', values['editor-port'], DEFAULT_EDITOR_PORT),
    scenarios: scenarios.length > 0 ? scenarios : [...SCENARIOS],
    everyMs,
    dir: path.resolve(values.dir ?? path.join(repoRoot, '.cache', 'demo')),
  };
}
