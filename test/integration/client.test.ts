// The hub client over real loopback sockets: round trip, resume after a
// severed connection, a lost acknowledgement, every refusal, a hostile hub,
// and a hub restart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HubClient, type ClientState, type HubClientOptions } from '../../src/client/hubClient';
import { MemoryPositionStore } from '../support/memoryPositionStore';
import { MIN_ACK_WINDOW_MS } from '../../src/client/rosterSnapshot';
import { Inbox } from '../../src/inbox/inbox';
import { startAgent } from '../peers/agent/agent';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { freshSession, makeCommand, makeEvent, makeRequest, postEvents } from '../support/events';
import { RecordingLogger } from '../support/recordingLogger';
import { ScriptedTarget } from '../support/scriptedTarget';
import { TcpProxy } from '../support/tcpProxy';
import { waitUntil } from '../support/waitUntil';
import { WsPeer } from '../support/wsPeer';
import { tokenCanFix } from '../../src/client/connectionFailure';
import { pageBeforeAsking } from '../../src/words/beforeAskingContent';
import { describeFailure } from '../../src/words/failureMessages';

const TOKEN = 'client-test-token';
const FORM = {
  kind: 'form',
  prompt: 'Configure the new service deployment',
  fields: [
    { id: 'name', type: 'string', label: 'Service name', required: true },
    { id: 'db', type: 'select', label: 'Database', other: true, choices: [{ id: '1', label: 'PostgreSQL' }, { id: '2', label: 'SQLite' }] },
  ],
  respond_via: ['control'],
};

interface Harness {
  client: HubClient;
  inbox: Inbox;
  log: RecordingLogger;
  states: ClientState[];
  /** Each state with the local time it was entered. */
  observed: Array<{ state: ClientState; at: number }>;
  problems: string[];
  positions: MemoryPositionStore;
}

const clients: HubClient[] = [];
function startClient(hubUrl: string, options: Partial<HubClientOptions> = {}): Harness {
  const inbox = new Inbox();
  const log = new RecordingLogger();
  const positions = new MemoryPositionStore();
  const client = new HubClient({
    hubUrl, token: TOKEN, senderName: 'test-editor', inbox, positions, log,
    backoffBaseMs: 50, backoffCapMs: 400, ...options,
  });
  const states: ClientState[] = [];
  const observed: Harness['observed'] = [];
  const problems: string[] = [];
  client.onDidChangeState((state) => {
    states.push(state);
    observed.push({ state, at: Date.now() });
  });
  client.onDidReportProblem((problem) => problems.push(problem.message));
  client.start();
  clients.push(client);
  return { client, inbox, log, states, observed, problems, positions };
}

const connected = (h: Harness, timeoutMs = 5_000) =>
  waitUntil(() => h.client.state.kind === 'connected', 'the client to connect', timeoutMs, () => JSON.stringify(h.client.state) + h.log.lines.slice(-3).join(' | '));

const open = (h: Harness, requestId: string) => h.inbox.open().find((item) => item.requestId === requestId);

after(() => {
  for (const client of clients) client.dispose();
});

describe('client against the local hub', () => {
  let hub: RunningHub;
  const targets: ScriptedTarget[] = [];
  const target = async (session = freshSession('c'), options: Parameters<typeof ScriptedTarget.start>[3] = {}) => {
    const t = await ScriptedTarget.start(hub.url, TOKEN, session, options);
    targets.push(t);
    return t;
  };
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
  });
  after(async () => {
    await Promise.all(targets.map((t) => t.close()));
    await hub.close();
  });

  test('round trip: a form arrives, the answer is accepted, answered and resolved close it', async () => {
    const agent = await target();
    const h = startClient(hub.url);
    await connected(h);
    const requestId = agent.raise(FORM);
    await waitUntil(() => open(h, requestId) !== undefined, 'the request in the inbox');
    const item = open(h, requestId);
    assert.equal(item?.request?.fields.length, 2);
    const outcome = h.client.respond(item!.request!, { values: { name: 'billing-api', db: 'MariaDB' } });
    const command = await agent.nextCommand();
    assert.equal(command.value['subject'], requestId);
    assert.equal(command.value['capture'], 'redacted');
    assert.equal('seq' in command.value, false);
    agent.accept(command);
    assert.deepEqual(await outcome, { kind: 'accepted', commandId: command.value['id'] });
    assert.ok(open(h, requestId), 'accepted is not resolved: the request stays until the agent resolves it');
    agent.answerAndResolve(command);
    await waitUntil(() => open(h, requestId) === undefined, 'the request to leave the inbox');
    assert.equal(h.inbox.findRequest(agent.session, requestId)?.status, 'resolved');
  });

  test('"Before asking": with it on, the session\'s tool calls before a request arrive beside it; off, they are not subscribed to', async () => {
    const session = freshSession('before');
    const source = `aep://test-host/agent/test-agent/session/${session}`;
    const events = [
      makeEvent('tool.requested', session, 1, { capture: 'redacted', data: { tool: { name: 'Bash', call_id: 'b1' }, args_redacted: { command: 'npm run build' } } }),
      makeEvent('tool.failed', session, 2, { data: { tool: { name: 'Bash', call_id: 'b1' }, error: { type: 'exit_2' }, duration_ms: 3200 } }),
      makeRequest(session, 3, { kind: 'permission', prompt: 'Run rm -rf build?' }),
    ];
    const posted = await postEvents(hub.url, TOKEN, events);
    assert.equal(posted.status, 202, JSON.stringify(posted.body));
    const requestId = events[2]!.id;
    const on = startClient(hub.url, { beforeAsking: true });
    const off = startClient(hub.url);
    // Replayed from the hub (`from`: the whole session), the actions before the request arrive with it.
    await waitUntil(() => open(on, requestId) !== undefined && open(off, requestId) !== undefined, 'the request in both inboxes');
    await waitUntil(() => on.inbox.recentActions(source, session)?.actions.length === 1, 'the action beside it');
    const action = on.inbox.recentActions(source, session)?.actions[0];
    assert.equal(action?.name, 'Bash');
    assert.deepEqual(action?.args, { shown: 'text', honesty: 'redacted', text: '{"command":"npm run build"}', chars: 27 });
    assert.deepEqual(action?.outcome, { state: 'failed', errorType: 'exit_2', durationMs: 3200 });
    assert.equal(off.inbox.recentActions(source, session), undefined);
    assert.equal(off.inbox.timeline(source, session).some((event) => event.type.startsWith('tool.')), false, 'not subscribed to');
  });

  test('invalid keeps the request pending; the corrected answer goes through', async () => {
    const agent = await target();
    const h = startClient(hub.url);
    await connected(h);
    const requestId = agent.raise(FORM);
    await waitUntil(() => open(h, requestId) !== undefined, 'the request');
    const request = open(h, requestId)!.request!;
    const first = h.client.respond(request, { values: { db: '1' } });
    agent.reject(await agent.nextCommand(0), 'invalid', 'field "name" is required');
    assert.deepEqual(await first, {
      kind: 'rejected', commandId: (await agent.nextCommand(0)).value['id'], reason: 'invalid', detail: 'field "name" is required',
    });
    assert.equal(open(h, requestId)?.status, 'pending');
    const second = h.client.respond(request, { values: { name: 'x', db: '1' } });
    const retry = await agent.nextCommand(1);
    assert.notEqual(retry.value['id'], (await agent.nextCommand(0)).value['id'], 'a corrected answer is a new command');
    agent.accept(retry);
    assert.equal((await second).kind, 'accepted');
  });

  test('relay-behalf refusals and a silent target settle with what happened', async () => {
    const h = startClient(hub.url);
    await connected(h);
    const noRoute = await h.client.respond({ id: 'R', session: freshSession('nobody'), source: 'aep://test-host/agent/unknown', fields: [] }, { option: 'allow' });
    assert.equal(noRoute.kind === 'refused-by-hub' && noRoute.code, 'no-route');

    const shared = freshSession('two');
    const claimants = [await target(shared, { agent: 'one' }), await target(shared, { agent: 'two' })];
    await Promise.all(claimants.map((claimant) => claimant.peer.handled()));
    const ambiguous = await h.client.respond({ id: 'R', session: shared, source: 'aep://test-host/agent/unknown', fields: [] }, { option: 'allow' });
    assert.equal(ambiguous.kind === 'refused-by-hub' && ambiguous.code, 'ambiguous');

    const deaf = await target(freshSession('deaf'), { accepts: [] });
    // The roster says so before anything is sent (AEP-0004 §4.2: the declared accepts are authoritative).
    await waitUntil(() => h.client.reachability(deaf.session).state === 'not-accepting', 'the roster to show the target takes no answers');
    const unsupported = await h.client.respond({ id: 'R', session: deaf.session, source: 'aep://test-host/agent/unknown', fields: [] }, { option: 'allow' });
    assert.equal(unsupported.kind === 'refused-by-hub' && unsupported.code, 'unsupported');

    // The shortest window the client honours (a shorter declared one is raised to it).
    const silent = await target(freshSession('silent'), { ackWindowMs: MIN_ACK_WINDOW_MS });
    await waitUntil(() => h.client.reachability(silent.session).state === 'reachable', 'the roster to list the silent target');
    const timeout = await h.client.respond({ id: 'R', session: silent.session, source: 'aep://test-host/agent/unknown', fields: [] }, { option: 'allow' });
    assert.deepEqual(timeout, { kind: 'timeout', commandId: timeout.commandId, afterMs: MIN_ACK_WINDOW_MS });
    assert.equal(silent.commands().length, 1, 'the command reached the silent target');
  });

  test('past expires_at the request stays open and an answer is still accepted; the agent decides (AEP-0002 §7)', async () => {
    const agent = await target();
    const h = startClient(hub.url);
    await connected(h);
    const requestId = agent.raise({ kind: 'permission', prompt: 'Deploy?', options: [{ id: 'allow', label: 'Allow' }], expires_at: new Date(Date.now() - 60_000).toISOString() });
    await waitUntil(() => open(h, requestId) !== undefined, 'the request in the inbox');
    h.inbox.noteDeadlinesPassed();
    const item = open(h, requestId);
    assert.equal(item?.status, 'pending', 'its deadline passed by this clock, and it is still open');
    const outcome = h.client.respond(item!.request!, { option: 'allow' });
    const command = await agent.nextCommand();
    agent.accept(command);
    assert.deepEqual(await outcome, { kind: 'accepted', commandId: command.value['id'] });
    agent.answerAndResolve(command);
    await waitUntil(() => open(h, requestId) === undefined, 'the agent to resolve it');
    assert.equal(h.inbox.findRequest(agent.session, requestId)?.status, 'resolved');
  });

  test('past expires_at, the agent\'s attention.timeout closes the request', async () => {
    const agent = await target();
    const h = startClient(hub.url);
    await connected(h);
    const requestId = agent.raise({ kind: 'input', prompt: 'Name?', expires_at: new Date(Date.now() - 1_000).toISOString() });
    await waitUntil(() => open(h, requestId) !== undefined, 'the request in the inbox');
    h.inbox.noteDeadlinesPassed();
    assert.equal(open(h, requestId)?.status, 'pending');
    agent.emit('attention.timeout', { after_ms: 1_000 }, { subject: requestId, cause: requestId });
    await waitUntil(() => open(h, requestId) === undefined, 'the timeout to close it');
    assert.equal(h.inbox.findRequest(agent.session, requestId)?.status, 'timed-out');
  });

  test('roster: reachability per session follows the fleet', async () => {
    const h = startClient(hub.url);
    await connected(h);
    const agent = await target(freshSession('roster'), { ackWindowMs: 2500 });
    await waitUntil(() => h.client.reachability(agent.session).state === 'reachable', 'the roster to see the new session');
    assert.deepEqual(h.client.reachability(agent.session), {
      state: 'reachable', agent: 'scripted-agent', accepts: ['control.attention.respond'], ackWindowMs: 2500,
    });
    agent.emit('session.ended', { reason: 'normal' });
    await agent.close();
    await waitUntil(() => h.client.reachability(agent.session).state === 'unreachable', 'the roster to drop the ended session');
  });

  test('roster: a request in a session the roster predates, with no session.started, asks for it again', async () => {
    const h = startClient(hub.url);
    await connected(h);
    // An emitter that claims its session by emitting in it, and whose first event is the request.
    const peer = await WsPeer.connect(hub.url, { token: TOKEN, role: 'both', agent: 'quiet-agent', capabilities: { control: { accepts: ['control.attention.respond'] } } });
    try {
      const session = freshSession('no-start');
      peer.send(makeEvent('attention.requested', session, 1, { capture: 'redacted', severity: 'notice', data: { kind: 'input', prompt: 'Name?' } }, 'quiet-agent'));
      await waitUntil(() => h.inbox.open().some((item) => item.session === session), 'the request in the inbox');
      await waitUntil(() => h.client.reachability(session).state === 'reachable', 'the roster to list the session its agent claims');
    } finally {
      await peer.close();
    }
  });
});

describe('client through a severable connection', () => {
  let hub: RunningHub;
  let proxy: TcpProxy;
  const targets: ScriptedTarget[] = [];
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
    proxy = await TcpProxy.start(hub.port);
  });
  after(async () => {
    await Promise.all(targets.map((t) => t.close()));
    await proxy.close();
    await hub.close();
  });

  test('sever mid-stream: the client reconnects and every missed event arrives once', async (t) => {
    const agent = await ScriptedTarget.start(hub.url, TOKEN, freshSession('sever'));
    targets.push(agent);
    const h = startClient(proxy.url);
    await connected(h);
    const ask = (i: number) => agent.raise({ kind: 'input', prompt: `Question ${i}` });
    for (let i = 0; i < 5; i++) ask(i);
    await waitUntil(() => h.inbox.timeline(agent.source, agent.session).length === 6, 'the first events');
    const severedAt = Date.now();
    proxy.sever();
    await waitUntil(() => h.client.state.kind === 'backing-off', 'the client to notice the drop');
    for (let i = 5; i < 10; i++) ask(i);
    // The hub holds the five asked while the client was away before the link comes back.
    await agent.peer.handled();
    proxy.restore();
    await connected(h);
    const reconnectMs = Date.now() - severedAt;
    await waitUntil(() => h.inbox.timeline(agent.source, agent.session).length === 11, 'the missed tail');
    const seqs = h.inbox.timeline(agent.source, agent.session).map((e) => e.seq);
    assert.deepEqual(seqs, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.equal(h.inbox.open().length, 10, 'every question is pending exactly once');
    const kinds = h.states.map((s) => s.kind);
    assert.deepEqual(kinds.slice(0, 3), ['connecting', 'connected', 'backing-off']);
    assert.equal(kinds.at(-1), 'connected');
    const stats = h.client.stats;
    assert.equal(stats.connections, 2);
    t.diagnostic(
      `reconnected ${reconnectMs} ms after the sever (150 ms of it blocked); ${stats.eventsApplied} events applied, ` +
        `${stats.duplicatesDropped} duplicates dropped by dedupe`,
    );
  });

  test('requests raised while away in brand-new sessions, over HTTP and by a duplex agent since gone, arrive once each', async (t) => {
    const known = await ScriptedTarget.start(hub.url, TOKEN, freshSession('known'));
    targets.push(known);
    const h = startClient(proxy.url);
    await connected(h);
    const knownRequest = known.raise({ kind: 'input', prompt: 'Asked while you were here' });
    await waitUntil(() => open(h, knownRequest) !== undefined, 'the first request');
    proxy.sever();
    await waitUntil(() => h.client.state.kind === 'backing-off', 'the client to notice the drop');

    // Two sessions the client has never seen, neither with a live duplex claimant by the time it
    // is back, so no saved position and no roster entry names them (AEP-0003 §4.1 rule 3).
    const posted = freshSession('http');
    const httpRequest = makeRequest(posted, 1, { kind: 'input', prompt: 'Posted while you were away' }, { severity: 'notice' });
    assert.equal((await postEvents(hub.url, TOKEN, [makeEvent('session.started', posted, 0), httpRequest])).status, 202);
    const gone = await ScriptedTarget.start(hub.url, TOKEN, freshSession('gone'));
    const goneRequest = gone.raise({ kind: 'input', prompt: 'Asked by an agent that then disconnected' });
    await gone.close();
    const raisedWhileAway = [httpRequest.id, goneRequest];

    const before = { ...h.client.stats };
    const restoredAt = Date.now();
    proxy.restore();
    await connected(h);
    await waitUntil(() => raisedWhileAway.every((id) => open(h, id) !== undefined), 'both requests raised while disconnected', 5_000, () => h.log.lines.slice(-5).join(' | '));
    const caughtUpMs = Date.now() - restoredAt;
    const replayed = h.client.stats.eventsApplied + h.client.stats.duplicatesDropped - before.eventsApplied - before.duplicatesDropped;
    assert.ok(h.log.dataOf('info', 'subscribing').filter((data) => data['replay'] === 'all').length >= 2, 'the reconnect asked for everything held');

    // A second outage and a live request afterwards: still each request exactly once.
    proxy.sever();
    await waitUntil(() => h.client.state.kind === 'backing-off', 'the second drop');
    proxy.restore();
    await connected(h);
    const later = makeRequest(posted, 2, { kind: 'input', prompt: 'Posted after you came back' }, { severity: 'notice' });
    assert.equal((await postEvents(hub.url, TOKEN, [later])).status, 202);
    await waitUntil(() => open(h, later.id) !== undefined, 'a live request in the posted session');
    const expected = [knownRequest, ...raisedWhileAway, later.id];
    const ours = h.inbox.open().filter((item) => [known.session, posted, gone.session].includes(item.session));
    assert.deepEqual(ours.map((item) => item.requestId).sort(), [...expected].sort(), 'every request exactly once');
    assert.deepEqual(h.inbox.timeline(gone.source, gone.session).map((e) => e.seq), [0, 1], 'the gone agent\'s session, whole and in order');
    assert.deepEqual(h.inbox.timeline(httpRequest.source, posted).map((e) => e.seq), [0, 1, 2], 'the posted session, whole and in order');
    assert.deepEqual(h.problems, [], 'nothing went wrong');
    t.diagnostic(`first reconnect replayed ${replayed} events (${h.client.stats.duplicatesDropped} duplicates dropped in all); both requests open ${caughtUpMs} ms after the restore`);
  });

  test('sever right after sending: the ack is lost, the same command id is resent, the client settles once', async () => {
    const agent = await ScriptedTarget.start(hub.url, TOKEN, freshSession('lostack'));
    targets.push(agent);
    const h = startClient(proxy.url);
    await connected(h);
    const requestId = agent.raise({ kind: 'permission', prompt: 'Run it?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] });
    await waitUntil(() => open(h, requestId) !== undefined, 'the request');
    let settled = 0;
    const outcome = h.client.respond(open(h, requestId)!.request!, { option: 'allow' }).then((o) => {
      settled++;
      return o;
    });
    const first = await agent.nextCommand(0);
    proxy.sever();
    agent.accept(first);
    agent.answerAndResolve(first);
    await waitUntil(() => h.client.state.kind === 'backing-off', 'the drop');
    proxy.restore();
    const resent = await agent.nextCommand(1, 5_000);
    assert.equal(resent.text, first.text, 'the retry is the same envelope, same id');
    // A conformant target dedupes the retry and re-sends its recorded ack.
    assert.deepEqual(await outcome, { kind: 'accepted', commandId: first.value['id'] });
    await waitUntil(() => open(h, requestId) === undefined, 'the request to resolve');
    // A marker: a later answer reaches the agent behind anything still queued for the first.
    const markerId = agent.raise({ kind: 'input', prompt: 'Marker' });
    await waitUntil(() => open(h, markerId) !== undefined, 'the marker request');
    void h.client.respond(open(h, markerId)!.request!, { text: 'marker' });
    const marker = await agent.nextCommand(2);
    assert.equal(marker.value['cause'], markerId);
    assert.equal(settled, 1);
    assert.equal(agent.commands().length, 3, 'the first answer on the wire twice (one command id), then the marker');
    assert.equal(h.client.stats.commandsSettled, 1);
  });
});

describe('client configuration failures and hub restarts', () => {
  test('a wrong token fails with the fix named, without a retry loop', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    try {
      const h = startClient(hub.url, { token: 'wrong' });
      await waitUntil(() => h.client.state.kind === 'failed', 'the failure');
      const state = h.client.state;
      assert.deepEqual(state.kind === 'failed' && state.failure, { code: 'token-refused', httpStatus: 401 });
      assert.match(state.kind === 'failed' ? describeFailure(state.failure) : '', /refused the token \(HTTP 401\).*Set Hub Token/);
      assert.ok(state.kind === 'failed' && tokenCanFix(state.failure), 'the UI offers Set Hub Token from the code');
      // A retry is only ever scheduled on the way into backing-off; that a final failure schedules
      // none, on a fake clock, is hostileHub.test.ts's (a fake clock here would also move the
      // HTTP client's keep-alive timers left by earlier tests).
      assert.deepEqual(h.states.map((s) => s.kind), ['connecting', 'failed'], 'no retry loop');
      assert.equal(h.log.lines.some((line) => line.includes('wrong')), false, 'the token is never logged');
    } finally {
      await hub.close();
    }
  });

  test('no token at a hub that requires one fails as a missing token, not a refused one', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    try {
      const h = startClient(hub.url, { token: undefined });
      await waitUntil(() => h.client.state.kind === 'failed', 'the failure');
      const state = h.client.state;
      assert.deepEqual(state.kind === 'failed' && state.failure, { code: 'token-missing', httpStatus: 401 });
      assert.match(state.kind === 'failed' ? describeFailure(state.failure) : '', /requires a token \(HTTP 401\)\. Set it with .*Set Hub Token/);
      assert.doesNotMatch(state.kind === 'failed' ? describeFailure(state.failure) : '', /refused/);
    } finally {
      await hub.close();
    }
  });

  test('plain ws to a remote host is refused before any connection', () => {
    const h = startClient('http://192.0.2.10:8787');
    const state = h.client.state;
    assert.equal(state.kind, 'failed');
    assert.equal(state.kind === 'failed' && state.failure.code, 'bad-address');
    assert.match(state.kind === 'failed' ? describeFailure(state.failure) : '', /TLS/);
  });

  test('a watch-only hub (no control declared, no token) gets no answer: each is refused here with the watch-only code, and nothing reaches the hub', async () => {
    const hubLog: string[] = [];
    const hub = await startHub({ port: 0, log: (line) => hubLog.push(line) });
    const marker = await WsPeer.connect(hub.url, { role: 'both' });
    try {
      const h = startClient(hub.url, { token: undefined });
      const request = { id: 'R', session: 's', source: 'aep://test-host/agent/unknown', fields: [] };
      // Before the hello nothing is known: this answer waits for the connection, and must not go out once the hello says watch-only.
      assert.equal(h.client.watchOnly, false);
      const queued = h.client.respond(request, { option: 'deny' });
      await connected(h);
      assert.equal(h.client.watchOnly, true);
      assert.deepEqual(h.client.reachability('s'), { state: 'watch-only' }, 'every surface reads it before sending');
      const outcome = await h.client.respond(request, { option: 'allow' });
      assert.equal(outcome.kind === 'cancelled' && outcome.code, 'watch-only', JSON.stringify(outcome));
      const early = await queued;
      assert.equal(early.kind === 'cancelled' && early.code, 'watch-only', JSON.stringify(early));
      // A command sent after ours, on another connection, is logged by the hub: had ours gone out, it would be logged before it.
      const after = makeCommand('control.attention.respond', freshSession('after'), { subject: 'R2', data: { answer: { option: 'allow' } } });
      marker.send(after);
      await marker.waitFor((received) => received.value['cause'] === after['id']);
      await waitUntil(() => hubLog.some((line) => line.includes(String(after['id']))), 'the hub to log the later command');
      assert.deepEqual(hubLog.filter((line) => line.includes('control.attention.respond') && !line.includes(String(after['id']))), [], hubLog.join('\n'));
      assert.deepEqual(h.log.find({ code: 'command-sent' }), [], h.log.lines.join('\n'));
    } finally {
      await marker.close();
      await hub.close();
    }
  });

  test('with a token the same hub is not watch-only for this client: the answer goes to the hub, which has the last word', async () => {
    const hubLog: string[] = [];
    const hub = await startHub({ port: 0, log: (line) => hubLog.push(line) });
    try {
      const h = startClient(hub.url, { token: 'a-token-the-hub-does-not-ask-for' });
      await connected(h);
      assert.equal(h.client.watchOnly, false);
      const outcome = await h.client.respond({ id: 'R', session: 's', source: 'aep://test-host/agent/unknown', fields: [] }, { option: 'allow' });
      assert.equal(outcome.kind === 'refused-by-hub' && outcome.code, 'unauthorized', JSON.stringify(outcome));
      assert.ok(hubLog.some((line) => /refused control\.attention\.respond .*unauthorized/.test(line)), hubLog.join('\n'));
    } finally {
      await hub.close();
    }
  });

  test('hub restart: the client reconnects by itself within the backoff cap', async (t) => {
    const first = await startHub({ port: 0, token: TOKEN });
    const port = first.port;
    const h = startClient(first.url, { backoffCapMs: 300 });
    await connected(h);
    await first.close();
    await waitUntil(() => h.client.state.kind === 'backing-off', 'the client to see the hub go');
    await waitUntil(() => h.states.filter((s) => s.kind === 'backing-off').length >= 2, 'a second attempt while the hub is down');
    const restartedAt = Date.now();
    const second = await startHub({ port, token: TOKEN });
    try {
      await connected(h, 15_000);
      t.diagnostic(`reconnected ${Date.now() - restartedAt} ms after the hub came back`);
      const kinds = h.states.map((s) => s.kind);
      assert.ok(kinds.filter((k) => k === 'backing-off').length >= 2, 'several attempts were made while the hub was down');
      // Every wait was within the cap: the delay is computed when the state is entered.
      const delays = h.observed.flatMap((o) => (o.state.kind === 'backing-off' ? [o.state.retryAt - o.at] : []));
      assert.ok(delays.length >= 2 && delays.every((delay) => delay <= 300 + 5), JSON.stringify(delays));
      assert.deepEqual(kinds.slice(-2), ['connecting', 'connected']);
    } finally {
      await second.close();
    }
  });
});

describe('client against the demo agent', () => {
  test('round trip: the s_form form, an invalid answer, the corrected one accepted, answered and resolved', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    const agentLog: string[] = [];
    const agent = await startAgent({ hubUrl: hub.url, token: TOKEN, scenarios: ['form'], everyMs: 600_000, log: (line) => agentLog.push(line) });
    try {
      const h = startClient(hub.url);
      await waitUntil(() => h.inbox.open().some((item) => item.request?.renderKind === 'form'), 'the demo form');
      const item = h.inbox.open().find((candidate) => candidate.request?.renderKind === 'form')!;
      assert.deepEqual(item.request!.fields.map((f) => f.id), ['name', 'staged', 'regions', 'db']);
      // The protocol core's validator would catch this; the agent must too (and keep the request pending).
      const invalid = await h.client.respond(item.request!, { values: { staged: true } });
      assert.equal(invalid.kind === 'rejected' && invalid.reason, 'invalid');
      assert.equal(h.inbox.item(item.key)?.status, 'pending');
      const accepted = await h.client.respond(item.request!, { values: { name: 'billing-api', staged: true, regions: ['1', '3'], db: 'MariaDB' } });
      assert.equal(accepted.kind, 'accepted');
      await waitUntil(() => h.inbox.item(item.key)?.status === 'resolved', 'resolved');
      assert.deepEqual(h.inbox.item(item.key)?.answer?.values, { name: 'billing-api', staged: true, regions: ['1', '3'], db: 'MariaDB' });
      assert.equal(agent.requests().find((r) => r.id === item.requestId)?.state, 'answered');
    } finally {
      await agent.close();
      await hub.close();
    }
  });

  test('"Before asking": the demo agent\'s work before each request is beside it, as far as each request\'s capture allows', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    // Its forms rotate through capture redacted, redacted, metadata (scenarios.ts); it works before each.
    const agent = await startAgent({ hubUrl: hub.url, token: TOKEN, scenarios: ['form'], everyMs: 50, count: 3, lingerMs: 60_000, log: () => undefined });
    try {
      const h = startClient(hub.url, { beforeAsking: true });
      await waitUntil(() => h.inbox.open().length === 3, 'three requests');
      const items = [...h.inbox.open()].sort((a, b) => (a.requestEvent.seq ?? 0) - (b.requestEvent.seq ?? 0));
      assert.deepEqual(items.map((item) => item.request?.capture), ['redacted', 'redacted', 'metadata']);
      for (const [index, item] of items.entries()) {
        const view = pageBeforeAsking(h.inbox.recentActions(item.source, item.session), item.requestEvent);
        // Newest first: its own work, then the work before the requests before it.
        assert.equal(view.actions.length, 3 * (index + 1));
        assert.deepEqual(view.actions.slice(0, 3).map((a) => `${a.name} ${a.outcome.state}`), ['Edit done', 'Bash failed', 'Read done']);
        const bash = view.actions[1]!;
        assert.equal(bash.outcome.state === 'failed' && bash.outcome.errorType, 'exit_1');
        if (item.request?.capture === 'metadata') {
          assert.deepEqual(bash.args, { shown: 'level' });
          assert.equal(bash.outcome.state === 'failed' && bash.outcome.message, undefined);
        } else {
          assert.deepEqual(bash.args, { shown: 'text', honesty: 'redacted', text: '{"command":"npm run build"}', chars: 27 });
          assert.deepEqual(bash.outcome.state === 'failed' && bash.outcome.message, { shown: 'text', honesty: 'redacted', text: 'tsc: 3 errors in src/app.ts', chars: 27 });
        }
        assert.equal(view.earlier, 'complete', 'it saw the session start');
      }
      // The tokens and cost before each request, as the agent reported them: one piece of work per request
      // so far. Before the first, the session's totals already hold work done after it: they are recomputed as of it.
      const usageBefore = (item: (typeof items)[number]) => pageBeforeAsking(h.inbox.recentActions(item.source, item.session), item.requestEvent).usage;
      for (const [index, item] of items.entries()) {
        const usage = usageBefore(item);
        assert.equal(usage?.inputTokens, 1_850 * (index + 1));
        assert.equal(usage?.outputTokens, 240 * (index + 1));
        assert.equal(usage?.cost?.currency, 'USD');
        assert.ok(Math.abs((usage?.cost?.total ?? 0) - 0.0123 * (index + 1)) < 1e-9, String(usage?.cost?.total));
      }
    } finally {
      await agent.close();
      await hub.close();
    }
  });

  test('a lost ack: the same command id twice on the wire, the agent executes once and re-acks, the client settles once', async () => {
    const hub = await startHub({ port: 0, token: TOKEN });
    const proxy = await TcpProxy.start(hub.port);
    const agentLog: string[] = [];
    const agent = await startAgent({ hubUrl: hub.url, token: TOKEN, scenarios: ['permission'], everyMs: 600_000, log: (line) => agentLog.push(line) });
    try {
      const h = startClient(proxy.url);
      await waitUntil(() => h.inbox.open().some((item) => item.request?.renderKind === 'permission'), 'the permission request');
      const item = h.inbox.open().find((candidate) => candidate.request?.renderKind === 'permission')!;
      const settled: string[] = [];
      // From here on the client hears nothing: the agent's ack is lost on the way back.
      proxy.droppingDownstream = true;
      const outcome = h.client.respond(item.request!, { option: 'deny' }).then((o) => {
        settled.push(o.kind);
        return o;
      });
      await waitUntil(() => agent.decisions().some((decision) => decision.kind === 'accepted'), 'the agent to accept');
      assert.deepEqual(settled, [], 'the ack never arrived');
      proxy.sever();
      await waitUntil(() => h.client.state.kind === 'backing-off', 'the drop');
      proxy.restore();
      assert.equal((await outcome).kind, 'accepted');
      await waitUntil(() => agent.decisions().some((decision) => decision.kind === 'replayed'), 'the re-ack of the resent command', 5_000, () => agentLog.join('\n'));
      await waitUntil(() => h.inbox.item(item.key)?.status === 'resolved', 'resolved');
      assert.deepEqual(settled, ['accepted']);
      assert.equal(agent.decisions().filter((decision) => decision.kind === 'accepted').length, 1, 'executed once');
      assert.equal(h.client.stats.commandsSettled, 1);
    } finally {
      await agent.close();
      await proxy.close();
      await hub.close();
    }
  });
});

describe('client backpressure', () => {
  test('a replay larger than the queue bound pauses the socket instead of dropping the connection', async () => {
    const hub = await startHub({ port: 0, token: TOKEN, slowConsumerBytes: 1 << 30 });
    try {
      const sessions = 10;
      const perSession = 2_500;
      for (let s = 0; s < sessions; s++) {
        const session = freshSession(`flood${s}`);
        // attention.* so the client's subscription takes them.
        const events = Array.from({ length: perSession }, (_, seq) =>
          makeEvent('attention.answered', session, seq, { subject: `R${seq}`, data: { answer: { option: 'allow' } } }, 'flooder'));
        for (let i = 0; i < events.length; i += 1_000) assert.equal((await postEvents(hub.url, TOKEN, events.slice(i, i + 1_000))).status, 202);
      }
      const h = startClient(hub.url, { maxQueuedMessages: 20_000 });
      await waitUntil(() => h.client.stats.eventsApplied >= sessions * perSession, 'every flooded event', 30_000, () => JSON.stringify(h.client.stats));
      assert.equal(h.client.stats.connections, 1, 'never dropped the connection to catch up');
      assert.equal(h.client.state.kind, 'connected');
    } finally {
      await hub.close();
    }
  });
});

describe('client: a replay of everything cut short', () => {
  test('a drop in the middle of the first replay of everything asks for everything again: no session is skipped', async () => {
    const hub = await startHub({ port: 0, token: TOKEN, slowConsumerBytes: 1 << 30 });
    const proxy = await TcpProxy.start(hub.port);
    try {
      // Sessions whose agents are gone (no roster entry), each with one open request among many events.
      const sessions = Array.from({ length: 12 }, (_, i) => freshSession(`held${i}`));
      for (const session of sessions) {
        // The request comes last, so a session counts as seen only once its whole buffer has arrived.
        const events = Array.from({ length: 1_499 }, (_, n) => makeEvent('attention.answered', session, n, { subject: `X${n}`, data: { answer: { option: 'allow' } } }, 'gone-agent'));
        events.push(makeRequest(session, 1_499, { kind: 'input', prompt: `Question of ${session}` }, { severity: 'notice' }, 'gone-agent'));
        for (let i = 0; i < events.length; i += 1_000) assert.equal((await postEvents(hub.url, TOKEN, events.slice(i, i + 1_000))).status, 202);
      }
      // Cut the line while the replay is under way, at a set point of it (the replay is 18,000 events,
      // 5.3 MB on the wire; 3 MB in, about half the sessions have come whole): waiting for the client
      // to have applied part of it first was a race that a busy machine lost, the whole replay applied
      // before the cut.
      const cut = proxy.severAfter(3_000_000);
      const h = startClient(proxy.url);
      const seenAll = () => sessions.every((session) => h.inbox.open().some((item) => item.session === session));
      let severed = false;
      void cut.then(() => (severed = true));
      await waitUntil(() => severed || seenAll(), 'the cut, part way through the replay', 30_000);
      assert.ok(severed, 'the whole replay passed before the cut: it is smaller than the test takes it to be');
      await waitUntil(() => h.client.state.kind === 'backing-off', 'the client to notice the drop');
      const seenBefore = sessions.filter((session) => h.inbox.open().some((item) => item.session === session)).length;
      proxy.restore();
      await waitUntil(seenAll, 'every session\'s request', 30_000,
        () => `${sessions.filter((session) => h.inbox.open().some((item) => item.session === session)).length} of ${sessions.length}`);
      assert.ok(seenBefore < sessions.length, `the cut came before the end of the replay (${seenBefore} of ${sessions.length} seen)`);
      assert.ok(h.log.dataOf('info', 'subscribing').filter((data) => data['replay'] === 'all').length >= 2, 'the reconnect asked for everything again');
    } finally {
      await proxy.close();
      await hub.close();
    }
  });
});
