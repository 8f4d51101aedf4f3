// Honest capture end to end, in the REAL VS Code workbench (code-server) with
// the extension installed from its VSIX, against the local hub. The agent is a
// bare WebSocket peer that owns one session and accepts answers, so the test
// reads every command exactly as it arrives:
//   - a reply holding a GitHub token brings up the page's list of what the
//     redaction pipeline (AEP-0003 §9.4) would replace, and nothing is sent;
//   - the same text forced past the page without `verbatim` is refused by the
//     extension host ("Not sent: …") and never reaches the agent;
//   - "Send redacted" delivers the redacted text at capture `redacted`;
//   - "Send as typed" delivers the text verbatim at capture `full`.
// Screenshots go to out/e2e/capture-*.png.
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { freshSession, makeEvent } from '../../support/events';
import { WsPeer, type Received } from '../../support/wsPeer';
import type { Scenario } from './scenario';
import { postPastPage, webviewFrame } from '../workbenchPage';

const AGENT = 'e2e-agent';
const PROMPT = 'Which token should the deploy use?';
const GITHUB = 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const TYPED = `use ${GITHUB} please`;

const isRespond = (r: Received) => r.value['type'] === 'control.attention.respond';

export const honestCapture: Scenario = {
  name: 'capture',
  title: 'the capture an answer declares is honest, whatever the page sends',
  run: async ({ hub, page, shot, token: TOKEN }, t) => {
    let agent: WsPeer | undefined;
    try {
      // The agent: owns the session by emitting in it, and accepts answers.
      const peer = await WsPeer.connect(hub.url, { token: TOKEN, role: 'both', agent: AGENT, capabilities: { control: { accepts: ['control.attention.respond'] } } });
      agent = peer;
      const session = freshSession('capture');
      const source = `aep://test-host/agent/${AGENT}/session/${session}`;
      let seq = 1;
      const request = makeEvent('attention.requested', session, seq++, { capture: 'redacted', severity: 'notice', data: { kind: 'input', prompt: PROMPT, respond_via: ['control'] } }, AGENT);
      peer.send(request);
      const ack = (command: Record<string, unknown>, type: 'control.accepted' | 'control.rejected', data: Record<string, unknown> = {}) =>
        peer.send(makeEvent(type, session, seq++, { cause: String(command['id']), capture: 'metadata', data }, AGENT));
      assert.equal(request['source'], source);

      const notification = page.locator('.notifications-toasts .notification-toast', { hasText: PROMPT }).first();
      await notification.waitFor({ state: 'visible', timeout: 60_000 });
      await notification.getByRole('button', { name: 'Open', exact: true }).click();
      const frame: Frame = await webviewFrame(page, 30_000, session);
      const reply = frame.locator('#reply');
      const send = frame.locator('#send');
      const outcome = frame.locator('#outcome');

      // 1. The page runs the pipeline first: it lists the token and sends nothing.
      await reply.click();
      await page.keyboard.type(TYPED);
      await send.click();
      const list = frame.locator('#confirm-replacements');
      await list.waitFor({ state: 'visible', timeout: 15_000 });
      assert.match(await list.innerText(), new RegExp(`Reply: ${GITHUB} → \\[REDACTED:secret\\] \\(GitHub token\\)`));
      await shot('1-what-would-be-replaced');

      // 2. Forced past the page without `verbatim`, the way the page posts (the page
      //    acquired its VS Code API already): the extension host refuses it.
      const posted = await postPastPage(frame, { type: 'submit', submitId: 'forced-unredacted-1', answer: { text: TYPED } });
      assert.ok(posted, 'the webview host frame offers the channel the page posts through');
      await frame.locator('#outcome', { hasText: /^Not sent: the redaction pipeline would replace/ }).waitFor({ timeout: 30_000 });
      t.diagnostic(`host refusal: ${await outcome.innerText()}`);
      await shot('2-refused-by-host');

      // 3. Send redacted: the redacted text, at capture redacted.
      await frame.locator('#confirm-redacted').click();
      const redacted = (await peer.waitFor(isRespond, 30_000)).value;
      assert.equal(redacted['capture'], 'redacted');
      assert.deepEqual(redacted['data'], { answer: { text: 'use [REDACTED:secret] please' } });
      // Refused as invalid by the agent, so the request stays open for the next answer.
      ack(redacted, 'control.rejected', { reason: 'invalid', detail: 'a real token is needed' });
      await frame.locator('#outcome', { hasText: /a real token is needed/ }).waitFor({ timeout: 30_000 });

      // 4. Send as typed: the text verbatim, at capture full.
      await send.click();
      await frame.locator('#confirm-verbatim').click();
      const typed = (await peer.waitForCount(isRespond, 2, 30_000))[1]?.value;
      assert.ok(typed);
      assert.equal(typed['capture'], 'full');
      assert.deepEqual(typed['data'], { answer: { text: TYPED } });
      ack(typed, 'control.accepted');
      await frame.locator('#outcome', { hasText: /accepted/ }).waitFor({ timeout: 30_000 });
      await shot('3-sent-as-typed');

      // The forced answer never reached the agent: two commands in all.
      assert.equal(peer.received.filter(isRespond).length, 2);
      // The agent applied it and ends the request.
      peer.send(makeEvent('attention.resolved', session, seq++, { subject: String(request['id']), capture: 'metadata', data: { resolution: 'answered' } }, AGENT));
    } finally {
      await agent?.close();
    }
  },
};
