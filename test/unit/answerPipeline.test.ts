// The answer pipeline (src/answer) is the only way anything is answered:
// every surface (the page, the quick input, the notification's option
// buttons, Answer Next) goes through it under its own name. Each case below
// runs once per surface over a real ControlSender and CommandStore, and the
// table fails if one surface gets a different result, or if a second command
// reaches the wire while the first awaits its acknowledgement.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import {
  ANSWER_SURFACES, AnswerPipeline, decideCapture, type AnswerFacts, type AnswerRefusal, type AnswerResult, type AnswerSurface, type LateSettlement,
} from '../../src/answer/answerPipeline';
import { parseAttentionRequest, type Answer, type AttentionRequest } from '../../src/aep/attention';
import type { CaptureChoice } from '../../src/aep/capture';
import { CommandStore } from '../../src/client/commandStore';
import { ControlSender, type SendOutcome } from '../../src/client/controlSender';
import type { AepEvent } from '../../src/aep/envelope';
import type { AttentionStatus } from '../../src/inbox/inbox';
import { checkedRequestOf, inlinePlan, sendCheck } from '../../src/answer/inlinePlan';
import { describeRefusal } from '../../src/words/outcomeMessages';
import { goldenEvents, repoRoot } from '../support/fixtures';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';

const KEY = 'aepAttention.commands:http://127.0.0.1:1';
const identity = { agent: 'tester', source: 'aep://host/agent/tester' };
const GITHUB = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';

function permission(): AttentionRequest {
  const event = goldenEvents().find((e) => e.id === '01JX9YB4RQ000000000000GOLD');
  assert.ok(event);
  const parsed = parseAttentionRequest(event);
  assert.ok(parsed.ok);
  return parsed.value;
}

function form(): AttentionRequest {
  const event = goldenEvents().find((e) => e.id === '01JX9YBEFRQ0000000000GOLD3');
  assert.ok(event);
  const parsed = parseAttentionRequest(event);
  assert.ok(parsed.ok);
  return parsed.value;
}

/** Senders opened by a case, stopped after it so no ack clock outlives the test. */
const opened: ControlSender[] = [];
function stopAll(): void {
  for (const sender of opened.splice(0)) sender.dispose();
}

/** One window: a pipeline, a real sender over a (shared) memento, and what reached the wire. */
function window(memento = new MemoryMemento()) {
  const request = permission();
  const store = new CommandStore(memento, KEY, new RecordingLogger());
  const sender = new ControlSender(new RecordingLogger(), store, { identity, ackWindowFor: () => 60_000 });
  opened.push(sender);
  const wire: Array<{ id: string; answer: Answer; capture: string }> = [];
  const pipeline = new AnswerPipeline();
  const facts = (over: Partial<AnswerFacts> = {}): AnswerFacts => ({
    hub: 'h1', source: request.source, requestId: request.id, session: request.session,
    request, status: 'pending', notAccepting: false, kept: store.list(), ...over,
  });
  const connect = () =>
    sender.connected((text) => {
      const sent = JSON.parse(text) as { id: string; capture: string; data: { answer: Answer } };
      wire.push({ id: sent.id, answer: sent.data.answer, capture: sent.capture });
      return true;
    });
  const ack = (commandId: string, type: 'control.accepted' | 'control.rejected', data: Record<string, unknown> = {}) => {
    const event: AepEvent = {
      aep: '0.1', id: `ack-${commandId}`, type, time: new Date().toISOString(), source: request.source, agent: request.agent,
      session: request.session, cause: commandId, data,
    };
    assert.ok(sender.onAck(event));
  };
  return { request, store, sender, pipeline, facts, connect, ack, wire, memento };
}

type Window = ReturnType<typeof window>;

/**
 * Each surface's entry, as the host calls it (hubs.ts `answer` / `admit`):
 * Answer Next asks whether the request takes an answer before it brings it
 * up, then answers in the quick input; the others submit under their name.
 */
function enter(surface: AnswerSurface, w: Window, answer: Answer, choice: CaptureChoice = {}, over: Partial<AnswerFacts> = {}): AnswerResult {
  if (surface === 'answer-next') {
    const admission = w.pipeline.admit('answer-next', w.facts(over));
    if (!admission.ok) return { kind: 'refused', refusal: admission.refusal };
  }
  return w.pipeline.submit(surface, w.facts(over), answer, choice, w.sender);
}

function refusal(result: AnswerResult): AnswerRefusal {
  assert.equal(result.kind, 'refused', 'expected the pipeline to refuse');
  assert.ok(result.kind === 'refused');
  return result.refusal;
}

/** The outcome to come; not awaited here, so a case can ack the command first. */
function outcome(result: AnswerResult): Promise<SendOutcome> {
  assert.equal(result.kind, 'sending', result.kind === 'refused' ? `refused: ${result.refusal.code}` : '');
  assert.ok(result.kind === 'sending');
  return result.outcome;
}

/** A case: what it does with a fresh window for one surface, returning what the table compares across surfaces. */
interface Case {
  name: string;
  run(surface: AnswerSurface): Promise<unknown>;
}

const CASES: Case[] = [
  {
    name: 'a second answer while the first awaits its ack is refused, and one command reaches the agent',
    async run(surface) {
      const w = window();
      w.connect();
      const first = enter(surface, w, { option: 'allow' }).kind;
      const second = refusal(enter(surface, w, { option: 'deny' }));
      assert.equal(w.wire.length, 1, 'exactly one command on the wire');
      assert.ok(second.code === 'answer-in-flight' && second.commandId === w.wire[0]?.id, 'the refusal names the command in flight');
      return { first, second: { ...second, commandId: 'the one sent' }, wire: w.wire.map((c) => c.answer) };
    },
  },
  {
    name: 'offline, a queued unsent command counts as in flight; both do not go out on reconnect',
    async run(surface) {
      const w = window();
      void enter(surface, w, { option: 'allow' });
      const second = refusal(enter(surface, w, { option: 'deny' }));
      w.connect();
      assert.equal(w.wire.length, 1);
      return { second: second.code, sent: second.code === 'answer-in-flight' && second.sent, wire: w.wire.map((c) => c.answer) };
    },
  },
  {
    name: 'after a window reload, a command restored from the store refuses a new answer from a new pipeline',
    async run(surface) {
      const before = window();
      before.connect();
      void enter(surface, before, { option: 'allow' });
      before.sender.dispose();
      const after = window(before.memento);
      after.sender.restore(() => ({ state: 'open', request: after.request }), () => undefined);
      const second = refusal(enter(surface, after, { option: 'deny' }));
      assert.ok(second.code === 'answer-in-flight' && second.commandId === before.wire[0]?.id, 'the restored command, by its id');
      return { second: second.code, sent: second.code === 'answer-in-flight' && second.sent };
    },
  },
  {
    name: 'Send Again of the command in flight is the same command, same id (AEP-0004 §2 item 3)',
    async run(surface) {
      const w = window();
      w.connect();
      void enter(surface, w, { option: 'allow' });
      const id = w.wire[0]?.id ?? '';
      const again = w.pipeline.resend(surface, w.facts(), id, w.sender);
      w.ack(id, 'control.accepted');
      return { again: (await again).kind, wire: w.wire.length, sameId: (await again).commandId === id && w.wire.every((sent) => sent.id === id) };
    },
  },
  {
    name: 'a different answer is possible once the first is refused (nack); after acceptance it is not',
    async run(surface) {
      const w = window();
      w.connect();
      const first = outcome(enter(surface, w, { option: 'allow' }));
      w.ack(w.wire[0]?.id ?? '', 'control.rejected', { reason: 'busy' });
      const nacked = (await first).kind;
      const second = outcome(enter(surface, w, { option: 'deny' }));
      w.ack(w.wire[1]?.id ?? '', 'control.accepted');
      const accepted = (await second).kind;
      const third = refusal(enter(surface, w, { option: 'allow' }));
      return { nacked, accepted, third: third.code, wire: w.wire.map((c) => c.answer) };
    },
  },
  {
    name: 'the request closed meanwhile',
    async run(surface) {
      const w = window();
      w.connect();
      const closed = refusal(enter(surface, w, { option: 'allow' }, {}, { status: 'resolved' })).code;
      const gone = refusal(enter(surface, w, { option: 'allow' }, {}, { status: undefined })).code;
      assert.equal(w.wire.length, 0);
      return { closed, gone };
    },
  },
  {
    name: 'an agent that takes no answers from editors, and an `oob` request',
    async run(surface) {
      const w = window();
      w.connect();
      const deaf = refusal(enter(surface, w, { option: 'allow' }, {}, { notAccepting: true })).code;
      const oob = refusal(enter(surface, w, { option: 'allow' }, {}, { request: { ...w.request, answerableHere: false } })).code;
      assert.equal(w.wire.length, 0);
      return { deaf, oob };
    },
  },
  {
    name: 'the capture is decided once, and what goes out carries it',
    async run(surface) {
      const w = window();
      w.connect();
      void enter(surface, w, { option: 'allow' });
      const metadata = w.wire[0]?.capture;
      w.ack(w.wire[0]?.id ?? '', 'control.rejected', { reason: 'busy' });
      await Promise.resolve();
      await new Promise((resolve) => setImmediate(resolve));
      void enter(surface, w, { option: 'deny', text: 'not on main' });
      return { metadata, redacted: w.wire[1]?.capture, preview: decideCapture({ option: 'deny', text: 'not on main' }, w.request) };
    },
  },
  {
    name: 'text the redaction pipeline would change: refused unless sent as typed (then capture full)',
    async run(surface) {
      const w = window();
      w.connect();
      const refused = refusal(enter(surface, w, { text: `use ${GITHUB}` }));
      assert.equal(w.wire.length, 0);
      void enter(surface, w, { text: `use ${GITHUB}` }, { verbatim: true });
      return { refused: refused.code, changes: refused.code === 'would-redact' ? refused.changes.length : 0, typed: w.wire[0]?.capture };
    },
  },
  {
    name: 'empty optional values never reach the wire, and what still fails after leaving them out is refused',
    async run(surface) {
      const w = window();
      w.connect();
      const request = form();
      const missing = refusal(enter(surface, w, { values: { name: '', db: '' } }, {}, { request }));
      assert.equal(w.wire.length, 0);
      void enter(surface, w, { values: { name: 'x', db: '', regions: [], staged: false } }, {}, { request });
      return { missing: missing.code === 'invalid' ? missing.problem.fieldId : missing.code, wire: w.wire.map((c) => c.answer) };
    },
  },
  {
    name: 'an answer the request does not take (not one of its options)',
    async run(surface) {
      const w = window();
      w.connect();
      return refusal(enter(surface, w, { option: 'sudo' })).code;
    },
  },
];

describe('answer pipeline: every surface gets the same result', () => {
  for (const c of CASES) {
    test(c.name, async () => {
      const results = new Map<AnswerSurface, unknown>();
      for (const surface of ANSWER_SURFACES) {
        try {
          results.set(surface, await c.run(surface));
        } finally {
          stopAll();
        }
      }
      const [first, ...rest] = ANSWER_SURFACES;
      for (const surface of rest) assert.deepEqual(results.get(surface), results.get(first), `${surface} behaves as ${first} does`);
    });
  }

  test('the table holds what it should, not just agreement', async (t) => {
    t.after(stopAll);
    const byName = (name: string) => CASES.find((c) => c.name.startsWith(name));
    assert.deepEqual(await byName('a second answer')?.run('page'), {
      first: 'sending', second: { code: 'answer-in-flight', commandId: 'the one sent', sent: true }, wire: [{ option: 'allow' }],
    });
    assert.deepEqual(await byName('offline')?.run('page'), { second: 'answer-in-flight', sent: false, wire: [{ option: 'allow' }] });
    assert.deepEqual(await byName('after a window reload')?.run('page'), { second: 'answer-in-flight', sent: true });
    assert.deepEqual(await byName('Send Again')?.run('page'), { again: 'accepted', wire: 2, sameId: true });
    assert.deepEqual(await byName('a different answer')?.run('page'), {
      nacked: 'rejected', accepted: 'accepted', third: 'answer-accepted', wire: [{ option: 'allow' }, { option: 'deny' }],
    });
    assert.deepEqual(await byName('the request closed')?.run('page'), { closed: 'request-closed', gone: 'request-closed' });
    assert.deepEqual(await byName('an agent that takes')?.run('page'), { deaf: 'not-accepting', oob: 'answered-elsewhere' });
    const capture = (await byName('the capture')?.run('page')) as { metadata: string; redacted: string; preview: { ok: boolean; capture?: string } };
    assert.equal(capture.metadata, 'metadata');
    assert.equal(capture.redacted, 'redacted');
    assert.equal(capture.preview.capture, 'redacted', 'the preview says what is sent');
    assert.deepEqual(await byName('text the redaction')?.run('page'), { refused: 'would-redact', changes: 1, typed: 'full' });
    assert.equal(await byName('an answer the request')?.run('page'), 'invalid');
    assert.deepEqual(await byName('empty optional values')?.run('page'), { missing: 'name', wire: [{ values: { name: 'x', staged: false } }] });
  });

  test('one wording for the refusal, saying what is possible', () => {
    const sent = describeRefusal({ code: 'answer-in-flight', commandId: 'C1', sent: true }, 'claude-code');
    assert.match(sent, /still waiting for claude-code to acknowledge it/);
    assert.match(sent, /Send Again/);
    assert.match(sent, /refuses it or it times out/);
    assert.match(describeRefusal({ code: 'answer-in-flight', commandId: 'C1', sent: false }, 'claude-code'), /waiting to go out/);
  });

  test('a closed request\'s refusal says how it ended (a toast touched after its request closed)', () => {
    const pipeline = new AnswerPipeline();
    const facts = (status: AttentionStatus | undefined): AnswerFacts => ({
      hub: 'h', source: 'aep://h/agent/a/session/s', requestId: 'r1', session: 's', request: undefined, status, notAccepting: false, kept: [],
    });
    const words = (status: AttentionStatus | undefined) => {
      const admission = pipeline.admit('notification', facts(status));
      assert.equal(admission.ok, false);
      return admission.ok ? '' : describeRefusal(admission.refusal, 'claude-code');
    };
    assert.equal(words('timed-out'), 'Not sent: the request timed out before you answered.');
    assert.equal(words('session-ended'), 'Not sent: claude-code\'s session ended before you answered.');
    assert.match(words('resolved'), /^Not sent: claude-code closed the request before you answered/);
    assert.equal(words(undefined), 'Not sent: the request is no longer open.');
  });
});

describe('every answering surface enters the pipeline under its name, and nothing answers past it', () => {
  const source = (file: string) => readFileSync(path.join(repoRoot(), file), 'utf8');
  const entries: Array<[string, AnswerSurface, RegExp]> = [
    ['src/ui/page/requestPages.ts', 'page', /hubs\.answer\('page'/],
    ['src/ui/answering/inlineAnswer.ts', 'quick-input', /hubs\.answer\('quick-input'/],
    ['src/app/answering/optionAnswers.ts', 'notification', /hubs\.answer\('notification'/],
    ['src/app/answering/optionAnswers.ts', 'answer-next', /hubs\.admit\('answer-next'/],
  ];
  for (const [file, surface, entry] of entries) {
    test(`${surface}: ${file} answers through the pipeline`, () => {
      const text = source(file);
      assert.match(text, entry);
      // A surface that sent straight to a hub would skip the in-flight refusal.
      assert.doesNotMatch(text, /\.respond\(/, `${file} must not send past the pipeline`);
    });
  }
});

describe('the record is the one home of what became of the answer', () => {
  test('written with no store behind it: the record says awaiting its ack, and so does the refusal (sent)', async (t) => {
    t.after(stopAll);
    const request = permission();
    const sender = new ControlSender(new RecordingLogger(), undefined, { identity, ackWindowFor: () => 60_000 });
    opened.push(sender);
    sender.connected(() => true);
    const pipeline = new AnswerPipeline();
    const facts: AnswerFacts = { hub: 'h1', source: request.source, requestId: request.id, session: request.session, request, status: 'pending', notAccepting: false, kept: [] };
    void outcome(pipeline.submit('page', facts, { option: 'allow' }, {}, sender));
    assert.equal(pipeline.record(facts)?.state, 'awaiting-ack');
    const second = refusal(pipeline.submit('quick-input', facts, { option: 'deny' }, {}, sender));
    assert.equal(second.code === 'answer-in-flight' && second.sent, true);
  });

  /** Allow, sent through a sender whose ack window is one second, and that second passed on the fake clock: timed out. */
  async function timedOutAllow(t: TestContext, w: ReturnType<typeof window>, pipeline: AnswerPipeline) {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    t.after(stopAll);
    const short = new ControlSender(new RecordingLogger(), w.store, { identity, ackWindowFor: () => 1_000 });
    opened.push(short);
    short.connected(() => true);
    const first = outcome(pipeline.submit('page', w.facts(), { option: 'allow' }, {}, short));
    t.mock.timers.tick(1_000);
    const timedOut = await first;
    assert.equal(timedOut.kind, 'timeout');
    assert.equal(pipeline.record(w.facts())?.state, 'ack-timed-out');
    return { short, timedOut };
  }

  test('an accept that comes after the ack window: the record says accepted and no new answer may go', async (t) => {
    const w = window();
    const { short, timedOut } = await timedOutAllow(t, w, w.pipeline);
    assert.equal(w.pipeline.record(w.facts())?.commandId, timedOut.commandId);
    const event: AepEvent = {
      aep: '0.1', id: 'late-ack', type: 'control.accepted', time: new Date().toISOString(), source: w.request.source, agent: w.request.agent,
      session: w.request.session, cause: timedOut.commandId,
    };
    assert.ok(short.onAck(event));
    assert.deepEqual(w.pipeline.record(w.facts()), { state: 'accepted', commandId: timedOut.commandId, surface: 'page', outcome: { kind: 'accepted', commandId: timedOut.commandId } });
    assert.equal(refusal(w.pipeline.submit('notification', w.facts(), { option: 'deny' }, {}, short)).code, 'answer-accepted');
  });

  test('a hub refusal that comes after the ack window: the record says refused, with the reason, and a new answer may go', async (t) => {
    const w = window();
    const late: LateSettlement[] = [];
    const pipeline = new AnswerPipeline({ settledLate: (settled) => late.push(settled) });
    const { short, timedOut } = await timedOutAllow(t, w, pipeline);
    // AEP-0004 §4.2: any cause-matched error frame is a refusal, whenever it comes.
    assert.ok(short.onErrorFrame({ type: 'error', code: 'no-route', cause: timedOut.commandId, detail: 'no claimant' }));
    const refused: SendOutcome = { kind: 'refused-by-hub', commandId: timedOut.commandId, code: 'no-route', detail: 'no claimant' };
    assert.deepEqual(pipeline.record(w.facts()), { state: 'refused', commandId: timedOut.commandId, surface: 'page', outcome: refused });
    assert.deepEqual(late, [{ key: { hub: 'h1', source: w.request.source, requestId: w.request.id }, outcome: refused, current: true }], 'the surfaces hear it');
    assert.deepEqual(w.store.list(), [], 'no longer kept for Send again after a reload');
    assert.deepEqual(pipeline.admit('page', w.facts()), { ok: true }, 'a new answer may go');
  });

  test('a late refusal of an answer a newer one replaced leaves the newer one\'s record alone', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    t.after(stopAll);
    const w = window();
    const late: LateSettlement[] = [];
    const pipeline = new AnswerPipeline({ settledLate: (settled) => late.push(settled) });
    const short = new ControlSender(new RecordingLogger(), w.store, { identity, ackWindowFor: () => 1_000 });
    opened.push(short);
    short.connected(() => true);
    const first = outcome(pipeline.submit('page', w.facts(), { option: 'allow' }, {}, short));
    t.mock.timers.tick(1_000);
    const timedOut = await first;
    void outcome(pipeline.submit('page', w.facts(), { option: 'deny' }, {}, short));
    const newer = pipeline.record(w.facts());
    assert.equal(newer?.state, 'awaiting-ack');
    assert.ok(short.onErrorFrame({ type: 'error', code: 'no-route', cause: timedOut.commandId }));
    assert.deepEqual(pipeline.record(w.facts()), newer);
    assert.deepEqual(late.map((one) => one.current), [false]);
  });

  test('the same answer after a timeout is Send Again, same id; a different one is a new command, and says the first got no ack', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    t.after(stopAll);
    const w = window();
    const wire: string[] = [];
    const short = new ControlSender(new RecordingLogger(), w.store, { identity, ackWindowFor: () => 1_000 });
    opened.push(short);
    short.connected((text) => (wire.push(text), true));
    const timeOut = async (result: AnswerResult) => {
      const settled = outcome(result);
      t.mock.timers.tick(1_000);
      return settled;
    };
    const first = await timeOut(w.pipeline.submit('page', w.facts(), { option: 'deny', text: 'not on main' }, {}, short));
    assert.equal(first.kind, 'timeout');

    // The same answer, built anew by the form (its keys in another order): the same command (AEP-0004 §2.3).
    const same = w.pipeline.submit('quick-input', w.facts(), { text: 'not on main', option: 'deny' }, {}, short);
    assert.ok(same.kind === 'sending');
    assert.deepEqual(same.retry, { commandId: first.commandId });
    assert.equal(same.unacknowledged, undefined);
    assert.equal(wire.length, 2);
    assert.equal(wire[1], wire[0], 'byte for byte, under the same id');
    assert.equal(w.pipeline.record(w.facts())?.commandId, first.commandId);
    const again = await timeOut(same);
    assert.deepEqual(again, { kind: 'timeout', commandId: first.commandId, afterMs: 1_000 });

    // After a reload the pipeline is new: the kept envelope says what the command carried.
    const reloaded = new AnswerPipeline();
    reloaded.noteRestored(w.facts(), again);
    const kept = reloaded.submit('page', w.facts(), { option: 'deny', text: 'not on main' }, {}, short);
    assert.ok(kept.kind === 'sending');
    assert.deepEqual(kept.retry, { commandId: first.commandId });
    assert.equal(wire[2], wire[0]);
    await timeOut(kept);

    // A different answer: a new command, and the caller is told the first may already have been applied.
    const different = w.pipeline.submit('page', w.facts(), { option: 'deny', text: 'not today' }, {}, short);
    assert.ok(different.kind === 'sending');
    assert.equal(different.retry, undefined);
    assert.deepEqual(different.unacknowledged, { commandId: first.commandId });
    const newId = (JSON.parse(wire[3] ?? '{}') as { id?: string }).id;
    assert.ok(newId && newId !== first.commandId, 'a new id');
    assert.ok(short.onAck({
      aep: '0.1', id: 'ack-new', type: 'control.accepted', time: new Date().toISOString(), source: w.request.source, agent: w.request.agent,
      session: w.request.session, cause: newId,
    }));
    assert.deepEqual(await different.outcome, { kind: 'accepted', commandId: newId });
  });

  test('Send Again through a sender that does not hold the command (another hub\'s, or it settled meanwhile) sends nothing and leaves the record as it was', async (t) => {
    t.after(stopAll);
    const w = window();
    w.connect();
    const sent = w.pipeline.submit('page', w.facts(), { option: 'allow' }, {}, w.sender);
    assert.equal(sent.kind, 'sending');
    const before = w.pipeline.record(w.facts());
    assert.equal(before?.state, 'awaiting-ack');
    const elsewhere = new ControlSender(new RecordingLogger(), new CommandStore(new MemoryMemento(), KEY, new RecordingLogger()), { identity, ackWindowFor: () => 60_000 });
    opened.push(elsewhere);
    const commandId = String(before?.commandId);
    assert.equal(elsewhere.holds(commandId), false);
    assert.deepEqual(await w.pipeline.resend('notification', w.facts({ hub: 'h2' }), commandId, elsewhere), { kind: 'cancelled', commandId, code: 'cannot-resend' });
    assert.deepEqual(w.pipeline.record(w.facts()), before, 'the answer is still awaiting its ack');
    assert.equal(refusal(w.pipeline.submit('quick-input', w.facts({ hub: 'h2' }), { option: 'deny' }, {}, elsewhere)).code, 'answer-in-flight');
    assert.equal(w.wire.length, 1);
  });

  test('Send Again is about the command it names: one a newer answer replaced sends nothing, whether that answer timed out or was accepted', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    t.after(stopAll);
    const w = window();
    const wire: string[] = [];
    const short = new ControlSender(new RecordingLogger(), w.store, { identity, ackWindowFor: () => 1_000 });
    opened.push(short);
    short.connected((text) => (wire.push((JSON.parse(text) as { id: string }).id), true));
    const timeOut = async (result: AnswerResult) => {
      const settled = outcome(result);
      t.mock.timers.tick(1_000);
      return settled;
    };
    const first = await timeOut(w.pipeline.submit('page', w.facts(), { option: 'allow' }, {}, short));
    const newer = await timeOut(w.pipeline.submit('quick-input', w.facts(), { option: 'deny' }, {}, short));
    assert.equal(first.kind, 'timeout');
    assert.equal(newer.kind, 'timeout');
    assert.notEqual(newer.commandId, first.commandId);

    const replaced = await w.pipeline.resend('page', w.facts(), first.commandId, short);
    assert.deepEqual(replaced, { kind: 'cancelled', commandId: first.commandId, code: 'answer-replaced' });
    assert.deepEqual(wire, [first.commandId, newer.commandId], 'the replaced command did not go again');
    assert.equal(w.pipeline.record(w.facts())?.commandId, newer.commandId, 'the newer answer is still the request\'s');

    // The newer one's own Send Again goes, same id; once it is accepted, the older one still sends nothing.
    const again = w.pipeline.resend('notification', w.facts(), newer.commandId, short);
    assert.deepEqual(wire, [first.commandId, newer.commandId, newer.commandId]);
    assert.ok(short.onAck({
      aep: '0.1', id: 'ack-newer', type: 'control.accepted', time: new Date().toISOString(), source: w.request.source, agent: w.request.agent,
      session: w.request.session, cause: newer.commandId,
    }));
    assert.equal((await again).kind, 'accepted');
    assert.equal((await w.pipeline.resend('page', w.facts(), first.commandId, short)).kind, 'cancelled');
    assert.equal(wire.length, 3, 'nothing went after the accept');
  });

  test('the same answer after a timeout, when the sender no longer holds that command: a new command, and the result says so, not Send Again', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    t.after(stopAll);
    const w = window();
    const short = new ControlSender(new RecordingLogger(), w.store, { identity, ackWindowFor: () => 1_000 });
    opened.push(short);
    short.connected(() => true);
    const settled = outcome(w.pipeline.submit('page', w.facts(), { option: 'allow' }, {}, short));
    t.mock.timers.tick(1_000);
    const first = await settled;
    assert.equal(first.kind, 'timeout');

    // A client rebuilt since: its sender holds nothing of the first command.
    const rebuilt = new ControlSender(new RecordingLogger(), new CommandStore(new MemoryMemento(), KEY, new RecordingLogger()), { identity, ackWindowFor: () => 1_000 });
    opened.push(rebuilt);
    const wire: string[] = [];
    rebuilt.connected((text) => (wire.push((JSON.parse(text) as { id: string }).id), true));
    const same = w.pipeline.submit('page', w.facts(), { option: 'allow' }, {}, rebuilt);
    assert.ok(same.kind === 'sending');
    assert.equal(wire.length, 1);
    assert.notEqual(wire[0], first.commandId, 'a new id went');
    assert.equal(same.retry, undefined, 'not Send Again: the same id did not go');
    assert.deepEqual(same.unacknowledged, { commandId: first.commandId, sameAnswer: true });
    assert.equal(w.pipeline.record(w.facts())?.commandId, wire[0]);
  });

  test('an answer after one that was refused, or as the first, is a new command with nothing to say of an earlier one', async (t) => {
    t.after(stopAll);
    const w = window();
    w.connect();
    const first = w.pipeline.submit('page', w.facts(), { option: 'allow' }, {}, w.sender);
    assert.ok(first.kind === 'sending');
    assert.equal(first.retry, undefined);
    assert.equal(first.unacknowledged, undefined);
    w.ack(w.wire[0]?.id ?? '', 'control.rejected', { reason: 'invalid', detail: 'no' });
    await first.outcome;
    const second = w.pipeline.submit('page', w.facts(), { option: 'allow' }, {}, w.sender);
    assert.ok(second.kind === 'sending');
    assert.equal(second.retry, undefined, 'refused, not unacknowledged: sending it again is a new command');
    assert.equal(second.unacknowledged, undefined);
    assert.notEqual(w.wire[1]?.id, w.wire[0]?.id);
  });

  test('a command restored after a reload that is then accepted: the record says so, a new answer is refused', () => {
    const w = window();
    const pipeline = new AnswerPipeline();
    pipeline.noteRestored(w.facts(), { kind: 'accepted', commandId: 'C-restored' });
    assert.equal(pipeline.record(w.facts())?.state, 'accepted');
    assert.equal(refusal(pipeline.submit('page', w.facts(), { option: 'deny' }, {}, w.sender)).code, 'answer-accepted');
  });

  test('a nack for an invalid answer is its own state, open to a fixed answer', async (t) => {
    t.after(stopAll);
    const w = window();
    w.connect();
    const first = outcome(w.pipeline.submit('page', w.facts(), { option: 'allow' }, {}, w.sender));
    w.ack(w.wire[0]?.id ?? '', 'control.rejected', { reason: 'invalid', detail: 'no' });
    await first;
    assert.equal(w.pipeline.record(w.facts())?.state, 'invalid');
    assert.deepEqual(w.pipeline.admit('page', w.facts()), { ok: true });
  });
});

describe('the capture is decided once: the previews ask the pipeline\'s own decision', () => {
  test('the quick input\'s preview offers exactly what the pipeline decides, and refuses what it refuses', (t) => {
    t.after(stopAll);
    const redaction = { home: '/home/alice' };
    const answers: Answer[] = [{ option: 'allow' }, { option: 'deny', text: 'not on main' }, { option: 'deny', text: `use ${GITHUB}` }, { option: 'deny', text: 'see /home/alice/notes' }];
    for (const answer of answers) {
      // A window each: the answer before is not in flight here.
      const w = window();
      const plan = inlinePlan(w.request);
      assert.ok(plan);
      const decision = decideCapture(answer, w.request, { redaction });
      const preview = sendCheck(checkedRequestOf(w.request), answer, redaction);
      const submitted = w.pipeline.submit('quick-input', w.facts(), answer, { redaction }, w.sender);
      if (decision.ok) {
        assert.notEqual(preview.kind, 'redaction', JSON.stringify(answer));
        assert.equal(submitted.kind, 'sending');
        continue;
      }
      assert.ok(preview.kind === 'redaction', JSON.stringify(answer));
      assert.deepEqual(preview.redaction, { answer: decision.redacted, changes: decision.changes }, '"Send redacted" sends what the pipeline decided');
      assert.deepEqual(refusal(submitted), { code: 'would-redact', changes: decision.changes });
      assert.ok(decideCapture(preview.redaction.answer, w.request, { redaction }).ok, 'the redacted answer passes the same decision');
    }
  });

  test('no preview, in the host or on the page, runs the redaction pipeline by itself', () => {
    const root = repoRoot();
    const files = ['src/answer/inlinePlan.ts', ...['src/app', 'src/words', 'src/ui', 'webview'].flatMap((dir) =>
      readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts')).map((name) => path.join(dir, name)))];
    assert.ok(files.length > 30, `found ${files.length} files`);
    for (const file of files) {
      assert.doesNotMatch(readFileSync(path.join(root, file), 'utf8'), /\bredactAnswer\(/, `${file} previews with decideCapture, the pipeline's function`);
    }
  });
});
