// The demo agent as a control-capable target (AEP-0004 §2–§7) and as the
// owner of its attention requests (AEP-0002 §7, AEP-0006, AEP-0008): the pure
// decision logic, without sockets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerProblem, wordsReplyAccepted } from '../../src/aep/answerCheck';
import { parseAttentionRequest, readAnswered, readResolved, type Answer } from '../../src/aep/attention';
import { ACCEPTED_TYPE, REJECTED_TYPE, RESPOND_TYPE, readRejected } from '../../src/aep/control';
import { parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import { ulid } from '../../src/base/ulid';
import { optionsFromArgs, UsageError } from '../peers/agent/cliArgs';
import { CANCEL_TYPE, ControlTarget, isCommandType, type CommandStep, type Step } from '../peers/agent/controlTarget';
import { ScenarioCycle, loadFormVariants, planFor, type RequestPlan, type ScenarioName } from '../peers/agent/scenarios';
import { validEvent } from '../support/events';
import { goldenEvents, readAepJson } from '../support/fixtures';

const T0 = Date.parse('2026-07-03T10:00:00.000Z');
const TIMINGS = { expireMs: 5_000, oobMs: 3_000 };
const SESSIONS = ['demo-form-t', 'demo-permission-t', 'demo-input-t', 'demo-oob-t', 'demo-expiring-t'] as const;
const SESSION_OF: Record<ScenarioName, string> = {
  form: 'demo-form-t', permission: 'demo-permission-t', input: 'demo-input-t', oob: 'demo-oob-t', expiring: 'demo-expiring-t',
};
const SENDER = 'test-editor';

function newTarget(): ControlTarget {
  const target = new ControlTarget({ identity: { agent: 'demo-agent', host: 'test-host', epoch: 0 }, sessions: SESSIONS });
  target.startSessions(T0);
  return target;
}

function formPlan(label: string): RequestPlan {
  const index = loadFormVariants().findIndex((variant) => variant.label === label);
  assert.ok(index >= 0, `form variant ${label}`);
  return planFor('form', index, TIMINGS);
}

function raise(target: ControlTarget, plan: RequestPlan, now = T0): string {
  return target.raise(SESSION_OF[plan.scenario], plan, now).requestId;
}

/** A command from the editor; `data` is as given, for the target to judge. */
function command(session: string, subject: string | undefined, data: Record<string, unknown>, type = RESPOND_TYPE, id = ulid()): AepEvent {
  return validEvent({
    id, type, time: new Date(T0).toISOString(), source: 'aep://editor/agent/test-editor', agent: SENDER,
    session, capture: 'redacted', data,
    ...(subject !== undefined ? { subject, cause: subject } : {}),
  });
}

const respond = (session: string, subject: string, answer: Answer, id?: string) => command(session, subject, { answer }, RESPOND_TYPE, id);

/** The events a step sent, parsed back from the exact texts. */
function sent(step: Step): AepEvent[] {
  return step.send.map((text) => {
    const parsed = parseEnvelope(JSON.parse(text));
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
    return parsed.value;
  });
}

function rejection(step: CommandStep): { reason: string; detail?: string } {
  const [ack] = sent(step);
  assert.ok(ack);
  assert.equal(ack.type, REJECTED_TYPE);
  const data = readRejected(ack);
  assert.ok(data.ok);
  return data.value;
}

function stateOf(target: ControlTarget, id: string): string | undefined {
  return target.requests().find((request) => request.id === id)?.state;
}

describe('demo agent: sessions and requests it raises', () => {
  test('every session starts at seq 0, owns a stable source, and seq strictly increases per session', () => {
    const target = new ControlTarget({ identity: { agent: 'demo-agent', host: 'Test Host', epoch: 0 }, sessions: ['a', 'b'] });
    const started = sent(target.startSessions(T0));
    assert.deepEqual(started.map((e) => [e.type, e.session, e.seq, e.epoch]), [['session.started', 'a', 0, 0], ['session.started', 'b', 0, 0]]);
    assert.equal(started[0]?.source, 'aep://test-host/agent/demo-agent/session/a');
    const first = target.raise('a', planFor('input', 0, TIMINGS), T0);
    const second = target.raise('a', planFor('input', 1, TIMINGS), T0 + 1);
    assert.deepEqual([...sent(first), ...sent(second)].map((e) => e.seq), [1, 2]);
  });

  test('attention.requested is notice, carries respond_via, and oob / expiring have their shapes', () => {
    const target = newTarget();
    for (const scenario of ['form', 'permission', 'input', 'oob', 'expiring'] as const) {
      const step = target.raise(SESSION_OF[scenario], planFor(scenario, 0, TIMINGS), T0);
      const [event] = sent(step);
      assert.ok(event);
      assert.equal(event.type, 'attention.requested');
      assert.equal(event.severity, 'notice');
      assert.deepEqual(event.data?.['respond_via'], scenario === 'oob' ? ['oob'] : ['control']);
      if (scenario === 'expiring') assert.equal(event.data?.['expires_at'], new Date(T0 + TIMINGS.expireMs).toISOString());
      assert.match(step.log[0] ?? '', new RegExp(`^raised ${event.id} `));
    }
  });

  test('the form scenario raises the golden s_form and the Claude Code mapping forms verbatim', () => {
    const golden = goldenEvents().find((e) => e.session === 's_form' && e.type === 'attention.requested');
    const mappings = readAepJson<Record<string, { expected_data: unknown; expected_data_metadata: unknown }>>('mappings/claude-code.json');
    const cycle = new ScenarioCycle(['form'], TIMINGS);
    const plans = [cycle.next(), cycle.next(), cycle.next(), cycle.next(), cycle.next(), cycle.next()];
    assert.deepEqual(plans.map((p) => [p.label, p.capture]), [
      ['form s_form', 'redacted'],
      ['form ask-user-question (redacted)', 'redacted'],
      ['form ask-user-question (metadata)', 'metadata'],
      ['form mcp-elicitation (redacted)', 'redacted'],
      ['form mcp-elicitation (metadata)', 'metadata'],
      ['form s_form', 'redacted'],
    ]);
    // A rotation can start further on: the first request is then the first one at capture metadata.
    assert.deepEqual([new ScenarioCycle(['form'], TIMINGS, 2).next().label], ['form ask-user-question (metadata)']);
    assert.deepEqual(plans[0]?.data, golden?.data);
    assert.deepEqual(plans[1]?.data, mappings['ask_user_question']?.expected_data);
    assert.deepEqual(plans[2]?.data, mappings['ask_user_question']?.expected_data_metadata);
    assert.deepEqual(plans[3]?.data, mappings['elicitation']?.expected_data);
    assert.deepEqual(plans[4]?.data, mappings['elicitation']?.expected_data_metadata);
  });

  test('ending a session closes its open requests first (AEP-0002 §7 rule 2)', () => {
    const target = newTarget();
    const id = raise(target, planFor('permission', 0, TIMINGS));
    const events = sent(target.endSession(SESSION_OF.permission, T0 + 500));
    assert.deepEqual(events.map((e) => e.type), ['attention.resolved', 'session.ended']);
    assert.equal(events[0]?.subject, id);
    assert.deepEqual(events[0]?.data, { resolution: 'dismissed', latency_ms: 500 });
    assert.equal(stateOf(target, id), 'dismissed');
    assert.deepEqual(target.endSession(SESSION_OF.permission, T0 + 600).send, [], 'a session ends once');
  });
});

describe('demo agent: control target (AEP-0004)', () => {
  test('a redelivered command gets the recorded ack re-sent byte-identically, never a second decision', () => {
    const target = newTarget();
    const id = raise(target, planFor('permission', 0, TIMINGS));
    const cmd = respond(SESSION_OF.permission, id, { option: 'allow' });
    const first = target.handle(cmd, T0 + 100);
    assert.equal(first.decision.kind, 'accepted');
    assert.deepEqual(sent(first).map((e) => e.type), [ACCEPTED_TYPE, 'attention.answered', 'attention.resolved']);
    const recorded = first.send[0];
    const again = target.handle(cmd, T0 + 5_000);
    assert.equal(again.decision.kind, 'replayed');
    assert.deepEqual(again.send, [recorded], 'the exact serialized ack, same id and seq');
    assert.deepEqual(again.emitted, []);
    assert.match(again.log[0] ?? '', /^re-acked /);
    assert.equal(target.requests().filter((r) => r.state === 'answered').length, 1);
  });

  test('a recorded rejection is re-sent too, and dedupe is on (source, id), not the bare id', () => {
    const target = newTarget();
    const cmd = respond(SESSION_OF.form, ulid(), { option: 'live-check-probe' });
    const first = target.handle(cmd, T0);
    assert.equal(first.decision.kind, 'rejected');
    assert.deepEqual(target.handle(cmd, T0 + 120).send, first.send);
    const sameIdOtherSender = parseEnvelope({ ...cmd, source: 'aep://elsewhere/agent/other' });
    assert.ok(sameIdOtherSender.ok);
    const other = target.handle(sameIdOtherSender.value, T0 + 200);
    assert.equal(other.decision.kind, 'rejected', 'a new decision for a different sender');
    assert.notEqual(sent(other)[0]?.id, sent(first)[0]?.id);
  });

  test('one decision per command; ack cause = command id, outcome cause-linked, all sequenced in the target session', () => {
    const target = newTarget();
    const id = raise(target, planFor('permission', 0, TIMINGS));
    const cmd = respond(SESSION_OF.permission, id, { option: 'deny' });
    const [ack, answered, resolved] = sent(target.handle(cmd, T0 + 250));
    assert.ok(ack && answered && resolved);
    assert.equal(ack.cause, cmd.id);
    assert.equal(ack.subject, undefined);
    assert.equal(answered.cause, cmd.id);
    assert.equal(answered.subject, id);
    assert.equal(resolved.cause, answered.id);
    assert.equal(resolved.subject, id);
    for (const event of [ack, answered, resolved]) {
      assert.equal(event.session, SESSION_OF.permission);
      assert.equal(event.source, 'aep://test-host/agent/demo-agent/session/demo-permission-t');
    }
    assert.deepEqual([ack.seq, answered.seq, resolved.seq], [2, 3, 4]);
    const answeredData = readAnswered(answered);
    assert.ok(answeredData.ok);
    assert.deepEqual(answeredData.value, { answer: { option: 'deny' }, via: 'control', by: SENDER });
    const resolvedData = readResolved(resolved);
    assert.ok(resolvedData.ok);
    assert.deepEqual(resolvedData.value, { resolution: 'answered', latency_ms: 250 });

    // A second, distinct command for the closed request is its own decision: invalid.
    const late = target.handle(respond(SESSION_OF.permission, id, { option: 'allow' }), T0 + 300);
    assert.deepEqual(rejection(late), { reason: 'invalid', detail: `no pending request ${id} (it was already answered)` });
  });

  test('a command type outside control.accepts is nacked unsupported', () => {
    const target = newTarget();
    const step = target.handle(command(SESSION_OF.form, undefined, {}, 'control.pause'), T0);
    const nack = rejection(step);
    assert.equal(nack.reason, 'unsupported');
    assert.match(nack.detail ?? '', /control\.pause is not declared/);
    assert.equal(sent(step)[0]?.session, SESSION_OF.form);
    assert.ok(isCommandType('control.pause') && isCommandType('x.acme.control.reboot'));
    assert.ok(!isCommandType(ACCEPTED_TYPE) && !isCommandType(REJECTED_TYPE) && !isCommandType('attention.requested'));
  });

  test('unknown subject, missing subject and a session it does not own are invalid, without side effects', () => {
    const target = newTarget();
    const id = raise(target, planFor('permission', 0, TIMINGS));
    const unknown = ulid();
    assert.deepEqual(rejection(target.handle(respond(SESSION_OF.form, unknown, { option: 'live-check-probe' }), T0)), {
      reason: 'invalid', detail: `no pending request ${unknown}`,
    });
    assert.equal(rejection(target.handle(command(SESSION_OF.form, undefined, { answer: { option: 'allow' } }), T0)).reason, 'invalid');
    // The request exists, but in another of our sessions: still no pending request *there*.
    assert.equal(rejection(target.handle(respond(SESSION_OF.form, id, { option: 'allow' }), T0)).reason, 'invalid');
    const foreign = target.handle(respond('somebody-else', id, { option: 'allow' }), T0);
    assert.deepEqual(rejection(foreign), { reason: 'invalid', detail: 'session somebody-else is not a session of demo-agent' });
    assert.equal(sent(foreign)[0]?.session, SESSIONS[0], 'answered from our own home session, never in a session we do not own');
    assert.equal(stateOf(target, id), 'pending');
  });

  test('a malformed answer is invalid', () => {
    const target = newTarget();
    const id = raise(target, planFor('permission', 0, TIMINGS));
    const nack = rejection(target.handle(command(SESSION_OF.permission, id, { answer: { option: 7 } }), T0));
    assert.equal(nack.reason, 'invalid');
    assert.match(nack.detail ?? '', /malformed answer/);
    assert.equal(rejection(target.handle(respond(SESSION_OF.permission, id, { option: 'maybe' }), T0)).detail, 'option maybe is not one of allow, deny');
  });
});

describe('demo agent: form answers (AEP-0006)', () => {
  test('a nack that quotes what the responder sent passes the redaction pipeline before it claims capture "redacted"', () => {
    const target = newTarget();
    const id = raise(target, formPlan('form s_form'));
    const step = target.handle(respond(SESSION_OF.form, id, { values: { name: 'billing-api', 'password=hunter2secret': 'x', 'ops@example.com': 'y' } }), T0 + 10);
    const [ack] = sent(step);
    assert.equal(ack?.capture, 'redacted');
    const { reason, detail = '' } = rejection(step);
    assert.equal(reason, 'invalid');
    assert.match(detail, /is not a field of this form/);
    assert.ok(!detail.includes('hunter2secret') && !detail.includes('ops@example.com'), detail);
    assert.match(detail, /password=\[REDACTED:secret\]/);
    assert.ok(!step.log.join('\n').includes('hunter2secret'), 'nor does the log line say it');
  });

  test('invalid values are nacked naming the field; the request stays pending; a corrected answer with a new id is accepted', () => {
    const target = newTarget();
    const id = raise(target, formPlan('form s_form'));
    const missing = target.handle(respond(SESSION_OF.form, id, { values: { staged: true, regions: ['1'], db: '1' } }), T0 + 10);
    assert.deepEqual(rejection(missing), { reason: 'invalid', detail: 'field "name" is required' });
    assert.match(missing.log[0] ?? '', /^rejected \S+ invalid: field "name" is required$/);
    assert.equal(stateOf(target, id), 'pending');

    const notAChoice = target.handle(respond(SESSION_OF.form, id, { values: { name: 'billing-api', regions: ['9'] } }), T0 + 20);
    assert.match(rejection(notAChoice).detail ?? '', /^field "regions": /);
    assert.equal(stateOf(target, id), 'pending');

    const values = { name: 'billing-api', staged: true, regions: ['1', '3'], db: 'MariaDB' };
    const fixed = target.handle(respond(SESSION_OF.form, id, { values }), T0 + 5_000);
    assert.equal(fixed.decision.kind, 'accepted');
    const [ack, answered, resolved] = sent(fixed);
    assert.equal(ack?.type, ACCEPTED_TYPE);
    assert.equal(answered?.capture, 'redacted', 'string and other free text need redacted');
    assert.deepEqual(answered?.data, { answer: { values }, via: 'control', by: SENDER });
    assert.equal(resolved?.cause, answered?.id);
    assert.match(fixed.log[0] ?? '', /^accepted \S+ for \S+ \(form s_form\) values=\{"name":"billing-api",/);
    assert.equal(stateOf(target, id), 'answered');
  });

  test('at capture metadata the answered values are gated: string and other free text are dropped', () => {
    const target = newTarget();
    const elicitation = raise(target, formPlan('form mcp-elicitation (metadata)'));
    const step = target.handle(
      respond(SESSION_OF.form, elicitation, { values: { environment: 'staging', replicas: 3, reason: 'hotfix for the outage', confirm: true } }),
      T0,
    );
    const answered = sent(step)[1];
    assert.equal(answered?.capture, 'metadata');
    assert.deepEqual(answered?.data?.['answer'], { values: { environment: 'staging', replicas: 3, confirm: true } });
    assert.doesNotMatch(step.send.join('\n'), /hotfix/);

    const ask = raise(target, formPlan('form ask-user-question (metadata)'));
    const other = target.handle(respond(SESSION_OF.form, ask, { values: { '1': 'MariaDB', '2': ['1', '2'] } }), T0);
    const askAnswered = sent(other)[1];
    assert.equal(askAnswered?.capture, 'metadata');
    assert.deepEqual(askAnswered?.data?.['answer'], { values: { '2': ['1', '2'] } });
  });

  test('the elicitation form is closed: a value that is no enum choice is invalid', () => {
    const target = newTarget();
    const id = raise(target, formPlan('form mcp-elicitation (redacted)'));
    const step = target.handle(respond(SESSION_OF.form, id, { values: { environment: 'qa', confirm: true } }), T0);
    assert.match(rejection(step).detail ?? '', /^field "environment": pick one of the listed choices$/);
  });

  test('a form is answered with values, not an option', () => {
    const target = newTarget();
    const id = raise(target, formPlan('form s_form'));
    assert.equal(rejection(target.handle(respond(SESSION_OF.form, id, { text: 'yes' }), T0)).reason, 'invalid');
    assert.equal(rejection(target.handle(respond(SESSION_OF.form, id, { option: 'ok' }), T0)).reason, 'invalid');
  });

  test('a reply in words alone: refused for a form with a required field, taken for one without (AEP-0006); our own answer check agrees on each', () => {
    const field = (id: string, required: boolean) => ({ id, type: 'string', label: id, required });
    const forms: Array<[string, ReturnType<typeof field>[]]> = [
      ['one required of two', [field('name', true), field('note', false)]],
      ['every field optional', [field('name', false), field('note', false)]],
      ['one optional field', [field('note', false)]],
      ...loadFormVariants().filter((variant) => variant.capture === 'redacted').map((variant): [string, ReturnType<typeof field>[]] => [variant.label, variant.data['fields'] as ReturnType<typeof field>[]]),
    ];
    for (const [label, fields] of forms) {
      const target = newTarget();
      const plan: RequestPlan = { scenario: 'form', label, capture: 'redacted', data: { kind: 'form', prompt: 'Deploy settings', fields } };
      const raised = target.raise(SESSION_OF.form, plan, T0);
      const event = parseEnvelope(JSON.parse(raised.send[0] ?? '{}'));
      assert.ok(event.ok);
      const request = parseAttentionRequest(event.value);
      assert.ok(request.ok);
      const answer = { text: 'use the defaults' };
      const ours = answerProblem(request.value, answer);
      const step = target.handle(respond(SESSION_OF.form, raised.requestId, answer), T0);
      const required = fields.some((f) => f.required);
      assert.equal(step.decision.kind, required ? 'rejected' : 'accepted', label);
      assert.equal(ours?.code, required ? 'words-need-fields' : undefined, label);
      assert.equal(wordsReplyAccepted(request.value.fields), !required, label);
      if (!required) assert.deepEqual(sent(step)[1]?.data?.['answer'], answer, `${label}: the words as applied`);
    }
  });
});

describe('demo agent: text answers and response channels (AEP-0008)', () => {
  const answerOf = (step: CommandStep) => sent(step)[1]?.data?.['answer'];

  test('text naming an option (id or label, trimmed, any case) is that option', () => {
    for (const [text, option] of [[' DENY ', 'deny'], ['allow', 'allow'], ['Allow', 'allow'], ['deny', 'deny']] as const) {
      const target = newTarget();
      const id = raise(target, planFor('permission', 0, TIMINGS));
      const step = target.handle(respond(SESSION_OF.permission, id, { text }), T0);
      assert.equal(step.decision.kind, 'accepted', text);
      assert.deepEqual(answerOf(step), { option }, text);
      assert.equal(sent(step)[1]?.capture, 'metadata');
    }
  });

  test('unmatched text applies the refusing option with the text as the reason, never the permissive one', () => {
    const target = newTarget();
    const id = raise(target, planFor('permission', 0, TIMINGS));
    const step = target.handle(respond(SESSION_OF.permission, id, { text: 'use the staging registry instead' }), T0);
    assert.equal(step.decision.kind, 'accepted');
    assert.deepEqual(answerOf(step), { option: 'deny', text: 'use the staging registry instead' });
    assert.equal(sent(step)[1]?.capture, 'redacted');
    assert.match(step.log[0] ?? '', /option=deny text="use the staging registry instead"/);
  });

  test('an input question takes text; an option or empty text is invalid', () => {
    const target = newTarget();
    const id = raise(target, planFor('input', 0, TIMINGS));
    assert.equal(rejection(target.handle(respond(SESSION_OF.input, id, { option: 'yes' }), T0)).reason, 'invalid');
    assert.equal(rejection(target.handle(respond(SESSION_OF.input, id, { text: '   ' }), T0)).reason, 'invalid');
    const step = target.handle(respond(SESSION_OF.input, id, { text: 'Faster forms' }), T0);
    assert.deepEqual(answerOf(step), { text: 'Faster forms' });
  });

  test('an oob card refuses control answers, then resolves on its own (answered via oob, then resolved)', () => {
    const target = newTarget();
    const id = raise(target, planFor('oob', 0, TIMINGS));
    const nack = rejection(target.handle(respond(SESSION_OF.oob, id, { option: 'once' }), T0 + 10));
    assert.equal(nack.reason, 'refused');
    assert.match(nack.detail ?? '', /out of band/);
    assert.equal(stateOf(target, id), 'pending');
    assert.equal(target.outOfBandDelay(id), TIMINGS.oobMs);

    const [answered, resolved] = sent(target.answerOutOfBand(id, T0 + TIMINGS.oobMs));
    assert.equal(answered?.type, 'attention.answered');
    assert.equal(answered?.subject, id);
    assert.deepEqual(answered?.data, { answer: { option: 'deny' }, via: 'oob', by: 'terminal' });
    assert.equal(resolved?.type, 'attention.resolved');
    assert.equal(resolved?.cause, answered?.id);
    assert.equal(rejection(target.handle(respond(SESSION_OF.oob, id, { option: 'once' }), T0 + 4_000)).reason, 'invalid');
  });
});

describe('demo agent: expiry', () => {
  test('an unanswered expiring request ends in attention.timeout with after_ms; later answers are invalid', () => {
    const target = newTarget();
    const id = raise(target, planFor('expiring', 0, TIMINGS));
    const [timeout] = sent(target.expire(id, T0 + TIMINGS.expireMs));
    assert.equal(timeout?.type, 'attention.timeout');
    assert.equal(timeout?.subject, id);
    assert.deepEqual(timeout?.data, { after_ms: TIMINGS.expireMs });
    assert.deepEqual(target.expire(id, T0 + 9_000).send, [], 'one terminal event');
    assert.deepEqual(rejection(target.handle(respond(SESSION_OF.expiring, id, { option: 'allow' }), T0 + 6_000)), {
      reason: 'invalid', detail: `no pending request ${id} (it timed out)`,
    });
  });

  test('an answer arriving past expires_at, before the timer fired, gets the timeout first, then the nack', () => {
    const target = newTarget();
    const id = raise(target, planFor('expiring', 0, TIMINGS));
    const step = target.handle(respond(SESSION_OF.expiring, id, { option: 'allow' }), T0 + TIMINGS.expireMs + 1);
    assert.deepEqual(sent(step).map((e) => e.type), ['attention.timeout', REJECTED_TYPE]);
    assert.equal(stateOf(target, id), 'timed-out');
  });

  test('answered in time, it is accepted like any permission request', () => {
    const target = newTarget();
    const id = raise(target, planFor('expiring', 0, TIMINGS));
    assert.equal(target.handle(respond(SESSION_OF.expiring, id, { option: 'allow' }), T0 + 1_000).decision.kind, 'accepted');
    assert.deepEqual(target.expire(id, T0 + TIMINGS.expireMs).send, []);
  });
});

describe('demo agent: runs and control.cancel (AEP-0004 §5)', () => {
  const SESSION = 'demo-permission-t';
  function runningTarget(): ControlTarget {
    const target = new ControlTarget({
      identity: { agent: 'demo-agent', host: 'test-host', epoch: 0 }, sessions: [SESSION], accepts: [RESPOND_TYPE, CANCEL_TYPE],
    });
    target.startSessions(T0);
    return target;
  }
  const cancel = (data: Record<string, unknown>, run?: string): AepEvent => validEvent({
    type: CANCEL_TYPE, time: new Date(T0).toISOString(), source: 'aep://editor/agent/test-editor', agent: SENDER,
    session: SESSION, capture: 'redacted', data, ...(run !== undefined ? { run } : {}),
  });

  test('an accepted cancel: the ack, then one run.cancelled cause-linked to the command; a redelivery is re-acked, never re-executed', () => {
    const target = runningTarget();
    const [started] = sent(target.startRun(SESSION, 'r1', T0 + 10));
    assert.deepEqual([started?.type, started?.run, started?.seq], ['run.started', 'r1', 1]);
    assert.deepEqual(target.liveRuns(), [{ session: SESSION, run: 'r1' }]);

    const cmd = cancel({ scope: 'run', reason: 'stop it' }, 'r1');
    const step = target.handle(cmd, T0 + 510);
    assert.deepEqual(step.decision, { kind: 'cancelled', runs: ['r1'] });
    const [ack, cancelled, ...rest] = sent(step);
    assert.deepEqual(rest, []);
    assert.deepEqual([ack?.type, ack?.cause, ack?.seq], [ACCEPTED_TYPE, cmd.id, 2]);
    assert.deepEqual([cancelled?.type, cancelled?.run, cancelled?.cause, cancelled?.seq, cancelled?.capture], ['run.cancelled', 'r1', cmd.id, 3, 'metadata']);
    assert.deepEqual(cancelled?.data, { by: 'control', duration_ms: 500 }, 'the reason is the sender\'s redacted text: it is not echoed');
    assert.deepEqual(target.liveRuns(), []);

    assert.deepEqual(target.handle(cmd, T0 + 900).send, [step.send[0]], 'the recorded ack, byte-identical, and no second run.cancelled');
    assert.deepEqual(rejection(target.handle(cancel({ scope: 'run' }, 'r1'), T0 + 950)), { reason: 'invalid', detail: 'run r1 has already been cancelled' });
  });

  test('an unknown run, a missing run, a malformed scope, or no live run is invalid; undeclared, cancel is unsupported', () => {
    const target = runningTarget();
    target.startRun(SESSION, 'r1', T0);
    assert.deepEqual(rejection(target.handle(cancel({ scope: 'run' }, 'r9'), T0)), { reason: 'invalid', detail: `session ${SESSION} has no run r9` });
    assert.match(rejection(target.handle(cancel({ scope: 'run' }), T0)).detail ?? '', /needs the command's `run`/);
    assert.match(rejection(target.handle(cancel({ scope: 'everything' }, 'r1'), T0)).detail ?? '', /^malformed cancel/);
    assert.deepEqual(target.liveRuns(), [{ session: SESSION, run: 'r1' }], 'no refusal touched the run');
    assert.deepEqual(target.handle(cancel({ scope: 'session' }), T0).decision, { kind: 'cancelled', runs: ['r1'] });
    assert.deepEqual(rejection(target.handle(cancel({ scope: 'session' }), T0)), { reason: 'invalid', detail: `session ${SESSION} has no live run to cancel` });

    const answersOnly = newTarget();
    assert.equal(rejection(answersOnly.handle(command(SESSIONS[0], undefined, { scope: 'session' }, CANCEL_TYPE), T0)).reason, 'unsupported');
  });

  test('ending the session cancels a live run (by shutdown, cause = its run.started) before session.ended', () => {
    const target = runningTarget();
    const [started] = sent(target.startRun(SESSION, 'r1', T0));
    const ending = sent(target.endSession(SESSION, T0 + 2_000));
    assert.deepEqual(ending.map((e) => e.type), ['run.cancelled', 'session.ended']);
    assert.deepEqual([ending[0]?.run, ending[0]?.cause, ending[0]?.data], ['r1', started?.id, { by: 'shutdown', duration_ms: 2_000 }]);
  });
});

describe('demo agent: command line', () => {
  test('scenarios repeat, numbers are checked, the token comes only from the environment', () => {
    const options = optionsFromArgs(['--scenario', 'form', '--scenario', 'oob', '--count', '3', '--every', '250'], { AEP_TOKEN: 't0k' });
    assert.deepEqual(options.scenarios, ['form', 'oob']);
    assert.equal(options.count, 3);
    assert.equal(options.everyMs, 250);
    assert.equal(options.token, 't0k');
    assert.equal(options.hubUrl, 'http://127.0.0.1:8787');
    assert.equal(optionsFromArgs([], { AEP_HUB: 'https://hub.example' }).hubUrl, 'https://hub.example');
    assert.throws(() => optionsFromArgs(['--scenario', 'nope'], {}), UsageError);
    assert.throws(() => optionsFromArgs(['--count', '1.5'], {}), UsageError);
    assert.throws(() => optionsFromArgs(['--every', '0'], {}), UsageError);
  });
});
