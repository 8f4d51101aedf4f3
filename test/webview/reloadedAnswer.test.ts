// After a window reload the request page is new and knows nothing of an
// answer sent before it; the host tells it of the answers still kept
// (answerOutcomes.ts). On the real page in headless Chromium, with the test
// playing the host over a real ControlSender and CommandStore: the reloaded
// page offers exactly what the page that sent the answer offered, and its
// "Send again" resends the same command, byte for byte.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CommandStore } from '../../src/client/commandStore';
import { ControlSender, type RequestLookup, type SendOutcome } from '../../src/client/controlSender';
import type { Answer } from '../../src/aep/attention';
import { buildRespondCommand } from '../../src/aep/control';
import { Inbox } from '../../src/inbox/inbox';
import { outcomeMessage, sendingMessage } from '../../src/words/answerOutcomes';
import { keptMessages } from '../support/keptMessages';
import { pageRequest } from '../../src/app/page/pageContent';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { goldenForm } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

const OPEN: RequestLookup = { state: 'open' };
const KEY = 'aepAttention.commands:http://127.0.0.1:1';
const identity = { agent: 'vscode-aep-attention', source: 'aep://host/agent/vscode-aep-attention' };

function goldenRequest() {
  const inbox = new Inbox();
  inbox.apply(goldenForm());
  const [item] = inbox.open();
  assert.ok(item?.request);
  return { item, request: item.request, view: pageRequest(item, { state: 'reachable', accepts: ['control.attention.respond'], ackWindowMs: 10_000 }) };
}

/** What the page lets the person do, and what it says. */
function pageState(page: WebviewPage) {
  return page.page.evaluate(() => {
    const outcome = document.getElementById('outcome');
    const control = (id: string) => document.getElementById(id) as (HTMLElement & { disabled: boolean }) | null;
    const retry = control('retry');
    return {
      message: outcome?.textContent ?? '',
      tone: outcome?.dataset['tone'],
      sendDisabled: control('send')?.disabled,
      firstFieldDisabled: control('field-0')?.disabled,
      retryOffered: retry !== null && !retry.hidden && !retry.disabled,
    };
  });
}

/** One window's sending side, over the workspace's memento. */
function windowSender(memento: MemoryMemento) {
  const written: string[] = [];
  const sender = new ControlSender(new RecordingLogger(), new CommandStore(memento, KEY, new RecordingLogger()));
  return { sender, written, connect: () => sender.connected((text) => (written.push(text), true)) };
}

describe('request page after a window reload: an answer sent before it', chromiumSuite(), () => {
  const { open } = requestPages();
  const { item, request, view } = goldenRequest();
  const target = { session: item.session, source: item.source };
  const fieldIds = request.fields.map((field) => field.id);

  /** The person answers on the page; the test, as the host, builds the command the host would send. */
  async function answerOn(page: WebviewPage) {
    await page.page.keyboard.type('billing-api');
    await page.page.keyboard.press('Enter');
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    const built = buildRespondCommand(request, submit['answer'] as Answer, identity);
    assert.ok(built.ok);
    return { submitId: String(submit['submitId']), command: built.command };
  }

  /** The host tells a freshly loaded page of the kept answers, as RequestPageController does after `ready`. */
  async function tellKept(page: WebviewPage, memento: MemoryMemento, connected: boolean) {
    const messages = keptMessages(new CommandStore(memento, KEY, new RecordingLogger()).list(), item, item.agent, connected);
    for (const message of messages) await page.post(message);
    return messages;
  }

  test('timed out before the reload: the same outcome and the same Send again, which resends the same command', async () => {
    const memento = new MemoryMemento();
    const earlier = windowSender(memento);
    earlier.connect();
    const sent = await open(view);
    const { submitId, command } = await answerOn(sent);
    await sent.post(sendingMessage(submitId, item.agent, true));
    const outcome = await earlier.sender.send(command, 200, target);
    assert.equal(outcome.kind, 'timeout');
    await sent.post(outcomeMessage(submitId, outcome, item.agent, fieldIds));
    await sent.page.locator('#retry').waitFor({ state: 'visible' });
    const before = await pageState(sent);
    assert.equal(before.retryOffered, true);
    earlier.sender.dispose(); // the window reloads

    const later = windowSender(memento);
    later.sender.restore(() => OPEN, () => assert.fail('a timed-out answer is not resent on its own'));
    later.connect();
    const reloaded = await open(view);
    const told = await tellKept(reloaded, memento, true);
    assert.deepEqual(told.map((m) => m.submitId), [command.id]);
    await reloaded.page.locator('#retry').waitFor({ state: 'visible' });
    assert.deepEqual(await pageState(reloaded), before);

    await reloaded.page.locator('#retry').click();
    const retry = await reloaded.waitForPosted((m) => m['type'] === 'retry');
    assert.equal(retry['submitId'], command.id);
    const again = later.sender.resend(String(retry['submitId']));
    assert.ok(again, 'the reloaded window can send it again');
    assert.deepEqual(later.written, earlier.written, 'the same command id and bytes as before the reload');
    assert.equal(JSON.parse(later.written[0]!).id, command.id);
    await reloaded.post(sendingMessage(String(retry['submitId']), item.agent, true));
    assert.equal((await pageState(reloaded)).retryOffered, false, 'one Send again at a time');
    later.sender.dispose();
    assert.equal((await reloaded.posted()).filter((m) => m['type'] === 'submit').length, 0, 'no new answer from the reloaded page');
  });

  test('awaiting its ack at the reload: "sent, waiting", nothing to send twice; when it times out, Send again resends the same command', async () => {
    const memento = new MemoryMemento();
    const earlier = windowSender(memento);
    earlier.connect();
    const sent = await open(view);
    const { submitId, command } = await answerOn(sent);
    const pending = earlier.sender.send(command, 500, target);
    earlier.sender.dispose(); // written, then the window reloads before any ack
    const interrupted = await pending;
    assert.deepEqual(interrupted, { kind: 'awaiting-ack', commandId: command.id, sent: true });
    await sent.post(outcomeMessage(submitId, interrupted, item.agent, fieldIds));
    await sent.page.waitForFunction(() => document.getElementById('outcome')?.dataset['tone'] === 'info');
    const before = await pageState(sent);
    assert.equal(before.sendDisabled, true);
    assert.equal(before.retryOffered, false);

    // Reloaded while still offline: told the same as the page that sent it.
    const reloaded = await open(view);
    assert.equal((await pageState(reloaded)).sendDisabled, false, 'a fresh page would take a second answer');
    await tellKept(reloaded, memento, false);
    await reloaded.page.waitForFunction(() => document.getElementById('outcome')?.dataset['tone'] === 'info');
    assert.deepEqual(await pageState(reloaded), before);
    assert.match(before.message, /^Sent; waiting for claude-code to acknowledge it\./);

    // Connected, the new window resends it unchanged; no ack comes, and it times out there.
    const later = windowSender(memento);
    const settled: SendOutcome[] = [];
    const restoredOutcome = new Promise<SendOutcome>((resolve) => later.sender.restore(() => OPEN, (outcome) => (settled.push(outcome), resolve(outcome))));
    later.connect();
    assert.deepEqual(later.written, earlier.written);
    // As RequestPageController does on onDidSettleLater: the outcome under the command id.
    const timedOut = await restoredOutcome;
    assert.equal(timedOut.kind, 'timeout');
    await reloaded.post(outcomeMessage(timedOut.commandId, timedOut, item.agent, fieldIds));
    await reloaded.page.locator('#retry').waitFor({ state: 'visible' });
    const afterTimeout = await pageState(reloaded);
    assert.deepEqual({ ...afterTimeout, message: '' }, { message: '', tone: 'error', sendDisabled: false, firstFieldDisabled: false, retryOffered: true });

    await reloaded.page.locator('#retry').click();
    const retry = await reloaded.waitForPosted((m) => m['type'] === 'retry');
    assert.equal(retry['submitId'], command.id);
    assert.ok(later.sender.resend(String(retry['submitId'])));
    assert.deepEqual(later.written, [earlier.written[0], earlier.written[0]], 'Send again: the same command, byte for byte');
    assert.deepEqual(settled, [timedOut]);
    later.sender.dispose();
  });
});
