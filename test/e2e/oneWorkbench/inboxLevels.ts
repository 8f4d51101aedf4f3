// The inbox's levels in the REAL VS Code workbench (code-server), extension
// installed from its VSIX, one local hub: a level is drawn only where it tells
// rows apart (src/app/inboxTree.ts). First one agent with one session: the
// request is a top row naming its agent and session. Then a second session of
// that agent and a second agent: agent rows, a session level under the agent
// with two sessions only, and each request under the rows that name it.
// Several hubs are test/e2e/hubs.e2e.test.ts's. Screenshot: out/e2e/levels-*.png.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { AepEvent } from '../../../src/aep/envelope';
import { freshSession, makeEvent, postEvents } from '../../support/events';
import type { Scenario } from './scenario';
import { runCommand, showRows, waitForView, type TreeRow } from '../workbenchPage';


/** `type` from `agent` in `session`, posted to the hub; `fields` say what it is. */
async function post(hub: { url: string; token: string }, type: string, agent: string, session: string, seq: number, fields: Record<string, unknown>): Promise<AepEvent> {
  const event = makeEvent(type, session, seq, { source: `aep://e2e-host/agent/${agent}/session/${session}`, ...fields }, agent);
  const posted = await postEvents(hub.url, hub.token, [event]);
  assert.ok(posted.status >= 200 && posted.status < 300, `the hub refused ${type}: ${posted.status} ${JSON.stringify(posted.body)}`);
  return event;
}

const ask = (hub: { url: string; token: string }, agent: string, session: string, seq: number, prompt: string) =>
  post(hub, 'attention.requested', agent, session, seq, {
    capture: 'full',
    data: { kind: 'permission', prompt, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] },
  });

/** The rows as `level label — description`, the description cut at the age so ages do not matter. */
const shape = (rows: TreeRow[]) => rows.map((row) => {
  const who = row.description.replace(/(^| · )\d+ (s|min|h) ago · .*$/, '');
  return `${row.level} ${row.label}${who ? ` — ${who}` : ''}`;
});

const inboxIs = (page: Page, what: string, expected: string[]) =>
  waitForView(page, 'Inbox', what, (rows) => JSON.stringify(shape(rows)) === JSON.stringify(expected), 60_000);

export const inboxLevels: Scenario = {
  name: 'levels',
  title: 'the inbox draws only the levels that tell its rows apart',
  run: async ({ hub, page, shot, token: TOKEN }, t) => {
    await runCommand(page, 'AEP Attention: Show Inbox');
    const to = { url: hub.url, token: TOKEN };
    const s1 = freshSession('levels-a');
    const s2 = freshSession('levels-b');
    const c1 = freshSession('levels-c');

    // One hub, one agent, one session: no hub, agent or session row.
    const asked = [await ask(to, 'claude', s1, 1, 'Run npm test?')];
    const one = await inboxIs(page, 'one request as a top row naming its agent and session', [`1 Run npm test? — claude · session ${s1}`]);
    assert.match(one[0]?.description ?? '', /^claude · session \S+ · \d+ (s|min|h) ago · permission · /, 'the row says who asks, how long it has waited, and what kind of ask it is');
    // No agent holds the session, and with no session row the request's own row says so.
    assert.match(one[0]?.description ?? '', /not reachable right now$/, 'the row carries the delivery word a session row would');
    await shot('one');

    // A second session of that agent, and a second agent with one session.
    asked.push(await ask(to, 'claude', s2, 1, 'Delete the build folder?'));
    asked.push(await ask(to, 'codex', c1, 1, 'Push to main?'));
    const several = await inboxIs(page, 'agent rows, and session rows only under the agent with two sessions', [
      '1 claude — 2 waiting',
      `2 ${s1} — not reachable right now`,
      '3 Run npm test?',
      `2 ${s2} — not reachable right now`,
      '3 Delete the build folder?',
      '1 codex — 1 waiting',
      `2 Push to main? — session ${c1}`,
    ]);
    t.diagnostic(`inbox:\n${showRows(several)}`);
    await shot('several');

    // The agents withdraw their requests: the inbox is empty again.
    for (const request of asked) {
      await post(to, 'attention.resolved', String(request['agent']), String(request['session']), 2, { subject: String(request['id']), data: { resolution: 'cancelled' } });
    }
    await inboxIs(page, 'no request once the agents withdrew theirs', []);
  },
};
