// "Before asking" on the request page in headless Chromium, the test playing
// the extension host: the session's last actions before the request, newest
// first, ten then "show more" up to fifty, each with what the capture level
// allows; the run's tokens and cost; earlier steps said to be missing when
// they may be; hostile names and arguments stay text, a 1 MB argument folded.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AepEvent } from '../../src/aep/envelope';
import { requestEvent, sessionEvent, viewOf, viewWithActions } from '../support/pageRequests';
import { requestPages } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';
import { hostileStrings } from '../support/hostileCorpus';

let seq = 10_000;
const at = (fields: Parameters<typeof sessionEvent>[1] = {}) => ({ seq: ++seq, ...fields });
const tool = (type: string, name: string, callId: string, data: Record<string, unknown> = {}, fields: Parameters<typeof sessionEvent>[1] = {}): AepEvent =>
  sessionEvent(type, at({ capture: 'redacted', ...fields, data: { tool: { name, call_id: callId }, ...data } }));
const ask = (capture: 'metadata' | 'redacted' = 'redacted') =>
  requestEvent({ kind: 'permission', prompt: 'Run rm -rf build?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] }, { seq: ++seq, capture });

/** What the demo agent does before it asks: reads a file, runs a build that fails, edits. */
function work(capture: 'metadata' | 'redacted'): AepEvent[] {
  const args = (value: Record<string, unknown>) => (capture === 'redacted' ? { args_redacted: value } : {});
  return [
    sessionEvent('session.started', at()),
    sessionEvent('run.started', at({ run: 'r1', data: { trigger: 'user', 'gen_ai.usage.input_tokens': 1200 } })),
    tool('tool.requested', 'Read', 'c1', args({ file_path: 'src/build.ts' }), { capture, run: 'r1' }),
    tool('tool.completed', 'Read', 'c1', { duration_ms: 40 }, { capture: 'metadata', run: 'r1' }),
    tool('tool.requested', 'Bash', 'c2', args({ command: 'npm run build' }), { capture, run: 'r1' }),
    tool('tool.failed', 'Bash', 'c2', { error: { type: 'exit_2' }, duration_ms: 3200 }, { capture: 'metadata', run: 'r1' }),
    tool('tool.requested', 'Edit', 'c3', args({ file_path: 'src/build.ts' }), { capture, run: 'r1' }),
    tool('tool.completed', 'Edit', 'c3', { duration_ms: 15, 'gen_ai.usage.output_tokens': 310, cost: { currency: 'USD', total: 0.0042 } }, { capture: 'metadata', run: 'r1' }),
  ];
}

describe('request page: "Before asking"', chromiumSuite(), () => {
  const { open } = requestPages();

  test('at redacted: the last actions newest first, each with its arguments and outcome, and the run\'s tokens and cost', async () => {
    const page = await open(viewWithActions(work('redacted'), ask()));
    const p = page.page;
    const section = p.locator('#before-asking');
    assert.match(await section.locator('summary').first().innerText(), /Before asking: the last 4 actions, newest first/);
    const rows = (await section.locator('li.action').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
    assert.equal(rows.length, 4);
    assert.match(rows[0] ?? '', /· Edit · done in 15 ms Arguments \(redacted\): \{"file_path":"src\/build\.ts"\}$/);
    assert.match(rows[1] ?? '', /· Bash · failed: exit_2 after 3\.2 s Arguments \(redacted\): \{"command":"npm run build"\}$/);
    assert.match(rows[2] ?? '', /· Read · done in 40 ms Arguments/);
    assert.match(rows[3] ?? '', /· Run · run started$/);
    // One action per line, each below the one before (not laid out as a row of buttons).
    const tops = await section.locator('li.action').evaluateAll((items) => items.map((item) => item.getBoundingClientRect().top));
    assert.ok(tops.every((top, i) => i === 0 || top > (tops[i - 1] ?? 0)), `one per line: ${tops.join(', ')}`);
    assert.match(await p.locator('#before-asking-usage').innerText(), /1,200 input tokens · 310 output tokens · 0\.0042 USD/);
    // It saw the session start: nothing is said to be missing.
    assert.equal(await p.locator('#before-asking-earlier').count(), 0);
    // Beside the question, before the answer.
    const order = await p.evaluate(() => ['#prompt', '#before-asking', '#status', '[data-option]'].map((s) => [...document.querySelectorAll('#app *')].indexOf(document.querySelector(s)!)));
    assert.deepEqual([...order].sort((a, b) => a - b), order, `in reading order: ${order.join(',')}`);
  });

  test('at metadata: tool names and outcomes only, and the page says the arguments are not shared', async () => {
    const page = await open(viewWithActions(work('metadata'), ask('metadata')));
    const rows = (await page.page.locator('#before-asking li.action').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
    assert.match(rows[1] ?? '', /· Bash · failed: exit_2 after 3\.2 s Arguments not shared at capture metadata: only the tool's name is shown\.$/);
    assert.equal(await page.page.getByText('npm run build').count(), 0);
  });

  test('the person\'s ceiling applies: redacted arguments under a metadata ceiling are not shown', async () => {
    const page = await open(viewWithActions(work('redacted'), ask(), 'metadata'));
    assert.equal(await page.page.getByText('npm run build').count(), 0);
    assert.match(await page.page.locator('#before-asking').innerText(), /Arguments not shared at capture metadata/);
  });

  test('ten at first, "show more" up to fifty, and steps past the fifty kept are said to be missing', async () => {
    const many: AepEvent[] = [];
    for (let i = 0; i < 60; i++) many.push(tool('tool.requested', `Tool${i}`, `m${i}`));
    const page = await open(viewWithActions(many, ask()));
    const p = page.page;
    assert.equal(await p.locator('#before-asking li.action').count(), 10);
    assert.match(await p.locator('#before-asking li.action').first().innerText(), /Tool59/);
    await p.locator('#before-asking-more').click();
    assert.equal(await p.locator('#before-asking li.action').count(), 50);
    assert.match(await p.locator('#before-asking li.action').last().innerText(), /Tool10\b/);
    assert.match(await p.locator('#before-asking-earlier').innerText(), /Earlier steps are not kept: only the last 50 are/);
  });

  test('without the session\'s start (a hub without replay, or one that could not go back so far), earlier steps are said to be unavailable', async () => {
    const page = await open(viewWithActions(work('redacted').slice(1), ask()));
    assert.match(await page.page.locator('#before-asking-earlier').innerText(), /Earlier steps are not available: this window has seen this session's actions since/);
    const none = await open(viewWithActions([], ask()));
    assert.match(await none.page.locator('#before-asking-earlier').innerText(), /Earlier steps are not available: this window has seen no actions of this session/);
  });

  test('hostile names and arguments stay text; a 1 MB argument is folded with its size', async () => {
    const corpus = hostileStrings().filter(({ text }) => text.length < 2_000).slice(0, 8);
    const events = corpus.map(({ text }, i) => tool('tool.requested', text, `h${i}`, { args_redacted: { value: text } }));
    events.push(tool('tool.requested', 'Write', 'huge', { args_redacted: { content: 'x'.repeat(1_000_000) } }));
    events.push(tool('tool.requested', 'Bash\u202e<img src=x onerror=alert(1)>\u0007', 'ctl', { args_redacted: { cmd: '<script>alert(1)</script>\u202etxt.exe' } }));
    const page = await open(viewWithActions(events, ask()));
    const p = page.page;
    await p.locator('#before-asking').waitFor();
    const found = await p.evaluate(() => {
      const section = document.querySelector('#before-asking')!;
      const tags = [...section.querySelectorAll('*')].map((e) => e.tagName.toLowerCase());
      const handlers = [...section.querySelectorAll('*')].flatMap((e) => [...e.attributes].map((a) => a.name)).filter((n) => n.startsWith('on') || n === 'href' || n === 'src');
      return { tags: [...new Set(tags)].sort(), handlers };
    });
    assert.deepEqual(found.handlers, []);
    assert.deepEqual(found.tags.filter((tag) => !['details', 'summary', 'ol', 'li', 'span', 'pre', 'p', 'div', 'code', 'time', 'button'].includes(tag)), [], `only our elements: ${found.tags.join(', ')}`);
    const first = p.locator('#before-asking li.action').first();
    assert.match(await first.innerText(), /Bash\\u202e<img src=x onerror=alert\(1\)>\\u0007/);
    assert.match(await first.innerText(), /<script>alert\(1\)<\/script>\\u202etxt\.exe/);
    const huge = p.locator('#before-asking li.action').nth(1);
    assert.match(await huge.innerText(), /· Write ·/);
    assert.match(await huge.locator('summary').innerText(), /\(1,000,014 characters\)|\(1000014 characters\)/);
    await huge.locator('summary').click();
    assert.match(await huge.innerText(), /Shown up to 1000 of 1000014 characters\./);
    assert.equal((await huge.locator('pre').textContent())?.length, 1000);
  });

  test('turned off, there is no section', async () => {
    const page = await open(viewOf(ask()));
    await page.page.locator('#prompt').waitFor();
    assert.equal(await page.page.locator('#before-asking').count(), 0);
  });
});
