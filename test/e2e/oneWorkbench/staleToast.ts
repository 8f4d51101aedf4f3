// A notification outliving its request, in the REAL VS Code workbench
// (code-server) with the extension installed from its VSIX: VS Code offers no
// way to take back a notification it shows, so a toast whose request the agent
// closed meanwhile stays on screen. Touched, it sends nothing and says what
// became of the request. The agent is a bare WebSocket peer that owns its
// session and takes answers, so every command it receives is read as it
// arrives: a second request answered from its own toast is the first command
// the agent gets, which proves the stale toast sent none.
import * as assert from 'node:assert/strict';
import { freshSession, makeEvent } from '../../support/events';
import { WsPeer, type Received } from '../../support/wsPeer';
import type { Scenario } from './scenario';
import { waitForStatus } from '../workbenchPage';

const AGENT = 'e2e-agent';
const isRespond = (r: Received) => r.value['type'] === 'control.attention.respond';

export const staleToast: Scenario = {
  name: 'stale',
  title: 'a toast whose request closed meanwhile sends nothing and says what happened',
  run: async ({ hub, page, shot, token: TOKEN }) => {
    let agent: WsPeer | undefined;
    try {
      const peer = await WsPeer.connect(hub.url, { token: TOKEN, role: 'both', agent: AGENT, capabilities: { control: { accepts: ['control.attention.respond'] } } });
      agent = peer;
      const session = freshSession('stale');
      let seq = 1;
      const ask = (id: string, prompt: string) =>
        peer.send(makeEvent('attention.requested', session, seq++, {
          id, capture: 'full', data: { kind: 'permission', prompt, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], respond_via: ['control'] },
        }, AGENT));
      const toast = (prompt: string) => page.locator('.notifications-toasts .notification-toast', { hasText: prompt }).first();

      ask('req-stale-1', 'Run the migration?');
      await toast('Run the migration?').waitFor({ state: 'visible', timeout: 60_000 });
      // The pointer rests on it, as a person's about to click: VS Code hides an information toast
      // after 10 s unless the pointer is on it, and a busy machine can take that long to go on.
      await toast('Run the migration?').hover();
      await waitForStatus(page, /1 request waits for you\./);
      // The agent's own terminal answered it: resolved before anyone touched the toast.
      peer.send(makeEvent('attention.resolved', session, seq++, { subject: 'req-stale-1', cause: 'req-stale-1', data: { resolution: 'answered' } }, AGENT));
      await waitForStatus(page, /0 requests wait for you\./);
      assert.equal(await toast('Run the migration?').isVisible(), true, 'VS Code keeps the toast under the pointer on screen');
      await toast('Run the migration?').getByRole('button', { name: 'Allow', exact: true }).click();
      const said = toast(`Not sent: ${AGENT} closed the request before you answered`);
      await said.waitFor({ state: 'visible', timeout: 30_000 });
      await shot('1-stale-toast-touched');

      // A new request answered from its toast: the agent's first command is for it.
      ask('req-stale-2', 'Push the tag?');
      await toast('Push the tag?').getByRole('button', { name: 'Deny', exact: true }).click();
      const first = (await peer.waitFor(isRespond, 30_000)).value;
      assert.equal(first['subject'], 'req-stale-2', 'the stale toast sent nothing: the first command is the new request\'s');
      assert.deepEqual(first['data'], { answer: { option: 'deny' } });
      assert.equal(peer.received.filter(isRespond).length, 1);
      peer.send(makeEvent('control.accepted', session, seq++, { cause: String(first['id']), capture: 'metadata' }, AGENT));
      peer.send(makeEvent('attention.resolved', session, seq++, { subject: 'req-stale-2', cause: String(first['id']), data: { resolution: 'answered' } }, AGENT));
    } finally {
      await agent?.close();
    }
  },
};
