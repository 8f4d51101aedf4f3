// Sending an answer (AEP-0004 §2, §3, §5, §6): the `control.attention.respond`
// envelope we build, and reading the target's `control.rejected`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAttentionRequest, type Answer, type AttentionRequest, type FieldSpec } from '../../src/aep/attention';
import {
  DEFAULT_ACK_WINDOW_MS,
  REJECT_REASONS,
  RESPOND_TYPE,
  buildRespondCommand,
  readRejected,
  type RespondCommand,
  type SenderIdentity,
} from '../../src/aep/control';
import { AEP_VERSION, parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import { parseWireMessage } from '../../src/aep/frames';
import { goldenEvents } from '../support/fixtures';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const SENDER: SenderIdentity = { agent: 'vscode-aep', source: 'aep://workstation/agent/vscode-aep' };
const NOW = Date.parse('2026-07-03T10:15:08.123Z');

const PERMISSION_ID = '01JX9YB4RQ000000000000GOLD';
const FORM_ID = '01JX9YBEFRQ0000000000GOLD3';

function goldenRequest(id: string): AttentionRequest {
  const event = goldenEvents().find((e) => e.id === id && e.type === 'attention.requested');
  assert.ok(event, `golden request ${id}`);
  const parsed = parseAttentionRequest(event);
  if (!parsed.ok) assert.fail(parsed.problem.message);
  return parsed.value;
}

/** The millisecond time a ULID's first ten characters encode. */
function ulidTime(id: string): number {
  let time = 0;
  for (const char of id.slice(0, 10)) {
    const digit = CROCKFORD.indexOf(char);
    assert.notEqual(digit, -1, `${char} is Crockford base32`);
    time = time * 32 + digit;
  }
  return time;
}

const FIELDS: FieldSpec[] = [
  { id: 'name', label: 'Name', required: true, type: 'string' },
  { id: 'replicas', label: 'Replicas', required: false, type: 'number', min: 1 },
  { id: 'staged', label: 'Staged', required: false, type: 'boolean' },
  {
    id: 'regions',
    label: 'Regions',
    required: false,
    type: 'select',
    multi: true,
    other: false,
    choices: [
      { id: '1', label: 'us-east' },
      { id: '2', label: 'eu-west' },
    ],
  },
  {
    id: 'db',
    label: 'Database',
    required: false,
    type: 'select',
    multi: false,
    other: true,
    choices: [
      { id: 'pg', label: 'PostgreSQL' },
      { id: 'sqlite', label: 'SQLite' },
    ],
  },
  {
    id: 'tags',
    label: 'Tags',
    required: false,
    type: 'select',
    multi: true,
    other: true,
    choices: [{ id: 't1', label: 'one' }],
  },
];
const FORM_REQUEST = { id: '01JX9ZZZZZFORM00000000000A', session: 's_custom', fields: FIELDS };

/** A command for an answer that passes the redaction pipeline (or is sent as typed); fails the test on a refusal. */
function built(...args: Parameters<typeof buildRespondCommand>): RespondCommand {
  const result = buildRespondCommand(...args);
  if (!result.ok) assert.fail(result.refusal.reason);
  return result.command;
}

function captureFor(answer: Answer, request: Pick<AttentionRequest, 'id' | 'session' | 'fields'> = FORM_REQUEST) {
  return built(request, answer, SENDER, NOW).capture;
}

describe('buildRespondCommand: the envelope (AEP-0004 §2, §6)', () => {
  const request = goldenRequest(PERMISSION_ID);
  const command = built(request, { option: 'allow' }, SENDER, NOW);

  test('is a control.attention.respond of envelope version 0.1', () => {
    assert.equal(command.type, 'control.attention.respond');
    assert.equal(RESPOND_TYPE, 'control.attention.respond');
    assert.equal(command.aep, '0.1');
    assert.equal(command.aep, AEP_VERSION);
  });

  test('carries no seq at all: the sender does not own the target order', () => {
    assert.equal(Object.hasOwn(command, 'seq'), false);
    assert.equal('seq' in command, false);
    assert.equal(Object.hasOwn(command, 'epoch'), false, 'nor an epoch');
    assert.equal(JSON.stringify(command).includes('"seq"'), false);
  });

  test('is addressed to the request: session, subject and cause', () => {
    assert.equal(command.session, 's_8f2c');
    assert.equal(command.session, request.session);
    assert.equal(command.subject, PERMISSION_ID);
    assert.equal(command.cause, PERMISSION_ID);
  });

  test('speaks as the sender, not as the target', () => {
    assert.equal(command.agent, SENDER.agent);
    assert.equal(command.source, SENDER.source);
    assert.notEqual(command.source, request.source);
  });

  test('time is the ISO form of the given clock', () => {
    assert.equal(command.time, '2026-07-03T10:15:08.123Z');
    assert.match(command.time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  test('id is a 26-character Crockford ULID whose time part is the clock', () => {
    assert.match(command.id, ULID);
    assert.equal(ulidTime(command.id), NOW);
  });

  test('two commands get different ids, even at the same millisecond', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) ids.add(built(request, { option: 'allow' }, SENDER, NOW).id);
    assert.equal(ids.size, 200);
    for (const id of ids) assert.match(id, ULID);
    const a = built(request, { option: 'deny' }, SENDER);
    const b = built(request, { option: 'deny' }, SENDER);
    assert.notEqual(a.id, b.id);
  });

  test('without a clock argument it uses the current time', () => {
    const before = Date.now();
    const fresh = built(request, { option: 'allow' }, SENDER);
    const after = Date.now();
    const time = ulidTime(fresh.id);
    assert.ok(time >= before && time <= after, `${time} within [${before}, ${after}]`);
    const stamped = Date.parse(fresh.time);
    assert.ok(stamped >= before && stamped <= after);
  });

  test('carries the answer unchanged as data.answer', () => {
    assert.deepEqual(command.data, { answer: { option: 'allow' } });
    const answer: Answer = { values: { name: 'api', regions: ['1'] }, text: 'ship it' };
    assert.deepEqual(built(FORM_REQUEST, answer, SENDER, NOW).data, { answer });
  });

  test('passes our own envelope parser, which sees exactly what was built', () => {
    const parsed = parseEnvelope(command);
    if (!parsed.ok) assert.fail(parsed.problem);
    assert.deepEqual(parsed.value, command);
    const form = built(goldenRequest(FORM_ID), { values: { name: 'x', db: 'MariaDB' } }, SENDER, NOW);
    assert.equal(parseEnvelope(form).ok, true);
  });

  test('survives the wire: its JSON reads back as an event, not a frame', () => {
    const message = parseWireMessage(JSON.stringify(command));
    if (message.kind !== 'event') assert.fail(JSON.stringify(message));
    assert.deepEqual(message.event, command);
  });

  test('the default ack window is 10 000 ms (AEP-0004 §3)', () => {
    assert.equal(DEFAULT_ACK_WINDOW_MS, 10_000);
  });
});

describe('buildRespondCommand: capture states what the answer carries (AEP-0004 §5, AEP-0006)', () => {
  test('an option-only answer is metadata', () => {
    assert.equal(captureFor({ option: 'allow' }, goldenRequest(PERMISSION_ID)), 'metadata');
  });

  test('text the redaction pipeline leaves unchanged is redacted (it passed), even beside an option, even empty', () => {
    assert.equal(captureFor({ text: 'yes, but only once' }, goldenRequest(PERMISSION_ID)), 'redacted');
    assert.equal(captureFor({ option: 'allow', text: 'ok' }, goldenRequest(PERMISSION_ID)), 'redacted');
    assert.equal(captureFor({ text: '' }), 'redacted');
  });

  test('closed-select ids, numbers and booleans are structural: metadata', () => {
    assert.equal(captureFor({ values: { regions: ['1', '2'] } }), 'metadata');
    assert.equal(captureFor({ values: { db: 'pg' } }), 'metadata', 'a choice id of an `other` select is still a choice');
    assert.equal(captureFor({ values: { replicas: 3 } }), 'metadata');
    assert.equal(captureFor({ values: { staged: false } }), 'metadata');
    assert.equal(captureFor({ values: { replicas: 3, staged: true, regions: ['2'], db: 'sqlite', tags: ['t1'] } }), 'metadata');
    assert.equal(captureFor({ values: {} }), 'metadata');
  });

  test('a string field value is user-authored: redacted', () => {
    assert.equal(captureFor({ values: { name: 'billing-api' } }), 'redacted');
    assert.equal(captureFor({ values: { name: 'billing-api', staged: true } }), 'redacted');
  });

  test('`other` free text in a select is user-authored: redacted', () => {
    assert.equal(captureFor({ values: { db: 'MariaDB' } }), 'redacted');
    assert.equal(captureFor({ values: { tags: ['t1', 'my own tag'] } }), 'redacted', 'free text inside a multi select');
  });

  test('a string value under a key the form does not have counts as free text', () => {
    assert.equal(captureFor({ values: { nickname: 'bob' } }), 'redacted');
    assert.equal(captureFor({ values: { count: 4 } }), 'metadata');
  });

  test('the golden form answer (a string field and `other` text) is redacted', () => {
    const answer: Answer = { values: { name: 'billing-api', staged: true, regions: ['1', '3'], db: 'MariaDB' } };
    assert.equal(captureFor(answer, goldenRequest(FORM_ID)), 'redacted');
    assert.equal(captureFor({ values: { staged: true, regions: ['1', '3'], db: '2' } }, goldenRequest(FORM_ID)), 'metadata');
  });
});

function rejection(data: Record<string, unknown> | undefined): AepEvent {
  const event: AepEvent = {
    aep: '0.1',
    id: '01JX9ZREJ00000000000000000',
    type: 'control.rejected',
    time: '2026-07-03T10:15:09.150Z',
    source: 'aep://host-a/agent/claude-code/session/s_8f2c',
    agent: 'claude-code',
    session: 's_8f2c',
    seq: 5,
    cause: '01JX9YB6CMD00000000000GOLD',
  };
  if (data !== undefined) event.data = data;
  const parsed = parseEnvelope(event);
  if (!parsed.ok) assert.fail(parsed.problem);
  return parsed.value;
}

describe('readRejected (AEP-0004 §3)', () => {
  test('every defined reason reads, with its detail', () => {
    for (const reason of REJECT_REASONS) {
      const read = readRejected(rejection({ reason, detail: `because ${reason}` }));
      if (!read.ok) assert.fail(read.problem);
      assert.deepEqual(read.value, { reason, detail: `because ${reason}` });
    }
  });

  test('detail is optional', () => {
    const read = readRejected(rejection({ reason: 'busy' }));
    assert.deepEqual(read, { ok: true, value: { reason: 'busy' } });
  });

  test('a reason from a newer revision is tolerated, so the command still settles', () => {
    const read = readRejected(rejection({ reason: 'rate-limited', detail: 'slow down' }));
    if (!read.ok) assert.fail(read.problem);
    assert.equal(read.value.reason, 'rate-limited');
    assert.equal((REJECT_REASONS as readonly string[]).includes(read.value.reason), false);
  });

  test('a missing reason is a problem naming the sender and `reason`', () => {
    const read = readRejected(rejection({ detail: 'no reason given' }));
    if (read.ok) assert.fail(`accepted ${JSON.stringify(read.value)}`);
    assert.match(read.problem, /control\.rejected from claude-code is malformed/);
    assert.match(read.problem, /`reason`/);
  });

  test('no data at all, an empty reason, or a non-string reason or detail is a problem', () => {
    for (const data of [undefined, { reason: '' }, { reason: 3 }, { reason: null }, { reason: 'busy', detail: 42 }]) {
      const read = readRejected(rejection(data));
      assert.equal(read.ok, false, JSON.stringify(data) ?? 'undefined');
      if (!read.ok) assert.match(read.problem, data && 'detail' in data ? /`detail`/ : /`reason`/);
    }
  });
});

describe('REJECT_REASONS', () => {
  test('the five wire reasons of AEP-0004 §3; timeout is synthesized locally, never a wire reason', () => {
    assert.deepEqual([...REJECT_REASONS], ['unsupported', 'unauthorized', 'busy', 'refused', 'invalid']);
  });
});
