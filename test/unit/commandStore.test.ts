// The store of unsettled commands (exactly once across a reload or rebuild,
// AEP-0004 §2.3) and the ControlSender's use of it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CommandStore, MAX_STORED_COMMANDS, type StoredCommand } from '../../src/client/commandStore';
import { ControlSender, type RequestLookup, type SendOutcome } from '../../src/client/controlSender';
import { parseAttentionRequest, type AttentionRequest } from '../../src/aep/attention';
import { buildRespondCommand, type RespondCommand } from '../../src/aep/control';
import { commandHoldsSecret } from '../../src/aep/secretAsking';
import { validEvent } from '../support/events';
import { parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';

const OPEN: RequestLookup = { state: 'open' };
const CLOSED: RequestLookup = { state: 'closed' };
const KEY = 'aepAttention.commands:http://127.0.0.1:1';
const target = { session: 's1', source: 'aep://h/agent/a/session/s1' };
const identity = { agent: 'tester', source: 'aep://host/agent/tester' };

function command(requestId = 'R1') {
  const built = buildRespondCommand({ id: requestId, session: 's1', fields: [] }, { option: 'allow' }, identity);
  assert.ok(built.ok);
  return built.command;
}

function stored(id: string, textChars = 10): StoredCommand {
  return { id, type: 'control.attention.respond', subject: `R-${id}`, text: 'x'.repeat(textChars), target, ackWindowMs: 5_000 };
}

function ack(type: string, cause: string): AepEvent {
  const parsed = parseEnvelope({ aep: '0.1', id: `ack-${cause}`, type, time: new Date().toISOString(), source: target.source, agent: 'a', session: 's1', seq: 1, cause });
  assert.ok(parsed.ok);
  return parsed.value;
}

describe('CommandStore', () => {
  test('survives a round trip through the memento: same ids, same bytes, same target', () => {
    const memento = new MemoryMemento();
    const first = new CommandStore(memento, KEY, new RecordingLogger());
    first.put(stored('c1'));
    first.put(stored('c2'));
    first.markTimedOut('c2');
    const second = new CommandStore(memento, KEY, new RecordingLogger());
    assert.deepEqual(second.list(), [stored('c1'), { ...stored('c2'), timedOut: true }]);
  });

  test('removes settled commands, in memory and in storage', () => {
    const memento = new MemoryMemento();
    const store = new CommandStore(memento, KEY, new RecordingLogger());
    store.put(stored('c1'));
    store.put(stored('c2'));
    store.remove('c1');
    assert.deepEqual(store.list().map((c) => c.id), ['c2']);
    assert.deepEqual(new CommandStore(memento, KEY, new RecordingLogger()).list().map((c) => c.id), ['c2']);
  });

  test('full of answers awaiting their ack: a new one is refused with a reason, none is dropped', () => {
    const memento = new MemoryMemento();
    const log = new RecordingLogger();
    const store = new CommandStore(memento, KEY, log, { maxCommands: 3 });
    for (let i = 1; i <= 3; i++) assert.deepEqual(store.put(stored(`c${i}`)), { ok: true });
    const refused = store.put(stored('c4'));
    assert.equal(refused.ok, false);
    assert.deepEqual(refused.ok ? undefined : refused.problem, { code: 'store-full', limit: 'count', maxCommands: 3 });
    assert.deepEqual(store.list().map((c) => c.id), ['c1', 'c2', 'c3']);
    assert.deepEqual(new CommandStore(memento, KEY, new RecordingLogger()).list().map((c) => c.id), ['c1', 'c2', 'c3']);
    assert.deepEqual(log.dataOf('warn', 'answer-refused-storage'), [{ commandId: 'c4', requestId: 'R-c4', problem: 'store-full' }]);
    // Settling one makes room again.
    store.remove('c1');
    assert.deepEqual(store.put(stored('c4')), { ok: true });
  });

  test('full: the oldest timed-out answer makes room, never one awaiting its ack', () => {
    const memento = new MemoryMemento();
    const log = new RecordingLogger();
    const store = new CommandStore(memento, KEY, log, { maxCommands: 3 });
    for (let i = 1; i <= 3; i++) store.put(stored(`c${i}`));
    store.markTimedOut('c2');
    store.markTimedOut('c3');
    assert.deepEqual(store.put(stored('c4')), { ok: true });
    assert.deepEqual(store.list().map((c) => c.id), ['c1', 'c3', 'c4']);
    assert.deepEqual(log.dataOf('warn', 'answer-evicted'), [{ commandId: 'c2', requestId: 'R-c2', timedOut: true, for: 'c4' }]);
    assert.deepEqual(store.put(stored('c5')), { ok: true });
    assert.deepEqual(store.list().map((c) => c.id), ['c1', 'c4', 'c5']);
    assert.equal(store.put(stored('c6')).ok, false, 'c1, c4 and c5 all await their ack');
    // The same id again (Send again) replaces itself, so it always fits.
    assert.deepEqual(store.put(stored('c4')), { ok: true });
  });

  test('full by size: the same rule; an answer larger than the whole bound is refused as too large', () => {
    const store = new CommandStore(new MemoryMemento(), KEY, new RecordingLogger(), { maxBytes: 2_500 });
    store.put(stored('c1', 1_000));
    store.put(stored('c2', 1_000));
    const full = store.put(stored('c3', 1_000));
    assert.deepEqual(full.ok ? undefined : full.problem, { code: 'store-full', limit: 'size', maxKb: 2 });
    store.markTimedOut('c1');
    assert.deepEqual(store.put(stored('c3', 1_000)), { ok: true });
    assert.deepEqual(store.list().map((c) => c.id), ['c2', 'c3']);
    const huge = store.put(stored('c4', 3_000));
    assert.deepEqual(huge.ok ? undefined : huge.problem, { code: 'too-large-to-keep', maxKb: 2 });
    assert.deepEqual(store.list().map((c) => c.id), ['c2', 'c3']);
  });

  test('by default, a thousand real answers given offline are all kept for the next window', async () => {
    const memento = new MemoryMemento();
    const control = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
    // A long day of answering offline: none of these may be lost to a reload.
    const outcomes = Array.from({ length: 1_000 }, (_, i) => control.send(command(`R${i}`), 5_000, target));
    const next = new CommandStore(memento, KEY, new RecordingLogger());
    assert.equal(next.size, 1_000);
    assert.ok(next.size <= MAX_STORED_COMMANDS);
    control.dispose();
    assert.ok((await Promise.all(outcomes)).every((outcome) => outcome.kind === 'awaiting-ack' && !outcome.sent));
  });

  test('is bounded by size, also for a list saved with larger bounds', () => {
    const memento = new MemoryMemento();
    const roomy = new CommandStore(memento, KEY, new RecordingLogger());
    for (let i = 1; i <= 4; i++) roomy.put(stored(`c${i}`, 1_000));
    const tight = new CommandStore(memento, KEY, new RecordingLogger(), { maxBytes: 2_500 });
    assert.deepEqual(tight.list().map((c) => c.id), ['c3', 'c4']);
    assert.ok(memento.storedChars <= 2_500, `${memento.storedChars} characters stored`);
  });

  test('a list saved under larger bounds loses its timed-out answers first, then the oldest', () => {
    const memento = new MemoryMemento();
    const roomy = new CommandStore(memento, KEY, new RecordingLogger());
    for (let i = 1; i <= 5; i++) roomy.put(stored(`c${i}`));
    roomy.markTimedOut('c4');
    const log = new RecordingLogger();
    assert.deepEqual(new CommandStore(memento, KEY, log, { maxCommands: 3 }).list().map((c) => c.id), ['c2', 'c3', 'c5']);
    assert.deepEqual(log.dataOf('warn', 'answer-evicted').map((data) => [data['commandId'], data['timedOut']]), [['c4', true], ['c1', false]]);
  });

  test('skips saved entries it cannot read and keeps the rest', () => {
    const memento = new MemoryMemento();
    void memento.update(KEY, [{ id: 7 }, null, 'text', { ...stored('ok') }, { ...stored('bad'), ackWindowMs: -1 }]);
    const log = new RecordingLogger();
    assert.deepEqual(new CommandStore(memento, KEY, log).list().map((c) => c.id), ['ok']);
    assert.deepEqual(log.dataOf('warn', 'storage-entries-skipped'), [{ slot: KEY, skipped: 4, kept: 1, entries: '0 1 2 4' }]);
  });
});

describe('ControlSender with a store', () => {
  test('stores a command when handed over, removes it when it settles', async () => {
    const store = new CommandStore(new MemoryMemento(), KEY, new RecordingLogger());
    const control = new ControlSender(new RecordingLogger(), store);
    const cmd = command();
    const outcome = control.send(cmd, 5_000, target);
    const kept = { id: cmd.id, type: cmd.type, subject: 'R1', text: JSON.stringify(cmd), target, ackWindowMs: 5_000 };
    assert.deepEqual(store.list(), [{ ...kept, unsent: true }]);
    control.connected(() => true);
    assert.deepEqual(store.list(), [kept], 'written: from now on it may have reached the agent');
    control.onAck(ack('control.accepted', cmd.id));
    assert.equal((await outcome).kind, 'accepted');
    assert.equal(store.size, 0);
  });

  test('dispose keeps the command and says it awaits its ack; the next sender resends the same bytes', async () => {
    const memento = new MemoryMemento();
    const first = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
    const cmd = command();
    const written: string[] = [];
    first.connected((text) => (written.push(text), true));
    const before = first.send(cmd, 5_000, target);
    first.dispose();
    assert.deepEqual(await before, { kind: 'awaiting-ack', commandId: cmd.id, sent: true });

    const store = new CommandStore(memento, KEY, new RecordingLogger());
    const second = new ControlSender(new RecordingLogger(), store);
    const restored: SendOutcome[] = [];
    assert.equal(second.restore(() => OPEN, (outcome) => restored.push(outcome)), 1);
    second.connected((text) => (written.push(text), true));
    assert.deepEqual(written, [JSON.stringify(cmd), JSON.stringify(cmd)]);
    // "Send again" while it is in flight writes the same bytes again (same id, AEP-0004 §2 item 3) and joins it: no second command.
    const again = second.resend(cmd.id);
    assert.ok(again);
    assert.deepEqual(written, [JSON.stringify(cmd), JSON.stringify(cmd), JSON.stringify(cmd)]);
    second.onAck(ack('control.accepted', cmd.id));
    assert.equal((await again).kind, 'accepted');
    assert.deepEqual(restored, [{ kind: 'accepted', commandId: cmd.id }]);
    assert.equal(written.length, 3);
    assert.equal(store.size, 0);
  });

  test('without a store, dispose still cancels', async () => {
    const control = new ControlSender(new RecordingLogger());
    const outcome = control.send(command(), 5_000, target);
    control.dispose();
    assert.equal((await outcome).kind, 'cancelled');
  });

  test('a command queued offline is reported as not yet sent, also by the next sender while still offline', async () => {
    const memento = new MemoryMemento();
    const control = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
    const cmd = command();
    const outcome = control.send(cmd, 5_000, target);
    control.dispose();
    assert.deepEqual(await outcome, { kind: 'awaiting-ack', commandId: cmd.id, sent: false });
    const next = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
    const restored: SendOutcome[] = [];
    next.restore(() => OPEN, (o) => restored.push(o));
    next.dispose();
    await Promise.resolve();
    assert.deepEqual(restored, [{ kind: 'awaiting-ack', commandId: cmd.id, sent: false }]);
  });

  test('a saved command without the unsent mark (older data) counts as possibly sent', async () => {
    const memento = new MemoryMemento();
    const cmd = command();
    await memento.update(KEY, [{ id: cmd.id, type: cmd.type, subject: 'R1', text: JSON.stringify(cmd), target, ackWindowMs: 5_000 }]);
    const control = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
    const restored: SendOutcome[] = [];
    control.restore(() => OPEN, (o) => restored.push(o));
    control.dispose();
    await Promise.resolve();
    assert.deepEqual(restored, [{ kind: 'awaiting-ack', commandId: cmd.id, sent: true }]);
  });

  test('a command the store cannot keep is not sent: it is cancelled with the reason, nothing is written', async () => {
    const store = new CommandStore(new MemoryMemento(), KEY, new RecordingLogger(), { maxCommands: 1 });
    const control = new ControlSender(new RecordingLogger(), store);
    const written: string[] = [];
    control.connected((text) => (written.push(text), true));
    const first = command('R1');
    void control.send(first, 5_000, target);
    const second = command('R2');
    const refused = await control.send(second, 5_000, target);
    assert.equal(refused.kind, 'cancelled');
    assert.equal(refused.commandId, second.id);
    assert.equal(refused.kind === 'cancelled' ? refused.code : '', 'store-full');
    assert.deepEqual(written, [JSON.stringify(first)]);
    assert.equal(control.pendingCount, 1);
    control.dispose();
  });

  test('a command whose request is no longer open is dropped with a log line, not resent', () => {
    const memento = new MemoryMemento();
    const first = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
    void first.send(command(), 5_000, target);
    first.dispose();
    const store = new CommandStore(memento, KEY, new RecordingLogger());
    const log = new RecordingLogger();
    const second = new ControlSender(log, store);
    assert.equal(second.restore(() => CLOSED, () => assert.fail('nothing settles')), 0);
    const written: string[] = [];
    second.connected((text) => (written.push(text), true));
    assert.deepEqual(written, []);
    assert.equal(store.size, 0);
    assert.deepEqual(log.dataOf('info', 'command-dropped').map((data) => [data['requestId'], data['why']]), [['R1', 'request-closed']]);
  });

  test('restored, then its request closes before the connection is back: "request-closed", sent or not as it was, never resent', async () => {
    for (const writtenBefore of [true, false]) {
      const memento = new MemoryMemento();
      const first = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
      if (writtenBefore) first.connected(() => true);
      const cmd = command();
      void first.send(cmd, 5_000, target);
      first.dispose();
      let open = true;
      const outcomes: SendOutcome[] = [];
      const second = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
      assert.equal(second.restore(() => (open ? OPEN : CLOSED), (outcome) => outcomes.push(outcome)), 1);
      open = false;
      const written: string[] = [];
      second.connected((text) => (written.push(text), true));
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(written, [], 'not sent again');
      assert.deepEqual(outcomes, [{ kind: 'request-closed', commandId: cmd.id, sent: writtenBefore }]);
      second.dispose();
    }
  });

  test('restored awaiting its ack, then timed out in the new sender: Send again resends the same id and bytes', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const memento = new MemoryMemento();
    const written: string[] = [];
    const first = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
    first.connected((text) => (written.push(text), true));
    const cmd = command();
    const before = first.send(cmd, 1_000, target);
    first.dispose();
    assert.deepEqual(await before, { kind: 'awaiting-ack', commandId: cmd.id, sent: true });

    const store = new CommandStore(memento, KEY, new RecordingLogger());
    const second = new ControlSender(new RecordingLogger(), store);
    const restored: SendOutcome[] = [];
    second.restore(() => OPEN, (outcome) => restored.push(outcome));
    second.connected((text) => (written.push(text), true));
    t.mock.timers.tick(1_000);
    await Promise.resolve();
    await Promise.resolve();
    assert.deepEqual(restored, [{ kind: 'timeout', commandId: cmd.id, afterMs: 1_000 }]);
    assert.deepEqual(store.list().map((c) => [c.id, c.timedOut]), [[cmd.id, true]], 'kept, timed out, for Send again after another reload');
    const again = second.resend(cmd.id);
    assert.ok(again);
    assert.deepEqual(written, [JSON.stringify(cmd), JSON.stringify(cmd), JSON.stringify(cmd)]);
    second.onAck(ack('control.accepted', cmd.id));
    assert.deepEqual(await again, { kind: 'accepted', commandId: cmd.id });
    assert.equal(store.size, 0);
  });

  test('after a timeout and a rebuild, Send again resends the same id and bytes', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const memento = new MemoryMemento();
    const written: string[] = [];
    const first = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
    first.connected((text) => (written.push(text), true));
    const cmd = command();
    const outcome = first.send(cmd, 1_000, target);
    t.mock.timers.tick(1_000);
    assert.equal((await outcome).kind, 'timeout');
    first.dispose();

    const second = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
    second.restore(() => OPEN, () => assert.fail('a timed-out command is not resent on its own'));
    second.connected((text) => (written.push(text), true));
    assert.equal(written.length, 1, 'not resent until the user asks');
    const again = second.resend(cmd.id);
    assert.ok(again, 'the timed-out command is known to the new sender');
    assert.deepEqual(written, [JSON.stringify(cmd), JSON.stringify(cmd)]);
    second.onAck(ack('control.accepted', cmd.id));
    assert.equal((await again).kind, 'accepted');
  });
});

describe('unsettled commands: nothing sent as typed, nor a secret, is kept readable on disk', () => {
  const GITHUB = 'ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c';
  const SSO = 'Correct-Horse-9';

  function requestOf(kind: string, id: string): AttentionRequest {
    const parsed = parseAttentionRequest(validEvent({
      id, type: 'attention.requested', source: target.source, agent: 'a', session: 's1', seq: 1, capture: 'redacted',
      data: { kind, prompt: kind === 'auth' ? 'SSO password for deploy@corp' : 'Which branch?' },
    }));
    assert.ok(parsed.ok);
    return parsed.value;
  }
  const fullCommand = (requestId = 'R-full') => {
    const built = buildRespondCommand({ id: requestId, session: 's1', fields: [] }, { text: `use ${GITHUB}` }, identity, Date.now(), { verbatim: true });
    assert.ok(built.ok);
    assert.equal(built.command.capture, 'full');
    return built.command;
  };
  const textCommand = (requestId: string, text: string) => {
    const built = buildRespondCommand({ id: requestId, session: 's1', fields: [] }, { text }, identity);
    assert.ok(built.ok);
    assert.equal(built.command.capture, 'redacted', 'the pipeline passes it');
    return built.command;
  };
  const onDisk = (memento: MemoryMemento) => JSON.stringify(memento.get<unknown>(KEY, []));

  test('the rule: text at capture full always, a secret when the request asks for one', () => {
    assert.equal(commandHoldsSecret(JSON.stringify(fullCommand()), undefined), true);
    const auth = textCommand('R-auth', SSO);
    assert.equal(commandHoldsSecret(JSON.stringify(auth), requestOf('auth', 'R-auth')), true);
    assert.equal(commandHoldsSecret(JSON.stringify(auth), requestOf('input', 'R-auth')), false);
    assert.equal(commandHoldsSecret(JSON.stringify(command()), requestOf('auth', 'R1')), false, 'an option is no secret');
    // Words sent instead of a form's fields hold what one of its fields asks for as a secret.
    const form = (fields: Array<{ id: string; label: string }>) => {
      const parsed = parseAttentionRequest(validEvent({
        id: 'R-form', type: 'attention.requested', source: target.source, agent: 'a', session: 's1', seq: 1, capture: 'redacted',
        data: { kind: 'form', prompt: 'Registry access', fields: fields.map((field) => ({ ...field, type: 'string' })) },
      }));
      assert.ok(parsed.ok);
      return parsed.value;
    };
    const words = JSON.stringify(textCommand('R-form', 'use Quiet-Falcon-42'));
    assert.equal(commandHoldsSecret(words, form([{ id: 'registry', label: 'Registry' }, { id: 'api_token', label: 'API token' }])), true);
    assert.equal(commandHoldsSecret(words, form([{ id: 'registry', label: 'Registry' }])), false);
  });

  test('kept in memory only: a rebuild resends the same bytes; after a reload it is not sent, and is said to be not kept', async () => {
    const memento = new MemoryMemento();
    const store = new CommandStore(memento, KEY, new RecordingLogger());
    const written: string[] = [];
    const first = new ControlSender(new RecordingLogger(), store);
    first.connected((text) => (written.push(text), true));
    const cmd = fullCommand();
    const before = first.send(cmd, 5_000, { ...target }, true);
    assert.ok(!onDisk(memento).includes(GITHUB), 'its text is not on disk');
    assert.ok(onDisk(memento).includes(cmd.id), 'its id is, to say what became of it after a reload');
    first.dispose();
    assert.deepEqual(await before, { kind: 'awaiting-ack', commandId: cmd.id, sent: true });

    // A rebuild (same window, same store): the same envelope again, from memory.
    const rebuilt = new ControlSender(new RecordingLogger(), store);
    assert.equal(rebuilt.restore(() => OPEN, () => undefined), 1);
    rebuilt.connected((text) => (written.push(text), true));
    assert.deepEqual(written, [JSON.stringify(cmd), JSON.stringify(cmd)]);
    rebuilt.dispose();

    // A reload: its text is gone, so it is not sent, and the outcome says so.
    const reloaded = new CommandStore(memento, KEY, new RecordingLogger());
    const log = new RecordingLogger();
    const next = new ControlSender(log, reloaded);
    const outcomes: SendOutcome[] = [];
    assert.equal(next.restore(() => OPEN, (outcome) => outcomes.push(outcome)), 1);
    next.connected((text) => (written.push(text), true));
    await Promise.resolve();
    assert.equal(written.length, 2, 'nothing is sent after the reload, least of all another envelope under its id');
    assert.deepEqual(outcomes, [{ kind: 'not-kept', commandId: cmd.id, sent: true }]);
    assert.deepEqual(reloaded.list().map((c) => [c.id, c.withheld, c.text]), [[cmd.id, true, '']], 'kept without text, for the page to say it');
    assert.equal(next.resend(cmd.id), undefined, 'no "Send again" of what is not kept');
    // A new answer to the request supersedes it.
    const answerAgain = fullCommand();
    void next.send(answerAgain, 5_000, target, true);
    assert.deepEqual(reloaded.list().map((c) => c.id), [answerAgain.id]);
    next.dispose();
  });

  test('today\'s format: text at full is taken off the disk on load, a secret once its request is known; both still resent unchanged; nothing else is lost', async () => {
    const memento = new MemoryMemento();
    const full = fullCommand('R-full');
    const auth = textCommand('R-auth', SSO);
    const plain = textCommand('R-plain', 'ship it on friday');
    const entry = (cmd: RespondCommand, extra: Record<string, unknown> = {}) => ({ id: cmd.id, type: cmd.type, subject: cmd.subject, text: JSON.stringify(cmd), target, ackWindowMs: 5_000, ...extra });
    await memento.update(KEY, [entry(full), entry(auth), entry(plain, { timedOut: true })]);
    assert.ok(onDisk(memento).includes(GITHUB) && onDisk(memento).includes(SSO), 'the old format holds both');

    const log = new RecordingLogger();
    const store = new CommandStore(memento, KEY, log);
    assert.ok(!onDisk(memento).includes(GITHUB), 'the text sent as typed is off the disk at once');
    assert.deepEqual(log.codes(), ['info answer-text-unkept']);
    assert.deepEqual(log.entries[0]?.data, { answers: 1 });
    const requests: Record<string, AttentionRequest> = { 'R-auth': requestOf('auth', 'R-auth'), 'R-full': requestOf('input', 'R-full'), 'R-plain': requestOf('input', 'R-plain') };
    const sender = new ControlSender(new RecordingLogger(), store);
    assert.equal(sender.restore((c) => ({ state: 'open', request: requests[c.subject] }), () => undefined), 3);
    const disk = onDisk(memento);
    assert.ok(!disk.includes(GITHUB) && !disk.includes(SSO), 'nothing readable survives on disk');
    assert.ok(disk.includes('ship it on friday'), 'what holds no secret keeps its text, for a resend after a reload');
    const written: string[] = [];
    sender.connected((text) => (written.push(text), true));
    assert.deepEqual(written, [JSON.stringify(full), JSON.stringify(auth)], 'both resent, byte for byte, from memory');
    assert.deepEqual(store.list().map((c) => [c.id, c.timedOut === true]), [[full.id, false], [auth.id, false], [plain.id, true]], 'nothing lost');
    const again = sender.resend(plain.id);
    assert.ok(again, 'the timed-out one is still open to Send again');
    assert.equal(written.at(-1), JSON.stringify(plain));
    sender.dispose();
  });

  test('a timed-out command whose request the inbox no longer knows is dropped, not kept as open; one awaiting its ack is still resent', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const memento = new MemoryMemento();
    const first = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
    first.connected(() => true);
    const timedOut = command('R-gone');
    const outcome = first.send(timedOut, 1_000, target);
    t.mock.timers.tick(1_000);
    assert.equal((await outcome).kind, 'timeout');
    const awaiting = command('R-unknown');
    void first.send(awaiting, 5_000, target);
    first.dispose();

    const store = new CommandStore(memento, KEY, new RecordingLogger());
    const log = new RecordingLogger();
    const second = new ControlSender(log, store);
    assert.equal(second.restore(() => ({ state: 'unknown' }), () => undefined), 1);
    assert.deepEqual(store.list().map((c) => c.id), [awaiting.id], 'only the one awaiting its ack is kept');
    assert.deepEqual(new CommandStore(memento, KEY, new RecordingLogger()).list().map((c) => c.id), [awaiting.id], 'and so on disk');
    assert.equal(second.resend(timedOut.id), undefined);
    assert.deepEqual(log.dataOf('info', 'command-dropped'), [{ commandId: timedOut.id, requestId: 'R-gone', why: 'request-unknown' }]);
    const written: string[] = [];
    second.connected((text) => (written.push(text), true));
    assert.deepEqual(written, [JSON.stringify(awaiting)], "an unknown request is the agent's to nack");
    second.dispose();
  });
});

describe('CommandStore at its bound', () => {
  test('an answer that times out when the store is full, and so no longer fits, goes from memory as from disk, with a log line', () => {
    const memento = new MemoryMemento();
    const log = new RecordingLogger();
    // Exactly two answers that await their ack: the wrapper, both entries and the comma between them.
    const exact = JSON.stringify({ version: 1, entries: [stored('c1', 100), stored('c2', 100)] }).length;
    const store = new CommandStore(memento, KEY, log, { maxBytes: exact });
    assert.deepEqual(store.put(stored('c1', 100)), { ok: true });
    assert.deepEqual(store.put(stored('c2', 100)), { ok: true });
    store.markTimedOut('c2');
    assert.deepEqual(store.list().map((c) => c.id), ['c1'], 'the timed-out one goes, never the one awaiting its ack');
    assert.deepEqual(new CommandStore(memento, KEY, new RecordingLogger()).list().map((c) => c.id), ['c1'], 'what this window holds is what a reload reads');
    assert.deepEqual(log.dataOf('warn', 'answer-evicted'), [{ commandId: 'c2', requestId: 'R-c2', timedOut: true }], log.lines.join('\n'));
  });
});
