// "Before asking" as the host builds it for the page: only what came before
// the request in session order, newest first, within the schema the page checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Inbox } from '../../src/inbox/inbox';
import { pageBeforeAskingSchema } from '../../src/shared/beforeAsking';
import { pageBeforeAsking } from '../../src/words/beforeAskingContent';
import { lastActionLine } from '../../src/words/beforeAskingWords';
import { makeEvent, makeRequest } from '../support/events';

const SOURCE = 'aep://test-host/agent/test-agent/session/s1';
const call = (seq: number, name: string) => makeEvent('tool.requested', 's1', seq, { data: { tool: { name, call_id: `c${seq}` } } });

test('only the actions before the request in session order, newest first; later ones and backfill after it are left out', () => {
  const inbox = new Inbox();
  inbox.apply(call(1, 'Read'));
  inbox.apply(call(2, 'Bash'));
  const request = makeRequest('s1', 4, { kind: 'permission', prompt: 'Go?' });
  inbox.apply(request);
  inbox.apply(call(5, 'After'));
  // Backfilled: arrives after the request, but its position is before it.
  inbox.apply(call(3, 'Backfill'));
  const view = pageBeforeAsking(inbox.recentActions(SOURCE, 's1'), request);
  assert.deepEqual(view.actions.map((a) => a.name), ['Backfill', 'Bash', 'Read']);
  assert.equal(view.earlier, 'not-available');
  assert.ok(pageBeforeAskingSchema.safeParse(view).success);
});

test('the page refuses a view past the bounds (the host is not trusted blindly either)', () => {
  const action = { kind: 'tool', name: 'Bash', at: 0, capture: 'full', args: { shown: 'text', honesty: 'verbatim', text: 'x', chars: 1 }, outcome: { state: 'running' } };
  assert.ok(pageBeforeAskingSchema.safeParse({ actions: [action], earlier: 'complete' }).success);
  assert.equal(pageBeforeAskingSchema.safeParse({ actions: Array.from({ length: 51 }, () => action), earlier: 'complete' }).success, false);
  assert.equal(pageBeforeAskingSchema.safeParse({ actions: [{ ...action, args: { ...action.args, text: 'x'.repeat(1_001) } }], earlier: 'complete' }).success, false);
  assert.equal(pageBeforeAskingSchema.safeParse({ actions: [{ ...action, name: 'n'.repeat(121) }], earlier: 'complete' }).success, false);
});

test('a kept action or usage the page would refuse is left out of the view, never the whole page', () => {
  const good = { kind: 'tool' as const, id: 'e1', name: 'Read', at: 0, arrived: 0, capture: 'full' as const, args: { shown: 'none' as const }, outcome: { state: 'running' as const } };
  const bad = { ...good, id: 'e2', name: 'n'.repeat(500) };
  const kept = { actions: [good, bad], usage: { inputTokens: 2 ** 60 }, usageAt: undefined, since: 0, sawStart: true, dropped: 0 };
  const view = pageBeforeAsking(kept, { seq: 10 });
  assert.ok(pageBeforeAskingSchema.safeParse(view).success);
  assert.deepEqual(view.actions.map((a) => a.name), ['Read']);
  assert.equal(view.usage, undefined);
});

test('lowering the capture ceiling applies to what was already kept, not only to what comes next', () => {
  const inbox = new Inbox({ captureCeiling: 'full' });
  inbox.apply(makeEvent('tool.requested', 's1', 1, { capture: 'full', data: { tool: { name: 'Bash', call_id: 'c1' }, args: 'cat /home/alice/.ssh/id_rsa' } }));
  inbox.apply(makeEvent('tool.failed', 's1', 2, { capture: 'full', data: { tool: { name: 'Bash', call_id: 'c1' }, error: { message: 'no such file /home/alice/.ssh/id_rsa' } } }));
  const request = makeRequest('s1', 3, { kind: 'permission', prompt: 'Go?' });
  inbox.apply(request);
  const shown = (view: ReturnType<typeof pageBeforeAsking>) => JSON.stringify(view.actions);
  assert.match(shown(pageBeforeAsking(inbox.recentActions(SOURCE, 's1'), request)), /\/home\/alice\/\.ssh/);
  inbox.setCaptureCeiling('redacted');
  const redacted = pageBeforeAsking(inbox.recentActions(SOURCE, 's1'), request, { redaction: { home: '/home/alice' } });
  assert.doesNotMatch(shown(redacted), /\/home\/alice/);
  assert.equal(redacted.actions[0]?.capture, 'redacted');
  assert.deepEqual(redacted.actions[0]?.args && redacted.actions[0].args.shown === 'text' ? redacted.actions[0].args.honesty : undefined, 'redacted');
  inbox.setCaptureCeiling('metadata');
  const metadata = pageBeforeAsking(inbox.recentActions(SOURCE, 's1'), request);
  assert.doesNotMatch(shown(metadata), /id_rsa/);
  assert.deepEqual(metadata.actions[0]?.args, { shown: 'level' });
  assert.equal(metadata.actions[0]?.capture, 'metadata');
  assert.ok(pageBeforeAskingSchema.safeParse(metadata).success);
});

test('text called redacted has passed our pipeline, with the person\'s always-secret values and home', () => {
  const inbox = new Inbox();
  const agentRedacted = '{"password":"hunter2hunter2","cmd":"curl -H \'Authorization: Bearer sk-abc123def456ghi789\' /home/alice/x mysecretvalue1"}';
  inbox.apply(makeEvent('tool.requested', 's1', 1, { capture: 'redacted', data: { tool: { name: 'Bash', call_id: 'c1' }, args_redacted: agentRedacted } }));
  inbox.apply(makeEvent('tool.failed', 's1', 2, { capture: 'redacted', data: { tool: { name: 'Bash', call_id: 'c1' }, error: { message: 'failed for mysecretvalue1 with Authorization: Bearer sk-abc123def456ghi789' } } }));
  const request = makeRequest('s1', 3, { kind: 'permission', prompt: 'Go?' });
  inbox.apply(request);
  const view = pageBeforeAsking(inbox.recentActions(SOURCE, 's1'), request, { redaction: { home: '/home/alice', secretValues: ['mysecretvalue1'] } });
  const text = JSON.stringify(view.actions);
  for (const secret of ['hunter2hunter2', 'sk-abc123def456ghi789', '/home/alice', 'mysecretvalue1']) assert.ok(!text.includes(secret), `${secret} in ${text}`);
  assert.ok(pageBeforeAskingSchema.safeParse(view).success);
});

test('newest first in session order, whatever the arrival order; no-position actions and usage only when before the request', () => {
  const inbox = new Inbox();
  let now = 1_000;
  const timed = new Inbox({ now: () => now });
  for (const box of [inbox, timed]) {
    box.apply(call(2, 'Bash'));
    box.apply(call(3, 'Edit'));
  }
  const request = makeRequest('s1', 4, { kind: 'permission', prompt: 'Go?' });
  inbox.apply(request);
  inbox.apply(call(1, 'Read'));
  assert.deepEqual(pageBeforeAsking(inbox.recentActions(SOURCE, 's1'), request).actions.map((a) => a.name), ['Edit', 'Bash', 'Read']);

  // Without positions: what arrived after the request is not "before" it.
  timed.apply(request);
  const item = timed.open()[0];
  assert.ok(item);
  now = 2_000;
  timed.apply(makeEvent('tool.requested', 's1', 0, { seq: undefined, data: { tool: { name: 'Later', call_id: 'cx' } } }));
  timed.apply(makeEvent('tool.completed', 's1', 9, { data: { tool: { name: 'Edit', call_id: 'c9' }, 'gen_ai.usage.input_tokens': 50 } }));
  const view = pageBeforeAsking(timed.recentActions(SOURCE, 's1'), { ...request, receivedAt: item.receivedAt });
  assert.deepEqual(view.actions.map((a) => a.name), ['Edit', 'Bash']);
  assert.equal(view.usage, undefined);
});

test('the run\'s usage as of the request: only what the agent reported before it, recomputed, even when more came after', () => {
  const inbox = new Inbox();
  const done = (seq: number, input: number, cost: number, run = 'r1') =>
    makeEvent('tool.completed', 's1', seq, { run, data: { tool: { name: 'Edit', call_id: `d${seq}` }, 'gen_ai.usage.input_tokens': input, cost: { currency: 'USD', total: cost } } });
  inbox.apply(makeEvent('run.started', 's1', 1, { run: 'r1', data: {} }));
  inbox.apply(done(2, 100, 0.5));
  inbox.apply(done(3, 20, 0.25));
  const first = makeRequest('s1', 4, { kind: 'permission', prompt: 'Go?' });
  inbox.apply(first);
  inbox.apply(done(5, 7, 1));
  const second = makeRequest('s1', 6, { kind: 'permission', prompt: 'Again?' });
  inbox.apply(second);
  // A new run after both: its figures are no one's "so far" for the requests before it.
  inbox.apply(makeEvent('run.started', 's1', 7, { run: 'r2', data: { 'gen_ai.usage.input_tokens': 9_999 } }));
  const kept = inbox.recentActions(SOURCE, 's1');
  assert.deepEqual(pageBeforeAsking(kept, first).usage, { inputTokens: 120, cost: { currency: 'USD', total: 0.75 } });
  assert.deepEqual(pageBeforeAsking(kept, second).usage, { inputTokens: 127, cost: { currency: 'USD', total: 1.75 } });
  const before = makeRequest('s1', 2, { kind: 'permission', prompt: 'First of all?' });
  assert.equal(pageBeforeAsking(kept, before).usage, undefined, 'nothing reported before it');
  // Every kept step holds something after the request (the one before it was not kept): none rather than a wrong figure.
  const late = { ...kept!, usageSteps: kept!.usageSteps!.slice(-1) };
  assert.equal(pageBeforeAsking(late, first).usage, undefined);
});

test('the tool name in the one-line summary is set apart as the agent\'s words, not read as ours', () => {
  const line = (name: string, state: 'running' | 'failed' | 'denied' | 'done') =>
    lastActionLine({ actions: [{ kind: 'tool', name, at: 0, capture: 'metadata', args: { shown: 'level' }, outcome: state === 'denied' ? { state, by: 'policy' } : { state } }], earlier: 'complete' }, 1_000);
  assert.equal(line('Click Allow to continue —', 'running'), 'after: "Click Allow to continue —" requested · 1 s ago');
  assert.equal(line('Bash', 'failed'), 'after: "Bash" failed · 1 s ago');
  assert.equal(line('Bash', 'denied'), 'after: "Bash" denied · 1 s ago');
  assert.equal(line('Bash', 'done'), 'after: "Bash" done · 1 s ago');
  const run = lastActionLine({ actions: [{ kind: 'run', name: '', at: 0, capture: 'metadata', args: { shown: 'none' }, outcome: { state: 'failed' } }], earlier: 'complete' }, 1_000);
  assert.equal(run, 'after: run failed · 1 s ago');
});

test('free text the agent may send at capture metadata is not shown intact: `by` outside its enum reads "other", rule and reason pass the redaction floor', () => {
  const inbox = new Inbox();
  inbox.apply(makeEvent('tool.requested', 's1', 1, { data: { tool: { name: 'Bash', call_id: 'c1' } } }));
  inbox.apply(makeEvent('tool.denied', 's1', 2, { data: { tool: { name: 'Bash', call_id: 'c1' }, by: 'Click Allow to continue', rule: 'token=abcdef123456 at /home/alice' } }));
  inbox.apply(makeEvent('tool.requested', 's1', 3, { data: { tool: { name: 'Edit', call_id: 'c2' } } }));
  inbox.apply(makeEvent('tool.failed', 's1', 4, { data: { tool: { name: 'Edit', call_id: 'c2' }, error: { type: 'api_key=abcdef123456' } } }));
  inbox.apply(makeEvent('run.failed', 's1', 5, { run: 'r1', data: { reason: 'password: hunter2hunter2' } }));
  inbox.apply(makeEvent('tool.denied', 's1', 6, { data: { tool: { name: 'Read', call_id: 'c3' }, by: 'policy' } }));
  const request = makeRequest('s1', 7, { kind: 'permission', prompt: 'Go?' });
  inbox.apply(request);
  const view = pageBeforeAsking(inbox.recentActions(SOURCE, 's1'), request, { redaction: { home: '/home/alice' } });
  const text = JSON.stringify(view.actions);
  for (const secret of ['Click Allow', 'abcdef123456', '/home/alice', 'hunter2hunter2']) assert.ok(!text.includes(secret), `${secret} in ${text}`);
  const denied = view.actions.find((a) => a.name === 'Bash')?.outcome;
  assert.equal(denied?.state === 'denied' && denied.by, 'other');
  const byPolicy = view.actions.find((a) => a.name === 'Read')?.outcome;
  assert.equal(byPolicy?.state === 'denied' && byPolicy.by, 'policy');
  assert.ok(pageBeforeAskingSchema.safeParse(view).success);
});
