// Answer Similar Requests (issue 29), in the REAL VS Code workbench
// (code-server) with the extension installed from its VSIX: three agents,
// each in its own session, ask the same permission (allow / deny) at once.
// Their notification offers "Answer 3 Similar…", which lists all three, ticked; the person
// unticks one, picks Allow and confirms. Each ticked agent receives its own
// command, with its own id, for its own request; the unticked one receives
// nothing: answered afterwards on its own, its first command is that answer.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { freshSession, makeEvent } from '../../support/events';
import { WsPeer, type Received } from '../../support/wsPeer';
import type { Scenario } from './scenario';
import { quickInput, runCommand, waitForStatus } from '../workbenchPage';

const AGENTS = ['e2e-agent-a', 'e2e-agent-b', 'e2e-agent-c'] as const;
const PROMPT = 'Run npm test?';
const isRespond = (r: Received) => r.value['type'] === 'control.attention.respond';

/** The quick pick's rows as shown: label and the rest of the row's text. */
const rows = (page: Page) => quickInput(page).locator('.monaco-list-row');

export const answerSimilar: Scenario = {
  name: 'similar',
  title: 'three similar permission prompts answered in one decision, one of them unticked: each ticked agent gets its own command, the unticked none',
  run: async ({ hub, page, shot, token: TOKEN }) => {
    const peers: WsPeer[] = [];
    try {
      const asked: Array<{ agent: string; peer: WsPeer; id: string; session: string }> = [];
      for (const agent of AGENTS) {
        const peer = await WsPeer.connect(hub.url, { token: TOKEN, role: 'both', agent, capabilities: { control: { accepts: ['control.attention.respond'] } } });
        peers.push(peer);
        asked.push({ agent, peer, id: `req-similar-${agent}`, session: freshSession(agent.slice(-1)) });
      }
      // All three at once, as agents started together ask: they arrive together.
      for (const { agent, peer, id, session } of asked) {
        peer.send(makeEvent('attention.requested', session, 1, {
          id, capture: 'redacted',
          data: { kind: 'permission', prompt: PROMPT, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], respond_via: ['control'] },
        }, agent));
      }
      await waitForStatus(page, /3 requests wait for you\./);

      // Their notifications offer to answer them together: the notification of whichever came last
      // counts all three (the notifier's batches may split the three; they are still one burst).
      const similarButton = page.locator('.notifications-toasts .notification-toast', { hasText: PROMPT })
        .getByRole('button', { name: 'Answer 3 Similar…', exact: true }).first();
      await similarButton.waitFor({ state: 'visible', timeout: 60_000 });
      await similarButton.click();
      await quickInput(page).locator('.quick-input-title', { hasText: 'Answer 3 similar requests' }).waitFor({ timeout: 15_000 });
      const listed = (await rows(page).allInnerTexts()).map((text) => text.replace(/\s+/g, ' '));
      assert.equal(listed.length, 3, `every request is listed: ${JSON.stringify(listed)}`);
      for (const agent of AGENTS) assert.ok(listed.some((text) => text.includes(agent) && text.includes(PROMPT)), `${agent}'s request is listed with its prompt`);
      // The count VS Code shows beside the box ("3 Selected") says how many are ticked.
      const count = quickInput(page).locator('.quick-input-count');
      await count.filter({ hasText: /^\s*3\s+Selected\s*$/ }).waitFor({ timeout: 10_000 });
      await shot('1-checklist');
      // Untick agent b's request, by keyboard: into the list, down to b, Space.
      const order = listed.map((text) => AGENTS.findIndex((agent) => text.includes(agent)));
      const bAt = order.indexOf(1);
      assert.ok(bAt >= 0);
      await page.keyboard.press('ArrowDown');
      for (let i = 0; i < bAt; i++) await page.keyboard.press('ArrowDown');
      await rows(page).nth(bAt).and(page.locator('.focused')).waitFor({ timeout: 10_000 });
      await page.keyboard.press('Space');
      await count.filter({ hasText: /^\s*2\s+Selected\s*$/ }).waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');

      await quickInput(page).locator('.quick-input-title', { hasText: 'Answer 2 requests with' }).waitFor({ timeout: 15_000 });
      await rows(page).filter({ hasText: 'Allow' }).first().click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: 15_000 });
      assert.match(await dialog.innerText(), /Send "Allow" to 2 requests, one command each/);
      await shot('2-confirm');
      await dialog.getByRole('button', { name: 'Send 2 Answers' }).click();

      const [a, , c] = asked;
      assert.ok(a && c);
      const toA = (await a.peer.waitFor(isRespond, 30_000)).value;
      const toC = (await c.peer.waitFor(isRespond, 30_000)).value;
      assert.equal(toA['subject'], a.id);
      assert.equal(toC['subject'], c.id);
      assert.deepEqual(toA['data'], { answer: { option: 'allow' } });
      assert.deepEqual(toC['data'], { answer: { option: 'allow' } });
      assert.notEqual(toA['id'], toC['id'], 'one command each, with its own id');

      // The unticked request is answered on its own: its agent's first command is that one.
      const unticked = asked[1];
      assert.ok(unticked);
      await runCommand(page, 'AEP Attention: Answer Next Request', { opensQuickInput: true });
      await quickInput(page).locator('.monaco-list-row', { hasText: 'Deny' }).first().click();
      const toB = (await unticked.peer.waitFor(isRespond, 30_000)).value;
      assert.equal(toB['subject'], unticked.id, 'nothing was sent for the unticked request before');
      assert.deepEqual(toB['data'], { answer: { option: 'deny' } });
      assert.equal(unticked.peer.received.filter(isRespond).length, 1);
      assert.equal(a.peer.received.filter(isRespond).length, 1);
      assert.equal(c.peer.received.filter(isRespond).length, 1);
      await shot('3-answered');
      // Each agent accepts its answer and ends its request: no command times out later, in another scenario's window.
      for (const { agent, peer, id, session } of asked) {
        const command = peer.received.find(isRespond)?.value;
        assert.ok(command);
        peer.send(makeEvent('control.accepted', session, 2, { cause: String(command['id']), capture: 'metadata' }, agent));
        peer.send(makeEvent('attention.resolved', session, 3, { subject: id, capture: 'metadata', data: { resolution: 'answered' } }, agent));
      }
    } finally {
      for (const peer of peers) await peer.close();
    }
  },
};
