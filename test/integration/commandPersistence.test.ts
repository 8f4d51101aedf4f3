// Exactly once across a reload: a command the agent has not acknowledged (or
// that never left, offline) outlives its client in workspaceState and goes out
// again from the next client, same id and bytes (AEP-0004 §2.3). Real hub,
// real demo agent, real sockets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SendOutcome } from '../../src/client/controlSender';
import { HubClient } from '../../src/client/hubClient';
import { Inbox } from '../../src/inbox/inbox';
import { keptMessages } from '../support/keptMessages';
import { WorkspacePersistence } from '../../src/app/hubs/persistence';
import { startAgent } from '../peers/agent/agent';
import { startHub } from '../peers/hub/hub';
import { freshSession } from '../support/events';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { ScriptedTarget } from '../support/scriptedTarget';
import { TcpProxy } from '../support/tcpProxy';
import { ROOMY_ACK_WINDOW_MS } from '../support/ackWindows';
import { waitUntil } from '../support/waitUntil';

const TOKEN = 'command-persistence-token';

/** One "window": its persistence over the shared memento, an inbox restored from it, a client. */
function openWindow(memento: MemoryMemento, hubUrl: string, origin: string) {
  const log = new RecordingLogger();
  const persistence = new WorkspacePersistence(memento, origin, log);
  const inbox = new Inbox();
  persistence.restoreInto(inbox);
  inbox.onDidChange(() => persistence.inboxChanged());
  const restored: SendOutcome[] = [];
  const client = new HubClient({
    hubUrl, token: TOKEN, senderName: 'test-editor', inbox, positions: persistence, log,
    commands: persistence.commands, onRestoredOutcome: (outcome) => restored.push(outcome),
    backoffBaseMs: 50, backoffCapMs: 400,
  });
  client.start();
  const close = () => {
    client.dispose();
    persistence.dispose();
    inbox.dispose();
  };
  return { client, inbox, persistence, log, restored, close };
}

describe('unsettled commands across a reload', () => {
  test('written, not acknowledged, client disposed: the next client resends the same id, the agent executes once, it settles accepted', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    const proxy = await TcpProxy.start(hub.port);
    const agentLog: string[] = [];
    const agent = await startAgent({ hubUrl: hub.url, token: TOKEN, scenarios: ['permission'], everyMs: 600_000, log: (line) => agentLog.push(line) });
    const memento = new MemoryMemento();
    const windows: Array<ReturnType<typeof openWindow>> = [];
    try {
      const first = openWindow(memento, proxy.url, proxy.url);
      windows.push(first);
      await waitUntil(() => first.inbox.open().some((item) => item.request?.renderKind === 'permission'), 'the permission request');
      const item = first.inbox.open().find((candidate) => candidate.request?.renderKind === 'permission')!;
      // The agent gets the command and acks it; the ack never reaches this client.
      proxy.droppingDownstream = true;
      const before = first.client.respond(item.request!, { option: 'deny' });
      await waitUntil(() => agent.decisions().some((decision) => decision.kind === 'accepted'), 'the agent to accept', 5_000, () => agentLog.join('\n'));
      first.close(); // the window reloads
      const interrupted = await before;
      assert.equal(interrupted.kind, 'awaiting-ack');
      assert.equal(interrupted.kind === 'awaiting-ack' && interrupted.sent, true);
      const commandId = interrupted.commandId;
      assert.deepEqual(first.persistence.commands.list().map((c) => c.id), [commandId]);

      proxy.restore();
      const second = openWindow(memento, proxy.url, proxy.url);
      windows.push(second);
      await waitUntil(() => second.restored.length > 0, 'the restored command to settle', 10_000, () => second.log.lines.join('\n'));
      assert.deepEqual(second.restored, [{ kind: 'accepted', commandId }]);
      assert.ok(second.log.dataOf('info', 'command-sent').some((data) => data['commandId'] === commandId && data['sameIdAgain'] === true), second.log.lines.join('\n'));
      await waitUntil(() => agent.decisions().some((decision) => decision.kind === 'replayed' && decision.commandId === commandId), 'the re-ack', 5_000, () => agentLog.join('\n'));
      const executions = agent.decisions().filter((decision) => decision.kind === 'accepted');
      assert.deepEqual(executions.map((decision) => decision.commandId), [commandId], 'executed once, that command id');
      assert.equal(second.persistence.commands.size, 0, 'settled: no longer stored');
      await waitUntil(() => second.inbox.item(item.key)?.status === 'resolved', 'resolved');
    } finally {
      for (const window of windows) window.close();
      await agent.close();
      await proxy.close();
      await hub.close();
    }
  });

  test('written while offline, client disposed: the next client sends it once connected, accepted, executed once', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    const proxy = await TcpProxy.start(hub.port);
    const agentLog: string[] = [];
    const agent = await startAgent({ hubUrl: hub.url, token: TOKEN, scenarios: ['permission'], everyMs: 600_000, log: (line) => agentLog.push(line) });
    const memento = new MemoryMemento();
    const windows: Array<ReturnType<typeof openWindow>> = [];
    try {
      const first = openWindow(memento, proxy.url, proxy.url);
      windows.push(first);
      await waitUntil(() => first.inbox.open().some((item) => item.request?.renderKind === 'permission'), 'the permission request');
      const item = first.inbox.open().find((candidate) => candidate.request?.renderKind === 'permission')!;
      proxy.sever(true);
      await waitUntil(() => !first.client.isConnected, 'offline');
      const before = first.client.respond(item.request!, { option: 'deny' });
      first.persistence.flush(); // the open request is saved with the reload, as dispose would
      first.close();
      const interrupted = await before;
      assert.deepEqual(interrupted, { kind: 'awaiting-ack', commandId: interrupted.commandId, sent: false });

      proxy.restore();
      const second = openWindow(memento, proxy.url, proxy.url);
      windows.push(second);
      await waitUntil(() => second.restored.length > 0, 'the restored command to settle', 10_000, () => second.log.lines.join('\n'));
      assert.deepEqual(second.restored, [{ kind: 'accepted', commandId: interrupted.commandId }]);
      const executions = agent.decisions().filter((decision) => decision.kind === 'accepted');
      assert.deepEqual(executions.map((decision) => decision.commandId), [interrupted.commandId], 'executed once, that command id');
      assert.equal(second.persistence.commands.size, 0);
    } finally {
      for (const window of windows) window.close();
      await agent.close();
      await proxy.close();
      await hub.close();
    }
  });

  /** A silent agent (it acks only when told) and its open request, seen by a first window. */
  async function silentTarget(memento: MemoryMemento, hubUrl: string, ackWindowMs: number) {
    const target = await ScriptedTarget.start(hubUrl, TOKEN, freshSession('kept'), { ackWindowMs });
    const first = openWindow(memento, hubUrl, hubUrl);
    const requestId = target.raise({ kind: 'permission', prompt: 'Run the migration?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] });
    await waitUntil(() => first.inbox.open().some((item) => item.requestId === requestId), 'the request in the first window');
    const item = first.inbox.open().find((candidate) => candidate.requestId === requestId)!;
    await waitUntil(() => first.client.reachability(item.session).state === 'reachable', 'the agent in the roster');
    return { target, first, item };
  }

  test('timed out before a reload: the reloaded page is offered Send again under that command id, which resends the same bytes', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    const memento = new MemoryMemento();
    const windows: Array<ReturnType<typeof openWindow>> = [];
    let target: ScriptedTarget | undefined;
    try {
      const started = await silentTarget(memento, hub.url, ROOMY_ACK_WINDOW_MS);
      target = started.target;
      const { first, item } = started;
      windows.push(first);
      const outcome = first.client.respond(item.request!, { option: 'allow' });
      const delivered = await target.nextCommand(0);
      const timedOut = await outcome;
      assert.deepEqual(timedOut, { kind: 'timeout', commandId: delivered.value['id'], afterMs: ROOMY_ACK_WINDOW_MS });
      first.close(); // the window reloads

      const second = openWindow(memento, hub.url, hub.url);
      windows.push(second);
      await waitUntil(() => second.client.isConnected, 'the second window to connect');
      const offered = keptMessages(second.persistence.commands.list(), item, item.agent, second.client.isConnected);
      assert.deepEqual(offered.map((m) => [m.submitId, m.phase, m.canRetry]), [[timedOut.commandId, 'timeout', true]]);
      assert.equal(target.commands().length, 1, 'a timed-out answer is not resent until the person asks');

      // "Send again" on the reloaded page: its submitId is the command id.
      const again = second.client.resend(offered[0]!.submitId);
      assert.ok(again, 'the reloaded window knows the timed-out command');
      const resent = await target.nextCommand(1);
      assert.equal(resent.text, delivered.text, 'the same command, byte for byte');
      target.accept(resent);
      assert.deepEqual(await again, { kind: 'accepted', commandId: timedOut.commandId });
      assert.equal(second.persistence.commands.size, 0);
      assert.deepEqual(keptMessages(second.persistence.commands.list(), item, item.agent, true), []);
    } finally {
      for (const window of windows) window.close();
      await target?.close();
      await hub.close();
    }
  });

  test('awaiting its ack across a reload, then timed out in the new window: shown as sent, then Send again resends the same id', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    const memento = new MemoryMemento();
    const windows: Array<ReturnType<typeof openWindow>> = [];
    let target: ScriptedTarget | undefined;
    try {
      const started = await silentTarget(memento, hub.url, 2_000);
      target = started.target;
      const { first, item } = started;
      windows.push(first);
      const before = first.client.respond(item.request!, { option: 'deny' });
      const delivered = await target.nextCommand(0);
      first.close(); // reloaded while the agent may be acting on it
      const interrupted = await before;
      assert.deepEqual(interrupted, { kind: 'awaiting-ack', commandId: delivered.value['id'], sent: true });

      const second = openWindow(memento, hub.url, hub.url);
      windows.push(second);
      // Whether connected yet or not, the page is told "sent, waiting", never "not sent", and gets no Send again.
      const onLoad = keptMessages(second.persistence.commands.list(), item, item.agent, second.client.isConnected);
      assert.deepEqual(onLoad.map((m) => [m.submitId, m.phase, m.canRetry]), [[interrupted.commandId, 'awaiting-ack', undefined]]);
      assert.match(onLoad[0]!.message, /^Sent; waiting for scripted-agent to acknowledge it\./);
      const resentOnConnect = await target.nextCommand(1);
      assert.equal(resentOnConnect.text, delivered.text);

      await waitUntil(() => second.restored.length > 0, 'the restored answer to time out', 10_000, () => second.log.lines.join('\n'));
      assert.deepEqual(second.restored, [{ kind: 'timeout', commandId: interrupted.commandId, afterMs: 2_000 }]);
      const offered = keptMessages(second.persistence.commands.list(), item, item.agent, second.client.isConnected);
      assert.deepEqual(offered.map((m) => [m.submitId, m.phase, m.canRetry]), [[interrupted.commandId, 'timeout', true]]);
      const again = second.client.resend(offered[0]!.submitId);
      assert.ok(again);
      const resent = await target.nextCommand(2);
      assert.equal(resent.text, delivered.text, 'Send again is the same command, byte for byte');
      target.accept(resent);
      assert.deepEqual(await again, { kind: 'accepted', commandId: interrupted.commandId });
      assert.equal(second.persistence.commands.size, 0);
    } finally {
      for (const window of windows) window.close();
      await target?.close();
      await hub.close();
    }
  });
});
