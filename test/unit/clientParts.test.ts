import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Backoff } from '../../src/client/backoff';
import { ControlSender, type SendOutcome } from '../../src/client/controlSender';
import { addressProblemText, hubEndpoint, isLoopbackHost } from '../../src/client/hubEndpoint';
import { silentLogger } from '../../src/base/logger';
import { MemoryPositionStore } from '../support/memoryPositionStore';
import { EventIntake } from '../../src/client/eventIntake';
import { Inbox } from '../../src/inbox/inbox';
import { makeEvent, makeRequest } from '../support/events';
import { RosterSnapshot } from '../../src/client/rosterSnapshot';
import { filterProblemText, SUBSCRIBED_TYPES, subscriptionFilter } from '../../src/client/userFilter';
import { buildRespondCommand } from '../../src/aep/control';
import { parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import { tokenCanFix } from '../../src/client/connectionFailure';
import { describeFailure } from '../../src/words/failureMessages';

describe('hubEndpoint', () => {
  test('derives the socket URL and the origin tokens are keyed by', () => {
    assert.deepEqual(hubEndpoint('http://127.0.0.1:8787'), {
      ok: true, value: { origin: 'http://127.0.0.1:8787', base: 'http://127.0.0.1:8787', socketUrl: 'ws://127.0.0.1:8787/socket', loopback: true },
    });
    const remote = hubEndpoint('https://hub.example.com/aep/');
    assert.ok(remote.ok);
    assert.equal(remote.value.socketUrl, 'wss://hub.example.com/aep/socket');
    assert.equal(remote.value.origin, 'https://hub.example.com');
    assert.equal(remote.value.loopback, false);
  });

  test('refuses plain http to another host unless explicitly allowed, and says why', () => {
    const refused = hubEndpoint('http://10.1.2.3:8787');
    assert.equal(refused.ok, false);
    assert.deepEqual(refused.ok ? undefined : refused.problem, { code: 'insecure-remote', scheme: 'http:', host: '10.1.2.3' });
    if (!refused.ok) assert.match(addressProblemText(refused.problem), /TLS .*AEP-0003 §8\.1.*allowInsecureRemote/);
    if (!refused.ok) assert.match(describeFailure({ code: 'bad-address', address: refused.problem }), /TLS .*AEP-0003 §8\.1.*allowInsecureRemote/);
    assert.equal(hubEndpoint('http://10.1.2.3:8787', true).ok, true);
    assert.equal(hubEndpoint('ws://localhost:8787').ok, true);
  });

  test('refuses tokens in the URL and other schemes', () => {
    for (const [url, code, pattern] of [
      ['http://127.0.0.1:8787/?access_token=abc', 'token-in-url', /must not carry a token/],
      ['http://user:secret@127.0.0.1:8787', 'token-in-url', /must not carry a token or credentials/],
      ['ftp://127.0.0.1', 'unsupported-scheme', /must start with http/],
      ['not a url', 'not-a-url', /is not a URL/],
    ] as const) {
      const result = hubEndpoint(url);
      assert.equal(result.ok ? undefined : result.problem.code, code, url);
      if (!result.ok) {
        assert.match(addressProblemText(result.problem), pattern);
        assert.match(describeFailure({ code: 'bad-address', address: result.problem }), pattern);
        assert.equal(tokenCanFix({ code: 'bad-address', address: result.problem }), code === 'token-in-url', 'Set Hub Token is offered for a token in the URL');
      }
    }
  });

  test('loopback means literal loopback: localhost exactly, 127.0.0.0/8, ::1; never a name DNS decides', () => {
    const cases: Array<[string, boolean]> = [
      ['localhost', true], ['LOCALHOST', true], ['127.0.0.1', true], ['127.8.9.10', true], ['127.255.255.255', true], ['[::1]', true],
      ['a.localhost', false], ['evil.com.localhost', false], ['localhost.', false], ['localhost.evil.com', false],
      ['127.0.0.1.nip.io', false], ['127.0.0.256', false], ['example.com', false], ['128.0.0.1', false], ['[::ffff:7f00:1]', false], ['0.0.0.0', false],
    ];
    for (const [host, loopback] of cases) assert.equal(isLoopbackHost(host), loopback, host);
  });

  test('plain ws:// is refused to a *.localhost name and allowed to literal loopback, as the URL parser normalises it', () => {
    assert.equal(hubEndpoint('http://evil.com.localhost:8787').ok, false);
    assert.equal(hubEndpoint('http://127.1:8787').ok, true, '127.1 is 127.0.0.1 to the URL parser');
    assert.equal(hubEndpoint('http://[::1]:8787').ok, true);
  });

  test('a problem never echoes the configured URL (it may carry a token)', () => {
    const result = hubEndpoint('http//user:ghp_secretsecretsecret@127.0.0.1');
    assert.equal(result.ok, false);
    if (!result.ok) assert.doesNotMatch(`${addressProblemText(result.problem)} ${describeFailure({ code: 'bad-address', address: result.problem })}`, /ghp_secret/);
  });
});

describe('Backoff', () => {
  test('grows exponentially to the cap, jittered within the upper half, and resets', () => {
    const lowest = new Backoff(100, 1_000, () => 0);
    assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => lowest.next()), [50, 100, 200, 400, 500, 500]);
    const highest = new Backoff(100, 1_000, () => 1);
    assert.deepEqual([1, 2, 3, 4, 5].map(() => highest.next()), [100, 200, 400, 800, 1000]);
    highest.reset();
    assert.equal(highest.next(), 100);
  });
});

describe('subscriptionFilter', () => {
  test('ANDs the user filter with the types the extension needs', () => {
    assert.deepEqual(subscriptionFilter(undefined), { ok: true, value: { type: [...SUBSCRIBED_TYPES] } });
    assert.deepEqual(subscriptionFilter({ agent: 'claude-code' }), { ok: true, value: { agent: 'claude-code', type: [...SUBSCRIBED_TYPES] } });
  });
  test('with "Before asking" on, also the tool and run types it shows, exactly (no step or cancel chatter)', () => {
    const actions = ['tool.requested', 'tool.completed', 'tool.failed', 'tool.denied', 'run.started', 'run.finished', 'run.failed'];
    assert.deepEqual(subscriptionFilter(undefined, true), { ok: true, value: { type: [...SUBSCRIBED_TYPES, ...actions] } });
    assert.deepEqual(subscriptionFilter({ agent: 'a' }, true), { ok: true, value: { agent: 'a', type: [...SUBSCRIBED_TYPES, ...actions] } });
  });
  test('refuses type, severity and invalid keys as codes; both wordings name the setting', () => {
    for (const [filter, code, pattern] of [
      [{ type: 'attention.*' }, 'names-type', /may not name `type`/],
      [{ severity: { gte: 'notice' } }, 'names-severity', /may not name `severity`.*notifications/],
      [{ seq: 3 }, 'invalid', /^aepAttention\.filter.*seq/],
      ['agent', 'invalid', /^aepAttention\.filter/],
      // Grammatical (a hub subscribes to them), but they match nothing: the person hears why.
      [{ session: 5 }, 'matches-nothing', /^aepAttention\.filter.*session/],
      [{ epoch: '0' }, 'matches-nothing', /^aepAttention\.filter.*epoch/],
    ] as const) {
      const result = subscriptionFilter(filter);
      assert.equal(result.ok ? undefined : result.problem.code, code, JSON.stringify(filter));
      if (!result.ok) {
        assert.match(filterProblemText(result.problem), pattern);
        assert.match(describeFailure({ code: 'bad-filter', filter: result.problem }), pattern);
      }
    }
  });
});

describe('RosterSnapshot', () => {
  test('reachable, ambiguous, unreachable, unknown; the ack window to use', () => {
    const roster = new RosterSnapshot();
    assert.deepEqual(roster.reachability('s1'), { state: 'unknown' });
    roster.update([
      { session: 's1', agent: 'demo-agent', control: { accepts: ['control.attention.respond'], ack_window_ms: 4000 } },
      { session: 's2', agent: 'a' },
      { session: 's2', agent: 'b' },
    ]);
    assert.deepEqual(roster.reachability('s1'), { state: 'reachable', agent: 'demo-agent', accepts: ['control.attention.respond'], ackWindowMs: 4000 });
    assert.deepEqual(roster.reachability('s2'), { state: 'ambiguous', claimants: 2 });
    assert.deepEqual(roster.reachability('s3'), { state: 'unreachable' });
    assert.equal(roster.ackWindowFor('s1'), 4000);
    assert.equal(roster.ackWindowFor('s3'), 10_000);
    roster.update(null);
    assert.deepEqual(roster.reachability('s1'), { state: 'unknown' });
  });
});

describe('RosterSnapshot: the claimant\'s accepts decide (AEP-0003 §4.1, AEP-0004 §4.2)', () => {
  test('a claimant that does not list control.attention.respond is not-accepting; absent control accepts nothing', () => {
    const roster = new RosterSnapshot();
    roster.update([
      { session: 'other-commands', agent: 'a', control: { accepts: ['control.run.cancel'], ack_window_ms: 4000 } },
      { session: 'empty', agent: 'b', control: { accepts: [] } },
      { session: 'no-control' },
      { session: 'takes-answers', agent: 'd', control: { accepts: ['control.run.cancel', 'control.attention.respond'] } },
    ]);
    assert.deepEqual(roster.reachability('other-commands'), { state: 'not-accepting', agent: 'a', accepts: ['control.run.cancel'] });
    assert.deepEqual(roster.reachability('empty'), { state: 'not-accepting', agent: 'b', accepts: [] });
    assert.deepEqual(roster.reachability('no-control'), { state: 'not-accepting', accepts: [] });
    assert.deepEqual(roster.reachability('takes-answers'), {
      state: 'reachable', agent: 'd', accepts: ['control.run.cancel', 'control.attention.respond'], ackWindowMs: 10_000,
    });
    // Not reachable for answers: the ack window is the protocol default, not the declared one.
    assert.equal(roster.ackWindowFor('other-commands'), 10_000);
  });

  test('a later roster that adds respond makes the session reachable again', () => {
    const roster = new RosterSnapshot();
    roster.update([{ session: 's1', agent: 'a', control: { accepts: [] } }]);
    assert.equal(roster.reachability('s1').state, 'not-accepting');
    roster.update([{ session: 's1', agent: 'a', control: { accepts: ['control.attention.respond'] } }]);
    assert.equal(roster.reachability('s1').state, 'reachable');
  });

  test('a claimant that is one of several stays ambiguous whatever it accepts', () => {
    const roster = new RosterSnapshot();
    roster.update([{ session: 's1', control: { accepts: [] } }, { session: 's1', control: { accepts: ['control.attention.respond'] } }]);
    assert.deepEqual(roster.reachability('s1'), { state: 'ambiguous', claimants: 2 });
  });
});

describe('MemoryPositionStore', () => {
  test('keeps the latest position per session', () => {
    const store = new MemoryPositionStore([{ session: 'a', epoch: 0, seq: 1 }]);
    store.record({ session: 'a', epoch: 0, seq: 5 });
    store.record({ session: 'b', epoch: 2, seq: 0 });
    assert.deepEqual(store.load(), [{ session: 'a', epoch: 0, seq: 5 }, { session: 'b', epoch: 2, seq: 0 }]);
  });
});

describe('EventIntake: per-session state is per (source, session) (AEP-0001 §5.2)', () => {
  test('built from saved positions, it drops what their emitter applied, not another emitter\'s events in the same session string', () => {
    const first = makeRequest('main', 1, {}, {}, 'first');
    const store = new MemoryPositionStore([{ source: first.source, session: 'main', epoch: 0, seq: 3 }, { session: 'default', epoch: 0, seq: 3 }]);
    const inbox = new Inbox();
    const intake = new EventIntake(inbox, store, new ControlSender(silentLogger), () => undefined);
    intake.take(first, false);
    intake.take(makeRequest('main', 1, {}, {}, 'second'), false);
    intake.take(makeRequest('default', 1, {}, {}, 'first'), false);
    assert.deepEqual(inbox.open().map((item) => `${item.agent}/${item.session}`), ['second/main', 'first/default'], 'a position saved without its source holds nothing back');
    assert.deepEqual(intake.counts, { eventsApplied: 2, duplicatesDropped: 1, positionsTaken: 0, commandsSettled: 0 });
    intake.dispose();
  });

  test('a request sent again under its id with other content is not applied, and is reported once: the first stands', () => {
    const reported: string[] = [];
    const inbox = new Inbox();
    const intake = new EventIntake(inbox, new MemoryPositionStore(), new ControlSender(silentLogger), (message) => reported.push(message));
    const first = makeRequest('main', 1, { prompt: 'Delete the build folder?' });
    intake.take(first, false);
    intake.take(structuredClone(first), false);
    assert.deepEqual(reported, [], 'a redelivery of the same request says nothing');
    const changed = { ...structuredClone(first), seq: 2, data: { ...(first.data as object), prompt: 'Delete the home folder?' } };
    intake.take(changed, false);
    intake.take({ ...changed, seq: 3, data: { ...changed.data, prompt: 'Delete everything?' } }, false);
    assert.deepEqual(inbox.open().map((item) => item.request?.prompt), ['Delete the build folder?'], 'what is shown and answered is the first');
    assert.equal(reported.length, 1, reported.join('\n'));
    assert.match(reported[0] ?? '', new RegExp(`test-agent sent request "${first.id}" in session main .* again with other content: the first stands`));
    assert.equal(intake.counts.duplicatesDropped, 3);
    const reordered = makeRequest('main', 4, { prompt: 'Run it?', options: [{ id: 'y', label: 'Yes' }] });
    intake.take(reordered, false);
    intake.take({ ...reordered, data: Object.fromEntries(Object.entries(reordered.data as object).reverse()) }, false);
    assert.equal(reported.length, 1, 'the same content with its members in another order is the same request');
    intake.dispose();
  });

  test('an emitter\'s session.ended forgets its position only', () => {
    const store = new MemoryPositionStore();
    const intake = new EventIntake(new Inbox(), store, new ControlSender(silentLogger), () => undefined);
    for (const agent of ['first', 'second']) intake.take(makeEvent('session.started', 'main', 0, {}, agent), false);
    assert.equal(store.load().length, 2);
    const ended = makeEvent('session.ended', 'main', 1, {}, 'first');
    intake.take(ended, false);
    assert.deepEqual(store.load().map((p) => p.source), [makeEvent('session.started', 'main', 0, {}, 'second').source]);
    intake.dispose();
  });
});

describe('ControlSender', () => {
  const target = { session: 's1', source: 'aep://h/agent/a/session/s1' };
  const sender = { agent: 'tester', source: 'aep://host/agent/tester' };
  const command = () => {
    const built = buildRespondCommand({ id: 'R1', session: 's1', fields: [] }, { option: 'allow' }, sender);
    assert.ok(built.ok, 'an option answer carries no free text: always built');
    return built.command;
  };
  const ack = (type: string, cause: string, data?: unknown): AepEvent => {
    const parsed = parseEnvelope({
      aep: '0.1', id: `ack-${Math.random()}`, type, time: new Date().toISOString(), source: 'aep://h/agent/a/session/s1',
      agent: 'a', session: 's1', seq: 1, cause, ...(data === undefined ? {} : { data }),
    });
    assert.ok(parsed.ok);
    return parsed.value;
  };

  test('queues while offline, sends on connect, settles once on the ack', async () => {
    const control = new ControlSender(silentLogger);
    const written: string[] = [];
    const cmd = command();
    const outcome = control.send(cmd, 5_000, target);
    assert.equal(written.length, 0);
    control.connected((text) => (written.push(text), true));
    assert.deepEqual(written, [JSON.stringify(cmd)]);
    assert.equal(control.onAck(ack('control.accepted', cmd.id)), true);
    assert.equal(control.onAck(ack('control.accepted', cmd.id)), false, 'a second ack finds nothing pending');
    assert.deepEqual(await outcome, { kind: 'accepted', commandId: cmd.id });
  });

  test('an unacknowledged command is resent byte-identically after a reconnect', async () => {
    const control = new ControlSender(silentLogger);
    const written: string[] = [];
    const cmd = command();
    control.connected((text) => (written.push(text), true));
    const outcome = control.send(cmd, 5_000, target);
    control.disconnected();
    control.connected((text) => (written.push(text), true));
    assert.equal(written.length, 2);
    assert.equal(written[0], written[1]);
    control.onAck(ack('control.rejected', cmd.id, { reason: 'invalid', detail: 'field "name" is required' }));
    assert.deepEqual(await outcome, { kind: 'rejected', commandId: cmd.id, reason: 'invalid', detail: 'field "name" is required' });
  });

  test('a cause-matched hub error frame settles as refused; silence settles as timeout', async () => {
    const control = new ControlSender(silentLogger);
    control.connected(() => true);
    const refused = command();
    const refusedOutcome = control.send(refused, 5_000, target);
    assert.equal(control.onErrorFrame({ type: 'error', code: 'no-route', cause: refused.id, detail: 'nobody home' }), true);
    assert.deepEqual(await refusedOutcome, { kind: 'refused-by-hub', commandId: refused.id, code: 'no-route', detail: 'nobody home' });
    const silent = command();
    const outcome: SendOutcome = await control.send(silent, 50, target);
    assert.deepEqual(outcome, { kind: 'timeout', commandId: silent.id, afterMs: 50 });
  });

  test('a timed-out command is sent again byte-identically under the same id on request', async () => {
    const control = new ControlSender(silentLogger);
    const written: string[] = [];
    control.connected((text) => (written.push(text), true));
    const cmd = command();
    assert.equal((await control.send(cmd, 30, target)).kind, 'timeout');
    assert.equal(control.resend('no-such-command'), undefined);
    const again = control.resend(cmd.id);
    assert.ok(again, 'the timed-out command can be resent');
    assert.deepEqual(written, [JSON.stringify(cmd), JSON.stringify(cmd)]);
    control.onAck(ack('control.accepted', cmd.id));
    assert.deepEqual(await again, { kind: 'accepted', commandId: cmd.id });
    assert.equal(control.resend(cmd.id), undefined, 'an acknowledged command is not resent');
  });

  test('an ack that arrives after the window goes to the late hook (the pipeline\'s record), and leaves nothing to send again', async () => {
    const control = new ControlSender(silentLogger);
    const written: string[] = [];
    control.connected((text) => (written.push(text), true));
    const cmd = command();
    const late: SendOutcome[] = [];
    assert.equal((await control.send(cmd, 30, target, false, { late: (outcome) => late.push(outcome) })).kind, 'timeout');
    assert.equal(control.onAck(ack('control.rejected', cmd.id, { reason: 'invalid', detail: 'late' })), true);
    assert.deepEqual(late, [{ kind: 'rejected', commandId: cmd.id, reason: 'invalid', detail: 'late' }]);
    assert.equal(control.resend(cmd.id), undefined, 'settled: no "Send again" of it');
    assert.equal(written.length, 1, 'nothing was written again');
  });

  test('a hub refusal that arrives after the window settles the command as refused, with the reason, and leaves nothing to send again', async () => {
    const control = new ControlSender(silentLogger);
    const written: string[] = [];
    control.connected((text) => (written.push(text), true));
    const cmd = command();
    const late: SendOutcome[] = [];
    assert.equal((await control.send(cmd, 30, target, false, { late: (outcome) => late.push(outcome) })).kind, 'timeout');
    assert.equal(control.onErrorFrame({ type: 'error', code: 'no-route', cause: cmd.id, detail: 'nobody home' }), true, 'a cause-matched error frame is a refusal (AEP-0004 §4.2)');
    assert.deepEqual(late, [{ kind: 'refused-by-hub', commandId: cmd.id, code: 'no-route', detail: 'nobody home' }]);
    assert.equal(control.resend(cmd.id), undefined, 'settled: no "Send again" of it');
    assert.equal(written.length, 1, 'nothing was written again');
    assert.equal(control.onErrorFrame({ type: 'error', code: 'no-route', cause: cmd.id }), false, 'settled once');
    assert.equal(control.onErrorFrame({ type: 'error', code: 'no-route', cause: 'someone-else' }), false, 'not ours');
  });

  test('dispose cancels what is pending', async () => {
    const control = new ControlSender(silentLogger);
    const outcome = control.send(command(), 5_000, target);
    control.dispose();
    assert.equal((await outcome).kind, 'cancelled');
    assert.equal(control.pendingCount, 0);
  });
});
