// Hubs, the window's entry for every answering surface, in plain Node over a
// real hub on loopback and a scripted target that stays silent when told:
// what a surface's Send becomes on the wire, and what the pipeline's record
// (the one home of the answer's phase) lets each surface do meanwhile.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WebSocket } from 'ws';
import { ANSWER_SURFACES, type AnswerRefusal } from '../../src/answer/answerPipeline';
import type { SendOutcome } from '../../src/client/controlSender';
import { MIN_ACK_WINDOW_MS } from '../../src/client/rosterSnapshot';
import { Emitter } from '../../src/base/emitter';
import type { AttentionItem } from '../../src/inbox/inbox';
import { hubList } from '../../src/app/hubs/hubList';
import { Hubs } from '../../src/app/hubs/hubs';
import type { Settings } from '../../src/app/hubs/settings';
import { startAgent } from '../peers/agent/agent';
import { startHub } from '../peers/hub/hub';
import { freshSession, makeRequest } from '../support/events';
import { FAKE_HUB_HELLO, fakeHub } from '../support/fakeHub';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { ScriptedTarget } from '../support/scriptedTarget';
import { TcpProxy } from '../support/tcpProxy';
import { ROOMY_ACK_WINDOW_MS } from '../support/ackWindows';
import { waitUntil } from '../support/waitUntil';

const TOKEN = 'hubs-test-token';

/** The window's settings naming the hub at `hubUrl`, or no hub at all. */
function settingsFor(hubUrl: string | undefined): Settings {
  const { hubs, problems } = hubList({
    named: hubUrl === undefined ? [] : [{ hubUrl, source: 'user', filter: undefined, captureCeiling: undefined }],
    list: undefined,
    defaults: { filter: undefined, captureCeiling: undefined },
  });
  const user = { notifications: 'all' as const, senderName: 'hubs-test', allowInsecureRemote: false };
  return { hubs, hubListProblems: problems, ...user, user, notificationMinSeverity: 'info', closeFormWhenResolved: false, history: { maxEntries: 10, maxAgeDays: 1 }, osNotifications: 'whenUnfocused', sound: false, beforeAsking: true };
}

/** A window's Hubs over the hub at `hubUrl`, with the test's settings, token, storage and log. */
function openHubs(hubUrl: string) {
  const changes = new Emitter<Settings>();
  const settings = { value: settingsFor(hubUrl), onDidChange: changes.event };
  const tokens = { get: () => Promise.resolve({ token: TOKEN, from: 'hub' as const }), onDidChange: () => ({ dispose: () => undefined }) };
  const log = new RecordingLogger();
  const hubs = new Hubs(settings, tokens, new MemoryMemento(), { for: () => log }, {
    client: { backoffBaseMs: 50, backoffCapMs: 200 },
  });
  hubs.start();
  /** The person edits the settings: Hubs reads the new value on the change. */
  const editSettings = (next: Settings) => {
    settings.value = next;
    changes.fire(next);
  };
  return { hubs, log, editSettings };
}

async function setUp(ackWindowMs: number) {
  const hub = await startHub({ port: 0, token: TOKEN });
  const target = await ScriptedTarget.start(hub.url, TOKEN, freshSession('hubs'), { ackWindowMs });
  const window = openHubs(hub.url);
  const requestId = target.raise({ kind: 'permission', prompt: 'Run the migration?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] });
  const find = () => window.hubs.visibleItems().find((item) => item.requestId === requestId);
  await waitUntil(() => find() !== undefined, 'the request in the window', 5_000, () => window.log.lines.join('\n'));
  const item: Readonly<AttentionItem> = find()!;
  await waitUntil(() => window.hubs.reachability(item).state === 'reachable', 'the target in the roster');
  const close = async () => {
    window.hubs.dispose();
    await target.close();
    await hub.close();
  };
  return { ...window, target, item, close, hubUrl: hub.url };
}

/** What each surface is told when it tries a new answer now: the page, the quick input and the notification send; Answer Next asks first. */
function everySurfaceTries(hubs: Hubs, item: Readonly<AttentionItem>): Map<string, AnswerRefusal | 'sending'> {
  const told = new Map<string, AnswerRefusal | 'sending'>();
  for (const surface of ANSWER_SURFACES) {
    if (surface === 'answer-next') {
      const admission = hubs.admit(surface, item);
      told.set(surface, admission.ok ? 'sending' : admission.refusal);
      continue;
    }
    const result = hubs.answer(surface, item, { option: 'deny' });
    told.set(surface, result.kind === 'refused' ? result.refusal : 'sending');
  }
  return told;
}

describe('Hubs in plain Node, over a real hub', () => {
  test('a Send reaches the target as one command; a second answer while it awaits its ack is refused from every surface alike; Send Again is the same command; after the timeout a different answer goes', async () => {
    const w = await setUp(ROOMY_ACK_WINDOW_MS);
    try {
      const sent: string[] = [];
      w.hubs.onDidSendAnswer(({ command }) => sent.push(command.id));
      const first = w.hubs.answer('page', w.item, { option: 'allow' });
      assert.equal(first.kind, 'sending');
      const delivered = await w.target.nextCommand(0);
      const commandId = String(delivered.value['id']);
      assert.deepEqual(sent, [commandId], 'the history hears the command that went');
      assert.deepEqual((delivered.value['data'] as { answer: unknown }).answer, { option: 'allow' });
      await waitUntil(() => w.hubs.answerRecord(w.item)?.state === 'awaiting-ack', 'the record to say it was written');

      const told = everySurfaceTries(w.hubs, w.item);
      for (const surface of ANSWER_SURFACES) {
        assert.deepEqual(told.get(surface), { code: 'answer-in-flight', commandId, sent: true }, `${surface} is refused as the page is`);
      }
      assert.equal(w.target.commands().length, 1, 'no second command reached the target');

      // Send Again while it awaits its ack: the same bytes, same id (AEP-0004 §2 item 3).
      const again = w.hubs.resend('quick-input', w.item, commandId);
      const resent = await w.target.nextCommand(1);
      assert.equal(resent.text, delivered.text, 'Send Again writes the same command, byte for byte');

      assert.ok(first.kind === 'sending');
      assert.deepEqual(await first.outcome, { kind: 'timeout', commandId, afterMs: ROOMY_ACK_WINDOW_MS });
      assert.equal((await again).kind, 'timeout');
      assert.equal(w.hubs.answerRecord(w.item)?.state, 'ack-timed-out');
      assert.equal(w.hubs.answerRecord(w.item)?.commandId, commandId, 'the timed-out answer keeps its id, for Send Again');

      const different = w.hubs.answer('notification', w.item, { option: 'deny' });
      assert.equal(different.kind, 'sending', 'after the timeout a different answer is allowed');
      const next = await w.target.nextCommand(2);
      assert.notEqual(next.value['id'], commandId, 'a new command, under a new id');
      assert.deepEqual((next.value['data'] as { answer: unknown }).answer, { option: 'deny' });
      w.target.accept(next);
      assert.ok(different.kind === 'sending');
      assert.deepEqual(await different.outcome, { kind: 'accepted', commandId: next.value['id'] });
      assert.deepEqual(w.hubs.answerRecord(w.item)?.state, 'accepted');
      for (const [surface, refusal] of everySurfaceTries(w.hubs, w.item)) {
        assert.deepEqual(refusal, { code: 'answer-accepted', commandId: next.value['id'] }, surface);
      }
      assert.equal(w.target.commands().length, 3);
    } finally {
      await w.close();
    }
  });

  test('a hub the person disconnected: the answer is not sent, said by its code, and a new answer may go', async () => {
    const w = await setUp(10_000);
    try {
      const hub = w.hubs.of(w.item)!;
      hub.disconnect();
      const result = w.hubs.answer('page', w.item, { option: 'allow' });
      assert.ok(result.kind === 'sending');
      const outcome = await result.outcome;
      // A code: the UI words it (outcomeMessages.ts), the core and Hubs never do.
      assert.deepEqual(outcome, { kind: 'cancelled', commandId: '', code: 'not-connected' });
      assert.equal(w.hubs.answerRecord(w.item)?.state, 'not-sent');
      assert.deepEqual(w.hubs.admit('quick-input', w.item), { ok: true }, 'nothing went: a new answer may');
    } finally {
      await w.close();
    }
  });
});

describe('Hubs over a hub whose refusal comes after the ack window', () => {
  test('a late no-route settles the answer as refused, with the reason: the page and the history hear it, and nothing is left to send again', async () => {
    const session = freshSession('late');
    const request = makeRequest(session, 1, { kind: 'permission', prompt: 'Deploy?', options: [{ id: 'allow', label: 'Allow' }] }, { severity: 'notice', capture: 'redacted' });
    let socket: WebSocket | undefined;
    const commands: string[] = [];
    const hub = await fakeHub((ws, frame) => {
      socket = ws;
      if (frame['type'] === 'hello') ws.send(JSON.stringify({ ...FAKE_HUB_HELLO, capabilities: { roster: {}, control: {} } }));
      if (frame['type'] === 'subscribe') {
        ws.send(JSON.stringify({ type: 'subscribed', id: frame['id'] }));
        ws.send(JSON.stringify(request));
      }
      if (frame['type'] === 'roster') {
        ws.send(JSON.stringify({ type: 'roster', id: frame['id'], entries: [{ session, agent: 'test-agent', control: { accepts: ['control.attention.respond'], ack_window_ms: MIN_ACK_WINDOW_MS } }] }));
      }
      if (frame['type'] === 'control.attention.respond') commands.push(String(frame['id']));
    });
    const w = openHubs(hub.url);
    try {
      const find = () => w.hubs.visibleItems().find((item) => item.requestId === request.id);
      await waitUntil(() => find() !== undefined && w.hubs.reachability(find()!).state === 'reachable', 'the request, its target reachable', 5_000, () => w.log.lines.join('\n'));
      const item = find()!;
      const later: SendOutcome[] = [];
      const settled: SendOutcome[] = [];
      w.hubs.onDidSettleLater(({ outcome, requestId }) => requestId === item.requestId && later.push(outcome));
      w.hubs.onDidSettleAnswer(({ outcome }) => settled.push(outcome));
      const sent = w.hubs.answer('page', item, { option: 'allow' });
      assert.ok(sent.kind === 'sending');
      const timedOut = await sent.outcome;
      assert.equal(timedOut.kind, 'timeout');
      assert.deepEqual(commands, [timedOut.commandId]);
      assert.deepEqual([w.hubs.answerRecord(item)?.state, w.hubs.answerRecord(item)?.commandId], ['ack-timed-out', timedOut.commandId], 'timed out, under its id');

      // The hub's refusal, after the window ran out (AEP-0004 §4.2: any cause-matched error frame is a refusal).
      socket!.send(JSON.stringify({ type: 'error', cause: timedOut.commandId, code: 'no-route', detail: 'no claimant' }));
      const refused: SendOutcome = { kind: 'refused-by-hub', commandId: timedOut.commandId, code: 'no-route', detail: 'no claimant' };
      await waitUntil(() => w.hubs.answerRecord(item)?.state === 'refused', 'the answer settled as refused', 5_000, () => w.log.lines.join('\n'));
      assert.deepEqual(w.hubs.answerRecord(item)?.outcome, refused);
      assert.deepEqual(later, [refused], 'the request\'s page hears it');
      assert.deepEqual(settled, [timedOut, refused], 'the history hears it after the timeout');
      assert.deepEqual(w.log.find({ code: 'hub-error' }), [], 'taken as the refusal it is, not as a stray error');
    } finally {
      w.hubs.dispose();
      await hub.close();
    }
  });
});

describe('Hubs and the demo agent, when the agent applied an answer and its ack was lost', () => {
  test('the same answer sent again goes under the same id: the agent re-acks what it applied, and the answer ends accepted, not refused', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    // The agent reaches the hub through a proxy that can lose what it sends: its ack, after it applied the answer.
    const proxy = await TcpProxy.start(hub.port);
    const agentLog: string[] = [];
    const agent = await startAgent({ hubUrl: proxy.url, token: TOKEN, scenarios: ['permission'], everyMs: 600_000, ackWindowMs: ROOMY_ACK_WINDOW_MS, log: (line) => agentLog.push(line) });
    const w = openHubs(hub.url);
    try {
      const find = () => w.hubs.visibleItems().find((item) => item.request?.renderKind === 'permission');
      await waitUntil(() => find() !== undefined && w.hubs.reachability(find()!).state === 'reachable', 'the agent\'s request, the agent reachable', 5_000, () => w.log.lines.join('\n'));
      const item = find()!;
      const option = item.request!.options[0]!.id;

      proxy.droppingUpstream = true;
      const first = w.hubs.answer('page', item, { option });
      assert.ok(first.kind === 'sending');
      await waitUntil(() => agent.decisions().some((decision) => decision.kind === 'accepted'), 'the agent to apply it', 5_000, () => agentLog.join('\n'));
      const timedOut = await first.outcome;
      assert.equal(timedOut.kind, 'timeout', 'its ack never reached the hub');
      proxy.droppingUpstream = false;

      // The person sends the same answer again from the page.
      const again = w.hubs.answer('page', item, { option });
      assert.ok(again.kind === 'sending');
      const outcome = await again.outcome;
      assert.deepEqual(outcome, { kind: 'accepted', commandId: timedOut.commandId }, agentLog.join('\n'));
      assert.deepEqual(again.retry, { commandId: timedOut.commandId }, 'a retry, not a new answer');
      assert.equal(w.hubs.answerRecord(item)?.state, 'accepted');
      assert.ok(agent.decisions().some((decision) => decision.kind === 'replayed' && decision.commandId === timedOut.commandId), 'the agent re-acked its recorded ack');
      assert.deepEqual(agent.decisions().filter((decision) => decision.kind === 'accepted' || decision.kind === 'rejected').map((decision) => decision.kind), ['accepted'], 'applied once, refused never');
    } finally {
      w.hubs.dispose();
      await agent.close();
      await proxy.close();
      await hub.close();
    }
  });
});

describe('Hubs, when a hub leaves the settings', () => {
  test('the removed hub lets go of its client and the window no longer lists it; a hub named again connects anew', async () => {
    const { hubs, item, close, editSettings, hubUrl } = await setUp(MIN_ACK_WINDOW_MS);
    try {
      const [removed] = hubs.list();
      assert.ok(removed?.sender, 'connected: the hub has a client');
      const states: unknown[] = [];
      const listening = hubs.onDidChangeState((hub) => states.push(hub));
      editSettings(settingsFor(undefined));
      assert.equal(hubs.size, 0);
      assert.equal(hubs.item(item.key), undefined);
      assert.equal(removed.sender, undefined, 'its client is stopped with it');
      // Named again: a new connection, which the window hears from, and not the released one.
      editSettings(settingsFor(hubUrl));
      const [again] = hubs.list();
      assert.ok(again && again !== removed);
      await waitUntil(() => again.state.kind === 'connected', 'the hub named again to connect');
      assert.ok(states.length > 0 && states.every((hub) => hub === again), 'every state change the window heard is the new connection\'s');
      listening.dispose();
    } finally {
      await close();
    }
  });
});

/** A window whose settings name the hub at `hubUrl` twice, as 127.0.0.1 and as localhost; `memento` is its workspace storage. */
function openTwice(hubUrl: string, memento = new MemoryMemento()) {
  const port = new URL(hubUrl).port;
  const both = hubList({
    named: [`http://127.0.0.1:${port}`, `http://localhost:${port}`].map((named) => ({ hubUrl: named, source: 'user' as const, filter: undefined, captureCeiling: undefined })),
    list: undefined,
    defaults: { filter: undefined, captureCeiling: undefined },
  });
  const changes = new Emitter<Settings>();
  const window = {
    value: { ...settingsFor(hubUrl), hubs: both.hubs, hubListProblems: both.problems },
    onDidChange: changes.event,
  };
  const tokens = { get: () => Promise.resolve({ token: TOKEN, from: 'hub' as const }), onDidChange: () => ({ dispose: () => undefined }) };
  const log = new RecordingLogger();
  const hubs = new Hubs(window, tokens, memento, { for: () => log }, { client: { backoffBaseMs: 50, backoffCapMs: 200 } });
  hubs.start();
  return { hubs, log, memento };
}

describe('Hubs, when one hub is named under two addresses', () => {
  test('each inbox holds the request, each copy names the other hub as holding it too (the notification is given once), and one answer to either copy closes both to every surface', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    const { hubs, log } = openTwice(hub.url);
    const target = await ScriptedTarget.start(hub.url, TOKEN, freshSession('twice'));
    try {
      assert.equal(hubs.size, 2, log.lines.join('\n'));
      const requestId = target.raise({ kind: 'permission', prompt: 'Run it?', options: [{ id: 'allow', label: 'Allow' }] });
      const copies = () => hubs.visibleItems().filter((item) => item.requestId === requestId);
      await waitUntil(() => copies().length === 2, 'the request through both addresses', 5_000, () => log.lines.join('\n'));
      const [first, second] = copies();
      assert.ok(first && second && first.hub !== second.hub);
      assert.equal(hubs.heldAlso(first), second);
      assert.equal(hubs.heldAlso(second), first);
      // One decision, one command: while the first copy's answer is on its way, and once accepted, the
      // second copy takes no answer from any surface, whichever copy the person meets.
      const command = await answerOnce(hubs, first, target, { accept: false });
      const inFlight = everySurfaceTries(hubs, second);
      assert.deepEqual([...inFlight.values()].map((told) => told === 'sending' ? told : told.code), ANSWER_SURFACES.map(() => 'answer-in-flight'), JSON.stringify([...inFlight]));
      // Send Again from the second copy is the same command, through the hub that carried it: never a second one, and the record stays.
      const commandId = String(command.value['id']);
      const again = hubs.resend('answer-next', second, commandId);
      assert.equal(String((await target.nextCommand(1)).value['id']), commandId);
      target.accept(command);
      assert.equal((await again).kind, 'accepted');
      await waitUntil(() => !hubs.admit('page', second).ok && (hubs.admit('page', second) as { refusal: AnswerRefusal }).refusal.code === 'answer-accepted', 'the second copy refused as accepted');
      const accepted = everySurfaceTries(hubs, second);
      assert.deepEqual([...accepted.values()].map((told) => told === 'sending' ? told : told.code), ANSWER_SURFACES.map(() => 'answer-accepted'));
      target.answerAndResolve(command);
      await waitUntil(() => copies().length === 0, 'both copies closed by the one resolution');
      assert.deepEqual(target.commands().map((one) => one.value['id']), [commandId, commandId], 'the agent received one command, and its Send Again');
      const closed = hubs.item(first.key);
      assert.ok(closed, 'the closed copy is still known to its inbox');
      assert.equal(hubs.heldAlso(closed), undefined, 'a copy closed elsewhere holds nothing open');
    } finally {
      hubs.dispose();
      await target.close();
      await hub.close();
    }
  });
});

describe('Hubs, when one hub is named under two addresses, counting what waits', () => {
  test('a request both hubs list is one request waiting (the status bar and the badge), until the person dismisses every copy of it', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    const { hubs, log } = openTwice(hub.url);
    const target = await ScriptedTarget.start(hub.url, TOKEN, freshSession('twice-count'));
    try {
      const asked = [1, 2].map((n) => target.raise({ kind: 'permission', prompt: `Run step ${n}?`, options: [{ id: 'allow', label: 'Allow' }] }));
      const copiesOf = (requestId: string) => hubs.visibleItems().filter((item) => item.requestId === requestId);
      await waitUntil(() => asked.every((requestId) => copiesOf(requestId).length === 2), 'both requests through both addresses', 5_000, () => log.lines.join('\n'));
      assert.equal(hubs.visibleItems().length, 4, 'each hub lists both requests');
      assert.equal(hubs.visibleCount, 2, 'two requests wait, not four');
      const [firstAsked = '', secondAsked = ''] = asked;
      const [oneCopy, otherCopy] = copiesOf(firstAsked);
      assert.ok(oneCopy && otherCopy);
      hubs.dismiss(otherCopy);
      assert.equal(hubs.visibleCount, 2, 'a copy dismissed in one hub still waits through the other');
      hubs.dismiss(oneCopy);
      assert.equal(hubs.visibleCount, 1, 'every copy dismissed: that request no longer waits');
      assert.deepEqual(hubs.visibleItems().map((item) => item.requestId), [secondAsked, secondAsked]);
    } finally {
      hubs.dispose();
      await target.close();
      await hub.close();
    }
  });
});

describe('Hubs, when one hub is named under two addresses, after an answer timed out', () => {
  test('the same answer from the other copy is Send Again through the hub that sent it, the same command id', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    const target = await ScriptedTarget.start(hub.url, TOKEN, freshSession('twice-timeout'), { ackWindowMs: ROOMY_ACK_WINDOW_MS });
    const { hubs, log } = openTwice(hub.url);
    try {
      const requestId = target.raise({ kind: 'permission', prompt: 'Run it?', options: [{ id: 'allow', label: 'Allow' }] });
      const copies = () => hubs.visibleItems().filter((item) => item.requestId === requestId);
      await waitUntil(() => copies().length === 2, 'the request through both addresses', 5_000, () => log.lines.join('\n'));
      const [first, second] = copies();
      assert.ok(first && second);
      await waitUntil(() => hubs.reachability(first).state === 'reachable' && hubs.reachability(second).state === 'reachable', 'the target in both rosters');
      const sent = hubs.answer('page', first, { option: 'allow' });
      assert.equal(sent.kind, 'sending');
      const command = await target.nextCommand();
      assert.equal((await sent.outcome).kind, 'timeout');
      const again = hubs.answer('quick-input', second, { option: 'allow' });
      assert.equal(again.kind, 'sending');
      assert.equal(String((await target.nextCommand(1)).value['id']), String(command.value['id']), 'the same command again, not a second one');
      target.accept(command);
      assert.equal((await again.outcome).kind, 'accepted');
    } finally {
      hubs.dispose();
      await target.close();
      await hub.close();
    }
  });
});

describe('Hubs, when one hub is named under two addresses, across a window reload', () => {
  test('an answer kept unacknowledged through one address still holds the other copy after the reload', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    const target = await ScriptedTarget.start(hub.url, TOKEN, freshSession('twice-reload'));
    let window = openTwice(hub.url);
    try {
      const requestId = target.raise({ kind: 'permission', prompt: 'Run it?', options: [{ id: 'allow', label: 'Allow' }] });
      const copies = () => window.hubs.visibleItems().filter((item) => item.requestId === requestId);
      await waitUntil(() => copies().length === 2, 'the request through both addresses', 5_000, () => window.log.lines.join('\n'));
      const [first] = copies();
      assert.ok(first);
      const command = await answerOnce(window.hubs, first, target, { accept: false });
      // The window reloads while the answer awaits its ack: the command is kept in its hub's store.
      window.hubs.dispose();
      window = openTwice(hub.url, window.memento);
      await waitUntil(() => copies().length === 2, 'both copies restored', 5_000, () => window.log.lines.join('\n'));
      for (const copy of copies()) {
        const admission = window.hubs.admit('page', copy);
        assert.equal(admission.ok ? 'admitted' : admission.refusal.code, 'answer-in-flight', `the copy through ${copy.hub}`);
      }
      target.accept(command);
    } finally {
      window.hubs.dispose();
      await target.close();
      await hub.close();
    }
  });
});

async function answerOnce(hubs: Hubs, item: Readonly<AttentionItem>, target: ScriptedTarget, { accept = true } = {}) {
  await waitUntil(() => hubs.reachability(item).state === 'reachable', 'the target in the roster');
  const result = hubs.answer('page', item, { option: 'allow' });
  assert.equal(result.kind, 'sending');
  const command = await target.nextCommand();
  if (accept) target.accept(command);
  return command;
}
