// "Before asking": what a session's tool calls and runs are summarised to,
// per capture level (AEP-0002 §5.1–§5.3), paired, bounded, counted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { sessionKey, type AepEvent } from '../../src/aep/envelope';
import { Inbox } from '../../src/inbox/inbox';
import { ACTION_SAVE_MS, EventIntake } from '../../src/client/eventIntake';
import type { ControlSender } from '../../src/client/controlSender';
import {
  ACTIONS_PER_SESSION, ARGS_MAX_CHARS, plainAgentText, QUIET_SESSIONS, RecentActions, summarize, type ActionSummary,
} from '../../src/inbox/recentActions';
import { hostileStrings } from '../support/hostileCorpus';
import { makeEvent } from '../support/events';

const ARGS = { command: 'rm -rf build', cwd: '/home/alice/project' };
const ARGS_REDACTED = { command: 'rm -rf build', cwd: '~/project' };

function requested(seq: number, capture: AepEvent['capture'], data: Record<string, unknown> = {}, session = 's1'): AepEvent {
  return makeEvent('tool.requested', session, seq, { capture, data: { tool: { name: 'Bash', call_id: `c${seq}` }, ...data } });
}

function only(summary: ActionSummary | undefined): ActionSummary {
  assert.ok(summary);
  return summary;
}

test('capture metadata: the tool name and nothing of its arguments, even when the agent sent them anyway', () => {
  const clean = only(summarize(requested(1, 'metadata', { args_digest: 'sha256:ab' }), undefined, 0));
  assert.equal(clean.name, 'Bash');
  assert.equal(clean.callId, 'c1');
  assert.deepEqual(clean.args, { shown: 'level' });
  // An emitter that sends content under `metadata` claims less than it carries: not shown.
  const claimsLess = only(summarize(requested(2, 'metadata', { args: ARGS, args_redacted: ARGS_REDACTED }), undefined, 0));
  assert.deepEqual(claimsLess.args, { shown: 'level' });
  // Absent capture is `metadata` (AEP-0001 §8).
  assert.deepEqual(only(summarize(requested(3, undefined, { args: ARGS }), undefined, 0)).args, { shown: 'level' });
});

test('capture redacted: args_redacted, never args', () => {
  const summary = only(summarize(requested(1, 'redacted', { args: ARGS, args_redacted: ARGS_REDACTED }), undefined, 0));
  assert.deepEqual(summary.args, { shown: 'text', honesty: 'redacted', text: JSON.stringify(ARGS_REDACTED), chars: JSON.stringify(ARGS_REDACTED).length });
  assert.deepEqual(only(summarize(requested(2, 'redacted', { args: ARGS }), undefined, 0)).args, { shown: 'none' });
});

test('capture full: args verbatim; args_redacted when args is absent passes our pipeline before it is called redacted', () => {
  const summary = only(summarize(requested(1, 'full', { args: ARGS, args_redacted: ARGS_REDACTED }), undefined, 0));
  assert.deepEqual(summary.args, { shown: 'text', honesty: 'verbatim', text: JSON.stringify(ARGS), chars: JSON.stringify(ARGS).length });
  const onlyRedacted = only(summarize(requested(2, 'full', { args_redacted: { ...ARGS_REDACTED, auth: 'Bearer sk-live-abcdefghijklmnop1234' } }), undefined, 0));
  assert.equal(onlyRedacted.args.shown === 'text' && onlyRedacted.args.honesty, 'redacted');
  assert.doesNotMatch(JSON.stringify(onlyRedacted.args), /sk-live-abcdefghijklmnop1234/);
});

test('the person\'s capture ceiling applies: full events are read at the ceiling, and a full text is redacted here before it is called redacted', () => {
  const event = requested(1, 'full', { args: { command: 'curl -H "Authorization: Bearer sk-live-abcdefghijklmnop1234" https://x' }, args_redacted: { command: 'curl -H "Authorization: Bearer sk-live-abcdefghijklmnop1234"' } });
  assert.deepEqual(only(summarize(event, 'metadata', 0)).args, { shown: 'level' });
  assert.equal(only(summarize(event, 'metadata', 0)).capture, 'metadata');
  const atRedacted = only(summarize(event, 'redacted', 0));
  assert.equal(atRedacted.capture, 'redacted');
  assert.ok(atRedacted.args.shown === 'text');
  assert.equal(atRedacted.args.honesty, 'redacted');
  assert.doesNotMatch(atRedacted.args.text, /sk-live-abcdefghijklmnop1234/);
  assert.match(atRedacted.args.text, /\[REDACTED:secret\]/);
  // A ceiling above the event's own level changes nothing (a hop never up-levels).
  assert.deepEqual(only(summarize(requested(2, 'redacted', { args: ARGS, args_redacted: ARGS_REDACTED }), 'full', 0)).args.shown, 'text');
  assert.equal(only(summarize(requested(2, 'redacted', { args: ARGS }), 'full', 0)).args.shown, 'none');
});

test('a 1 MB argument is folded: its start kept, its whole length counted', () => {
  const huge = 'x'.repeat(1_000_000);
  const summary = only(summarize(requested(1, 'full', { args: { command: huge } }), undefined, 0));
  assert.ok(summary.args.shown === 'text');
  assert.equal(summary.args.text.length, ARGS_MAX_CHARS);
  assert.ok(summary.args.text.startsWith('{"command":"xxx'));
  assert.ok(summary.args.chars >= 1_000_000, `chars ${summary.args.chars}`);
  // Through the inbox too, although bounding drops so large a member from the stored event.
  const inbox = new Inbox();
  inbox.apply(requested(1, 'full', { args: { command: huge } }));
  const kept = inbox.recentActions('aep://test-host/agent/test-agent/session/s1', 's1');
  const args = kept?.actions[0]?.args;
  assert.ok(args?.shown === 'text');
  assert.equal(args.text.length, ARGS_MAX_CHARS);
  assert.ok(args.chars >= 1_000_000);
});

test('hostile text stays text: markup kept as characters, control and bidi characters written as visible escapes', () => {
  const markup = '<img src=x onerror=alert(1)><script>alert(2)</script>';
  const summary = only(summarize(makeEvent('tool.requested', 's1', 1, { capture: 'full', data: { tool: { name: `Bash\u202e\u0007${markup}` }, args: { cmd: `a\u202eb\u0000c\u2066d` } } }), undefined, 0));
  assert.equal(summary.name, `Bash\\u202e\\u0007${markup}`);
  assert.ok(summary.args.shown === 'text');
  assert.equal(summary.args.text, '{"cmd":"a\\u202eb\\u0000c\\u2066d"}');
  for (const hostile of hostileStrings()) {
    const plain = plainAgentText(hostile.text);
    assert.doesNotMatch(plain, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u);
  }
});

test('outcomes pair with their request by call_id, else by cause; an outcome alone is kept as one, its arguments unseen', () => {
  const store = new RecentActions();
  const request = requested(1, 'redacted', { args_redacted: { file: 'a.ts' } });
  store.note('k', request, undefined, 0);
  store.note('k', makeEvent('tool.completed', 's1', 2, { data: { tool: { name: 'Bash', call_id: 'c1' }, duration_ms: 3200 } }), undefined, 0);
  const noCallId = makeEvent('tool.requested', 's1', 3, { data: { tool: { name: 'Edit' } } });
  store.note('k', noCallId, undefined, 0);
  store.note('k', makeEvent('tool.failed', 's1', 4, { cause: noCallId.id, data: { tool: { name: 'Edit' }, error: { type: 'ENOENT', message: 'no such file' } } }), undefined, 0);
  store.note('k', makeEvent('tool.denied', 's1', 5, { data: { tool: { name: 'Bash', call_id: 'c9' }, by: 'policy', rule: 'no-rm' } }), undefined, 0);
  const actions = store.of('k')?.actions ?? [];
  assert.equal(actions.length, 3);
  assert.deepEqual(actions[0]?.outcome, { state: 'done', durationMs: 3200 });
  // At metadata the message (redacted-gated) is not shown; the type is.
  assert.deepEqual(actions[1]?.outcome, { state: 'failed', errorType: 'ENOENT', message: { shown: 'level' } });
  assert.deepEqual(actions[2]?.outcome, { state: 'denied', by: 'policy', rule: 'no-rm' });
  assert.deepEqual(actions[2]?.args, { shown: 'unseen' });
});

test('an outcome before its request (a replay out of order): the request completes its row, none is left running or doubled', () => {
  const store = new RecentActions();
  const request = requested(1, 'redacted', { args_redacted: { file: 'a.ts' } });
  store.note('k', makeEvent('tool.completed', 's1', 2, { data: { tool: { name: 'Bash', call_id: 'c1' }, duration_ms: 3200 } }), undefined, 0);
  assert.deepEqual(store.of('k')?.actions[0]?.args, { shown: 'unseen' });
  store.note('k', request, undefined, 0);
  const noCallId = makeEvent('tool.requested', 's1', 3, { data: { tool: { name: 'Edit' } } });
  store.note('k', makeEvent('tool.failed', 's1', 4, { cause: noCallId.id, data: { tool: { name: 'Edit' }, error: { type: 'ENOENT' } } }), undefined, 0);
  store.note('k', noCallId, undefined, 0);
  store.note('k', makeEvent('run.finished', 's1', 6, { run: 'r1', data: { status: 'success', duration_ms: 9000 } }), undefined, 0);
  store.note('k', makeEvent('run.started', 's1', 5, { run: 'r1', data: {} }), undefined, 0);
  const actions = store.of('k')?.actions ?? [];
  assert.deepEqual(actions.map((a) => [a.kind, a.name, a.outcome.state, a.args.shown]), [['tool', 'Bash', 'done', 'text'], ['tool', 'Edit', 'failed', 'level'], ['run', '', 'done', 'none']]);
  assert.deepEqual(actions.map((a) => [a.id, a.position?.seq]), [[request.id, 1], [noCallId.id, 3], [actions[2]?.id, 5]], 'each row is its request\'s, at its place');
  assert.equal(store.pairingKeys('k'), 0, 'nothing left waiting');
});

test('pairing is the same whatever the order: one row per call, each with its request\'s arguments and its own outcome, and bounded keys', () => {
  const outcomes = ['tool.completed', 'tool.failed', 'tool.denied'] as const;
  const call = fc.record({ run: fc.boolean(), byCause: fc.boolean(), outcome: fc.constantFrom(...outcomes), requestSeen: fc.boolean(), closed: fc.boolean() });
  fc.assert(
    fc.property(
      fc.array(call, { minLength: 1, maxLength: 10 }).chain((calls) => {
        const events: Array<{ call: number; event: AepEvent }> = [];
        calls.forEach((c, i) => {
          const name = `T${i}`;
          const opening = c.run
            ? makeEvent('run.started', 's1', 2 * i + 1, { run: `r${i}`, data: {} })
            : makeEvent('tool.requested', 's1', 2 * i + 1, { capture: 'redacted', data: { tool: { name, ...(c.byCause ? {} : { call_id: `c${i}` }) }, args_redacted: { n: i } } });
          const closing = c.run
            ? makeEvent(c.outcome === 'tool.completed' ? 'run.finished' : 'run.failed', 's1', 2 * i + 2, { run: `r${i}`, ...(c.byCause ? { cause: opening.id } : {}), data: {} })
            : makeEvent(c.outcome, 's1', 2 * i + 2, { ...(c.byCause ? { cause: opening.id } : {}), data: { tool: { name, ...(c.byCause ? {} : { call_id: `c${i}` }) }, by: 'policy' } });
          if (c.requestSeen || !c.closed) events.push({ call: i, event: opening });
          if (c.closed) events.push({ call: i, event: closing });
        });
        return fc.tuple(fc.constant(calls), fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }), fc.integer({ min: 1, max: 12 }));
      }),
      ([calls, order, perSession]) => {
        // Unbounded: each call is exactly one row, whatever the order.
        const store = new RecentActions(() => undefined, { perSession: 1_000, quietSessions: 4 });
        for (const { event } of order) store.note('k', event, undefined, 0);
        const rows = store.of('k')?.actions ?? [];
        assert.equal(rows.length, calls.length, 'one row per call');
        calls.forEach((c, i) => {
          const mine = rows.filter((row) => (c.run ? row.kind === 'run' && row.run === `r${i}` : row.name === `T${i}`));
          assert.equal(mine.length, 1, `call ${i}: one row`);
          const row = mine[0];
          const want = !c.closed ? 'running' : c.outcome === 'tool.completed' ? 'done' : c.run || c.outcome === 'tool.failed' ? 'failed' : 'denied';
          assert.equal(row?.outcome.state, want, `call ${i}: its outcome`);
          if (c.requestSeen || !c.closed) assert.notEqual(row?.args.shown, 'unseen', `call ${i}: its request's arguments`);
          if (!c.run && (c.requestSeen || !c.closed)) assert.deepEqual(row?.args, { shown: 'text', honesty: 'redacted', text: `{"n":${i}}`, chars: `{"n":${i}}`.length });
        });
        // Bounded: a few keys per kept row, never more, whatever the order.
        const small = new RecentActions(() => undefined, { perSession, quietSessions: 4 });
        for (const { event } of order) {
          small.note('k', event, undefined, 0);
          const kept = small.of('k')?.actions.length ?? 0;
          assert.ok(kept <= perSession);
          assert.ok(small.pairingKeys('k') <= 3 * kept, `${small.pairingKeys('k')} keys for ${kept} rows`);
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('runs pair by run id and carry the tokens and cost so far', () => {
  const store = new RecentActions();
  store.note('k', makeEvent('run.started', 's1', 1, { run: 'r1', data: { trigger: 'user', 'gen_ai.usage.input_tokens': 100 } }), undefined, 0);
  store.note('k', makeEvent('tool.completed', 's1', 2, { run: 'r1', data: { tool: { name: 'Read' }, 'gen_ai.usage.input_tokens': 50, 'gen_ai.usage.output_tokens': 7, cost: { currency: 'USD', total: 0.01 } } }), undefined, 0);
  store.note('k', makeEvent('tool.completed', 's1', 3, { run: 'r1', data: { tool: { name: 'Read' }, cost: { currency: 'USD', total: 0.02 } } }), undefined, 0);
  const usage = store.of('k')?.usage;
  assert.equal(usage?.inputTokens, 150);
  assert.equal(usage?.outputTokens, 7);
  assert.equal(usage?.cost?.currency, 'USD');
  assert.ok(Math.abs((usage?.cost?.total ?? 0) - 0.03) < 1e-9);
  store.note('k', makeEvent('run.failed', 's1', 4, { run: 'r1', data: { reason: 'budget_exceeded', duration_ms: 9000, 'gen_ai.usage.input_tokens': 999 } }), undefined, 0);
  const run = store.of('k')?.actions[0];
  assert.deepEqual(run?.outcome, { state: 'failed', durationMs: 9000, reason: 'budget_exceeded' });
  assert.equal(store.of('k')?.usage?.inputTokens, 999);
  // A new run starts its own count.
  store.note('k', makeEvent('run.started', 's1', 5, { run: 'r2', data: {} }), undefined, 0);
  assert.equal(store.of('k')?.usage?.inputTokens, undefined);
});

test('an outcome waiting for its request pairs only with a request of its own kind: a run started under the id a tool\'s outcome names is a row of its own', () => {
  const store = new RecentActions();
  // A tool's failure naming its request by `cause` only, before that request: it waits under the request's id.
  store.note('k', makeEvent('tool.failed', 's1', 2, { cause: 'E1', data: { tool: { name: 'Bash' }, error: { type: 'exit_1' } } }), undefined, 0);
  store.note('k', makeEvent('run.started', 's1', 1, { id: 'E1', run: 'r1', data: {} }), undefined, 0);
  const actions = store.of('k')?.actions ?? [];
  assert.deepEqual(actions.map((a) => [a.kind, a.name, a.outcome.state]), [['tool', 'Bash', 'failed'], ['run', '', 'running']]);
});

test('usage steps: the last 50 kept per session, oldest dropped first; a run\'s id is counted once for all the steps that share it', () => {
  /** Bytes held after `count` tool completions each reporting one input token, the run id of each from `runOf`. */
  const held = (count: number, runOf: (i: number) => string) => {
    const store = new RecentActions();
    for (let i = 0; i < count; i++) store.note('k', makeEvent('tool.completed', 's1', i + 1, { run: runOf(i), data: { tool: { name: 'Read' }, 'gen_ai.usage.input_tokens': 1 } }), undefined, 0);
    return store;
  };
  const store = held(200, () => 'r');
  const steps = store.of('k')?.usageSteps ?? [];
  assert.equal(steps.length, ACTIONS_PER_SESSION);
  assert.deepEqual([steps[0]?.usage?.inputTokens, steps.at(-1)?.usage?.inputTokens], [151, 200], 'the oldest went first');
  assert.deepEqual([steps[0]?.usageAt.position, steps.at(-1)?.usageAt.position], [{ epoch: 0, seq: 151 }, { epoch: 0, seq: 200 }]);
  // A run id of 1 024 characters instead of 1: each kept summary holds its event's copy, the 50 steps one between them.
  const longer = 2 * 1_023;
  const long = (c: string) => c.repeat(1_024);
  assert.equal(held(200, () => long('r')).bytes - store.bytes, (ACTIONS_PER_SESSION + 1) * longer);
  // Two runs among the kept steps: two ids; once the first run's steps are dropped, one again.
  const twoRuns = (count: number, id: (c: string) => string) => held(count, (i) => id(i < 170 ? 'a' : 'b')).bytes;
  assert.equal(twoRuns(200, long) - twoRuns(200, (c) => c), (ACTIONS_PER_SESSION + 2) * longer);
  assert.equal(twoRuns(230, long) - twoRuns(230, (c) => c), (ACTIONS_PER_SESSION + 1) * longer);
});

test('a session keeps its last 50; quiet sessions are bounded, sessions with open requests are not evicted; bytes add up', () => {
  let bytes = 0;
  const store = new RecentActions((delta) => (bytes += delta));
  for (let seq = 1; seq <= ACTIONS_PER_SESSION + 20; seq++) store.note('held', requested(seq, 'metadata'), undefined, 0);
  store.hold('held');
  const kept = store.of('held');
  assert.equal(kept?.actions.length, ACTIONS_PER_SESSION);
  assert.equal(kept?.dropped, 20);
  assert.equal(kept?.actions[0]?.callId, 'c21');
  for (let i = 0; i < QUIET_SESSIONS + 10; i++) store.note(`quiet-${i}`, requested(1, 'metadata', {}, `q${i}`), undefined, 0);
  assert.equal(store.sessions, QUIET_SESSIONS + 1);
  assert.equal(store.of('quiet-0'), undefined);
  assert.ok(store.of(`quiet-${QUIET_SESSIONS + 9}`));
  assert.ok(store.of('held'), 'a session with an open request is kept');
  assert.equal(bytes, store.bytes);
  assert.ok(bytes > 0);
  store.release('held');
  assert.ok(store.of('held'), 'released, it is the most recently active quiet session');
  assert.equal(store.of('quiet-10'), undefined, 'and the least recently active one makes room');
  assert.equal(store.sessions, QUIET_SESSIONS);
  store.clear();
  assert.equal(bytes, 0);
  assert.equal(store.bytes, 0);
});

test('an agent that opens sessions by the dozen takes back its own quiet sessions, never another agent\'s', () => {
  const store = new RecentActions(undefined, { perSession: 50, quietSessions: 4 });
  const key = (source: string, session: string) => sessionKey(source, session);
  store.note(key('aep://h/agent/a', 'a1'), requested(1, 'metadata', {}, 'a1'), undefined, 0);
  store.note(key('aep://h/agent/a', 'a2'), requested(1, 'metadata', {}, 'a2'), undefined, 0);
  for (let i = 0; i < 10; i++) store.note(key('aep://h/agent/flood', `m${i}`), requested(1, 'metadata', {}, `m${i}`), undefined, 0);
  assert.equal(store.sessions, 4);
  assert.ok(store.of(key('aep://h/agent/a', 'a1')) && store.of(key('aep://h/agent/a', 'a2')), 'the other agent\'s history stays');
  assert.ok(store.of(key('aep://h/agent/flood', 'm9')) && store.of(key('aep://h/agent/flood', 'm8')), 'the flood keeps its newest');
  assert.equal(store.of(key('aep://h/agent/flood', 'm7')), undefined);
});

test('the inbox keeps a session\'s actions, holds them while a request is open, counts them in its budget, and turns off', () => {
  const source = 'aep://test-host/agent/test-agent/session/s1';
  const inbox = new Inbox();
  inbox.apply(makeEvent('session.started', 's1', 1));
  inbox.apply(requested(2, 'metadata'));
  inbox.apply(makeEvent('tool.failed', 's1', 3, { data: { tool: { name: 'Bash', call_id: 'c2' }, error: { type: 'exit_1' } } }));
  const request = makeEvent('attention.requested', 's1', 4, { capture: 'metadata', data: { kind: 'permission', prompt: 'Run rm -rf build?' } });
  inbox.apply(request);
  const kept = inbox.recentActions(source, 's1');
  assert.equal(kept?.sawStart, true);
  assert.equal(kept?.actions.length, 1);
  assert.deepEqual(kept?.actions[0]?.outcome, { state: 'failed', errorType: 'exit_1' });
  const stats = inbox.stats();
  assert.equal(stats.actionSessions, 1);
  assert.ok(stats.actionBytes > 0);
  assert.ok(stats.bytes >= stats.actionBytes);
  inbox.setRecentActions(false);
  assert.equal(inbox.recentActions(source, 's1'), undefined);
  assert.equal(inbox.stats().actionBytes, 0);
  inbox.apply(requested(5, 'metadata'));
  assert.equal(inbox.stats().actionSessions, 0, 'nothing is kept while off');
});

test('a memory budget takes quiet sessions\' actions back before anything of an open request', () => {
  const inbox = new Inbox({ maxBytes: 400_000 });
  const source = (s: string) => `aep://test-host/agent/test-agent/session/${s}`;
  inbox.apply(makeEvent('attention.requested', 'open', 1, { capture: 'metadata', data: { kind: 'permission', prompt: 'Go?' } }));
  inbox.apply(requested(2, 'full', { args: { text: 'y'.repeat(5_000) } }, 'open'));
  for (let s = 0; s < 60; s++) for (let seq = 1; seq <= 20; seq++) inbox.apply(requested(seq, 'full', { args: { text: 'z'.repeat(5_000) } }, `busy-${s}`));
  assert.ok(inbox.stats().bytes <= 400_000, `held ${inbox.stats().bytes}`);
  assert.equal(inbox.recentActions(source('open'), 'open')?.actions.length, 1);
});

test('property: whatever the events, a session keeps at most 50 and the byte count matches what is held', () => {
  const types = ['tool.requested', 'tool.completed', 'tool.failed', 'tool.denied', 'run.started', 'run.finished', 'run.failed'];
  fc.assert(
    fc.property(
      fc.array(fc.record({ type: fc.constantFrom(...types), call: fc.integer({ min: 0, max: 5 }), session: fc.integer({ min: 0, max: 3 }), capture: fc.constantFrom('metadata', 'redacted', 'full') as fc.Arbitrary<'metadata' | 'redacted' | 'full'>, text: fc.string() }), { maxLength: 200 }),
      (steps) => {
        let bytes = 0;
        const store = new RecentActions((delta) => (bytes += delta), { perSession: 50, quietSessions: 2 });
        steps.forEach((step, i) => {
          store.note(`k${step.session}`, makeEvent(step.type, `s${step.session}`, i + 1, { capture: step.capture, run: `r${step.call}`, data: { tool: { name: step.text, call_id: `c${step.call}` }, args: { a: step.text }, args_redacted: { a: step.text }, error: { type: step.text }, by: 'policy', reason: 'x' } }), undefined, 0);
        });
        let sessions = 0;
        for (let s = 0; s <= 3; s++) {
          const kept = store.of(`k${s}`);
          if (kept) {
            sessions++;
            assert.ok(kept.actions.length <= 50);
          }
        }
        assert.ok(sessions <= 2);
        assert.equal(bytes, store.bytes);
      },
    ),
    { numRuns: 100 },
  );
});

test('tool calls and runs save their session\'s position at most once per ACTION_SAVE_MS, and what is left on dispose: a position per tool call was the costliest part of taking them', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const recorded: Array<[string, number]> = [];
  const positions = { load: () => [], record: (position: { session: string; seq: number }) => recorded.push([position.session, position.seq]), forget: () => undefined };
  const sender = { onAck: () => false } as unknown as ControlSender;
  const intake = new EventIntake(new Inbox(), positions, sender, () => undefined);
  intake.take(makeEvent('session.started', 's1', 0), false);
  intake.take(makeEvent('session.started', 's2', 0), false);
  assert.deepEqual(recorded.splice(0), [['s1', 0], ['s2', 0]], 'a session event saves at once');
  for (let seq = 1; seq <= 40; seq += 2) {
    intake.take(requested(seq, 'metadata'), false);
    intake.take(makeEvent('tool.completed', 's1', seq + 1, { data: { tool: { name: 'Bash', call_id: `c${seq}` } } }), false);
  }
  intake.take(requested(1, 'metadata', {}, 's2'), false);
  assert.deepEqual(recorded, [], 'nothing per tool call');
  t.mock.timers.tick(ACTION_SAVE_MS - 1);
  assert.deepEqual(recorded, [], 'not before ACTION_SAVE_MS');
  t.mock.timers.tick(1);
  assert.deepEqual(recorded.splice(0), [['s1', 40], ['s2', 1]], 'once per session, its latest position');
  t.mock.timers.tick(10 * ACTION_SAVE_MS);
  assert.deepEqual(recorded, [], 'nothing new, nothing saved');
  // An attention event saves at once, and its session has nothing left to save later.
  intake.take(requested(41, 'metadata'), false);
  intake.take(makeEvent('attention.requested', 's1', 42, { capture: 'metadata', data: { kind: 'permission', prompt: 'Go?' } }), false);
  assert.deepEqual(recorded.splice(0), [['s1', 42]]);
  t.mock.timers.tick(ACTION_SAVE_MS);
  assert.deepEqual(recorded, []);
  // Disposed (a window reload, a rebuilt client) before the pace allows: what is left is saved then, once.
  intake.take(makeEvent('tool.completed', 's1', 43, { data: { tool: { name: 'Bash', call_id: 'c41' } } }), false);
  intake.take(makeEvent('tool.completed', 's2', 2, { data: { tool: { name: 'Bash', call_id: 'c1' } } }), false);
  intake.dispose();
  assert.deepEqual(recorded.splice(0), [['s1', 43], ['s2', 2]]);
  t.mock.timers.tick(ACTION_SAVE_MS);
  intake.dispose();
  assert.deepEqual(recorded, []);
});

/** An intake over a fresh inbox whose saved positions land in `recorded` and forgotten sessions in `forgotten`. */
function pacedIntake(): { intake: EventIntake; recorded: Array<[string, number, number]>; forgotten: string[] } {
  const recorded: Array<[string, number, number]> = [];
  const forgotten: string[] = [];
  const positions = {
    load: () => [],
    record: (position: { session: string; epoch: number; seq: number }) => recorded.push([position.session, position.epoch, position.seq]),
    forget: (_source: string, session: string) => forgotten.push(session),
  };
  const sender = { onAck: () => false } as unknown as ControlSender;
  return { intake: new EventIntake(new Inbox(), positions, sender, () => undefined), recorded, forgotten };
}

test('a paced save records where its tool event left the session, never where a live ack moved it past events still being replayed', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  for (const end of ['timer', 'dispose'] as const) {
    const { intake, recorded } = pacedIntake();
    intake.take(makeEvent('session.started', 's1', 0), false);
    assert.deepEqual(recorded.splice(0), [['s1', 0, 0]]);
    intake.take(requested(1, 'metadata'), false);
    // The agent's ack of one of our answers, live on the ack subscription ahead of the main subscription's replay: applied, never saved.
    intake.take(makeEvent('control.accepted', 's1', 10, { cause: 'our-command', data: {} }), false);
    // The replay goes on below it: these move nothing (the session stands at 10 already).
    for (let seq = 2; seq <= 5; seq++) intake.take(makeEvent('tool.completed', 's1', seq, { data: { tool: { name: 'Bash', call_id: `c${seq}` } } }), false);
    if (end === 'timer') t.mock.timers.tick(ACTION_SAVE_MS);
    else intake.dispose();
    // Saving 10 here would have a reload resume after 10, and 6 to 9 would never arrive.
    assert.deepEqual(recorded, [], `nothing saved on the ${end}: the session no longer stands where its tool event left it`);
    if (end === 'dispose') continue;
    // The next event on the main subscription that moves the session saves it.
    intake.take(makeEvent('tool.completed', 's1', 11, { data: { tool: { name: 'Bash', call_id: 'c11' } } }), false);
    t.mock.timers.tick(ACTION_SAVE_MS);
    assert.deepEqual(recorded.splice(0), [['s1', 0, 11]]);
    intake.dispose();
  }
});

test('an ended session\'s position is not brought back: not by a tool event after its end, nor by one taken before an end replayed out of order', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { intake, recorded, forgotten } = pacedIntake();
  intake.take(makeEvent('session.started', 's1', 0), false);
  intake.take(makeEvent('session.ended', 's1', 1), false);
  assert.deepEqual(forgotten, ['s1']);
  recorded.splice(0);
  // Stragglers after the end, in the epoch that ended: a tool call, and anything else.
  intake.take(makeEvent('tool.completed', 's1', 2, { data: { tool: { name: 'Bash', call_id: 'c2' } } }), false);
  intake.take(makeEvent('attention.requested', 's1', 3, { capture: 'metadata', data: { kind: 'permission', prompt: 'Go?' } }), false);
  t.mock.timers.tick(ACTION_SAVE_MS);
  assert.deepEqual(recorded, [], 'the position the end forgot stays forgotten');
  // A later epoch is the session begun again: it resumes.
  intake.take(makeEvent('session.started', 's1', 0, { epoch: 1 }), false);
  assert.deepEqual(recorded.splice(0), [['s1', 1, 0]]);

  // A tool event waits to be saved; then its session's end arrives, replayed out of order below it: nothing is saved.
  intake.take(makeEvent('session.started', 's2', 0), false);
  recorded.splice(0);
  intake.take(makeEvent('tool.completed', 's2', 5, { data: { tool: { name: 'Bash', call_id: 'c5' } } }), false);
  intake.take(makeEvent('session.ended', 's2', 4), false);
  t.mock.timers.tick(ACTION_SAVE_MS);
  intake.dispose();
  assert.deepEqual(recorded, []);
  assert.deepEqual(forgotten, ['s1', 's2']);
});

test('a repeat of an action (a replay past the dedupe window) changes nothing', () => {
  const store = new RecentActions();
  const request = requested(1, 'redacted', { args_redacted: { a: 1 } });
  store.note('k', request, undefined, 0);
  store.note('k', request, undefined, 0);
  const done = makeEvent('tool.completed', 's1', 2, { data: { tool: { name: 'Bash', call_id: 'c1' }, 'gen_ai.usage.input_tokens': 10 } });
  store.note('k', done, undefined, 0);
  store.note('k', done, undefined, 0);
  assert.equal(store.of('k')?.actions.length, 1);
  assert.equal(store.of('k')?.usage?.inputTokens, 10, 'counted once');
});

test('invisible tag characters are written as visible escapes too: the same list of invisible characters as every surface', () => {
  const hidden = [...'ignore the person'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
  const summary = only(summarize(makeEvent('tool.requested', 's1', 1, { capture: 'full', data: { tool: { name: `Bash${hidden}` }, args: `ls${hidden}\u{e007f}` } }), undefined, 0));
  assert.doesNotMatch(summary.name, /[\u{e0000}-\u{e007f}]/u);
  assert.ok(summary.name.startsWith('Bash\\u{e0069}'), summary.name);
  assert.ok(summary.args.shown === 'text');
  assert.doesNotMatch(summary.args.text, /[\u{e0000}-\u{e007f}]/u);
  assert.ok(summary.args.text.endsWith('\\u{e007f}'));
});

test('when it happened is never later than when it arrived: an agent\'s clock ahead does not read "0 s ago"', () => {
  const arrival = Date.parse('2026-01-01T10:00:00Z');
  const future = only(summarize(makeEvent('tool.requested', 's1', 1, { time: '2026-01-01T11:00:00Z', data: { tool: { name: 'Bash' } } }), undefined, arrival));
  assert.equal(future.at, arrival);
  const past = only(summarize(makeEvent('tool.requested', 's1', 2, { time: '2026-01-01T09:59:00Z', data: { tool: { name: 'Bash' } } }), undefined, arrival));
  assert.equal(past.at, Date.parse('2026-01-01T09:59:00Z'));
});
