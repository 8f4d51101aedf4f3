// What a request page that did not send an answer (a window reload, the page
// rebuilt on show) is told about answers still kept unsettled: the same
// offers as the page that sent them, under the command id, and "sent, waiting
// for the acknowledgement" rather than "not sent" while the outcome is unknown.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CommandStore } from '../../src/client/commandStore';
import { ControlSender } from '../../src/client/controlSender';
import { buildRespondCommand } from '../../src/aep/control';
import { outcomeMessage, sendingMessage } from '../../src/words/answerOutcomes';
import { keptMessages } from '../support/keptMessages';
import { describeOutcome } from '../../src/words/outcomeMessages';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';

const KEY = 'aepAttention.commands:http://127.0.0.1:1';
const target = { session: 's1', source: 'aep://h/agent/claude-code/session/s1' };
const request = { requestId: 'R1', session: target.session, source: target.source };
const identity = { agent: 'tester', source: 'aep://host/agent/tester' };

function command(requestId = 'R1', session = 's1') {
  const built = buildRespondCommand({ id: requestId, session, fields: [] }, { option: 'allow' }, identity);
  assert.ok(built.ok);
  return built.command;
}

/** An earlier window: its sender over the shared memento. */
function earlierWindow(memento: MemoryMemento) {
  return new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
}

const kept = (memento: MemoryMemento) => new CommandStore(memento, KEY, new RecordingLogger()).list();

describe('answers kept across a reload, as the page is told of them', () => {
  test('sent and awaiting its ack: "sent, waiting", under the command id, no Send again; worded for the connection', async () => {
    const memento = new MemoryMemento();
    const earlier = earlierWindow(memento);
    earlier.connected(() => true);
    const cmd = command();
    const before = earlier.send(cmd, 5_000, target);
    earlier.dispose();
    const shownBefore = outcomeMessage(cmd.id, await before, 'claude-code', []);

    assert.deepEqual(keptMessages(kept(memento), request, 'claude-code', true), [
      { type: 'outcome', submitId: cmd.id, phase: 'awaiting-ack', message: 'Sent; waiting for claude-code to acknowledge it.' },
    ]);
    // Offline, the reloaded page says what the page that sent it said when its client stopped.
    assert.deepEqual(keptMessages(kept(memento), request, 'claude-code', false), [{ ...shownBefore, submitId: cmd.id }]);
    assert.equal(shownBefore.phase, 'awaiting-ack');
  });

  test('queued offline and never written: waiting for the connection, not "sent"', () => {
    const memento = new MemoryMemento();
    const earlier = earlierWindow(memento);
    const cmd = command();
    void earlier.send(cmd, 5_000, target);
    earlier.dispose();
    assert.deepEqual(keptMessages(kept(memento), request, 'claude-code', false), [sendingMessage(cmd.id, 'claude-code', false)]);
    assert.equal(sendingMessage(cmd.id, 'claude-code', false).phase, 'queued');
  });

  test('timed out: the same outcome and Send again as on the page that sent it, now under the command id', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const memento = new MemoryMemento();
    const earlier = earlierWindow(memento);
    earlier.connected(() => true);
    const cmd = command();
    const outcome = earlier.send(cmd, 2_000, target);
    t.mock.timers.tick(2_000);
    const shownBefore = outcomeMessage('submit-1', await outcome, 'claude-code', []);
    earlier.dispose();
    assert.equal(shownBefore.canRetry, true);
    assert.deepEqual(keptMessages(kept(memento), request, 'claude-code', true), [{ ...shownBefore, submitId: cmd.id }]);
  });

  test('only this request\'s answer, and one record: the command in flight wins over an older timed-out one', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const memento = new MemoryMemento();
    const earlier = earlierWindow(memento);
    earlier.connected(() => true);
    const first = command();
    const timedOut = earlier.send(first, 1_000, target);
    t.mock.timers.tick(1_000);
    await timedOut;
    const second = command();
    void earlier.send(second, 5_000, target);
    void earlier.send(command('R2'), 5_000, target);
    void earlier.send(command('R1', 's2'), 5_000, { session: 's2', source: target.source });
    void earlier.send(command('R1'), 5_000, { session: 's1', source: 'aep://h/agent/other/session/s1' });
    earlier.dispose();
    const messages = keptMessages(kept(memento), request, 'claude-code', true);
    assert.deepEqual(messages.map((m) => [m.submitId, m.phase]), [[second.id, 'awaiting-ack']]);
  });

  test('the agent\'s name enters as one capped line', () => {
    const memento = new MemoryMemento();
    const earlier = earlierWindow(memento);
    earlier.connected(() => true);
    void earlier.send(command(), 5_000, target);
    earlier.dispose();
    const hostile = `evil\nagent${'x'.repeat(5_000)}`;
    const [message] = keptMessages(kept(memento), request, hostile, true);
    assert.ok(message);
    assert.equal(message.message.includes('\n'), false);
    assert.ok(message.message.length < 400, `${message.message.length} characters`);
  });

  test('outcomeMessage: a refusal by the hub is phase refused; an invalid answer names the field the agent named', () => {
    assert.equal(outcomeMessage('s', { kind: 'refused-by-hub', commandId: 'c', code: 'no-route' }, 'a', []).phase, 'refused');
    const invalid = outcomeMessage('s', { kind: 'rejected', commandId: 'c', reason: 'invalid', detail: 'field "name" is required' }, 'a', ['name', 'db']);
    assert.equal(invalid.fieldId, 'name');
    assert.equal(invalid.message, describeOutcome({ kind: 'rejected', commandId: 'c', reason: 'invalid', detail: 'field "name" is required' }, 'a').message);
    assert.equal(invalid.canRetry, undefined);
  });
});

describe('an answer kept from before a reload whose request closed first', () => {
  test('written before: the page never says "not sent", and offers nothing more; never written: "not sent"', () => {
    const sent = outcomeMessage('c1', { kind: 'request-closed', commandId: 'c1', sent: true }, 'claude-code', []);
    assert.doesNotMatch(sent.message, /not sent/i);
    assert.match(sent.message, /may have received it/);
    assert.equal(sent.canRetry, undefined);
    const unsent = outcomeMessage('c2', { kind: 'request-closed', commandId: 'c2', sent: false }, 'claude-code', []);
    assert.match(unsent.message, /not sent/);
  });

  test('kept without its text (a secret, or sent as typed): "not sent again, answer again", no Send again, and the page can answer', async () => {
    const memento = new MemoryMemento();
    const earlier = earlierWindow(memento);
    earlier.connected(() => true);
    const cmd = command();
    const before = earlier.send(cmd, 5_000, target, true);
    earlier.dispose();
    assert.equal((await before).kind, 'awaiting-ack');
    const messages = keptMessages(kept(memento), request, 'claude-code', true);
    assert.deepEqual(messages, [{
      type: 'outcome', submitId: cmd.id, phase: 'cancelled',
      message: 'Your answer from before the reload was not sent again: it held text that is not kept across a reload (sent as typed, or a secret). It went out earlier, so claude-code may have it; if the request stays open, answer again.',
    }]);
    assert.equal(messages[0]?.canRetry, undefined, 'no "Send again": its envelope is gone');
  });
});
