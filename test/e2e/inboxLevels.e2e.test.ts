// The inbox's levels in the REAL VS Code workbench (code-server), extension
// installed from its VSIX, one local hub: a level is drawn only where it tells
// rows apart (src/app/inboxTree.ts). First one agent with one session: the
// request is a top row naming its agent and session. Then a second session of
// that agent and a second agent: agent rows, a session level under the agent
// with two sessions only, and each request under the rows that name it.
// Several hubs are test/e2e/hubs.e2e.test.ts's. Screenshot: out/e2e/levels-*.png.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { freshSession, makeEvent, postEvents } from '../support/events';
import { codeServerSuite } from '../support/harness';
import { withConnectedWorkbench } from './connectedWorkbench';
import { runCommand, showRows, waitForView, type TreeRow } from './workbenchPage';

const TOKEN = 'e2e-token-levels-5c2a';

async function ask(hubUrl: string, agent: string, session: string, seq: number, prompt: string): Promise<void> {
  const posted = await postEvents(hubUrl, TOKEN, [
    makeEvent('attention.requested', session, seq, {
      source: `aep://e2e-host/agent/${agent}/session/${session}`,
      capture: 'full',
      data: { kind: 'permission', prompt, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] },
    }, agent),
  ]);
  assert.ok(posted.status >= 200 && posted.status < 300, `the hub refused the request: ${posted.status} ${JSON.stringify(posted.body)}`);
}

/** The rows as `level label — description`, the description cut at the age so ages do not matter. */
const shape = (rows: TreeRow[]) => rows.map((row) => {
  const who = row.description.replace(/(^| · )\d+ (s|min|h) ago · .*$/, '');
  return `${row.level} ${row.label}${who ? ` — ${who}` : ''}`;
});

const inboxIs = (page: Page, what: string, expected: string[]) =>
  waitForView(page, 'Inbox', what, (rows) => JSON.stringify(shape(rows)) === JSON.stringify(expected), 60_000);

test('the inbox draws only the levels that tell its rows apart', { timeout: 300_000, ...codeServerSuite() }, async (t) => {
  await withConnectedWorkbench(t, { name: 'levels', token: TOKEN }, async ({ hub, page, shot }) => {
    await runCommand(page, 'AEP Attention: Show Inbox');
    const s1 = freshSession('levels-a');
    const s2 = freshSession('levels-b');
    const c1 = freshSession('levels-c');

    // One hub, one agent, one session: no hub, agent or session row.
    await ask(hub.url, 'claude', s1, 1, 'Run npm test?');
    const one = await inboxIs(page, 'one request as a top row naming its agent and session', [`1 Run npm test? — claude · session ${s1}`]);
    assert.match(one[0]?.description ?? '', /^claude · session \S+ · \d+ (s|min|h) ago · permission · /, 'the row says who asks, how long it has waited, and what kind of ask it is');
    // No agent holds the session, and with no session row the request's own row says so.
    assert.match(one[0]?.description ?? '', /not reachable right now$/, 'the row carries the delivery word a session row would');
    await shot('one');

    // A second session of that agent, and a second agent with one session.
    await ask(hub.url, 'claude', s2, 1, 'Delete the build folder?');
    await ask(hub.url, 'codex', c1, 1, 'Push to main?');
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
  });
});
