// `npm run demo`: AEP Attention against a live agent, from a fresh clone.
//
//   npm run demo                  hub + demo agent + an editor with the extension installed:
//                                 code-server (VS Code in the browser) where it is installed,
//                                 else desktop VS Code if its command line is on PATH, else
//                                 code-server installed now (Linux x64 only)
//   npm run demo -- --desktop     hub + demo agent + a new window of your desktop VS Code
//                                 (code, code-insiders or codium; --editor-cli picks one)
//   npm run demo -- --no-editor   hub + demo agent only; prints what to set in desktop VS Code
//   npm run demo -- --help        the options (ports, scenarios, pace, state folder)
//
// It packages the extension with vsce (exactly what users install), generates a
// token, runs the local hub and the demo agent in this process, and opens the
// editor with AEP_HUB + AEP_TOKEN in its environment: that is how the extension
// gets the token, bound to that hub's origin. code-server (installed into
// .cache/e2e by scripts/e2e/setup.sh) runs in a process group of its own; desktop
// VS Code gets the VSIX and a new window through its command line, in a profile of
// the demo's own (desktop.ts says why). The token is printed only with --no-editor,
// where you have to paste it. Ctrl+C (or SIGTERM, SIGHUP) stops code-server's whole
// process group, the agent and the hub, and exits 0 (a desktop window stays: it is
// yours to close); if one of them dies by itself, the demo says why, stops the rest
// and exits 1. What it writes stays in --dir (default .cache/demo): the VSIX, the
// workspace, the editor's state (reset every run) and logs/.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentStartError, startAgent, type RunningAgent } from '../agent/agent';
import { DEFAULT_USER_SETTINGS, cacheDir, e2eAvailable, httpStatus, repoRoot, startCodeServer, type CodeServer } from '../../e2e/codeServer';
import { startHub, type RunningHub } from '../hub/hub';
import { USAGE, UsageError, parseDemoArgs, type DemoOptions } from './args';
import { DesktopError, KEEP_WORKSPACE_TRUST, demoProfile, extensionId, launchDesktop, runningEditor, uninstallCommand } from './desktop';
import { findEditorClis } from './editorCli';
import { DEFAULT_EDITOR_CLIS, EditorChoiceError, chooseEditor, type EditorChoice } from './editorChoice';
import { LOGIN_PREFIX } from './editorGate';
import { PortError, listenOnFreePort, startForwarder, type Forwarder } from './ports';
import { StepError, runStep, stopSteps } from './processes';
import { OwnedDirError, claimOwnedDir, resetOwnedDir } from './ownedDir';
import { prepareWorkspace } from './workspace';

const ROOT = repoRoot();
/** What the `expiring` request lives for, and how long the `oob` card waits: long enough to watch. */
const EXPIRE_MS = 30_000;
const OOB_MS = 10_000;

const say = (line = '') => console.log(line);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const shown = (file: string) => {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
};

/** A failure the demo explains in its own words (no stack trace). */
class DemoError extends Error {
  override readonly name = 'DemoError';
}

/** A folder the demo did not make is never reset or written into: the demo stops and says so. */
function ownedOrExplain(step: () => void): void {
  try {
    step();
  } catch (error) {
    if (error instanceof OwnedDirError) throw new DemoError(error.message);
    throw error;
  }
}

/** Thrown out of the start-up sequence once a stop was asked for. */
class Stopped extends Error {}

// ---- what runs, and how it stops --------------------------------------------------

type Phase = 'starting' | 'running' | 'stopping';
let phase: Phase = 'starting';
let stopRequest: { code: number; why?: string; at: number } | undefined;
const running: {
  hub?: RunningHub;
  agent?: RunningAgent;
  server?: CodeServer;
  forwarder?: Forwarder;
  /** Holds code-server's socket; removed at shutdown. */
  socketDir?: string;
  monitor?: NodeJS.Timeout;
  /** The desktop VS Code opened: not stopped, only told how to remove the extension from. */
  desktop?: { uninstall: string };
} = {};
let logDir: string | undefined;
let pidFile: string | undefined;
const openLogs: number[] = [];

function openLog(name: string): (line: string) => void {
  if (!logDir) return () => undefined;
  const fd = fs.openSync(path.join(logDir, name), 'w');
  openLogs.push(fd);
  return (line) => {
    try {
      fs.writeSync(fd, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // closed at shutdown
    }
  };
}

/** Asks everything to stop: at once when running, or once the start-up sequence notices. */
function requestStop(code: number, why?: string): void {
  if (stopRequest) return;
  stopRequest = { code, at: Date.now(), ...(why !== undefined ? { why } : {}) };
  void stopSteps();
  if (phase === 'running') void shutdown();
  else if (phase === 'starting' && code === 0) say('\nInterrupted: stopping once the current step lets go ...\n');
}

function bail(): void {
  if (stopRequest) throw new Stopped();
}

let shuttingDown: Promise<void> | undefined;

function shutdown(): Promise<void> {
  shuttingDown ??= (async () => {
    const phase0 = phase;
    phase = 'stopping';
    const { code, why } = stopRequest ?? { code: 0 };
    if (why) console.error(`\ndemo: ${why}`);
    const names = [running.server && 'the editor', running.agent && 'the agent', running.hub && 'the hub'].filter(Boolean);
    const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names.join('');
    if (names.length > 0) say(`${code === 0 && phase0 === 'running' ? '\n' : ''}Stopping ${list} ...`);
    // Should anything hang, exit anyway: the exit handlers SIGKILL code-server's group and the steps'.
    setTimeout(() => {
      console.error('demo: stopping took more than 30 s; killing what is left');
      process.exit(code === 0 ? 1 : code);
    }, 30_000);
    clearInterval(running.monitor);
    await stopSteps();
    const { server, agent, forwarder, hub } = running;
    await Promise.all([server?.stop(), agent?.close(), forwarder?.close()]);
    await hub?.close('shutdown');
    if (running.socketDir) fs.rmSync(running.socketDir, { recursive: true, force: true });
    if (server && logDir) fs.writeFileSync(path.join(logDir, 'code-server.log'), server.logs());
    for (const fd of openLogs.splice(0)) fs.closeSync(fd);
    releaseDir();
    if (names.length > 0 || code === 0) say(`Stopped. Nothing the demo started is running any more${running.desktop ? ' but the VS Code window' : ''}.${logDir ? ` Logs: ${shown(logDir)}` : ''}`);
    if (running.desktop) {
      say("  Close that window before the next run: it keeps this run's token, which died with the hub.");
      say("  The extension is installed only in the demo's own profile; to remove it:");
      say(`    ${running.desktop.uninstall}`);
    }
    process.exit(code);
  })();
  return shuttingDown;
}

function onSignal(signal: NodeJS.Signals): void {
  if (!stopRequest) {
    requestStop(0);
    return;
  }
  // npm forwards the terminal's Ctrl+C too, so the same key press arrives twice: only a later one forces.
  if (Date.now() - stopRequest.at > 2_000) {
    console.error(`demo: ${signal} again: killing what is left without waiting`);
    process.exit(130);
  }
}

// ---- one demo per folder ------------------------------------------------------------

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('demo');
  } catch {
    return true; // no /proc: trust the signal check
  }
}

function claimDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'demo.pid');
  const other = Number.parseInt(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '', 10);
  if (Number.isInteger(other) && other !== process.pid && processAlive(other)) {
    throw new DemoError(`another demo (pid ${other}) is running from ${shown(dir)}; stop it first, or pass --dir for a separate one`);
  }
  fs.writeFileSync(file, `${process.pid}\n`);
  pidFile = file;
}

function releaseDir(): void {
  if (pidFile && fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() === `${process.pid}`) fs.rmSync(pidFile);
  pidFile = undefined;
}

// ---- the steps ------------------------------------------------------------------------

function checkHost(): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) throw new DemoError(`Node ${process.versions.node} is too old: the demo needs Node 20 or later`);
}

function readPackageJson(): { publisher?: unknown; name?: unknown } {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { publisher?: unknown; name?: unknown };
}

/** code-server, the desktop VS Code, or none (editorChoice.ts decides; this only looks around). */
function pickEditor(options: DemoOptions): EditorChoice {
  const install = e2eAvailable();
  const names = options.editorCli !== undefined ? [options.editorCli] : DEFAULT_EDITOR_CLIS;
  try {
    const choice = chooseEditor({
      platform: process.platform,
      arch: process.arch,
      codeServer: install.ok ? { ok: true } : { ok: false, why: install.why },
      clis: findEditorClis(names, process.env),
      flags: { noEditor: !options.editor, desktop: options.desktop, editorCli: options.editorCli },
    });
    if (choice.mode === 'none' && options.editor) throw new DemoError(choice.why);
    return choice;
  } catch (error) {
    if (error instanceof EditorChoiceError) throw new DemoError(error.message);
    throw error;
  }
}

/** scripts/e2e/setup.sh: quiet when it has nothing to do, its progress shown when it works. */
async function installEditor(): Promise<void> {
  const first = !e2eAvailable().ok;
  say(
    first
      ? `Editor: installing code-server and Node 24 into ${shown(cacheDir())} (scripts/e2e/setup.sh). The first run downloads ~800 MB and takes ~2 min ...`
      : 'Editor: checking code-server (scripts/e2e/setup.sh) ...',
  );
  const startedAt = Date.now();
  // Its output, indented, whole lines at a time; held back while the check is quick.
  let unshown = '';
  let streaming = first;
  const flush = (all: boolean) => {
    const end = all ? unshown.length : unshown.lastIndexOf('\n') + 1;
    if (end <= 0) return;
    const text = unshown.slice(0, end);
    unshown = unshown.slice(end);
    process.stdout.write(`${text.replace(/^(?=.)/gm, '  ')}${text.endsWith('\n') ? '' : '\n'}`);
  };
  const timer = setTimeout(() => {
    streaming = true;
    flush(false);
  }, 3_000);
  try {
    await runStep('scripts/e2e/setup.sh', 'bash', [path.join(ROOT, 'scripts', 'e2e', 'setup.sh')], {
      cwd: ROOT,
      onOutput: (text) => {
        unshown += text;
        if (streaming) flush(false);
      },
    });
    if (streaming) flush(true);
  } catch (error) {
    if (error instanceof StepError && !error.stopped) {
      flush(true);
      throw new DemoError(
        'the editor could not be installed (output above). scripts/e2e/setup.sh needs a Debian-like Linux x64 with apt-get, ' +
          'root to install chromium, fonts-liberation, libkrb5-dev, g++, make and python3 if they are missing, and the npm registry reachable.\n' +
          'Without it: "npm run demo -- --no-editor" and your desktop VS Code.',
      );
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const install = e2eAvailable();
  if (!install.ok) throw new DemoError(install.why);
  say(`Editor: code-server ready (${seconds(Date.now() - startedAt)})`);
}

/** vsce package: the VSIX exactly as users install it (its prepublish step builds dist/ for production). */
async function packageExtension(dir: string): Promise<string> {
  const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  if (!fs.existsSync(vsce)) throw new DemoError(`${shown(vsce)} is missing: run "npm install" first`);
  const out = path.join(dir, 'aep-attention.vsix');
  say('Extension: building and packaging ...');
  const startedAt = Date.now();
  try {
    await runStep('vsce package', process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], { cwd: ROOT });
  } catch (error) {
    if (error instanceof StepError && !error.stopped) throw new DemoError(`packaging the extension failed:\n${error.output.trim()}`);
    throw error;
  }
  say(`Extension: ${shown(out)} (${Math.round(fs.statSync(out).size / 1024)} KB, ${seconds(Date.now() - startedAt)})`);
  return out;
}

/** Polls code-server's /healthz; three misses in a row mean it is gone. */
function watchEditor(server: CodeServer): NodeJS.Timeout {
  let misses = 0;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    httpStatus(`${server.url}/healthz`, server.socketPath, 3_000).then(
      (status) => {
        busy = false;
        misses = status === 200 ? 0 : misses + 1;
      },
      () => {
        busy = false;
        if (++misses >= 3) {
          const tail = server.logs().trim().split('\n').slice(-15).join('\n');
          requestStop(1, `the editor (code-server) stopped answering at ${server.socketPath ?? server.url}. Its last output:\n${tail}`);
        }
      },
    );
  }, 2_000);
  timer.unref();
  return timer;
}

async function start(options: DemoOptions): Promise<void> {
  const startedAt = Date.now();
  checkHost();
  const choice = pickEditor(options);
  claimDir(options.dir);
  logDir = path.join(options.dir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const profile = demoProfile(options.dir);
  const label = { 'code-server': 'code-server', desktop: 'desktop VS Code', none: 'no editor' }[choice.mode];
  say(`AEP Attention demo (${label}): state and logs in ${shown(options.dir)}`);
  if (choice.mode === 'desktop') {
    say(`Editor: ${choice.cli.name === choice.cli.path ? choice.cli.path : `${choice.cli.name} at ${choice.cli.path}`} (${choice.why})`);
    // Before anything is built: an earlier run's window would only be brought to the front, with its old token.
    const open = runningEditor(profile.userDataDir);
    if (open !== undefined) {
      throw new DemoError(
        `the demo's VS Code from an earlier run is still open (pid ${open}): its window keeps that run's token. ` +
          'Close it (on macOS, quit it: Cmd+Q) and run the demo again, or pass --dir for a separate demo.',
      );
    }
  } else if (choice.mode === 'code-server') {
    say(`Editor: code-server (${choice.why})`);
  }

  if (choice.mode === 'code-server') await installEditor();
  bail();
  const vsixPath = await packageExtension(options.dir);
  bail();

  // A new token every run: the hub refuses anyone without it (and without one, routes no answers).
  const token = randomBytes(24).toString('base64url');
  const hubLog = openLog('hub.log');
  const { value: hub, moved: hubMoved } = await listenOnFreePort('hub', options.hubPort, (port) => startHub({ port, host: '127.0.0.1', token, log: hubLog }));
  running.hub = hub;
  say(`Hub: ${hub.url}${hubMoved ? ` (port ${options.hubPort.port} is busy)` : ''}, with a token generated for this run`);
  bail();

  let openUrl: string | undefined;
  const workspaceDir = path.join(options.dir, 'workspace');
  // The demo writes a README and settings there: only into a folder of its own.
  ownedOrExplain(() => claimOwnedDir(workspaceDir));
  const facts = { hubUrl: hub.url, scenarios: options.scenarios, everyMs: options.everyMs, expireMs: EXPIRE_MS, oobMs: OOB_MS };
  if (choice.mode === 'desktop') {
    const { cli } = choice;
    const editorStartedAt = Date.now();
    const editor = await launchDesktop({
      cli,
      vsixPath,
      workspaceDir,
      workspaceSettings: prepareWorkspace(workspaceDir, { ...facts, editorStays: true }),
      profile,
      userSettings: { ...DEFAULT_USER_SETTINGS, 'workbench.startupEditor': 'readme' },
      // The pair goes into the --new-window child's environment only: never an argument, a file or the output.
      hubUrl: hub.url,
      token,
      baseEnv: process.env,
      onStep: (what) => say(`Editor: ${what}`),
    }).catch((error: unknown) => {
      if (error instanceof DesktopError) throw new DemoError(`the desktop VS Code (${cli.path}): ${error.message}`);
      throw error;
    });
    running.desktop = { uninstall: uninstallCommand(cli, profile.extensionsDir, extensionId(readPackageJson())) };
    say(
      `Editor: a new VS Code window on ${shown(workspaceDir)} (${seconds(Date.now() - editorStartedAt)}), ` +
        `its profile in ${shown(profile.root)}${editor.opened === 'still running' ? `; ${cli.name} has not returned, and is left running` : ''}`,
    );
  }
  if (choice.mode === 'code-server') {
    // The editor's own state is the demo's, not the user's: fresh every run (no stale token, layout or extension).
    const editorDir = path.join(options.dir, 'editor');
    ownedOrExplain(() => resetOwnedDir(editorDir));
    const settings = prepareWorkspace(workspaceDir, facts);
    say('Editor: starting code-server with the extension installed ...');
    const editorStartedAt = Date.now();
    // A short path (Unix sockets allow about 100 bytes), in a folder of this user's only.
    const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-demo-'));
    running.socketDir = socketDir;
    const socketPath = path.join(socketDir, 'editor.sock');
    // The key the printed address carries: the loopback port lets nothing else through.
    const editorKey = randomBytes(24).toString('base64url');
    const server = await startCodeServer({
      socketPath,
      vsixPath,
      workspaceDir,
      userDataDir: path.join(editorDir, 'user-data'),
      extensionsDir: path.join(editorDir, 'extensions'),
      // How the token is stored for the editor: the extension reads the pair and offers the token to that origin only.
      env: { AEP_HUB: hub.url, AEP_TOKEN: token },
      settings,
      // Workspace Trust stays on, as in the desktop demo: the editor asks once whether to trust the demo folder.
      userSettings: { 'workbench.startupEditor': 'readme', ...KEEP_WORKSPACE_TRUST },
      workspaceTrust: true,
      startTimeoutMs: 120_000,
    }).catch((error: unknown) => {
      throw new DemoError(`the editor (code-server) did not start: ${error instanceof Error ? error.message : String(error)}`);
    });
    running.server = server;
    running.monitor = watchEditor(server);
    bail();
    const { value: forwarder, moved: editorMoved } = await listenOnFreePort('editor', options.editorPort, (port) =>
      startForwarder(port, socketPath, editorKey, (error) => requestStop(1, `the editor's port on 127.0.0.1 failed: ${error.message}`)),
    );
    running.forwarder = forwarder;
    say(`Editor: code-server up (${seconds(Date.now() - editorStartedAt)})${editorMoved ? `; port ${options.editorPort.port} is busy, so another one is used` : ''}`);
    const folder = encodeURIComponent(workspaceDir).replace(/%2F/g, '/');
    openUrl = `http://127.0.0.1:${forwarder.port}${LOGIN_PREFIX}${editorKey}?folder=${folder}`;
  }
  bail();

  // The agent starts last, so that its first request comes as the URL is printed.
  const agentLog = openLog('agent.log');
  const held: string[] = [];
  let live = false;
  const agent = await startAgent({
    hubUrl: hub.url,
    token,
    scenarios: options.scenarios,
    everyMs: options.everyMs,
    expireMs: EXPIRE_MS,
    oobMs: OOB_MS,
    log: (line) => {
      agentLog(line);
      if (phase === 'stopping') return;
      if (live) say(line);
      else held.push(line);
    },
  });
  running.agent = agent;
  bail();
  void agent.done.then((exit) => {
    if (phase === 'stopping' || stopRequest) return;
    requestStop(1, exit.reason === 'connection-lost' ? `the demo agent stopped: ${exit.detail}` : 'the demo agent stopped');
  });

  const every = seconds(options.everyMs).replace('.0 s', ' s');
  say(`Agent: demo-agent asks something every ${every}: ${options.scenarios.join(', ')}`);
  say();
  if (running.desktop) {
    say(`Ready in ${seconds(Date.now() - startedAt)}. In the new VS Code window, requests show as notifications and in`);
    say('  the AEP Attention inbox (activity bar); click one to answer it. The README there says more.');
    say('  Below: what the agent does, with your answers. Ctrl+C stops the agent and the hub; the window stays.');
  } else if (openUrl !== undefined) {
    say(`Open ${openUrl}`);
    say();
    say(`  Ready in ${seconds(Date.now() - startedAt)}. Requests show as notifications and in the AEP Attention inbox`);
    say('  (activity bar); click one to answer it. The README there says more.');
    say('  Below: what the agent does, with your answers. Ctrl+C stops the editor, the agent and the hub.');
  } else {
    say(`Ready in ${seconds(Date.now() - startedAt)}. To answer from desktop VS Code:`);
    say();
    say(`  1. Install the extension: code --install-extension ${vsixPath}`);
    say('     (or Extensions view > ... > Install from VSIX...)');
    say('  2. Add to your user settings (Preferences: Open User Settings (JSON)):');
    say(`       "aepAttention.hubUrl": "${hub.url}"`);
    say(`  3. Run 'AEP Attention: Set Hub Token' and paste: ${token}`);
    say('     (new every run; VS Code keeps it in its secret storage, for this hub only)');
    say();
    say('  Below: what the agent does, with your answers. Ctrl+C stops the agent and the hub.');
  }
  say();
  live = true;
  for (const line of held.splice(0)) say(line);
}

// ---- main -----------------------------------------------------------------------------

function describe(error: unknown): string {
  if (error instanceof DemoError || error instanceof AgentStartError || error instanceof PortError) return error.message;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}

async function main(): Promise<void> {
  let options: DemoOptions;
  try {
    options = parseDemoArgs(process.argv.slice(2), ROOT);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`demo: ${error.message} (npm run demo -- --help lists the options)`);
    process.exit(2);
  }
  if (options.help) {
    say(USAGE);
    return;
  }
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
  process.on('uncaughtException', (error) => requestStop(1, `unexpected error: ${describe(error)}`));
  process.on('unhandledRejection', (error) => requestStop(1, `unexpected error: ${describe(error)}`));

  try {
    await start(options);
  } catch (error) {
    // Once a stop was asked for, a step failing is only the interrupt showing (Ctrl+C reaches
    // code-server's extension install too): the stop is the story, not the failure.
    if (!stopRequest) requestStop(1, describe(error));
  }
  if (stopRequest) {
    await shutdown();
    return;
  }
  phase = 'running';
}

main().catch((error: unknown) => {
  console.error(`demo: failed: ${describe(error)}`);
  process.exit(1);
});
