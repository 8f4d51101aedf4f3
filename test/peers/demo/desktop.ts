// `npm run demo -- --desktop`: the demo in the user's own desktop VS Code, driven
// through its command line (`code`, `code-insiders`, `codium`).
//
// How the token gets there. The extension reads AEP_HUB + AEP_TOKEN from its
// extension host's environment, so the window has to be opened by a process that
// has them. VS Code passes the CLI's environment on, even to an instance that is
// already running (read in microsoft/vscode):
//   - src/cli.ts sets VSCODE_CLI=1; src/vs/code/node/cli.ts spawns Electron with
//     `{ ...process.env }` (ELECTRON_RUN_AS_NODE removed);
//   - src/vs/code/electron-main/main.ts: when another instance holds the
//     user-data-dir's IPC handle, it sends `launchMainService.start(args, process.env)`
//     and exits;
//   - src/vs/platform/launch/electron-main/launchMainService.ts keeps that `userEnv`
//     only when `isLaunchedFromCli(userEnv)` (VSCODE_CLI === '1') or --preserve-env;
//   - src/vs/platform/windows/electron-main/windowsMainService.ts, openInBrowserWindow:
//     the window's configuration gets `userEnv: { ...this.initialUserEnv, ...options.userEnv }`;
//   - the preload merges `configuration.userEnv` into the renderer's env, and
//     src/vs/workbench/services/extensions/electron-browser/localProcessExtensionHost.ts
//     forks the extension host with that shell env.
// So a NEW window gets the pair. Two catches, both designed around here:
//   1. A folder already open in a window is not reopened: VS Code focuses that
//      window, whose extension host keeps the environment (and token) it started with.
//   2. When the CLI starts VS Code, its environment becomes `initialUserEnv`: every
//      window of that session would get AEP_HUB/AEP_TOKEN (and AEP_HUB overrides the
//      hubUrl setting), including the user's own projects, long after the demo ended.
// Hence a profile of the demo's own (--user-data-dir and --extensions-dir under
// --dir): always a VS Code process of its own, started with the pair, never the
// user's running one; the user's extensions and settings are untouched; and a
// demo editor still open from an earlier run is detected by its lock file (1.).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EditorCli } from './editorChoice';
import { OwnedDirError, resetOwnedDir } from './ownedDir';
import { StepError, runStep } from './processes';

/**
 * Variables dropped from the editor's environment: VS Code's own (set when the demo
 * runs in VS Code's integrated terminal; VSCODE_IPC_HOOK_CLI would send the open
 * request to that VS Code's CLI server, without our environment, and VSCODE_PID,
 * VSCODE_CWD, VSCODE_NLS_CONFIG... describe the other instance), Electron's switches
 * that make the editor a plain Node or tie it to this console (others, such as
 * ELECTRON_OZONE_PLATFORM_HINT, are the user's and stay), Node's options, and npm's
 * (`npm run demo` sets npm_*: the editor's terminals would believe they run inside npm).
 */
export function leaksIntoEditor(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    upper.startsWith('VSCODE_') ||
    upper.startsWith('NPM_') ||
    ['ELECTRON_RUN_AS_NODE', 'ELECTRON_NO_ATTACH_CONSOLE', 'NODE_OPTIONS', 'NODE_TEST_CONTEXT', 'INIT_CWD', 'TERM_PROGRAM', 'TERM_PROGRAM_VERSION', 'AEP_HUB', 'AEP_TOKEN'].includes(upper)
  );
}

/** The editor's environment without the pair: for the steps that need no token (--version, --install-extension). */
export function cleanEnv(baseEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(baseEnv)) if (value !== undefined && !leaksIntoEditor(key)) env[key] = value;
  return env;
}

/** The environment the window is opened with: `baseEnv` less what leaks, plus AEP_HUB + AEP_TOKEN. `baseEnv` is not changed. */
export function desktopEnv(baseEnv: NodeJS.ProcessEnv, hubUrl: string, token: string): NodeJS.ProcessEnv {
  return { ...cleanEnv(baseEnv), AEP_HUB: hubUrl, AEP_TOKEN: token };
}

/** The demo's own VS Code profile under `dir`. */
export function demoProfile(dir: string): { root: string; userDataDir: string; extensionsDir: string } {
  const root = path.join(dir, 'desktop');
  return { root, userDataDir: path.join(root, 'user-data'), extensionsDir: path.join(root, 'extensions') };
}

/**
 * The pid of a VS Code still running on `userDataDir`, from the `code.lock` its main
 * process writes there (and removes on exit; src/vs/code/electron-main/main.ts).
 */
export function runningEditor(userDataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number.parseInt(fs.readFileSync(path.join(userDataDir, 'code.lock'), 'utf8'), 10);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  try {
    // A crash leaves the lock; a reused pid is another program: Linux can tell.
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(userDataDir) ? pid : undefined;
  } catch {
    return pid;
  }
}

/** The extension's id, `publisher.name`, from package.json. */
export function extensionId(packageJson: { publisher?: unknown; name?: unknown }): string {
  if (typeof packageJson.publisher !== 'string' || typeof packageJson.name !== 'string') throw new Error('package.json lacks publisher or name');
  return `${packageJson.publisher}.${packageJson.name}`;
}

const quoted = (arg: string) => (/^[\w./:=@+-]+$/.test(arg) ? arg : `"${arg}"`);

/** How to run `cli`: through the shell for Windows' .cmd/.bat (with quoted arguments), directly otherwise. */
function invocation(cli: EditorCli, args: string[], platform: NodeJS.Platform): { command: string; args: string[]; shell: boolean } {
  if (platform === 'win32' && /\.(cmd|bat)$/i.test(cli.path)) return { command: quoted(cli.path), args: args.map(quoted), shell: true };
  return { command: cli.path, args, shell: false };
}

/** The command to type to remove the extension from the demo's profile. */
export function uninstallCommand(cli: EditorCli, extensionsDir: string, id: string): string {
  return [cli.path, '--extensions-dir', extensionsDir, '--uninstall-extension', id].map(quoted).join(' ');
}

/**
 * Workspace Trust stays on in the demo's profile, whatever the defaults it is given
 * (the e2e defaults turn it off): VS Code asks once whether to trust the demo folder,
 * and either answer works, since the hub and token come from the environment.
 */
export const KEEP_WORKSPACE_TRUST: Readonly<Record<string, unknown>> = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'once',
};

export class DesktopError extends Error {
  override readonly name = 'DesktopError';
}

export interface DesktopLaunch {
  cli: EditorCli;
  vsixPath: string;
  workspaceDir: string;
  /** Written to `${workspaceDir}/.vscode/settings.json`. */
  workspaceSettings: Record<string, unknown>;
  /** The demo's profile (demoProfile): reset, then the extension installed into it. */
  profile: { root: string; userDataDir: string; extensionsDir: string };
  /** Written to the profile's User/settings.json, with KEEP_WORKSPACE_TRUST over it. */
  userSettings: Record<string, unknown>;
  hubUrl: string;
  token: string;
  baseEnv: NodeJS.ProcessEnv;
  /** How long `--new-window` may take before it is taken for the editor itself and left running. */
  openTimeoutMs?: number;
  platform?: NodeJS.Platform;
  /** Each step, as it starts. */
  onStep?: (what: string) => void;
}

export interface DesktopEditor {
  /** The first line of `<cli> --version`. */
  version: string;
  /** Whether `--new-window` returned (VS Code started detached), or was left running. */
  opened: 'returned' | 'still running';
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

async function cliStep(label: string, launch: DesktopLaunch, args: string[]): Promise<string> {
  const run = invocation(launch.cli, args, launch.platform ?? process.platform);
  try {
    return await runStep(label, run.command, run.args, { cwd: launch.workspaceDir, env: cleanEnv(launch.baseEnv), shell: run.shell });
  } catch (error) {
    if (error instanceof StepError && !error.stopped) throw new DesktopError(`${label} failed:\n${error.output.trim() || error.message}`);
    throw error;
  }
}

/**
 * `<cli> --new-window`: the CLI normally starts VS Code detached and returns at once.
 * Not a step: it is never killed when the demo stops (the window is the user's), and a
 * wrapper that stays in the foreground (Flatpak's) is left running after `timeoutMs`.
 */
function openWindow(launch: DesktopLaunch, args: string[], timeoutMs: number): Promise<DesktopEditor['opened']> {
  const run = invocation(launch.cli, args, launch.platform ?? process.platform);
  return new Promise((resolve, reject) => {
    const child = spawn(run.command, run.args, {
      cwd: launch.workspaceDir,
      env: desktopEnv(launch.baseEnv, launch.hubUrl, launch.token),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: run.shell,
    });
    let output = '';
    const append = (chunk: Buffer) => (output += chunk.toString());
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    const timer = setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
      child.unref();
      resolve('still running');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new DesktopError(`${launch.cli.name} --new-window: could not run ${launch.cli.path}: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve('returned');
      else reject(new DesktopError(`${launch.cli.name} --new-window failed (exit ${code ?? signal}):\n${output.trim()}`));
    });
  });
}

/**
 * Resets the demo's profile, installs the VSIX into it and opens a new window on the
 * workspace, with AEP_HUB + AEP_TOKEN in that window's environment only (never in an
 * argument, a settings file or the output).
 */
export async function launchDesktop(launch: DesktopLaunch): Promise<DesktopEditor> {
  const { cli, profile } = launch;
  const open = runningEditor(profile.userDataDir);
  if (open !== undefined) {
    throw new DesktopError(
      `the demo's VS Code from an earlier run is still open (pid ${open}, profile ${profile.userDataDir}). ` +
        "Its window keeps that run's token, and VS Code would only bring it to the front: close it (on macOS, quit it: Cmd+Q), then run the demo again.",
    );
  }
  const version = (await cliStep(`${cli.name} --version`, launch, ['--version'])).trim().split('\n')[0]?.trim() ?? '';
  launch.onStep?.(`${cli.name} --version: ${version}`);

  // Fresh every run, as code-server's state is: no token stored in an earlier run's secret storage shadows this one.
  // Only a profile the demo made is reset (`<dir>/desktop` may be the user's Desktop).
  try {
    resetOwnedDir(profile.root);
  } catch (error) {
    if (error instanceof OwnedDirError) throw new DesktopError(error.message);
    throw error;
  }
  writeJson(path.join(profile.userDataDir, 'User', 'settings.json'), { ...launch.userSettings, ...KEEP_WORKSPACE_TRUST });
  writeJson(path.join(launch.workspaceDir, '.vscode', 'settings.json'), launch.workspaceSettings);
  const dirs = ['--user-data-dir', profile.userDataDir, '--extensions-dir', profile.extensionsDir];

  launch.onStep?.('installing the extension into the demo\'s profile ...');
  await cliStep(`${cli.name} --install-extension`, launch, [...dirs, '--install-extension', launch.vsixPath, '--force']);

  launch.onStep?.('opening a new window ...');
  const opened = await openWindow(launch, [...dirs, '--new-window', launch.workspaceDir], launch.openTimeoutMs ?? 15_000);
  return { version, opened };
}
