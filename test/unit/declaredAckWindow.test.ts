// A target's declared ack window is its own promise (AEP-0004 §3): an answer
// to it is not timed out inside that window, up to the cap this client states.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideCapture } from '../../src/aep/capture';
import { silentLogger } from '../../src/base/logger';
import { ControlSender, type SendOutcome } from '../../src/client/controlSender';
import { MAX_ACK_WINDOW_MS, RosterSnapshot } from '../../src/client/rosterSnapshot';

const SESSION = 's-long';
const target = { session: SESSION, source: `aep://h/agent/slow/session/${SESSION}` };
const identity = { agent: 'tester', source: 'aep://host/agent/tester' };

/** A sender whose ack windows come from a roster where the target declares `declared` ms. */
function senderFor(declared: number) {
  const roster = new RosterSnapshot();
  roster.update([{ session: SESSION, agent: 'slow', control: { accepts: ['control.attention.respond'], ack_window_ms: declared } }]);
  const sender = new ControlSender(silentLogger, undefined, { identity, ackWindowFor: (session) => roster.ackWindowFor(session) });
  sender.connected(() => true);
  return { roster, sender };
}

/** Answers a request of the target's session as the pipeline does: the sender takes the window from the roster. */
function answer(sender: ControlSender): { commandId: () => string; outcome: () => SendOutcome | undefined } {
  const request = { id: 'R1', session: SESSION, source: target.source, fields: [] };
  const decided = decideCapture({ option: 'allow' }, request);
  assert.ok(decided.ok);
  let commandId = '';
  let outcome: SendOutcome | undefined;
  void sender.respond(request, { option: 'allow' }, decided, { built: (command) => (commandId = command.id) }).then((settledAs) => (outcome = settledAs));
  return { commandId: () => commandId, outcome: () => outcome };
}

/** Lets the promise callbacks a timer's settle queued run (the fake clock moves timers only). */
async function settled(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('a declared ack window is honoured up to the cap', () => {
  test('the cap is at least an hour', () => {
    assert.ok(MAX_ACK_WINDOW_MS >= 60 * 60_000, `the cap is ${MAX_ACK_WINDOW_MS} ms`);
  });

  test('a target declaring 900 000 ms is not timed out at ten minutes, and is at fifteen', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { roster, sender } = senderFor(900_000);
    t.after(() => sender.dispose());
    assert.equal(roster.ackWindowFor(SESSION), 900_000);
    const sent = answer(sender);
    t.mock.timers.tick(10 * 60_000 + 1);
    await settled();
    assert.equal(sent.outcome(), undefined, 'still inside the window the target declared');
    t.mock.timers.tick(900_000 - (10 * 60_000 + 1) - 1);
    await settled();
    assert.equal(sent.outcome(), undefined, 'one millisecond before the declared window ends');
    t.mock.timers.tick(1);
    await settled();
    assert.deepEqual(sent.outcome(), { kind: 'timeout', commandId: sent.commandId(), afterMs: 900_000 });
  });

  test('a window past the cap waits the cap, no longer', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { roster, sender } = senderFor(10 * MAX_ACK_WINDOW_MS);
    t.after(() => sender.dispose());
    assert.equal(roster.ackWindowFor(SESSION), MAX_ACK_WINDOW_MS);
    const sent = answer(sender);
    t.mock.timers.tick(MAX_ACK_WINDOW_MS - 1);
    await settled();
    assert.equal(sent.outcome(), undefined);
    t.mock.timers.tick(1);
    await settled();
    assert.deepEqual(sent.outcome(), { kind: 'timeout', commandId: sent.commandId(), afterMs: MAX_ACK_WINDOW_MS });
  });
});
