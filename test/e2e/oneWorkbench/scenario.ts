// Scenarios that need no more than a connected workbench run one after another
// in one (test/e2e/oneWorkbench.e2e.test.ts): the workbench's start is most of a
// light scenario's cost (BENCHMARKS.md, "where the end-to-end phase's CPU goes").
// Each ends what its agents asked, and the runner checks the window is left as
// the next one expects: no quick input, no notification, no editor, nothing
// waiting. A scenario that fails, or leaves the window otherwise, is followed
// by a new workbench, so that what it left cannot fail the next.
import { after, describe, test, type TestContext } from 'node:test';
import { codeServerSuite } from '../../support/harness';
import { openConnectedWorkbench, type ConnectedWorkbench, type OpenWorkbench } from '../connectedWorkbench';
import { quickInput, recordToasts, runCommand, waitForStatus } from '../workbenchPage';

export interface Scenario {
  /** Names its screenshots: out/e2e/`{name}-{step}.png`. */
  name: string;
  /** The test's title. */
  title: string;
  /** Default 300 s, the workbench's start included when the scenario is the first in it. */
  timeoutMs?: number;
  run(e2e: ConnectedWorkbench, t: TestContext): Promise<void>;
}

/** The hub's token for every scenario: each scenario's agents present it. */
const TOKEN = 'e2e-token-one-workbench-6f1d';

/** Puts the window back as every scenario finds it, and checks that nothing waits. */
async function leaveAsFound(page: ConnectedWorkbench['page']): Promise<void> {
  // Keys go to the workbench, not to a request page that kept the focus (a webview forwards them late, if at all).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  if (await quickInput(page).isVisible()) {
    await page.keyboard.press('Escape');
    await quickInput(page).waitFor({ state: 'hidden', timeout: 15_000 });
  }
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'detached', timeout: 15_000 });
  await runCommand(page, 'View: Close All Editors');
  await page.locator('.part.editor .tab').first().waitFor({ state: 'detached', timeout: 15_000 });
  await waitForStatus(page, /\. 0 requests wait for you\./, 30_000);
}

/** Runs `scenarios` in order, as tests of one suite, in as few workbenches as they allow. */
export function runInOneWorkbench(suite: string, scenarios: readonly Scenario[]): void {
  describe(suite, codeServerSuite(), () => {
    let open: OpenWorkbench | undefined;
    after(async () => {
      await open?.close();
    });
    for (const scenario of scenarios) {
      test(scenario.title, { timeout: scenario.timeoutMs ?? 300_000 }, async (t) => {
        const here = open ?? await openConnectedWorkbench(t, { name: scenario.name, token: TOKEN, prepare: recordToasts });
        if (t.signal.aborted) {
          // Past its time while the workbench opened: the next scenario has started without it.
          await here.close();
          return;
        }
        open = here;
        const giveUp = async () => {
          if (open === here) open = undefined;
          await here.diagnose(t, scenario.name);
          await here.close();
        };
        // The runner does not stop a scenario past its time: its workbench is closed under it, and the next gets a new one.
        const timedOut = () => void giveUp();
        t.signal.addEventListener('abort', timedOut, { once: true });
        try {
          await scenario.run(here.scenario(t, scenario.name), t);
          await leaveAsFound(here.page);
        } catch (error) {
          if (!t.signal.aborted) await giveUp();
          throw error;
        } finally {
          t.signal.removeEventListener('abort', timedOut);
        }
      });
    }
  });
}
