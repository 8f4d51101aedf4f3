// One code-server workbench with the extension installed from its VSIX and
// connected to a fresh local hub through AEP_HUB/AEP_TOKEN: the setup, the
// failure diagnostics and the teardown a scenario would otherwise repeat.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { e2eAvailable, e2eOutDir, extensionLogs, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './codeServer';
import { packageExtension } from './vsce';
import { waitForStatus } from './workbenchPage';

export interface ConnectedWorkbench {
  /** The hub the window connects to (AEP_HUB) as the workbench opened it; once restartHub has run, the hub it resolved with is the window's. */
  hub: RunningHub;
  page: Page;
  /** The hub's token: what an agent of the scenario presents. */
  token: string;
  /** A screenshot to out/e2e/`{name}-{step}.png`, named in the test's diagnostics. */
  shot(step: string): Promise<void>;
  /** The tail of what the extension logged in this window (its output channel's file). */
  extensionLog(): string;
  /** The page console's last `lines` lines and the tail of code-server's output, for a failure's diagnostics. */
  consoleAndServer(lines?: number): string;
  /**
   * Stops the hub (every socket told it is closing), runs `whileDown`, then starts a hub again on the same
   * address, the window's AEP_HUB, with the same token and nothing held; resolves with it. The workbench
   * closes that one when it closes.
   */
  restartHub(whileDown: () => Promise<void>): Promise<RunningHub>;
}

export interface ConnectedWorkbenchOptions {
  name: string;
  token: string;
  /**
   * Merged into the user's settings.json, over `aepAttention.osNotifications: off`: the offer to allow
   * system notifications would stand beside the first request's toast, and VS Code shows three toasts
   * at most, so a test that waits for a later toast would find it in the notification center instead.
   * The system-notification tests turn it back on.
   */
  userSettings?: Record<string, unknown>;
  /** Runs on the browser context before the workbench loads (openWorkbench). */
  prepare?: (context: BrowserContext) => Promise<void>;
}

/** A connected workbench that stays up until closed: several scenarios may run in it, one after another. */
export interface OpenWorkbench {
  hub: RunningHub;
  page: Page;
  /** The scenario `name`'s view of it, its screenshots reported to `t`. */
  scenario(t: TestContext, name: string): ConnectedWorkbench;
  /** A failure's screenshot, the page console and code-server's output, in `t`'s diagnostics. */
  diagnose(t: TestContext, name: string): Promise<void>;
  /** Stops the workbench, code-server and the hub, and removes their folder. */
  close(): Promise<void>;
}

/**
 * Starts a hub, code-server with the extension from its VSIX, and the workbench; resolves once the
 * extension is connected. If that fails, what it saw goes to `t`'s diagnostics and it all stops.
 */
export async function openConnectedWorkbench(t: TestContext, options: ConnectedWorkbenchOptions): Promise<OpenWorkbench> {
  const install = e2eAvailable();
  if (!install.ok) assert.fail(install.why);
  const out = e2eOutDir();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `aep-e2e-${options.name}-`));
  const workspaceDir = path.join(tmp, 'workspace');
  let hub: RunningHub | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  let closing: Promise<void> | undefined;
  // Once, whoever asks first: a scenario past its time is given up while it may still fail and ask again.
  const close = () => (closing ??= (async () => {
    await workbench?.close();
    await server?.stop();
    await hub?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  })());
  const diagnose = async (t: TestContext, name: string) => {
    // What is said at once first: a test past its time is reported a moment after it is told so.
    if (workbench) t.diagnostic(`page console (last 30):\n${workbench.console().slice(-30).join('\n')}`);
    if (server) t.diagnostic(`code-server output (last 3000 chars):\n${server.logs().slice(-3_000)}`);
    if (!workbench) return;
    const file = path.join(out, `${name}-failure.png`);
    t.diagnostic(`screenshot: ${file}`);
    await workbench.page.screenshot({ path: file }).catch(() => undefined);
  };
  try {
    const vsixPath = await packageExtension(path.join(tmp, 'aep-attention.vsix'));
    hub = await startHub({ port: 0, token: options.token });
    server = await startCodeServer({
      vsixPath, workspaceDir,
      userDataDir: path.join(tmp, 'user-data'),
      extensionsDir: path.join(tmp, 'extensions'),
      env: { AEP_HUB: hub.url, AEP_TOKEN: options.token },
      userSettings: { 'aepAttention.osNotifications': 'off', ...options.userSettings },
    });
    workbench = await openWorkbench(server.url, workspaceDir, undefined, undefined, options.prepare);
    const { page } = workbench;
    await waitForStatus(page, /Connected to http:\/\/127\.0\.0\.1/);
    const running = hub;
    const opened = workbench;
    const started = server;
    return {
      hub: running,
      page,
      scenario: (t, name) => ({
        hub: running, page, token: options.token,
        restartHub: async (whileDown) => {
          const current = hub;
          assert.ok(current, 'the workbench\'s hub is running');
          hub = undefined;
          await current.close();
          await whileDown();
          // Closed meanwhile (a scenario past its time): a hub started now would be nobody's, and keep the process alive.
          if (closing) throw new Error('the workbench closed while its hub was down');
          const next = await startHub({ port: current.port, token: options.token });
          if (closing) {
            await next.close();
            throw new Error('the workbench closed while its hub started again');
          }
          hub = next;
          return next;
        },
        shot: async (step) => {
          const file = path.join(out, `${name}-${step}.png`);
          await page.screenshot({ path: file });
          t.diagnostic(`screenshot: ${file}`);
        },
        extensionLog: () => extensionLogs(path.join(tmp, 'user-data')),
        consoleAndServer: (lines = 30) =>
          `page console (last ${lines}):\n${opened.console().slice(-lines).join('\n')}\ncode-server output (last 3000 chars):\n${started.logs().slice(-3_000)}`,
      }),
      diagnose,
      close,
    };
  } catch (error) {
    await diagnose(t, options.name);
    await close();
    throw error;
  }
}

/**
 * Runs `scenario` in a connected workbench of its own. On failure it leaves a screenshot,
 * the page console and code-server's output in the diagnostics; whatever
 * happens it stops the workbench, code-server and the hub.
 */
export async function withConnectedWorkbench(
  t: TestContext,
  options: ConnectedWorkbenchOptions,
  scenario: (e2e: ConnectedWorkbench) => Promise<void>,
): Promise<void> {
  const opened = await openConnectedWorkbench(t, options);
  try {
    await scenario(opened.scenario(t, options.name));
  } catch (error) {
    await opened.diagnose(t, options.name);
    throw error;
  } finally {
    await opened.close();
  }
}
