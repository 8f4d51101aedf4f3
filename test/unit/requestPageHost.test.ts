// The host side of the request and history pages, in plain Node: a fake
// webview stands in for VS Code's panel, and the answer path is the real
// answer pipeline over a real sender and command store.
import assert from 'node:assert/strict';
import { afterEach, describe, test, type TestContext } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { AnswerPipeline, type AnswerFacts, type AnswerSurface } from '../../src/answer/answerPipeline';
import { recordedAnswer, type SentAnswer } from '../../src/inbox/recordedAnswer';
import type { Answer } from '../../src/aep/attention';
import { CommandStore } from '../../src/client/commandStore';
import { ControlSender, type SendOutcome } from '../../src/client/controlSender';
import { buildRespondCommand } from '../../src/aep/control';
import type { AepEvent } from '../../src/aep/envelope';
import { AnswerHistory } from '../../src/history/answerHistory';
import { Inbox, type AttentionItem } from '../../src/inbox/inbox';
import { HistoryPageController } from '../../src/app/page/historyPageController';
import { describeRefusal } from '../../src/words/outcomeMessages';
import { CLOSE_AFTER_RESOLVED_MS, RequestPageController, type PageAnswer, type RequestPageDeps, type RequestPageHubs } from '../../src/app/page/requestPageController';
import type { HostToWebview, PageRender } from '../../src/shared/webviewMessages';
import { goldenEvents } from '../support/fixtures';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { emitter, FakeWebview } from '../support/fakeWebview';

const identity = { agent: 'tester', source: 'aep://host/agent/tester' };

function permissionItem(): Readonly<AttentionItem> {
  const event = goldenEvents().find((e) => e.id === '01JX9YB4RQ000000000000GOLD');
  assert.ok(event);
  const inbox = new Inbox({ hub: 'h1' });
  inbox.apply(event);
  const [item] = inbox.open();
  assert.ok(item?.request, 'the golden permission request opened');
  return item;
}

const senders: ControlSender[] = [];
afterEach(() => senders.splice(0).forEach((sender) => sender.dispose()));

/**
 * One window's answer path as hubs.ts builds it: the real pipeline, a real
 * sender and command store; `wire` holds what reached the hub.
 */
function answerPath(item: Readonly<AttentionItem>) {
  const request = item.request;
  assert.ok(request);
  const log = new RecordingLogger();
  const store = new CommandStore(new MemoryMemento(), 'aepAttention.commands:test', log);
  const sender = new ControlSender(log, store, { identity, ackWindowFor: () => 60_000 });
  senders.push(sender);
  const wire: string[] = [];
  sender.connected((text) => {
    wire.push((JSON.parse(text) as { id: string }).id);
    return true;
  });
  const pipeline = new AnswerPipeline();
  const facts = (current: Readonly<AttentionItem>): AnswerFacts => ({
    hub: current.hub, source: current.source, requestId: current.requestId, session: current.session,
    request: current.request, status: current.status, notAccepting: false, kept: store.list(),
  });
  const answer: PageAnswer = (current, given, choice) =>
    pipeline.submit('page', facts(current), given, choice, sender);
  /**
   * The same answer path under another surface's name (the toast or the quick input); `heard` is a page's
   * hubs, told of the send and its outcome as Hubs.answer tells every listener.
   */
  const answerElsewhere = (current: Readonly<AttentionItem>, given: Answer, heard?: Pick<ReturnType<typeof page>, 'sentAnswer' | 'settledAnswer'>) => {
    const hub = { id: current.hub };
    const result = pipeline.submit('quick-input', facts(current), given, {}, sender, {
      built: (command) => heard?.sentAnswer({ hub, item: current, command, surface: 'quick-input' }),
    });
    return result.kind === 'sending' ? { ...result, outcome: result.outcome.then((outcome) => (heard?.settledAnswer({ hub, outcome }), outcome)) } : result;
  };
  const resend = (current: Readonly<AttentionItem>, commandId: string) => pipeline.resend('page', facts(current), commandId, sender);
  const record = (current: Readonly<AttentionItem>) => pipeline.record(facts(current));
  const ack = (commandId: string) => {
    const event: AepEvent = {
      aep: '0.1', id: `ack-${commandId}`, type: 'control.accepted', time: new Date().toISOString(), source: request.source,
      agent: request.agent, session: request.session, cause: commandId, data: {},
    };
    assert.ok(sender.onAck(event));
  };
  return { answer, answerElsewhere, resend, record, ack, wire, store };
}

function page(item: Readonly<AttentionItem>, over: Partial<RequestPageDeps> = {}, on: { webview?: FakeWebview; alreadyLoaded?: boolean; hubs?: Partial<RequestPageHubs>; sent?: SentAnswer[] } = {}) {
  const sent = on.sent ?? [];
  const webview = on.webview ?? new FakeWebview();
  const log = new RecordingLogger();
  const inbox = emitter<{ hub: { id: string }; change: { item: { key: string } } | undefined }>();
  const roster = emitter<{ id: string }>();
  const state = emitter<{ id: string }>();
  const restored = emitter<{ hub: { id: string }; outcome: SendOutcome; requestId: string; source: string }>();
  const sentAnswers = emitter<{ hub: { id: string }; item: { key: string }; command: { id: string }; surface: AnswerSurface }>();
  const settledAnswers = emitter<{ hub: { id: string }; outcome: SendOutcome }>();
  let current = item;
  const hubs: RequestPageHubs = {
    item: (key) => (key === current.key ? current : undefined),
    reachability: () => ({ state: 'reachable', accepts: ['control.attention.respond'], ackWindowMs: 60_000 }),
    isConnected: () => true,
    answerRecord: () => undefined,
    recorded: (of) => recordedAnswer(of, sent),
    beforeAsking: () => undefined,
    size: 1,
    of: () => ({ label: 'laptop' }),
    onDidChangeInbox: inbox.event, onDidChangeRoster: roster.event, onDidChangeState: state.event, onDidSettleLater: restored.event,
    onDidSendAnswer: sentAnswers.event, onDidSettleAnswer: settledAnswers.event,
    ...on.hubs,
  };
  const answered: Answer[] = [];
  const deps: RequestPageDeps = {
    hubs,
    answer: (_item, answer) => {
      answered.push(answer);
      return { kind: 'sending', outcome: Promise.resolve({ kind: 'accepted', commandId: 'C1' }) };
    },
    resend: () => Promise.resolve({ kind: 'accepted', commandId: 'C1' }),
    log,
    redaction: () => ({}),
    takeDraft: () => undefined,
    strings: undefined,
    closeWhenResolved: () => false,
    showLog: () => {},
    setToken: () => {},
    openSettings: () => {},
    ...over,
  };
  const controller = new RequestPageController(item, webview, deps, on.alreadyLoaded);
  /** The item changed in the inbox (as AttentionStore reports it). */
  const change = (next: Readonly<AttentionItem>) => {
    current = next;
    inbox.fire({ hub: { id: next.hub }, change: { item: { key: next.key } } });
  };
  /** Listeners of the hubs' events now: this page's, as no one else listens here. */
  const hubListeners = () => [inbox, roster, state, restored, sentAnswers, settledAnswers].reduce((sum, source) => sum + source.listening(), 0);
  return { webview, log, controller, answered, change, hubListeners, settledLater: restored.fire, sentAnswer: sentAnswers.fire, settledAnswer: settledAnswers.fire };
}

/** Resolves once the page has been posted `count` messages (an outcome follows its answer's promise). */
async function posted(webview: FakeWebview, count: number): Promise<HostToWebview[]> {
  for (let turn = 0; turn < 50 && webview.posted.length < count; turn++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(webview.posted.length, count, `posted: ${webview.types().join(', ')}`);
  return webview.posted;
}

const submit = (answer: Answer, submitId = 'submit-1') => ({ type: 'submit', submitId, answer });

/** A page over the real answer path whose answer (Allow, `submit-1`) got no acknowledgement: it offers Send again. */
async function pageAfterTimeout(t: TestContext) {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const item = permissionItem();
  const path = answerPath(item);
  const opened = page(item, { answer: path.answer, resend: path.resend }, { hubs: { answerRecord: path.record } });
  opened.webview.fromPage({ type: 'ready' });
  opened.webview.fromShown(submit({ option: 'allow' }, 'submit-1'));
  t.mock.timers.tick(60_000);
  const [, , timedOut] = await posted(opened.webview, 3);
  return { item, path, opened, webview: opened.webview, timedOut };
}

describe('request page host', () => {
  test('a preview page taken over for another request: the old one lets go without closing it, the new one renders at once, a pin reaches the owner', () => {
    const item = permissionItem();
    const first = page(item);
    first.webview.fromPage({ type: 'ready' });
    assert.deepEqual(first.webview.types(), ['init']);
    assert.equal(first.controller.host.detach(), true, 'it was ready');
    assert.equal(first.webview.disposed, false, 'the webview stays for the next request');
    first.change({ ...item, status: 'resolved', resolution: 'approved' });
    assert.deepEqual(first.webview.types(), ['init'], 'the old request no longer posts to it');

    const other: Readonly<AttentionItem> = { ...item, key: `${item.key}-other`, requestId: `${item.requestId}-other` };
    let pins = 0;
    const second = page(other, { pin: () => pins++ }, { webview: first.webview, alreadyLoaded: true });
    assert.deepEqual(second.webview.types(), ['init', 'init'], 'rendered with no ready to wait for');
    const init = second.webview.posted[1];
    assert.ok(init?.type === 'init');
    assert.equal(init.request.key, other.key);
    second.webview.fromShown({ type: 'pin' });
    assert.equal(pins, 1);
    second.change({ ...other, status: 'resolved', resolution: 'approved' });
    assert.deepEqual(second.webview.types(), ['init', 'init', 'update']);
    second.controller.dispose();
    assert.equal(second.webview.disposed, true, 'disposing the new owner closes it');
  });

  describe('a message composed on what the page showed before is dropped, never taken as about what it shows now', () => {
    /** A preview page showing `first`, then reused for `second` (as requestPages.ts `reuse` does); `stale` is the render `first` was shown in. */
    function reused(over: Partial<RequestPageDeps> = {}, hubs?: Partial<RequestPageHubs>) {
      const item = permissionItem();
      const first = page(item);
      first.webview.fromPage({ type: 'ready' });
      const stale = first.webview.shown();
      assert.equal(stale.key, item.key);
      first.controller.host.detach();
      const other: Readonly<AttentionItem> = { ...item, key: `${item.key}-other`, requestId: `${item.requestId}-other` };
      const second = page(other, over, { webview: first.webview, alreadyLoaded: true, ...(hubs ? { hubs } : {}) });
      assert.equal(second.webview.shown().key, other.key, 'the page was told to show the other request');
      assert.notEqual(second.webview.shown().generation, stale.generation);
      return { item, other, stale, first, second, webview: second.webview };
    }
    /** The log lines saying a message of `type` for the render `stale` was dropped, while the page shows `now`. */
    const dropped = (log: RecordingLogger, type: string, stale: PageRender, now: PageRender) =>
      log.dataOf('warn', 'page-message-stale').filter((data) => isDeepStrictEqual(data, { page: 'request page', type, render: stale.generation, shown: now.generation }));

    test('a Send of Allow clicked on A, arriving after the page was reused for B: B is not answered, nothing reaches the hub, the log says it was dropped', async () => {
      const item = permissionItem();
      const path = answerPath(item);
      let answered = 0;
      const { stale, second, webview } = reused({ answer: (...args) => (answered++, path.answer(...args)) });
      const before = webview.posted.length;
      webview.fromPage({ ...submit({ option: 'allow' }), ...stale });
      // An outcome would follow its answer's promise: let any settle.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(answered, 0, 'B\'s answer path was never asked');
      assert.deepEqual(path.wire, [], 'nothing reached the hub');
      assert.deepEqual(path.store.list(), [], 'nothing was kept to send later');
      assert.equal(webview.posted.length, before, `nothing was posted back: ${webview.types().join(', ')}`);
      assert.equal(dropped(second.log, 'submit', stale, webview.shown()).length, 1, second.log.lines.join('\n'));
      // B's own Send, on what the page shows now, goes as before.
      webview.fromShown(submit({ option: 'deny' }, 'submit-2'));
      assert.equal(answered, 1);
      assert.equal(path.wire.length, 1, 'B\'s own answer reached the hub');
    });

    test('a pin from A does not make B\'s page the person\'s; B\'s own does', () => {
      let pins = 0;
      const { stale, second, webview } = reused({ pin: () => pins++ });
      webview.fromPage({ type: 'pin', ...stale });
      assert.equal(pins, 0);
      assert.equal(dropped(second.log, 'pin', stale, webview.shown()).length, 1, second.log.lines.join('\n'));
      webview.fromShown({ type: 'pin' });
      assert.equal(pins, 1);
    });

    test('a Send Again from A does not resend B\'s answer; B\'s own does', async () => {
      const resent: string[] = [];
      const { stale, second, webview } = reused(
        { resend: (_item, commandId) => (resent.push(commandId), Promise.resolve({ kind: 'accepted', commandId })) },
        // B has an answer that timed out, whose Send Again B's page offers under its command id.
        { answerRecord: () => ({ state: 'ack-timed-out', commandId: 'B-command', surface: 'page', outcome: { kind: 'timeout', commandId: 'B-command', afterMs: 60_000 } }) },
      );
      const before = webview.posted.length;
      webview.fromPage({ type: 'retry', submitId: 'B-command', ...stale });
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(resent, []);
      assert.equal(webview.posted.length, before, `nothing was posted back: ${webview.types().join(', ')}`);
      assert.equal(dropped(second.log, 'retry', stale, webview.shown()).length, 1, second.log.lines.join('\n'));
      webview.fromShown({ type: 'retry', submitId: 'B-command' });
      assert.deepEqual(resent, ['B-command']);
    });

    test('Set Hub Token from A asks for no token for B\'s hub', () => {
      const tokens: string[] = [];
      const { stale, second, webview } = reused({ setToken: (hub) => tokens.push(hub) });
      webview.fromPage({ type: 'setToken', ...stale });
      assert.deepEqual(tokens, []);
      assert.equal(dropped(second.log, 'setToken', stale, webview.shown()).length, 1, second.log.lines.join('\n'));
      webview.fromShown({ type: 'setToken' });
      assert.deepEqual(tokens, ['h1']);
    });

    test('Open Settings on a page whose request its own capture ceiling withheld opens them; from another render it does not', () => {
      const delivered = { ...permissionItem().requestEvent, capture: 'none' as const };
      delete delivered.data;
      const inbox = new Inbox({ hub: 'h1', captureCeiling: 'none' });
      inbox.apply(delivered);
      const [item] = inbox.open();
      assert.ok(item);
      let opened = 0;
      const { webview } = page(item, { openSettings: () => opened++ });
      webview.fromPage({ type: 'ready' });
      const init = webview.posted[0];
      assert.ok(init?.type === 'init');
      assert.equal(init.request.withheld, 'own-ceiling');
      webview.fromPage({ type: 'openSettings', key: init.request.key, generation: init.generation + 1 });
      assert.equal(opened, 0);
      webview.fromShown({ type: 'openSettings' });
      assert.equal(opened, 1);
    });

    test('a page that shows A again after B: a Send from A\'s first showing is still dropped (its render is gone)', () => {
      const { item, stale, second, webview } = reused();
      second.controller.host.detach();
      const again = page(item, {}, { webview, alreadyLoaded: true });
      assert.equal(webview.shown().key, stale.key, 'the page shows A again');
      webview.fromPage({ ...submit({ option: 'allow' }), ...stale });
      assert.deepEqual(again.answered, []);
      assert.equal(dropped(again.log, 'submit', stale, webview.shown()).length, 1, again.log.lines.join('\n'));
    });

    test('a message naming the render shown now but another request is dropped too', () => {
      let pins = 0;
      const { stale, second, webview } = reused({ pin: () => pins++ });
      webview.fromPage({ type: 'pin', key: stale.key, generation: webview.shown().generation });
      assert.equal(pins, 0);
      assert.deepEqual(second.log.dataOf('warn', 'page-message-stale').map((data) => data['type']), ['pin'], second.log.lines.join('\n'));
    });

    test('a message about a request reaching a page not rendered yet is dropped', () => {
      const item = permissionItem();
      const { webview, log, answered } = page(item);
      webview.fromPage({ ...submit({ option: 'allow' }), key: item.key, generation: 1 });
      assert.deepEqual(answered, []);
      assert.deepEqual(log.dataOf('warn', 'page-message-stale'), [{ page: 'request page', type: 'submit', render: 1, shown: 'none' }], log.lines.join('\n'));
    });
  });

  test('a page taken over while hidden waits for its ready as a new one would', () => {
    const item = permissionItem();
    const webview = new FakeWebview();
    webview.visible = false;
    const { controller } = page(item, {}, { webview, alreadyLoaded: true });
    assert.equal(webview.posted.length, 0);
    assert.equal(controller.host.isReady, false);
    webview.setVisible(true);
    webview.fromPage({ type: 'ready' });
    assert.deepEqual(webview.types(), ['init']);
  });

  test('nothing is posted before the page is ready; what was posted meanwhile follows its init', () => {
    const item = permissionItem();
    const { webview, change } = page(item);
    change({ ...item, status: 'resolved', resolution: 'approved' });
    assert.equal(webview.posted.length, 0, 'a page still loading is posted nothing');
    webview.fromPage({ type: 'ready' });
    assert.deepEqual(webview.types(), ['init', 'update']);
    const update = webview.posted[1];
    assert.ok(update?.type === 'update');
    assert.equal(update.status, 'resolved');
  });

  test('values the pipeline masks with that change while the page is open (added, cleared, a hub token read) are posted to it, and the page is told when they are cleared', () => {
    const item = permissionItem();
    const values = emitter<void>();
    let secretValues: string[] = [];
    const { webview, controller } = page(item, { redaction: () => ({ secretValues }), onDidChangeRedaction: values.event });
    webview.fromPage({ type: 'ready' });
    assert.deepEqual(webview.types(), ['init']);
    secretValues = ['hub-token-Kx9mPq2vLr7t'];
    values.fire();
    const told = webview.posted.at(-1);
    assert.ok(told?.type === 'update', webview.types().join(', '));
    assert.deepEqual(told.secretValues, ['hub-token-Kx9mPq2vLr7t']);
    secretValues = [];
    values.fire();
    const cleared = webview.posted.at(-1);
    assert.ok(cleared?.type === 'update' && cleared !== told);
    assert.deepEqual(cleared.secretValues, [], 'cleared values are cleared on the page too');
    controller.dispose();
    assert.equal(values.listening(), 0, 'the page stops listening when it goes');
  });

  test('a hidden page is posted nothing; shown and ready again, it gets a fresh init, then only the latest update', () => {
    const item = permissionItem();
    const { webview, change } = page(item);
    webview.fromPage({ type: 'ready' });
    assert.deepEqual(webview.types(), ['init']);
    webview.setVisible(false);
    change({ ...item, status: 'answered' });
    change({ ...item, status: 'resolved', resolution: 'approved' });
    webview.setVisible(true);
    assert.deepEqual(webview.types(), ['init'], 'shown, the page loads anew: nothing until it says ready');
    webview.fromPage({ type: 'ready' });
    assert.deepEqual(webview.types(), ['init', 'init', 'update']);
    const [, init, update] = webview.posted;
    assert.ok(init?.type === 'init' && update?.type === 'update');
    assert.equal(init.request.status, 'resolved');
    assert.equal(update.status, 'resolved', 'the update superseded while hidden is not replayed');
  });

  test('the page is told what the agent recorded against what was sent: Deny out of band for our Allow differs; cancelled with no answer is none', () => {
    const item = permissionItem();
    const { webview, change } = page(item, {}, { sent: [{ commandId: 'C1', answer: { option: 'allow' } }] });
    webview.fromPage({ type: 'ready' });
    const init = webview.posted[0];
    assert.ok(init?.type === 'init');
    assert.deepEqual(init.request.recorded, { verdict: 'none' });
    // As the inbox records `attention.answered{answer:{option:"deny"}, via:"oob"}` cause-linked to C1.
    change({ ...item, status: 'answered', answer: { option: 'deny' }, answeredVia: 'oob', answeredCauses: ['C1'] });
    const update = webview.posted[1];
    assert.ok(update?.type === 'update');
    assert.deepEqual(update.recorded, { verdict: 'differs', answer: { option: 'deny' }, via: 'oob' });

    const other = page(item, {}, { sent: [{ commandId: 'C1', answer: { option: 'allow' } }] });
    other.webview.fromPage({ type: 'ready' });
    other.change({ ...item, status: 'resolved', resolution: 'cancelled' });
    const ended = other.webview.posted[1];
    assert.ok(ended?.type === 'update');
    assert.deepEqual([ended.status, ended.resolution, ended.recorded], ['resolved', 'cancelled', { verdict: 'none' }]);
  });

  test('an answer that timed out and was then refused by the hub: the page says not delivered, with the reason, and offers no Send again', () => {
    const item = permissionItem();
    const { webview, settledLater } = page(item);
    webview.fromPage({ type: 'ready' });
    settledLater({ hub: { id: item.hub }, requestId: item.requestId, source: item.source, outcome: { kind: 'refused-by-hub', commandId: 'C1', code: 'no-route', detail: 'no claimant' } });
    const told = webview.posted.at(-1);
    assert.ok(told?.type === 'outcome', webview.types().join(', '));
    assert.equal(told.phase, 'refused');
    assert.match(told.message, /did not deliver the answer \(no-route\): no claimant/);
    assert.equal(told.canRetry, undefined);
  });

  test('an invalid message from the page is logged and ignored', () => {
    const item = permissionItem();
    const { webview, log, answered } = page(item);
    webview.fromPage({ type: 'ready' });
    for (const bad of [{ type: 'submit', submitId: '', answer: { option: 'allow' } }, { type: 'erase-everything' }, 'ready', null]) webview.fromPage(bad);
    assert.deepEqual(answered, [], 'nothing reached the answer path');
    assert.deepEqual(webview.types(), ['init'], 'nothing was posted back');
    assert.deepEqual(log.dataOf('warn', 'page-message-malformed'), Array(4).fill({ page: 'request page' }), log.lines.join('\n'));
  });

  test('a Send from the page reaches the answer path and its outcome is posted back', async () => {
    const item = permissionItem();
    const { webview, answered } = page(item);
    webview.fromPage({ type: 'ready' });
    webview.fromShown(submit({ option: 'allow' }));
    assert.deepEqual(answered, [{ option: 'allow' }]);
    const [, sending, accepted] = await posted(webview, 3);
    assert.ok(sending?.type === 'outcome' && accepted?.type === 'outcome');
    assert.deepEqual([sending.submitId, sending.phase], ['submit-1', 'sending']);
    assert.deepEqual([accepted.submitId, accepted.phase], ['submit-1', 'accepted']);
    assert.match(accepted.message, /accepted the answer/);
  });

  test('a different answer after one that got no acknowledgement: the page says the first may already have been applied', async () => {
    const item = permissionItem();
    const { webview } = page(item, {
      answer: () => ({ kind: 'sending', outcome: Promise.resolve({ kind: 'rejected', commandId: 'C2', reason: 'invalid', detail: 'already answered' }), unacknowledged: { commandId: 'C1' } }),
    });
    webview.fromPage({ type: 'ready' });
    webview.fromShown(submit({ option: 'deny' }));
    const [, sending, refused] = await posted(webview, 3);
    assert.ok(sending?.type === 'outcome' && refused?.type === 'outcome');
    for (const told of [sending, refused]) assert.match(told.message, /earlier answer got no acknowledgement, so .* may already have applied it/, told.message);
    assert.match(refused.message, /refused the answer as invalid/);
  });

  test('the same answer again after a timeout: the page says it went as the same command', async () => {
    const item = permissionItem();
    const { webview } = page(item, {
      answer: () => ({ kind: 'sending', outcome: Promise.resolve({ kind: 'accepted', commandId: 'C1' }), retry: { commandId: 'C1' } }),
    });
    webview.fromPage({ type: 'ready' });
    webview.fromShown(submit({ option: 'allow' }));
    const [, sending, accepted] = await posted(webview, 3);
    assert.ok(sending?.type === 'outcome' && accepted?.type === 'outcome');
    assert.match(sending.message, /sent again as the same command/);
    assert.doesNotMatch(accepted.message, /earlier answer/);
  });

  test('Send again on the page resends the answer the page sent and shows; once a newer answer went from another surface, nothing goes and the page says it was replaced', async (t) => {
    const { item, path, webview, timedOut } = await pageAfterTimeout(t);
    const pageCommand = path.wire[0];
    assert.ok(timedOut?.type === 'outcome');
    assert.deepEqual([timedOut.submitId, timedOut.phase, timedOut.canRetry], ['submit-1', 'timeout', true], 'the page offers Send again of its answer');

    // The person answers differently from the toast: a new command, which gets no acknowledgement either.
    const elsewhere = path.answerElsewhere(item, { option: 'deny' });
    assert.ok(elsewhere.kind === 'sending');
    const otherCommand = path.wire[1];
    assert.ok(otherCommand && otherCommand !== pageCommand);
    t.mock.timers.tick(60_000);
    assert.equal((await elsewhere.outcome).kind, 'timeout');

    webview.fromShown({ type: 'retry', submitId: 'submit-1' });
    const told = (await posted(webview, 5)).at(-1);
    assert.deepEqual(path.wire, [pageCommand, otherCommand], 'neither the answer the page shows nor the newer one went again');
    assert.ok(told?.type === 'outcome');
    assert.deepEqual([told.submitId, told.phase, told.canRetry], ['submit-1', 'cancelled', undefined], 'the offer goes');
    assert.match(told.message, /newer answer to this request was sent since and took its place/);
  });

  test('an answer given elsewhere while the page offers Send again: the page shows it at once, on its way and then settled, and the offer goes', async (t) => {
    const { item, path, opened, webview, timedOut } = await pageAfterTimeout(t);
    assert.ok(timedOut?.type === 'outcome' && timedOut.canRetry === true, 'the page offers Send again of its answer');

    const elsewhere = path.answerElsewhere(item, { option: 'deny' }, opened);
    assert.ok(elsewhere.kind === 'sending');
    const otherCommand = path.wire[1] ?? '';
    const shown = (await posted(webview, 4)).at(-1);
    assert.ok(shown?.type === 'outcome');
    assert.deepEqual([shown.submitId, shown.phase, shown.canRetry], [otherCommand, 'sending', undefined], 'the newer answer, on its way: the page no longer offers Send again');

    path.ack(otherCommand);
    await elsewhere.outcome;
    const settled = (await posted(webview, 5)).at(-1);
    assert.ok(settled?.type === 'outcome');
    assert.deepEqual([settled.submitId, settled.phase], [otherCommand, 'accepted'], 'and what became of it');
    assert.deepEqual(path.wire, [path.wire[0], otherCommand], 'the page itself sent nothing more');
  });

  test('an answer given elsewhere that settles late, after a newer one from the page was accepted, does not take the page\'s status', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const item = permissionItem();
    const path = answerPath(item);
    const opened = page(item, { answer: path.answer, resend: path.resend }, { hubs: { answerRecord: path.record } });
    opened.webview.fromPage({ type: 'ready' });
    const elsewhere = path.answerElsewhere(item, { option: 'deny' }, opened);
    assert.ok(elsewhere.kind === 'sending');
    const other = path.wire[0] ?? '';
    t.mock.timers.tick(60_000);
    assert.equal((await elsewhere.outcome).kind, 'timeout');
    await posted(opened.webview, 3);
    opened.webview.fromShown(submit({ option: 'allow' }, 'submit-2'));
    const own = path.wire[1] ?? '';
    path.ack(own);
    await posted(opened.webview, 5);
    // The older command is acknowledged after all; Hubs tells every listener of it.
    path.ack(other);
    opened.settledAnswer({ hub: { id: item.hub }, outcome: { kind: 'accepted', commandId: other } });
    // A marker: whatever the page was to be told of the late ack, it is told before this.
    opened.change({ ...item });
    const messages = await posted(opened.webview, 6);
    assert.deepEqual(messages.map((m) => (m.type === 'outcome' ? `${m.submitId === other ? 'other' : m.submitId}:${m.phase}` : m.type)),
      ['init', 'other:sending', 'other:timeout', 'submit-2:sending', 'submit-2:accepted', 'update']);
  });

  test('an answer the page sent itself is not told to it twice', async () => {
    const item = permissionItem();
    const path = answerPath(item);
    const opened = page(item, { answer: path.answer, resend: path.resend }, { hubs: { answerRecord: path.record } });
    opened.webview.fromPage({ type: 'ready' });
    opened.webview.fromShown(submit({ option: 'allow' }, 'submit-1'));
    // As Hubs.answer tells every listener of the page's own send.
    opened.sentAnswer({ hub: { id: item.hub }, item, command: { id: path.wire[0] ?? '' }, surface: 'page' });
    path.ack(path.wire[0] ?? '');
    opened.settledAnswer({ hub: { id: item.hub }, outcome: { kind: 'accepted', commandId: path.wire[0] ?? '' } });
    const messages = await posted(opened.webview, 3);
    assert.deepEqual(messages.map((m) => (m.type === 'outcome' ? `${m.submitId}:${m.phase}` : m.type)), ['init', 'submit-1:sending', 'submit-1:accepted']);
  });

  test('Send again on the page, while its answer is still the request\'s: the same command goes again, same id', async (t) => {
    const { path, webview } = await pageAfterTimeout(t);
    webview.fromShown({ type: 'retry', submitId: 'submit-1' });
    assert.equal(path.wire.length, 2);
    assert.equal(path.wire[1], path.wire[0], 'the same id');
    path.ack(path.wire[0] ?? '');
    const accepted = (await posted(webview, 5)).at(-1);
    assert.ok(accepted?.type === 'outcome');
    assert.deepEqual([accepted.submitId, accepted.phase], ['submit-1', 'accepted']);
  });

  test('a Send again the page was never offered sends nothing', async () => {
    const item = permissionItem();
    const resent: string[] = [];
    const { webview } = page(item, { resend: (_item, commandId) => (resent.push(commandId), Promise.resolve({ kind: 'accepted', commandId })) }, {
      hubs: { answerRecord: () => ({ state: 'ack-timed-out', commandId: 'C1', surface: 'quick-input', outcome: { kind: 'timeout', commandId: 'C1', afterMs: 60_000 } }) },
    });
    webview.fromPage({ type: 'ready' });
    webview.fromShown({ type: 'retry', submitId: 'submit-7' });
    const told = webview.posted.at(-1);
    assert.ok(told?.type === 'outcome');
    assert.deepEqual([told.submitId, told.phase], ['submit-7', 'cancelled']);
    assert.deepEqual(resent, []);
  });

  test('the same answer after a timeout that could not go as the same command: the page says it went as a new one', async () => {
    const item = permissionItem();
    const { webview } = page(item, {
      answer: () => ({ kind: 'sending', outcome: Promise.resolve({ kind: 'accepted', commandId: 'C2' }), unacknowledged: { commandId: 'C1', sameAnswer: true } }),
    });
    webview.fromPage({ type: 'ready' });
    webview.fromShown(submit({ option: 'allow' }));
    const [, sending] = await posted(webview, 3);
    assert.ok(sending?.type === 'outcome');
    assert.match(sending.message, /may already have applied it; it could no longer be sent again as the same command, so this same answer went as a new one/);
    assert.doesNotMatch(sending.message, /acts on it once|different answer/);
  });

  test('through the real pipeline: a second Send while the first awaits its ack is refused with the pipeline\'s refusal, and one command goes out', async () => {
    const item = permissionItem();
    const path = answerPath(item);
    const { webview } = page(item, { answer: path.answer });
    webview.fromPage({ type: 'ready' });
    webview.fromShown(submit({ option: 'allow' }, 'submit-1'));
    webview.fromShown(submit({ option: 'deny' }, 'submit-2'));
    assert.equal(path.wire.length, 1, 'exactly one command reached the hub');
    const commandId = path.wire[0]!;
    const refused = webview.posted.find((message) => message.type === 'outcome' && message.submitId === 'submit-2');
    assert.ok(refused?.type === 'outcome');
    assert.equal(refused.phase, 'awaiting-ack', 'the page keeps waiting on the answer in flight');
    assert.equal(refused.message, describeRefusal({ code: 'answer-in-flight', commandId, sent: true }, item.agent));
    path.ack(commandId);
    const last = (await posted(webview, 4)).at(-1);
    assert.ok(last?.type === 'outcome');
    assert.deepEqual([last.submitId, last.phase], ['submit-1', 'accepted']);
  });

  test('a message that fails the protocol is never posted; the host bug is logged', () => {
    const item = permissionItem();
    const { webview, log, controller } = page(item);
    webview.fromPage({ type: 'ready' });
    controller.host.post({ type: 'outcome', submitId: 'x', phase: 'no-such-phase', message: '' } as unknown as HostToWebview);
    assert.deepEqual(webview.types(), ['init']);
    assert.deepEqual(log.dataOf('error', 'page-message-invalid'), [{ page: 'request page', type: 'outcome' }], log.lines.join('\n'));
  });

  test('disposed, the page stops listening: later changes post nothing and the webview is released', () => {
    const item = permissionItem();
    const { webview, controller, change } = page(item);
    webview.fromPage({ type: 'ready' });
    controller.dispose();
    assert.ok(webview.disposed);
    change({ ...item, status: 'resolved' });
    webview.fromShown(submit({ option: 'allow' }));
    assert.deepEqual(webview.types(), ['init']);
  });

  test('a page closed by hand, taken over, or closed after its request resolved leaves no listener behind, on the hubs or on the webview', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const item = permissionItem();
    const first = page(item);
    first.webview.fromPage({ type: 'ready' });
    assert.equal(first.hubListeners(), 6);
    assert.equal(first.webview.listening(), 3);
    // Taken over: the old page lets go of everything, the new one holds only its own.
    first.controller.host.detach();
    assert.equal(first.hubListeners(), 0);
    assert.equal(first.webview.listening(), 0);
    const other: Readonly<AttentionItem> = { ...item, key: `${item.key}-other`, requestId: `${item.requestId}-other` };
    const second = page(other, {}, { webview: first.webview, alreadyLoaded: true });
    assert.equal(second.webview.listening(), 3);
    second.controller.dispose();
    assert.equal(second.hubListeners(), 0);
    assert.equal(second.webview.listening(), 0);
    // Closed by its own timer once resolved (the person chose to close pages then).
    const third = page(item, { closeWhenResolved: () => true });
    third.webview.fromPage({ type: 'ready' });
    third.change({ ...item, status: 'resolved', resolution: 'approved' });
    t.mock.timers.tick(CLOSE_AFTER_RESOLVED_MS - 1);
    assert.equal(third.webview.disposed, false);
    assert.equal(third.hubListeners(), 6);
    t.mock.timers.tick(1);
    assert.equal(third.webview.disposed, true);
    assert.equal(third.hubListeners(), 0);
    assert.equal(third.webview.listening(), 0);
  });

  test('an outcome that settles after the page closed is not posted to it', async () => {
    const item = permissionItem();
    let settle: (outcome: SendOutcome) => void = () => {};
    const outcome = new Promise<SendOutcome>((resolve) => (settle = resolve));
    const { webview, controller } = page(item, { answer: () => ({ kind: 'sending', outcome }) });
    webview.fromPage({ type: 'ready' });
    webview.fromShown(submit({ option: 'allow' }));
    assert.deepEqual(webview.types(), ['init', 'outcome']);
    controller.dispose();
    settle({ kind: 'accepted', commandId: 'C1' });
    await outcome;
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(webview.types(), ['init', 'outcome']);
  });
});

describe('history page host', () => {
  function entry() {
    const item = permissionItem();
    assert.ok(item.request);
    const built = buildRespondCommand(item.request, { option: 'allow' }, identity);
    assert.ok(built.ok);
    const history = new AnswerHistory(new MemoryMemento(), new RecordingLogger());
    history.recordSent({ id: 'h1', label: 'laptop' }, item, built.command);
    history.recordOutcome(built.command.id, { kind: 'accepted', commandId: built.command.id });
    const [kept] = history.entries();
    history.dispose();
    assert.ok(kept);
    return kept;
  }

  test('on ready the page gets the entry, read-only; a Send from it is logged and never answered', () => {
    const webview = new FakeWebview();
    const log = new RecordingLogger();
    new HistoryPageController(entry(), webview, { log, hubName: 'laptop', strings: undefined, showLog: () => {} });
    assert.equal(webview.posted.length, 0);
    webview.fromPage({ type: 'ready' });
    const [init] = webview.posted;
    assert.ok(init?.type === 'init');
    assert.deepEqual(init.history?.sent, { option: 'allow' });
    assert.equal(init.history?.accepted, true);
    assert.equal(init.request.hub, 'laptop');
    webview.fromShown(submit({ option: 'deny' }));
    assert.deepEqual(webview.types(), ['init'], 'nothing is posted for it');
    assert.deepEqual(log.dataOf('warn', 'page-message-read-only'), [{ type: 'submit' }], log.lines.join('\n'));
  });
});
