// End-to-end harness: the REAL VS Code workbench (code-server, VS Code 1.139 on
// Node 24) driven by Debian's headless Chromium through playwright-core.
//
// scripts/e2e/setup.sh installs code-server and Node 24 once per user and version
// and records where they are in .cache/e2e/e2e.json (test/support/harness.ts reads it).
// Nothing here reaches past loopback: code-server binds 127.0.0.1, Chromium runs
// with its background networking off and every host name but loopback unresolvable.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';

import { CHROMIUM_ARGS, startBrowser } from '../support/browser';
import { cacheDir, codeServerMissing, harnessRecord, SETUP_HINT } from '../support/harness';
import { groupAlive, groupsKilledOnExit, killGroup } from '../support/processGroups';
import { waitForValue, waitUntil } from '../support/waitUntil';

export { cacheDir, CHROMIUM_ARGS };

/**
 * User settings written for every run, so that nothing but the extension under test
 * shows up: no welcome page or walkthrough, no trust prompt, no telemetry, no update
 * or marketplace checks, no chat/AI setup, no port-forwarding or git parent-folder
 * notifications, and no feature that would fetch from the network.
 */
export const DEFAULT_USER_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.editor.empty.hint': 'hidden',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.reduceMotion': 'on',
  'security.workspace.trust.enabled': false,
  'security.workspace.trust.startupPrompt': 'never',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'update.showReleaseNotes': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'git.autofetch': false,
  'remote.autoForwardPorts': false,
  'npm.fetchOnlinePackageInfo': false,
  'json.schemaDownload.enable': false,
  'typescript.disableAutomaticTypeAcquisition': true,
};

export interface E2eInstall {
  ok: true;
  /** `${node24} ${codeServerEntry}` runs code-server. */
  codeServerEntry: string;
  node24: string;
}

export interface CodeServerOptions {
  /** A VSIX to install into extensionsDir before starting, or several, in order (a dependency before what needs it). */
  vsixPath?: string | readonly string[];
  /** The folder the workbench opens (created if missing). */
  workspaceDir: string;
  userDataDir: string;
  extensionsDir: string;
  /** Added to code-server's environment; the extension host inherits it. */
  env?: Record<string, string>;
  /** Written to `${workspaceDir}/.vscode/settings.json` (workspace settings). */
  settings?: Record<string, unknown>;
  /** Merged over DEFAULT_USER_SETTINGS into `${userDataDir}/User/settings.json`. */
  userSettings?: Record<string, unknown>;
  /** Keep Workspace Trust on (default: off, so no trust prompt and no restricted mode). */
  workspaceTrust?: boolean;
  /**
   * Listen on this Unix socket (mode 0600: this user's processes only) instead
   * of a loopback TCP port, which every local user and program can reach.
   */
  socketPath?: string;
  /** How long to wait for the server to answer; default 60 s. */
  startTimeoutMs?: number;
  /**
   * Seconds a window's extension host outlives its closed window (code-server's
   * --reconnection-grace-time; its default is three hours). A benchmark that opens
   * window after window sets 0, or every closed window's host stays connected to
   * the hub and takes its share of each request.
   */
  reconnectionGraceSeconds?: number;
}

export interface CodeServer {
  /** With `socketPath`, `http://localhost` (requests go through the socket). */
  url: string;
  /** 0 with `socketPath`. */
  port: number;
  socketPath?: string;
  /** Kills code-server's whole process group; resolves once every process in it has exited. */
  stop(): Promise<void>;
  /** Everything code-server (and the VSIX install) printed so far. */
  logs(): string;
}

export interface Workbench {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Date.now() when the page's load event fired. */
  loadedAt: number;
  /** Date.now() when `.monaco-workbench` became visible. */
  workbenchAt: number;
  /** The page's console messages and errors so far, for diagnostics. */
  console(): string[];
  close(): Promise<void>;
}

/** The repository root: the nearest folder above this file with scripts/e2e/setup.sh. */
export function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'scripts', 'e2e', 'setup.sh')) && fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

/** Where e2e tests leave screenshots and logs: out/e2e in the repository. */
export function e2eOutDir(): string {
  const dir = path.join(repoRoot(), 'out', 'e2e');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}


/** Every output channel file of the extension's that code-server wrote under the user data folder, the last part of each (for failure reports). */
export function extensionLogs(userDataDir: string, tailChars = 6_000): string {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.includes('AEP Attention')) found.push(`--- ${path.relative(userDataDir, full)}\n${fs.readFileSync(full, 'utf8').slice(-tailChars)}`);
    }
  };
  try {
    walk(path.join(userDataDir, 'logs'));
  } catch (error) {
    return `(no logs: ${String(error)})`;
  }
  return found.join('\n') || '(no AEP Attention log files)';
}

/** Whether the real editor can run here: the cache install made by setup.sh, and Chromium. */
export function e2eAvailable(): E2eInstall | { ok: false; why: string } {
  const missing = codeServerMissing();
  const record = harnessRecord();
  if (missing !== undefined || !record.ok || record.value.node24 === undefined || record.value.codeServerEntry === undefined) {
    return { ok: false, why: missing ?? SETUP_HINT };
  }
  return { ok: true, codeServerEntry: record.value.codeServerEntry, node24: record.value.node24 };
}

/**
 * The environment code-server runs in: ours, less whatever would make it act as a
 * client of another VS Code or pick up a password/port, plus its own config and
 * data homes (it writes a default config with a password under XDG_CONFIG_HOME and
 * logs under XDG_DATA_HOME even for --version) so that $HOME is left alone.
 */
function serverEnv(stateDir: string, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VSCODE_') || key.startsWith('CODE_SERVER_') || key.startsWith('NODE_OPTIONS')) continue;
    if (['ELECTRON_RUN_AS_NODE', 'PASSWORD', 'HASHED_PASSWORD', 'PORT', 'GITHUB_TOKEN', 'NODE_TEST_CONTEXT'].includes(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    XDG_CONFIG_HOME: path.join(stateDir, 'xdg-config'),
    XDG_DATA_HOME: path.join(stateDir, 'xdg-data'),
    // code-server's extension gallery, should anything ask it: loopback, refused at once.
    EXTENSIONS_GALLERY: JSON.stringify({ serviceUrl: 'http://127.0.0.1:9/gallery', itemUrl: 'http://127.0.0.1:9/item' }),
    ...extra,
  };
}

/** Runs a command to completion, collecting its output; rejects on a non-zero exit. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${path.basename(args[0] ?? command)} ${args.slice(1).join(' ')} exited with ${code ?? signal}:\n${output}`));
    });
  });
}

/** GET `url`'s status; through `socketPath` when given. */
export function httpStatus(url: string, socketPath?: string, timeoutMs = 2_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { timeout: timeoutMs, ...(socketPath !== undefined ? { socketPath } : {}) }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
  });
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Installs `vsixPath` into `extensionsDir` as code-server's `--install-extension` does:
 * once per package (by its digest) into out/e2e/installed, then as a copy, the
 * registry's paths rewritten to the copy's. An install took 3–6 s per code-server.
 */
async function installInto(extensionsDir: string, vsixPath: string, codeServer: (args: string[]) => Promise<string>): Promise<string> {
  const digest = createHash('sha256').update(fs.readFileSync(vsixPath)).digest('hex').slice(0, 32);
  const installed = path.join(e2eOutDir(), 'installed');
  const template = path.join(installed, digest);
  let log = '';
  if (!fs.existsSync(template)) {
    const partial = path.join(installed, `${digest}.${process.pid}.partial`);
    fs.rmSync(partial, { recursive: true, force: true });
    const extensions = path.join(partial, 'extensions');
    const state = path.join(partial, 'state');
    fs.mkdirSync(state, { recursive: true });
    const configFile = path.join(state, 'config.yaml');
    fs.writeFileSync(configFile, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
    log = await codeServer(['--config', configFile, '--user-data-dir', path.join(state, 'user-data'), '--extensions-dir', extensions, '--force', '--install-extension', vsixPath]);
    // Older ones go: past the newest few (ours, the demo's, the probe's, the extension-host suite's),
    // those made over an hour ago, so none that a test file running beside this one copies from.
    const modified = (dir: string) => fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    const done = fs.readdirSync(installed).filter((name) => !name.includes('.')).map((name) => path.join(installed, name));
    done.sort((a, b) => modified(b) - modified(a));
    for (const old of done.slice(4)) if (modified(old) < Date.now() - 3_600_000) fs.rmSync(old, { recursive: true, force: true });
    // Another test file may have made the same one meanwhile (they run two at a time): either is as good.
    try {
      fs.renameSync(extensions, template);
    } catch (error) {
      if (!fs.existsSync(template)) throw error;
    }
    fs.rmSync(partial, { recursive: true, force: true });
  }
  // The registry lists what is installed: what extensionsDir held already (an extension a
  // runner depends on) stays listed beside the copy, or VS Code removes it as uninstalled.
  const registry = path.join(extensionsDir, 'extensions.json');
  const before = fs.existsSync(registry) ? registryEntries(fs.readFileSync(registry, 'utf8')) : [];
  fs.cpSync(template, extensionsDir, { recursive: true });
  if (fs.existsSync(registry)) {
    const added = registryEntries(JSON.stringify(relocated(JSON.parse(fs.readFileSync(registry, 'utf8')), template, extensionsDir)));
    const addedIds = new Set(added.map(registryId));
    fs.writeFileSync(registry, JSON.stringify([...before.filter((entry) => !addedIds.has(registryId(entry))), ...added]));
  }
  return log;
}

/** The entries of an extensions.json: an array of objects, each naming its extension in `identifier.id`. */
function registryEntries(text: string): Array<Record<string, unknown>> {
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`extensions.json is not a list: ${text.slice(0, 200)}`);
  return parsed.filter((entry): entry is Record<string, unknown> => entry !== null && typeof entry === 'object');
}

function registryId(entry: Record<string, unknown>): string {
  const identifier = entry['identifier'];
  const id = identifier !== null && typeof identifier === 'object' ? (identifier as Record<string, unknown>)['id'] : undefined;
  return typeof id === 'string' ? id.toLowerCase() : JSON.stringify(entry);
}

/** `value` with every string that starts with `from` (a path or a file URL of it) starting with `to` instead. */
function relocated(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') {
    if (value.startsWith(from)) return to + value.slice(from.length);
    const fromUrl = pathToFileURL(from).href;
    return value.startsWith(fromUrl) ? pathToFileURL(to).href + value.slice(fromUrl.length) : value;
  }
  if (Array.isArray(value)) return value.map((item) => relocated(item, from, to));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, relocated(item, from, to)]));
  return value;
}

/** Process groups started here and not stopped yet: killed if the test process exits early. */
const liveGroups = groupsKilledOnExit();

/**
 * Starts code-server on 127.0.0.1 (a free port chosen by the kernel), after
 * installing `vsixPath` and writing the settings; resolves once its HTTP server answers.
 */
export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const install = e2eAvailable();
  if (!install.ok) throw new Error(install.why);
  const { workspaceDir, userDataDir, extensionsDir } = options;
  for (const dir of [workspaceDir, userDataDir, extensionsDir]) fs.mkdirSync(dir, { recursive: true });

  // code-server's own state (config file, XDG homes) beside VS Code's in the user data dir.
  const stateDir = path.join(userDataDir, 'aep-e2e');
  const configFile = path.join(stateDir, 'config.yaml');
  fs.mkdirSync(stateDir, { recursive: true });
  fs.writeFileSync(configFile, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');

  const trust = options.workspaceTrust === true;
  writeJson(path.join(userDataDir, 'User', 'settings.json'), {
    ...DEFAULT_USER_SETTINGS,
    ...(trust ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'always' } : {}),
    ...options.userSettings,
  });
  if (options.settings) writeJson(path.join(workspaceDir, '.vscode', 'settings.json'), options.settings);

  const env = serverEnv(stateDir, options.env);
  const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  let log = '';
  for (const vsix of typeof options.vsixPath === 'string' ? [options.vsixPath] : options.vsixPath ?? []) {
    log += await installInto(extensionsDir, vsix, (args) => run(install.node24, [install.codeServerEntry, ...args], env, 120_000));
  }

  const args = [
    install.codeServerEntry,
    ...common,
    ...(options.socketPath !== undefined ? ['--socket', options.socketPath, '--socket-mode', '600'] : ['--bind-addr', '127.0.0.1:0']),
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...(trust ? [] : ['--disable-workspace-trust']),
    '--ignore-last-opened',
    ...(options.reconnectionGraceSeconds !== undefined ? ['--reconnection-grace-time', String(options.reconnectionGraceSeconds)] : []),
    workspaceDir,
  ];
  const child: ChildProcess = spawn(install.node24, args, { env, cwd: workspaceDir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start code-server (${install.node24} ${install.codeServerEntry})`);
  liveGroups.add(pid);
  const MAX_LOG = 4 * 1024 * 1024;
  const append = (chunk: Buffer) => {
    log += chunk.toString();
    if (log.length > MAX_LOG) log = log.slice(-MAX_LOG);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });

  const stop = async (): Promise<void> => {
    if (groupAlive(pid)) killGroup(pid, 'SIGTERM');
    // Past 10 s of SIGTERM, SIGKILL.
    await waitUntil(() => exited !== undefined && !groupAlive(pid), 'code-server to stop', 10_000, undefined, 50).catch(() => undefined);
    if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
    await exitPromise;
    await waitUntil(() => !groupAlive(pid), `code-server's process group ${pid} to go after SIGKILL`, 10_000, undefined, 20);
    liveGroups.delete(pid);
    child.stdout?.destroy();
    child.stderr?.destroy();
  };

  // The kernel picks the port; code-server prints "HTTP server listening on http://127.0.0.1:PORT/".
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  let port = 0;
  const { socketPath } = options;
  try {
    if (socketPath === undefined) {
      const listening = await waitForValue(() => {
        if (exited) throw new Error(`code-server exited with ${exited.code ?? exited.signal} before listening`);
        return /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1];
      }, (match) => match !== undefined, 'code-server to start listening', { timeoutMs: deadline - Date.now(), everyMs: 100, show: () => 'no "HTTP server listening" line' });
      port = Number(listening);
    }
    const url = socketPath === undefined ? `http://127.0.0.1:${port}` : 'http://localhost';
    await waitForValue(async () => {
      if (exited) throw new Error(`code-server exited with ${exited.code ?? exited.signal} before answering`);
      return httpStatus(`${url}/healthz`, socketPath).catch(() => 0);
    }, (status) => status === 200, `code-server at ${socketPath ?? url} to answer /healthz`, { timeoutMs: Math.max(0, deadline - Date.now()), everyMs: 200 });
    return { url, port, ...(socketPath !== undefined ? { socketPath } : {}), stop, logs: () => log };
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- code-server output ---\n${log.slice(-8_000)}`);
  }
}

/** What the workbench opens: a folder (the default), or a `.code-workspace` file (a multi-root workspace). */
export interface OpenTarget {
  kind: 'folder' | 'workspace';
}

/**
 * Launches headless Chromium and opens the workbench on `folder` (with `{ kind: 'workspace' }`,
 * `folder` is a `.code-workspace` file); resolves once it is visible.
 *
 * `prepare` runs on the browser context before the workbench loads (to grant a
 * permission or add an init script that every frame, webviews included, runs).
 *
 * The browser asks code-server for its responses uncompressed unless `compressed`: on
 * loopback, compressing them (code-server gzips every response, the workbench's 4.9 MB
 * script included) is only work: code-server took 4.8 and 4.6 CPU-seconds over the
 * Connect to Hub file without it, 5.7 and 6.1 with it. The benchmarks time what a
 * person's browser is sent: compressed.
 */
export async function openWorkbench(
  url: string, folder: string, timeoutMs = 90_000, target: OpenTarget = { kind: 'folder' },
  prepare?: (context: BrowserContext) => Promise<void>, { compressed = false }: { compressed?: boolean } = {},
): Promise<Workbench> {
  // A browser of its own, not the one the request-page files share: a workbench is heavy, and
  // with every workbench and page in one browser, its one GPU process drew them all.
  const browser = await startBrowser();
  const messages: string[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, ...(compressed ? {} : { extraHTTPHeaders: { 'Accept-Encoding': 'identity' } }) });
    await prepare?.(context);
    const page = await context.newPage();
    page.on('console', (message) => messages.push(`[${message.type()}] ${message.text()}`));
    page.on('pageerror', (error) => messages.push(`[pageerror] ${error.message}`));
    let loadedAt = 0;
    page.once('load', () => (loadedAt = Date.now()));
    const address = new URL(url);
    address.searchParams.set(target.kind, folder);
    await page.goto(address.toString(), { waitUntil: 'load', timeout: timeoutMs });
    if (loadedAt === 0) loadedAt = Date.now();
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
    const workbenchAt = Date.now();
    return {
      browser,
      context,
      page,
      loadedAt,
      workbenchAt,
      console: () => [...messages],
      close: async () => {
        await browser.close();
      },
    };
  } catch (error) {
    await browser.close();
    throw new Error(`workbench at ${url} did not come up: ${(error as Error).message}\n--- page console ---\n${messages.slice(-50).join('\n')}`);
  }
}
