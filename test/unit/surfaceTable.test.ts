// The same cases through each answering surface's HOST code, not just the
// pipeline (answerPipeline.test.ts holds that): the request page's controller
// over a fake webview, the notification's option buttons and Answer Next
// (src/app/answering/optionAnswers.ts) with a recording notify, and the quick
// input's refusal. All over one real AnswerPipeline, a real ControlSender and
// CommandStore: `wire` is what reached the hub.
//
// The quick input (InlineAnswers) imports vscode at run time, so it cannot be
// built here: its refusal is driven as its `refused` runs it, the pipeline's
// refusal handed to the shared `offerRefusal` with Send Again through
// `resend('quick-input', …)`.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { AnswerPipeline, type AnswerFacts, type AnswerSurface } from '../../src/answer/answerPipeline';
import { recordedAnswer } from '../../src/inbox/recordedAnswer';
import type { Answer } from '../../src/aep/attention';
import type { CaptureChoice } from '../../src/aep/capture';
import type { AepEvent } from '../../src/aep/envelope';
import { CommandStore } from '../../src/client/commandStore';
import { ControlSender, type SendOutcome } from '../../src/client/controlSender';
import { Inbox, isOpenStatus, type AttentionItem } from '../../src/inbox/inbox';
import { OptionAnswers } from '../../src/app/answering/optionAnswers';
import { SimilarAnswers } from '../../src/app/answering/similarAnswers';
import { RequestPageController } from '../../src/app/page/requestPageController';
import { describeSettled, sendKindNote } from '../../src/words/answerOutcomes';
import { describeOutcome, describeRefusal } from '../../src/words/outcomeMessages';
import { offerRefusal, refusalActionTitle, type Notify, type RefusalAction } from '../../src/app/answering/refusalChoices';
import { emitter, FakeWebview } from '../support/fakeWebview';
import { goldenEvents } from '../support/fixtures';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { waitUntil } from '../support/waitUntil';

const identity = { agent: 'tester', source: 'aep://host/agent/tester' };
const GITHUB = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const reachable = { state: 'reachable' as const, accepts: ['control.attention.respond'], ackWindowMs: 60_000 };

const senders: ControlSender[] = [];
afterEach(() => senders.splice(0).forEach((sender) => sender.dispose()));

/** One notification the host showed; `reply` is the person clicking (or closing it, undefined). */
interface Shown {
  severity: string;
  message: string;
  values: unknown[];
  titles: string[];
  reply(value: unknown): void;
}

/** surfaces.ts `notify` as the host sees it: records each notification and waits for the test to choose. */
function recordingNotify() {
  const calls: Shown[] = [];
  const notify: Notify = <T,>(severity: string, message: string, choices: ReadonlyArray<{ readonly title: string; readonly value: T }> = []) =>
    new Promise<T | undefined>((resolve) => {
      calls.push({ severity, message, values: choices.map((c) => c.value), titles: choices.map((c) => c.title), reply: (value) => resolve(value as T | undefined) });
      if (choices.length === 0) resolve(undefined);
    });
  return { notify, calls };
}

/** One window over the golden permission request (`oob`: the same request, `respond_via: ['oob']`). */
function window(options: { oob?: boolean; ackOnSend?: boolean; ackWindowMs?: number; answeredElsewhere?: boolean } = {}) {
  const golden = goldenEvents().find((e) => e.id === '01JX9YB4RQ000000000000GOLD');
  assert.ok(golden);
  const event: AepEvent = options.oob ? { ...golden, data: { ...golden.data, respond_via: ['oob'] } } : golden;
  const inbox = new Inbox({ hub: 'h1' });
  inbox.apply(event);
  if (options.answeredElsewhere) {
    // The agent recorded an answer given in its own terminal (AEP-0002 §7): open until it resolves the request.
    const answered: AepEvent = {
      aep: '0.1', id: 'answered-in-terminal', type: 'attention.answered', time: new Date().toISOString(), source: golden.source,
      agent: golden.agent, session: golden.session, seq: (golden.seq ?? 0) + 1, subject: golden.id, capture: 'metadata',
      data: { answer: { option: 'deny' }, by: 'someone', via: 'cli' },
    };
    assert.equal(inbox.apply(answered).applied, true);
  }
  const [item] = inbox.open();
  if (options.answeredElsewhere) assert.equal(item?.status, 'answered');
  assert.ok(item?.request, 'the request opened');
  assert.equal(item.request.answerableHere, !options.oob);
  const request = item.request;
  let current: Readonly<AttentionItem> | undefined = item;
  let notAccepting = false;
  const log = new RecordingLogger();
  const store = new CommandStore(new MemoryMemento(), 'aepAttention.commands:test', log);
  const sender = new ControlSender(log, store, { identity, ackWindowFor: () => options.ackWindowMs ?? 60_000 });
  senders.push(sender);
  const wire: Array<{ id: string; capture: string }> = [];
  sender.connected((text) => {
    const sent = JSON.parse(text) as { id: string; capture: string };
    wire.push({ id: sent.id, capture: sent.capture });
    // The agent accepts at once, after the write returns, as a real one would.
    if (options.ackOnSend) setImmediate(() => ack(sent.id));
    return true;
  });
  const pipeline = new AnswerPipeline();
  // As Hubs.answerFacts: the latest status of the request, none once it left the inbox.
  const facts = (of: Readonly<AttentionItem>): AnswerFacts => {
    const latest = current?.key === of.key ? current : undefined;
    return {
      hub: of.hub, source: of.source, requestId: of.requestId, session: of.session,
      request: latest?.request ?? of.request, status: latest?.status, notAccepting, kept: store.list(),
    };
  };
  const admitted: AnswerSurface[] = [];
  const hubs = {
    visibleItems: () => (current && isOpenStatus(current.status) ? [current] : []),
    item: (key: string) => (current?.key === key ? current : undefined),
    admit: (surface: AnswerSurface, of: Readonly<AttentionItem>) => {
      admitted.push(surface);
      return pipeline.admit(surface, facts(of));
    },
    answer: (surface: AnswerSurface, of: Readonly<AttentionItem>, answer: Answer, choice: CaptureChoice = {}) => pipeline.submit(surface, facts(of), answer, choice, sender),
    resend: (surface: AnswerSurface, of: Readonly<AttentionItem>, commandId: string) => pipeline.resend(surface, facts(of), commandId, sender),
    answerRecord: (of: Readonly<AttentionItem>) => pipeline.record(facts(of)),
    recorded: (of: Readonly<AttentionItem>) => recordedAnswer(of, pipeline.sentAnswers(facts(of))),
    beforeAsking: () => undefined,
    reachability: () => reachable,
    isConnected: () => true,
    size: 1,
    of: () => ({ label: 'laptop' }),
    onDidChangeInbox: emitter<{ hub: { id: string }; change: { item: { key: string } } | undefined }>().event,
    onDidChangeRoster: emitter<{ id: string }>().event,
    onDidChangeState: emitter<{ id: string }>().event,
    onDidSettleLater: emitter<{ hub: { id: string }; outcome: SendOutcome; requestId: string; source: string }>().event,
    onDidSendAnswer: emitter<{ hub: { id: string }; item: { key: string }; command: { id: string }; surface: AnswerSurface }>().event,
    onDidSettleAnswer: emitter<{ hub: { id: string }; outcome: SendOutcome }>().event,
  };
  const ack = (commandId: string) => {
    const accepted: AepEvent = {
      aep: '0.1', id: `ack-${commandId}`, type: 'control.accepted', time: new Date().toISOString(), source: request.source,
      agent: request.agent, session: request.session, cause: commandId, data: {},
    };
    assert.ok(sender.onAck(accepted));
  };
  return {
    item, hubs, wire, admitted, ack,
    close: () => { current = { ...item, status: 'resolved', resolution: 'approved' }; },
    stopTakingAnswers: () => { notAccepting = true; },
  };
}

type Window = ReturnType<typeof window>;

/** What the person was offered: one sentence and the actions, on every surface alike. */
interface Offer {
  message: string;
  actions: RefusalAction[];
}

/** One attempt from a surface: what it offered (or that it brought the request up to answer), and Send Again if offered. */
interface Attempt {
  offer: Offer | { broughtUp: string } | { said: string };
  severity?: string;
  /** Chooses Send Again; resolves once it is on the wire. */
  sendAgain(): Promise<void>;
  /** Resolves when the surface is done; what it said last. */
  done(): Promise<string | undefined>;
}

const notifyOffer = (shown: Shown): Offer => ({ message: shown.message, actions: shown.values as RefusalAction[] });

/** Each surface's host code, entered as a person would, for the answer `answer`. */
const SURFACES: Record<AnswerSurface, (w: Window, answer: Answer) => Promise<Attempt>> = {
  async page(w, answer) {
    const webview = new FakeWebview();
    const log = new RecordingLogger();
    new RequestPageController(w.item, webview, {
      hubs: w.hubs,
      answer: (item, given, choice) => w.hubs.answer('page', item, given, choice),
      resend: (item, commandId) => w.hubs.resend('page', item, commandId),
      log, redaction: () => ({}), takeDraft: () => undefined, strings: undefined, closeWhenResolved: () => false, showLog: () => {}, setToken: () => {}, openSettings: () => {},
    });
    webview.fromPage({ type: 'ready' });
    webview.fromShown({ type: 'submit', submitId: 'second', answer });
    const refused = webview.posted.find((m) => m.type === 'outcome' && m.submitId === 'second');
    assert.ok(refused?.type === 'outcome', `the page was told: ${webview.types().join(', ')}`);
    const before = w.wire.length;
    let sentAgain = false;
    return {
      // The page is what "Open" opens; Send Again is its retry button (canRetry).
      offer: { message: refused.message, actions: refused.canRetry ? ['send-again', 'open'] : ['open'] },
      async sendAgain() {
        sentAgain = true;
        webview.fromShown({ type: 'retry', submitId: 'second' });
        await waitUntil(() => w.wire.length > before, 'Send Again from the page on the wire');
      },
      async done() {
        if (!sentAgain) return undefined;
        const last = () => {
          const message = webview.posted.at(-1);
          return message?.type === 'outcome' ? message : undefined;
        };
        await waitUntil(() => last()?.phase === 'accepted', 'the accepted outcome on the page');
        return last()?.message;
      },
    };
  },

  async 'quick-input'(w, answer) {
    const { notify, calls } = recordingNotify();
    const result = w.hubs.answer('quick-input', w.item, answer);
    if (result.kind === 'sending') return { offer: { said: 'sending' }, sendAgain: () => Promise.reject(new Error('nothing refused')), done: () => Promise.resolve(undefined) };
    const latest = () => w.hubs.item(w.item.key) ?? w.item;
    const running = offerRefusal({ notify, open: () => {}, sendAgain: (commandId) => w.hubs.resend('quick-input', latest(), commandId) }, result.refusal, w.item.agent);
    return notifyAttempt(w, calls, running);
  },

  async notification(w, answer) {
    const { notify, calls } = recordingNotify();
    const options = new OptionAnswers({ hubs: w.hubs, notify, open: () => {}, answerInline: () => Promise.resolve(), setToken: () => Promise.resolve() });
    assert.ok('option' in answer && answer.option, 'a notification button answers with an option');
    return notifyAttempt(w, calls, options.answerWithOption(w.item, answer.option));
  },

  async similar(w, answer) {
    const { notify, calls } = recordingNotify();
    const similar = new SimilarAnswers({ hubs: w.hubs, notify, open: () => {} });
    assert.ok('option' in answer && answer.option, 'Answer Similar answers with an option');
    return notifyAttempt(w, calls, similar.answerAll([w.item], answer));
  },

  async 'answer-next'(w) {
    const { notify, calls } = recordingNotify();
    const broughtUp: string[] = [];
    const options = new OptionAnswers({
      hubs: w.hubs, notify, open: () => {}, setToken: () => Promise.resolve(),
      answerInline: (item) => { broughtUp.push(item.key); return Promise.resolve(); },
    });
    const before = w.admitted.length;
    const running = options.answerNext();
    await waitUntil(() => calls.length > 0 || broughtUp.length > 0, 'Answer Next to say or bring up something');
    assert.equal(w.admitted.length - before, w.hubs.visibleItems().length, 'the pipeline is asked once per request');
    if (broughtUp.length > 0) return { offer: { broughtUp: broughtUp[0] ?? '' }, sendAgain: () => Promise.reject(new Error('nothing refused')), done: () => running.then(() => undefined) };
    return notifyAttempt(w, calls, running);
  },
};

async function notifyAttempt(w: Window, calls: Shown[], running: Promise<void>): Promise<Attempt> {
  await waitUntil(() => calls.length > 0, 'a notification');
  const first = calls[0];
  assert.ok(first);
  const before = w.wire.length;
  const isOffer = first.values.length > 0;
  return {
    offer: isOffer ? notifyOffer(first) : { said: first.message },
    severity: first.severity,
    async sendAgain() {
      first.reply('send-again');
      await waitUntil(() => w.wire.length > before, 'Send Again on the wire');
    },
    async done() {
      if (isOffer && calls.length === 1) first.reply(undefined);
      await running;
      return calls.length > 1 ? calls.at(-1)?.message : undefined;
    },
  };
}

/** The answer each surface gives: the notification and Answer Next can only choose an option. */
const ALLOW: Answer = { option: 'allow' };
const DENY: Answer = { option: 'deny' };

async function eachSurface<T>(run: (surface: AnswerSurface) => Promise<T>): Promise<Map<AnswerSurface, T>> {
  const results = new Map<AnswerSurface, T>();
  for (const surface of Object.keys(SURFACES) as AnswerSurface[]) {
    try {
      results.set(surface, await run(surface));
    } finally {
      senders.splice(0).forEach((sender) => sender.dispose());
    }
  }
  return results;
}

describe('every answering surface\'s host offers the same for the same case', () => {
  test('an answer awaiting its ack: the same words and actions everywhere, and Send Again is the same command id on the wire', async () => {
    const agent = window().item.agent;
    const message = describeRefusal({ code: 'answer-in-flight', commandId: 'any', sent: true }, agent);
    const results = await eachSurface(async (surface) => {
      const w = window();
      // The first answer, from wherever: the record is the window's, not a surface's.
      const first = w.hubs.answer('page', w.item, ALLOW);
      assert.equal(first.kind, 'sending');
      assert.equal(w.wire.length, 1);
      const id = w.wire[0]?.id ?? '';
      const attempt = await SURFACES[surface](w, DENY);
      assert.equal(w.wire.length, 1, `${surface}: no second command while the first awaits its ack`);
      assert.deepEqual(attempt.offer, { message, actions: ['send-again', 'open'] }, `${surface} offers wait (the words), Send Again and Open`);
      await attempt.sendAgain();
      w.ack(id);
      const last = await attempt.done();
      return { offer: attempt.offer, severity: attempt.severity, ids: w.wire.map((sent) => sent.id === id), wire: w.wire.length, last };
    });
    const accepted = describeOutcome({ kind: 'accepted', commandId: 'any' }, agent).message;
    for (const [surface, result] of results) {
      assert.deepEqual(result.offer, { message, actions: ['send-again', 'open'] }, surface);
      assert.deepEqual([result.wire, result.ids], [2, [true, true]], `${surface}: Send Again wrote the same command id again, and nothing else`);
      assert.equal(result.last, accepted, `${surface} says what became of it`);
      if (surface !== 'page') assert.equal(result.severity, 'info', `${surface}: waiting is not a warning`);
    }
    assert.deepEqual(['send-again', 'open'].map((action) => refusalActionTitle(action as RefusalAction)), ['Send Again', 'Open']);
  });

  test('a different answer after one that got no acknowledgement: every surface that sends it says the earlier one may already have applied', async () => {
    const agent = window().item.agent;
    const note = sendKindNote({ unacknowledged: {} }, agent, false);
    assert.ok(note);
    const results = await eachSurface(async (surface) => {
      // The quick input's host imports vscode: its settled words are the same `describeSettled`, not buildable here.
      if (surface === 'answer-next' || surface === 'quick-input') return undefined;
      const w = window({ ackWindowMs: 20 });
      const first = w.hubs.answer('page', w.item, ALLOW);
      assert.ok(first.kind === 'sending');
      assert.equal((await first.outcome).kind, 'timeout', 'the first answer got no acknowledgement');
      const attempt = SURFACES[surface](w, DENY);
      await waitUntil(() => w.wire.length === 2, `${surface}: the different answer on the wire`);
      assert.notEqual(w.wire[1]?.id, w.wire[0]?.id, 'a new command, under a new id');
      w.ack(w.wire[1]?.id ?? '');
      const { offer } = await attempt;
      return offer;
    });
    const accepted = describeSettled({ kind: 'accepted', commandId: 'any' }, { unacknowledged: {} }, agent).message;
    assert.ok(accepted.endsWith(note));
    assert.deepEqual(results.get('notification'), { said: accepted }, 'the notification button\'s outcome says it');
    assert.deepEqual(results.get('similar'), { said: accepted }, 'Answer Similar\'s outcome says it');
    const page = results.get('page');
    assert.ok(page && 'message' in page && page.message.endsWith(note), `the page says it: ${JSON.stringify(page)}`);
  });

  test('the request closed meanwhile: the same refusal where an answer was given; Answer Next has nothing to bring up', async () => {
    const results = await eachSurface(async (surface) => {
      const w = window();
      w.close();
      const attempt = await SURFACES[surface](w, ALLOW);
      await attempt.done();
      return { offer: attempt.offer, wire: w.wire.length };
    });
    const refused = { offer: { message: describeRefusal({ code: 'request-closed', closed: 'resolved' }, 'claude-code'), actions: ['open'] }, wire: 0 };
    for (const surface of ['page', 'quick-input', 'notification', 'similar'] as const) assert.deepEqual(results.get(surface), refused, surface);
    assert.deepEqual(results.get('answer-next'), { offer: { said: 'No request is waiting for an answer.' }, wire: 0 });
  });

  test('an agent that takes no answers from editors: the same refusal; Answer Next skips the request', async () => {
    const results = await eachSurface(async (surface) => {
      const w = window();
      w.stopTakingAnswers();
      const attempt = await SURFACES[surface](w, ALLOW);
      await attempt.done();
      return { offer: attempt.offer, wire: w.wire.length };
    });
    const refused = { offer: { message: describeRefusal({ code: 'not-accepting' }, 'claude-code'), actions: ['open'] }, wire: 0 };
    for (const surface of ['page', 'quick-input', 'notification', 'similar'] as const) assert.deepEqual(results.get(surface), refused, surface);
    assert.deepEqual(results.get('answer-next'), { offer: { said: 'No request is waiting for an answer.' }, wire: 0 });
  });

  test('a request its agent recorded as answered elsewhere: the same refusal the page states; Answer Next skips it', async () => {
    const results = await eachSurface(async (surface) => {
      const w = window({ answeredElsewhere: true });
      const attempt = await SURFACES[surface](w, ALLOW);
      await attempt.done();
      return { offer: attempt.offer, wire: w.wire.length };
    });
    const refused = { offer: { message: describeRefusal({ code: 'already-answered' }, 'claude-code'), actions: ['open'] }, wire: 0 };
    for (const surface of ['page', 'quick-input', 'notification', 'similar'] as const) assert.deepEqual(results.get(surface), refused, surface);
    assert.deepEqual(results.get('answer-next'), { offer: { said: 'No request is waiting for an answer.' }, wire: 0 });
  });

  test('`respond_via: [\'oob\']` only: the same refusal; Answer Next skips the request', async () => {
    const results = await eachSurface(async (surface) => {
      const w = window({ oob: true });
      const attempt = await SURFACES[surface](w, ALLOW);
      await attempt.done();
      return { offer: attempt.offer, wire: w.wire.length };
    });
    const refused = { offer: { message: describeRefusal({ code: 'answered-elsewhere' }, 'claude-code'), actions: ['open'] }, wire: 0 };
    for (const surface of ['page', 'quick-input', 'notification', 'similar'] as const) assert.deepEqual(results.get(surface), refused, surface);
    assert.deepEqual(results.get('answer-next'), { offer: { said: 'No request is waiting for an answer.' }, wire: 0 });
  });

  test('text the pipeline would redact: the page and the quick input refuse alike; option buttons carry no text to redact', async () => {
    const typed: Answer = { option: 'deny', text: `use ${GITHUB}` };
    const results = await eachSurface(async (surface) => {
      const w = window({ ackOnSend: true });
      const attempt = await SURFACES[surface](w, surface === 'notification' || surface === 'similar' ? DENY : typed);
      const last = await attempt.done();
      return { offer: attempt.offer, wire: w.wire.map((sent) => sent.capture), last };
    });
    const first = window();
    const changes = first.hubs.answer('page', first.item, typed);
    assert.ok(changes.kind === 'refused' && changes.refusal.code === 'would-redact', 'the pipeline refuses the typed secret');
    const refused = { offer: { message: describeRefusal(changes.refusal, 'claude-code'), actions: ['open'] }, wire: [] };
    for (const surface of ['page', 'quick-input'] as const) assert.deepEqual({ ...results.get(surface), last: undefined }, { ...refused, last: undefined }, surface);
    // A button is an option id only: it goes at capture `metadata`, nothing for the pipeline to replace.
    for (const surface of ['notification', 'similar'] as const) {
      assert.deepEqual(results.get(surface), { offer: { said: describeOutcome({ kind: 'accepted', commandId: 'any' }, 'claude-code').message }, wire: ['metadata'], last: undefined }, surface);
    }
    // Answer Next answers nothing itself: it brings the request up in the quick input, where the text is typed and checked.
    assert.deepEqual(results.get('answer-next'), { offer: { broughtUp: first.item.key }, wire: [], last: undefined });
  });
});
