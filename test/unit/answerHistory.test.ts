// The answer history (src/history): what is kept of each request answered
// or seen ending here, in what order, bounded how, and that no secret is
// ever written to the storage. Items come from real events through the Inbox.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Answer } from '../../src/aep/attention';
import type { SendOutcome } from '../../src/client/controlSender';
import { buildRespondCommand, type RespondCommand } from '../../src/aep/control';
import type { AepEvent } from '../../src/aep/envelope';
import { AnswerHistory, HISTORY_STORAGE_KEY, type HistoryLimits } from '../../src/history/answerHistory';
import { answeredFor, commandJson, historyEntryId, maskAnswer, SENT_AS_TYPED_MARK, type HistoryEntry, type HubRef } from '../../src/history/historyEntry';
import { CSV_COLUMNS, csvCell, toCsv, toJsonLines } from '../../src/history/historyExport';
import { Inbox, type AttentionItem } from '../../src/inbox/inbox';
import type { CaptureLevel } from '../../src/aep/levels';
import { SECRET_MARK, type RedactionOptions } from '../../src/aep/redaction';
import { setStoredSecretValues } from '../../src/aep/secretAsking';
import { validEvent, type EventFields, type RequestData, type WireField } from '../support/events';
import { FailingMemento, MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { waitUntil } from '../support/waitUntil';
import { historyRecorded } from '../../src/history/historyItem';
import { entryOutcomes, outcomeLines } from '../../src/words/historyWords';

const HUB: HubRef = { id: 'http://127.0.0.1:8787', label: 'Local hub' };
const SRC = 'aep://host-a/agent/claude-code/session/s1';
const SENDER = { agent: 'aep-attention', source: 'aep://workstation/agent/aep-attention' };
const START = Date.parse('2026-07-03T10:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

const GITHUB_TOKEN = 'ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c';
const CONTEXT_SECRET = 'ctx-Secret-Value-42';
const PASSWORD = 'hunter2sequel';
const LABELLED_SECRET = 'kite-runner-7';
const SSO_PASSWORD = 'Correct-Horse-9';
const ONE_TIME_CODE = '829144';
const OTP_FIELDS: WireField[] = [
  { id: 'user', type: 'string', label: 'User name' },
  { id: 'code', type: 'string', label: 'One-time code', required: true },
  { id: 'remember', type: 'boolean', label: 'Remember this device' },
];

/** Nothing required (words alone answer it), and one field asks for a secret. */
const REGISTRY_FIELDS: WireField[] = [
  { id: 'registry', type: 'string', label: 'Registry' },
  { id: 'api_token', type: 'string', label: 'API token' },
];
const REGISTRY_WORDS = 'use Quiet-Falcon-42 for the registry';

const ev = (fields: EventFields & Pick<AepEvent, 'type'>): AepEvent =>
  validEvent({ time: '2026-07-03T10:00:00Z', source: SRC, agent: 'claude-code', session: 's1', ...fields });

const FORM_FIELDS: WireField[] = [
  { id: 'name', type: 'string', label: 'Name' },
  { id: 'password', type: 'string', label: 'Password' },
  { id: 'deploy_code', type: 'string', label: 'API key for the deploy' },
  { id: 'replicas', type: 'number', label: 'Replicas' },
  { id: 'staged', type: 'boolean', label: 'Staged' },
  { id: 'db', type: 'select', label: 'Database', other: true, choices: [{ id: 'pg', label: 'Postgres' }, { id: 'sqlite', label: 'SQLite' }] },
  { id: 'regions', type: 'select', label: 'Regions', multi: true, other: true, choices: [{ id: 'eu', label: 'EU' }, { id: 'us', label: 'US' }] },
];

/** A test world: an inbox and a history on one clock, the history told of every inbox change as the host does. */
function world(options: { limits?: () => HistoryLimits; maxBytes?: number; minOpenMs?: number; memento?: MemoryMemento } = {}) {
  const clock = { now: START };
  const now = () => clock.now;
  const inbox = new Inbox({ now });
  const { memento = new MemoryMemento(), ...historyOptions } = options;
  const log = new RecordingLogger();
  const history = new AnswerHistory(memento, log, { now, ...historyOptions });
  let changes = 0;
  history.onDidChange(() => changes++);
  inbox.onDidChange((change) => history.noteItem(HUB, change.item));
  let seq = 0;
  const apply = (event: AepEvent) => {
    const outcome = inbox.apply(event);
    assert.ok(outcome.applied, `${event.type} ${event.id} was applied`);
  };
  const item = (id: string): Readonly<AttentionItem> => {
    const found = inbox.findRequest('s1', id, SRC);
    assert.ok(found, `request ${id} is in the inbox`);
    return found;
  };
  const w = {
    clock, inbox, memento, log, history,
    get changes() {
      return changes;
    },
    request(id: string, data: Partial<RequestData> = {}, capture: CaptureLevel = 'redacted') {
      apply(ev({ id, type: 'attention.requested', seq: seq++, capture, data: { kind: 'input', prompt: `Question ${id}?`, ...data } }));
      return item(id);
    },
    form(id: string, capture: CaptureLevel = 'redacted') {
      return w.request(id, { kind: 'form', prompt: 'Configure the deploy', fields: FORM_FIELDS }, capture);
    },
    /** The agent's record; `cause` names the command it answers (AEP-0004 §6), here the request by default: none of ours. */
    answered(id: string, by = 'human:alice', via = 'control', cause = id, answer: Answer = { option: 'allow' }) {
      apply(ev({ id: `${id}-answered-${seq}`, type: 'attention.answered', subject: id, cause, seq: seq++, data: { answer, by, via } }));
      return item(id);
    },
    resolved(id: string, resolution = 'answered') {
      apply(ev({ id: `${id}-resolved-${seq}`, type: 'attention.resolved', subject: id, cause: id, seq: seq++, data: { resolution } }));
      return item(id);
    },
    timeout(id: string) {
      apply(ev({ id: `${id}-timeout-${seq}`, type: 'attention.timeout', subject: id, cause: id, seq: seq++ }));
      return item(id);
    },
    sessionEnded() {
      apply(ev({ id: `ended-${seq}`, type: 'session.ended', seq: seq++, data: { reason: 'normal' } }));
    },
    /** Builds the command as the page does, and records it as sent. */
    send(id: string, answer: Answer, verbatim = false, redaction?: RedactionOptions): RespondCommand {
      const it = item(id);
      assert.ok(it.request, `request ${id} could be read`);
      const built = buildRespondCommand(it.request, answer, SENDER, clock.now, { verbatim, ...(redaction ? { redaction } : {}) });
      assert.ok(built.ok, built.ok ? '' : built.refusal.reason);
      history.recordSent(HUB, it, built.command);
      return built.command;
    },
    entry(id: string): HistoryEntry {
      const entry = history.entry(historyEntryId(HUB, item(id).key));
      assert.ok(entry, `an entry for ${id}`);
      return entry;
    },
    /** Everything the storage holds, as the editor would write it. */
    stored(): string {
      history.dispose();
      return JSON.stringify(memento.get<unknown>(HISTORY_STORAGE_KEY, undefined)) ?? '';
    },
  };
  return w;
}

const requestIds = (history: AnswerHistory) => history.entries().map((entry) => entry.requestId);

describe('AnswerHistory: entries and outcomes', () => {
  test('entries are newest first, by their last activity', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    for (const id of ['R1', 'R2', 'R3']) w.request(id);
    w.send('R1', { text: 'one' });
    w.clock.now += 1_000;
    w.send('R3', { text: 'three' });
    w.clock.now += 1_000;
    w.send('R2', { text: 'two' });
    assert.deepEqual(requestIds(w.history), ['R2', 'R3', 'R1']);
    const ats = w.history.entries().map((entry) => entry.at);
    assert.deepEqual(ats, [START + 2_000, START + 1_000, START]);

    w.clock.now += 1_000;
    w.send('R1', { text: 'one, again' });
    assert.deepEqual(requestIds(w.history), ['R1', 'R2', 'R3'], 'a new send moves its entry to the front');
  });

  test('a second send for the same request goes into the same entry; the same command recorded again adds nothing', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    const item = w.request('R1');
    const first = w.send('R1', { text: 'first' });
    w.clock.now += 5_000;
    const second = w.send('R1', { text: 'second' });
    w.history.recordSent(HUB, item, second);

    assert.equal(w.history.entries().length, 1);
    const entry = w.entry('R1');
    assert.equal(entry.id, `${HUB.id} ${item.key}`);
    assert.deepEqual(entry.hub, HUB);
    assert.deepEqual([entry.requestId, entry.agent, entry.session, entry.source, entry.kind], ['R1', 'claude-code', 's1', SRC, 'input']);
    assert.deepEqual(entry.sends.map((send) => [send.commandId, send.at, send.answer.text]), [
      [first.id, START, 'first'],
      [second.id, START + 5_000, 'second'],
    ]);
    assert.equal(entry.ended, undefined);
    assert.equal(entry.at, START + 5_000);
  });

  test('each outcome is appended to the send of its command id; an unknown id is ignored', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.request('R1');
    const first = w.send('R1', { text: 'first' });
    const second = w.send('R1', { text: 'second' });
    const outcomes: Array<[string, SendOutcome]> = [
      [first.id, { kind: 'timeout', commandId: first.id, afterMs: 10_000 }],
      [second.id, { kind: 'rejected', commandId: second.id, reason: 'invalid', detail: `not like ${GITHUB_TOKEN}` }],
      [first.id, { kind: 'accepted', commandId: first.id }],
      [second.id, { kind: 'refused-by-hub', commandId: second.id, code: 'no-route' }],
      [second.id, { kind: 'cancelled', commandId: second.id, code: 'store-full', limit: 'count', maxCommands: 64 }],
      [first.id, { kind: 'awaiting-ack', commandId: first.id, sent: true }],
      [first.id, { kind: 'request-closed', commandId: first.id, sent: false }],
    ];
    for (const [id, outcome] of outcomes) {
      w.clock.now += 100;
      w.history.recordOutcome(id, outcome);
    }
    const before = w.changes;
    w.history.recordOutcome('01UNKNOWNCOMMAND0000000000', { kind: 'accepted', commandId: '01UNKNOWNCOMMAND0000000000' });
    assert.equal(w.changes, before, 'an unknown command id changes nothing');

    const [a, b] = w.entry('R1').sends;
    assert.deepEqual(a?.outcomes, [
      { kind: 'ack-timed-out', at: START + 100, afterMs: 10_000 },
      { kind: 'accepted', at: START + 300 },
      { kind: 'awaiting-ack', at: START + 600, sent: true },
      { kind: 'request-closed', at: START + 700, sent: false },
    ]);
    assert.deepEqual(b?.outcomes, [
      { kind: 'rejected', at: START + 200, reason: 'invalid', detail: `not like ${SECRET_MARK}` },
      { kind: 'refused-by-hub', at: START + 400, code: 'no-route' },
      { kind: 'not-delivered', at: START + 500, reason: 'store-full' },
    ]);
  });

  test('an answer not sent again after a reload (not kept) is recorded once, however many reloads say so', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.request('N', { kind: 'auth', prompt: 'SSO password' });
    const command = w.send('N', { text: 'hunter2' });
    w.history.recordOutcome(command.id, { kind: 'awaiting-ack', commandId: command.id, sent: true });
    for (let reload = 0; reload < 3; reload++) w.history.recordOutcome(command.id, { kind: 'not-kept', commandId: command.id, sent: true });
    assert.deepEqual(w.entry('N').sends[0]?.outcomes.map((o) => o.kind), ['awaiting-ack', 'not-kept']);
  });

  test("the agent's outcomes are appended once each, however often the item is noted", (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.request('R1');
    const command = w.send('R1', { text: 'go ahead' });
    w.clock.now += 1_000;
    const answered = w.answered('R1', 'human:alice', 'control', command.id, { text: 'go ahead' });
    w.history.noteItem(HUB, answered);
    w.history.noteItem(HUB, answered);
    w.clock.now += 1_000;
    const resolved = w.resolved('R1', 'answered');
    const changes = w.changes;
    w.history.noteItem(HUB, resolved);
    w.history.noteItem(HUB, resolved);
    assert.equal(w.changes, changes, 'noting an unchanged item again changes nothing');

    const entry = w.entry('R1');
    assert.deepEqual(entry.agentOutcomes, [
      { kind: 'answered', at: START + 1_000, by: 'human:alice', via: 'control', verdict: 'as-sent' },
      { kind: 'resolved', at: START + 2_000, resolution: 'answered' },
    ]);
    assert.equal(entry.ended, undefined, 'answered from here');
    assert.equal(entry.at, START, "the agent's outcomes do not move the entry");
  });
});

describe('AnswerHistory: what the agent recorded', () => {
  const OPTIONS = { kind: 'permission', prompt: 'Run terraform destroy?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] };

  test('Allow accepted, then Deny recorded out of band: the entry keeps the record and says it differs', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.request('P', OPTIONS);
    const command = w.send('P', { option: 'allow' });
    w.history.recordOutcome(command.id, { kind: 'accepted', commandId: command.id });
    w.clock.now += 1_000;
    w.answered('P', 'human:alice', 'oob', command.id, { option: 'deny' });
    w.resolved('P', 'answered');
    const entry = w.entry('P');
    assert.deepEqual(entry.agentOutcomes[0], { kind: 'answered', at: START + 1_000, by: 'human:alice', via: 'oob', verdict: 'differs', recorded: { option: 'deny' } });
    assert.deepEqual(entryOutcomes(entry), ['accepted', 'the agent recorded a different answer, out of band: option deny', 'resolved (answered)']);
    assert.ok(outcomeLines(entry).some((line) => line.endsWith('the agent recorded a different answer, out of band: option deny')));
    // The read-only page is told the same.
    assert.deepEqual(historyRecorded(entry), { verdict: 'differs', answer: { option: 'deny' }, via: 'oob', by: 'human:alice' });
  });

  test('an answer recorded as sent reads "answered"; one caused by another command reads "answered elsewhere"', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.request('S', OPTIONS);
    const ours = w.send('S', { option: 'allow' });
    w.answered('S', 'human:alice', 'control', ours.id, { option: 'allow' });
    assert.deepEqual(entryOutcomes(w.entry('S')), ['answered']);
    w.request('E', OPTIONS);
    w.send('E', { option: 'allow' });
    w.answered('E', 'human:bob', 'control', 'CMD-other-window', { option: 'allow' });
    assert.deepEqual(entryOutcomes(w.entry('E')), ['answered elsewhere: option allow']);
  });

  test('cancelled by the agent with no answer from anyone never reads "answered", with a send from here or without', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.request('C', OPTIONS);
    w.request('N', OPTIONS);
    const command = w.send('C', { option: 'allow' });
    w.history.recordOutcome(command.id, { kind: 'accepted', commandId: command.id });
    w.clock.now += 5_000;
    w.resolved('C', 'cancelled');
    w.resolved('N', 'cancelled');
    assert.deepEqual(entryOutcomes(w.entry('C')), ['accepted', 'ended by the agent (cancelled)']);
    assert.deepEqual(entryOutcomes(w.entry('N')), ['resolved without an answer from here', 'ended by the agent (cancelled)']);
    for (const id of ['C', 'N']) {
      for (const line of [...entryOutcomes(w.entry(id)), ...outcomeLines(w.entry(id))]) assert.doesNotMatch(line, /\banswered\b/, line);
      assert.deepEqual(historyRecorded(w.entry(id)), { verdict: 'none' });
    }
  });
});

describe('AnswerHistory: requests that ended without an answer from here', () => {
  test('each way a request ends is listed, marked as such, with the agent outcome', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    for (const id of ['A', 'R', 'T']) w.request(id);
    w.clock.now += 5_000;
    w.answered('A', 'human:bob', 'slack');
    // Answered elsewhere, still open until the agent resolves it: already listed.
    assert.equal(w.entry('A').ended, 'answered-elsewhere');
    assert.deepEqual(w.entry('A').agentOutcomes, [{ kind: 'answered', at: START + 5_000, by: 'human:bob', via: 'slack', verdict: 'elsewhere', recorded: { option: 'allow' } }]);
    w.clock.now += 500;
    w.resolved('A', 'answered');
    w.clock.now += 500;
    w.resolved('R', 'cancelled');
    w.clock.now += 1_000;
    w.timeout('T');
    w.request('S');
    w.clock.now += 2_000;
    w.sessionEnded();

    assert.deepEqual(
      w.history.entries().map((entry) => [entry.requestId, entry.ended, entry.sends.length, entry.at]),
      [
        ['S', 'session-ended', 0, START + 9_000],
        ['T', 'timed-out', 0, START + 7_000],
        ['R', 'resolved', 0, START + 6_000],
        ['A', 'answered-elsewhere', 0, START + 5_000],
      ],
    );
    assert.deepEqual(w.entry('A').agentOutcomes, [
      { kind: 'answered', at: START + 5_000, by: 'human:bob', via: 'slack', verdict: 'elsewhere', recorded: { option: 'allow' } },
      { kind: 'resolved', at: START + 5_500, resolution: 'answered' },
    ]);
    assert.deepEqual(w.entry('R').agentOutcomes, [{ kind: 'resolved', at: START + 6_000, resolution: 'cancelled' }]);
    assert.deepEqual(w.entry('T').agentOutcomes, [{ kind: 'timeout', at: START + 7_000 }]);
    assert.deepEqual(w.entry('S').agentOutcomes, [{ kind: 'session-ended', at: START + 9_000 }]);
    assert.ok(w.history.entries().every((entry) => entry.sends.length === 0 && entry.kind === 'input'));
  });

  test('a replayed request that closes at once is not recorded; one that stayed open minOpenMs is', (t) => {
    const w = world({ minOpenMs: 1_000 });
    t.after(() => w.history.dispose());
    // Replay: the request and its end arrive together.
    w.request('FAST');
    w.answered('FAST');
    w.resolved('FAST');
    w.request('EXPIRED');
    w.timeout('EXPIRED');
    w.request('ALMOST');
    w.clock.now += 999;
    w.resolved('ALMOST');
    assert.deepEqual(requestIds(w.history), []);
    assert.equal(w.changes, 0);

    w.request('SLOW');
    w.clock.now += 1_000;
    w.resolved('SLOW');
    assert.deepEqual(requestIds(w.history), ['SLOW']);
    assert.equal(w.entry('SLOW').ended, 'resolved');
  });

  test('a dismissed request is listed as dismissed, and keeps that mark when it later closes; one answered here is not', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    const dismissed = w.request('D');
    w.request('H');
    w.clock.now += 2_000;
    w.history.noteDismissed(HUB, dismissed);
    const entry = w.entry('D');
    assert.equal(entry.ended, 'dismissed');
    assert.deepEqual([entry.sends.length, entry.at, entry.agentOutcomes.length], [0, START + 2_000, 0]);

    w.clock.now += 2_000;
    w.timeout('D');
    assert.equal(w.entry('D').ended, 'dismissed');
    assert.deepEqual(w.entry('D').agentOutcomes, [{ kind: 'timeout', at: START + 4_000 }]);

    const command = w.send('H', { text: 'done' });
    w.history.noteDismissed(HUB, w.inbox.findRequest('s1', 'H', SRC) ?? assert.fail('H is in the inbox'));
    const answered = w.entry('H');
    assert.equal(answered.ended, undefined);
    assert.deepEqual(answered.sends.map((send) => send.commandId), [command.id]);
  });
});

describe('AnswerHistory: no secret is stored', () => {
  test('capture full: every free-text part is masked whole; choices, numbers and booleans stay', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.form('F', 'full');
    const answer: Answer = {
      text: `deploy with ${GITHUB_TOKEN}`,
      values: { name: 'billing api', password: PASSWORD, replicas: 3, staged: true, db: 'pg', regions: ['eu', 'my own region'] },
    };
    const command = w.send('F', answer, true);
    assert.equal(command.capture, 'full');
    const [send] = w.entry('F').sends;
    assert.ok(send);
    assert.equal(send.capture, 'full');
    assert.deepEqual(send.answer, {
      text: SENT_AS_TYPED_MARK,
      values: { name: SENT_AS_TYPED_MARK, password: SENT_AS_TYPED_MARK, replicas: 3, staged: true, db: 'pg', regions: ['eu', SENT_AS_TYPED_MARK] },
    });
    assert.equal(send.masked, 4);
    assert.deepEqual(send.command.data.answer, send.answer, "the stored command carries the masked answer");
    assert.deepEqual(command.data.answer, answer, 'the command that was sent is left as it was');
    const stored = w.stored();
    for (const secret of [GITHUB_TOKEN, PASSWORD, 'billing api', 'my own region']) assert.ok(!stored.includes(secret), secret);
  });

  test('below capture full: a token-looking string, a password field and a field labelled like a secret are masked', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    const item = w.form('F');
    assert.ok(item.request);
    const sent = buildRespondCommand(item.request, { values: { name: 'billing-api' } }, SENDER, w.clock.now);
    assert.ok(sent.ok);
    // As another path might have built it: capture `redacted` over text the pipeline changes.
    const answer: Answer = {
      text: `use ${GITHUB_TOKEN} please`,
      values: { name: 'billing-api', password: PASSWORD, deploy_code: LABELLED_SECRET, replicas: 2, staged: false, db: 'sqlite', regions: ['us'] },
    };
    const command: RespondCommand = { ...sent.command, capture: 'redacted', data: { answer } };
    w.history.recordSent(HUB, item, command);

    const [send] = w.entry('F').sends;
    assert.ok(send);
    assert.deepEqual(send.answer, {
      // Words to a form that asks for a secret are kept as that secret: whole.
      text: SECRET_MARK,
      values: { name: 'billing-api', password: SECRET_MARK, deploy_code: SECRET_MARK, replicas: 2, staged: false, db: 'sqlite', regions: ['us'] },
    });
    assert.equal(send.masked, 3);
    const stored = w.stored();
    for (const secret of [GITHUB_TOKEN, PASSWORD, LABELLED_SECRET]) assert.ok(!stored.includes(secret), secret);
    assert.ok(stored.includes('billing-api'), 'text that passes the pipeline is kept');
  });

  test('maskAnswer leaves an answer with no free text as it is and counts nothing', () => {
    const fields = [{ id: 'db', type: 'select' as const, label: 'Token store', required: false, multi: false, other: false, choices: [{ id: 'vault', label: 'Vault' }] }];
    for (const capture of ['metadata', 'redacted', 'full'] as const) {
      const request = { rule: { kind: 'form', renderKind: 'form', fields: [{ id: 'db', label: { text: 'Token store', honesty: 'redacted' as const } }] }, fields };
      assert.deepEqual(maskAnswer({ option: 'allow', values: { db: 'vault' } }, request, capture), { answer: { option: 'allow', values: { db: 'vault' } }, masked: 0 });
    }
    assert.deepEqual(maskAnswer({ text: '' }, answeredFor(undefined, 'auth'), 'full'), { answer: { text: '' }, masked: 0 }, 'an empty text hides nothing');
  });

  test('the stored request event and prompt are masked too', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.request('P', { prompt: `Push with ${GITHUB_TOKEN}?`, context: { api_token: CONTEXT_SECRET, branch: 'main' } }, 'full');
    w.send('P', { text: 'yes' });
    const entry = w.entry('P');
    assert.deepEqual(entry.prompt, { text: `Push with ${SECRET_MARK}?`, honesty: 'verbatim' });
    assert.equal(entry.requestEvent.data?.['prompt'], `Push with ${SECRET_MARK}?`);
    assert.deepEqual(entry.requestEvent.data?.['context'], { api_token: SECRET_MARK, branch: 'main' });
    assert.deepEqual([entry.requestEvent.id, entry.requestEvent.type, entry.requestEvent.session], ['P', 'attention.requested', 's1']);
    const stored = w.stored();
    assert.ok(!stored.includes(GITHUB_TOKEN) && !stored.includes(CONTEXT_SECRET));
  });

  test('a prompt at capture metadata is kept as the structural text it is', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.request('M', { kind: 'permission', prompt: 'permission: shell' }, 'metadata');
    w.send('M', { option: 'allow' });
    assert.deepEqual(w.entry('M').prompt, { text: 'permission: shell', honesty: 'structural' });
    assert.equal(w.entry('M').sends[0]?.capture, 'metadata');
  });

  test('Copy as JSON: parseable, the masked command with the original envelope', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.form('F', 'full');
    const command = w.send('F', { values: { password: PASSWORD, replicas: 1 } }, true);
    const [send] = w.entry('F').sends;
    assert.ok(send);
    const text = commandJson(send);
    const parsed: unknown = JSON.parse(text);
    assert.deepEqual(parsed, send.command);
    assert.ok(!text.includes(PASSWORD));
    assert.equal(text, JSON.stringify(send.command, null, 2));
    const { data: _sent, ...envelope } = command;
    const { data, ...kept } = send.command;
    assert.deepEqual(kept, envelope, 'id, type, session, subject, cause, capture, time, source, agent as sent');
    assert.equal(kept.id, command.id);
    assert.equal(kept.subject, 'F');
    assert.deepEqual(data.answer, { values: { password: SENT_AS_TYPED_MARK, replicas: 1 } });
  });

  test('a value the user lists as always secret (§9.4 rule b) is kept by no part of an entry: prompt, request event, answer, Copy as JSON', (t) => {
    const ALWAYS = 'prod-db-7.internal';
    setStoredSecretValues([ALWAYS]);
    t.after(() => setStoredSecretValues([]));
    const w = world();
    t.after(() => w.history.dispose());
    w.request('A', { prompt: `Migrate ${ALWAYS} now?` });
    // Sent as typed (verbatim) with the pipeline knowing the value: the command declares full; the history keeps none of it.
    const sent = w.send('A', { text: `yes, ${ALWAYS}` }, true, { secretValues: [ALWAYS] });
    assert.equal(sent.capture, 'full');
    const entry = w.entry('A');
    assert.ok(!entry.prompt.text.includes(ALWAYS), entry.prompt.text);
    assert.ok(!JSON.stringify(entry).includes(ALWAYS), JSON.stringify(entry));
    // Listed after an answer that holds it went out as it passed then (capture redacted): the entry still keeps none of it.
    w.request('B', { prompt: 'Which host?' });
    w.send('B', { text: `use ${ALWAYS}` });
    assert.ok(!JSON.stringify(w.entry('B')).includes(ALWAYS), JSON.stringify(w.entry('B')));
    assert.ok(!w.stored().includes(ALWAYS), 'nor does storage');
  });

  test("an auth request's reply and a one-time code are masked whole, though the pipeline finds nothing in them", (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.request('A', { kind: 'auth', prompt: 'SSO password for deploy@corp' });
    const reply = w.send('A', { text: SSO_PASSWORD });
    assert.equal(reply.capture, 'redacted', 'the pipeline passes it: it went at redacted');
    w.request('O', { kind: 'form', prompt: 'Sign in', fields: OTP_FIELDS });
    w.send('O', { values: { code: ONE_TIME_CODE, user: 'alice', remember: true } });

    assert.deepEqual(w.entry('A').sends[0]?.answer, { text: SECRET_MARK });
    assert.equal(w.entry('A').sends[0]?.masked, 1);
    const [otp] = w.entry('O').sends;
    assert.ok(otp);
    assert.deepEqual(otp.answer, { values: { code: SECRET_MARK, user: 'alice', remember: true } });
    assert.equal(otp.masked, 1);
    const copied = [...w.entry('A').sends, otp].map(commandJson).join('\n');
    const stored = w.stored();
    for (const secret of [SSO_PASSWORD, ONE_TIME_CODE]) {
      assert.ok(!stored.includes(secret), `${secret} is not stored`);
      assert.ok(!copied.includes(secret), `${secret} is not copied as JSON`);
    }
    assert.ok(stored.includes('alice'), 'what does not ask for a secret is kept');
  });
});

describe('AnswerHistory: words sent instead of a form that asks for a secret', () => {
  test('are masked whole, as the field\'s value would be: in the entry, in storage, in Copy as JSON and in the export', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.request('R', { kind: 'form', prompt: 'Registry access', fields: REGISTRY_FIELDS });
    const command = w.send('R', { text: REGISTRY_WORDS });
    assert.equal(command.capture, 'redacted', 'the pipeline passes them: they went at redacted');
    w.request('N', { kind: 'form', prompt: 'Anything to add?', fields: [{ id: 'note', type: 'string', label: 'Release note' }] });
    w.send('N', { text: 'ship it on friday' });

    const [send] = w.entry('R').sends;
    assert.ok(send);
    assert.deepEqual(send.answer, { text: SECRET_MARK });
    assert.equal(send.masked, 1);
    const copied = commandJson(send);
    const exported = toJsonLines(w.history.entries()) + toCsv(w.history.entries());
    const stored = w.stored();
    for (const [where, text] of [['stored', stored], ['copied', copied], ['exported', exported]] as const) {
      assert.ok(!text.includes('Quiet-Falcon'), `not ${where}: ${text}`);
    }
    assert.deepEqual(w.entry('N').sends[0]?.answer, { text: 'ship it on friday' }, 'words to a form that asks for no secret are kept');
  });

  test('a history the previous version stored with such words readable is masked as it loads', (t) => {
    const w = world();
    w.request('R', { kind: 'form', prompt: 'Registry access', fields: REGISTRY_FIELDS });
    const sent = w.send('R', { text: REGISTRY_WORDS });
    w.history.dispose();
    const stored = structuredClone(w.memento.get<{ version: number; entries: HistoryEntry[] }>(HISTORY_STORAGE_KEY, { version: 0, entries: [] }));
    const send = stored.entries[0]?.sends[0];
    assert.ok(send);
    send.answer = structuredClone(sent.data.answer);
    send.masked = 0;
    send.command.data.answer = structuredClone(sent.data.answer);
    const memento = new MemoryMemento();
    void memento.update(HISTORY_STORAGE_KEY, { ...stored, version: 2 });
    assert.ok(JSON.stringify(memento.get<unknown>(HISTORY_STORAGE_KEY, undefined)).includes('Quiet-Falcon'), 'the old format does hold them');

    const history = new AnswerHistory(memento, new RecordingLogger(), { now: () => w.clock.now });
    t.after(() => history.dispose());
    assert.deepEqual(history.entries()[0]?.sends[0]?.answer, { text: SECRET_MARK });
    assert.ok(!JSON.stringify(memento.get<unknown>(HISTORY_STORAGE_KEY, undefined)).includes('Quiet-Falcon'), 'written back masked');
  });
});

describe('AnswerHistory: a history stored before masking knew auth answers and one-time codes', () => {
  /**
   * The history as the previous version stored it (version 1): the same
   * entries, but the answers to an `auth` request and to a "One-time code"
   * field kept as typed, in the answer and in the command Copy as JSON copies.
   */
  function storedByTheLastVersion() {
    const w = world();
    w.request('A', { kind: 'auth', prompt: 'SSO password for deploy@corp' });
    const auth = w.send('A', { text: SSO_PASSWORD });
    w.history.recordOutcome(auth.id, { kind: 'accepted', commandId: auth.id });
    w.clock.now += 1_000;
    w.request('O', { kind: 'form', prompt: 'Sign in', fields: OTP_FIELDS });
    const otp = w.send('O', { values: { code: ONE_TIME_CODE, user: 'alice', remember: true } });
    w.clock.now += 1_000;
    w.request('Q');
    w.send('Q', { text: 'ship it on friday' });
    w.clock.now += 2_000;
    w.request('E');
    w.clock.now += 2_000;
    w.timeout('E');
    w.history.dispose();
    const today = structuredClone(w.memento.get<{ version: number; entries: HistoryEntry[] }>(HISTORY_STORAGE_KEY, { version: 0, entries: [] }));
    const unmask = (id: string, answer: Answer) => {
      const entry = today.entries.find((e) => e.requestId === id);
      const send = entry?.sends[0];
      assert.ok(send, `a send for ${id}`);
      send.answer = structuredClone(answer);
      send.masked = 0;
      send.command.data.answer = structuredClone(answer);
    };
    unmask('A', auth.data.answer);
    unmask('O', otp.data.answer);
    const v1 = { ...today, version: 1 };
    const memento = new MemoryMemento();
    void memento.update(HISTORY_STORAGE_KEY, v1);
    return { v1, memento, clock: w.clock };
  }

  test('loading it masks what it held readable, writes it back at once, and loses nothing else', (t) => {
    const { v1, memento, clock } = storedByTheLastVersion();
    const raw = JSON.stringify(v1);
    assert.ok(raw.includes(SSO_PASSWORD) && raw.includes(ONE_TIME_CODE), 'the old format does hold them');

    const log = new RecordingLogger();
    const history = new AnswerHistory(memento, log, { now: () => clock.now });
    t.after(() => history.dispose());
    const entries = history.entries();
    // Nothing else lost: every entry, in order, every outcome, every other value.
    assert.deepEqual(entries.map((e) => e.requestId), v1.entries.map((e) => e.requestId));
    assert.deepEqual(entries.map((e) => e.requestId), ['E', 'Q', 'O', 'A']);
    const auth = entries.find((e) => e.requestId === 'A');
    const otp = entries.find((e) => e.requestId === 'O');
    assert.deepEqual(auth?.sends[0]?.answer, { text: SECRET_MARK });
    assert.deepEqual(auth?.sends[0]?.outcomes.map((o) => o.kind), ['accepted']);
    assert.deepEqual(otp?.sends[0]?.answer, { values: { code: SECRET_MARK, user: 'alice', remember: true } });
    assert.equal(otp?.sends[0]?.masked, 1);
    for (const entry of entries) {
      const before = v1.entries.find((e) => e.id === entry.id);
      assert.ok(before);
      // Only the masked answers differ.
      const strip = (e: HistoryEntry) => ({ ...e, sends: e.sends.map(({ answer: _a, masked: _m, command: { data: _d, ...envelope }, ...rest }) => ({ ...rest, envelope })) });
      assert.deepEqual(strip(entry), strip(before), entry.requestId);
    }
    assert.deepEqual(entries.find((e) => e.requestId === 'Q')?.sends[0]?.answer, { text: 'ship it on friday' });
    assert.equal(entries.find((e) => e.requestId === 'E')?.ended, 'timed-out');

    // Written back at once, not after the debounce: the readable copy does not wait on disk.
    const rewritten = JSON.stringify(memento.get<unknown>(HISTORY_STORAGE_KEY, undefined));
    assert.ok(!rewritten.includes(SSO_PASSWORD) && !rewritten.includes(ONE_TIME_CODE), 'nothing readable survives in storage');
    assert.ok(rewritten.includes('ship it on friday'));
    const copied = entries.flatMap((e) => e.sends).map(commandJson).join('\n');
    assert.ok(!copied.includes(SSO_PASSWORD) && !copied.includes(ONE_TIME_CODE), 'nor in what Copy as JSON copies');
    assert.deepEqual(log.codes(), ['info history-remasked']);
    assert.deepEqual(log.entries[0]?.data, { entries: 2 });

    // Read again, the rewritten history is what it was.
    history.dispose();
    const again = new AnswerHistory(memento, new RecordingLogger(), { now: () => clock.now });
    t.after(() => again.dispose());
    assert.deepEqual(again.entries(), entries);
  });
});

describe('AnswerHistory: a history stored when an ack timeout was called `timed-out` (version 3 and before)', () => {
  /** One ack timeout on an `auth` answer and one request the agent timed out, stored as `version` stored them. */
  function storedAs(version: number) {
    const w = world();
    w.request('A', { kind: 'auth', prompt: 'SSO password for deploy@corp' });
    const auth = w.send('A', { text: SSO_PASSWORD });
    w.clock.now += 100;
    w.history.recordOutcome(auth.id, { kind: 'timeout', commandId: auth.id, afterMs: 10_000 });
    w.clock.now += 1_000;
    w.request('E');
    w.clock.now += 2_000;
    w.timeout('E');
    w.history.dispose();
    const today = JSON.stringify(w.memento.get<unknown>(HISTORY_STORAGE_KEY, undefined));
    assert.ok(today.includes('"ack-timed-out"'), today);
    const stored = JSON.parse(today.replaceAll('"ack-timed-out"', '"timed-out"')) as { version: number; entries: HistoryEntry[] };
    stored.version = version;
    // Before version 2 an `auth` answer was kept as typed.
    const send = stored.entries.find((e) => e.requestId === 'A')?.sends[0];
    assert.ok(send);
    if (version < 2) {
      send.answer = { text: SSO_PASSWORD };
      send.masked = 0;
      send.command.data.answer = { text: SSO_PASSWORD };
    }
    const memento = new MemoryMemento();
    void memento.update(HISTORY_STORAGE_KEY, stored);
    return { memento, clock: w.clock };
  }

  for (const version of [3, 1]) {
    test(`version ${version}: its ack timeout reads as \`ack-timed-out\`, the agent's timeout stays \`timeout\`, and nothing is lost${version < 3 ? ' or left unmasked' : ''}`, (t) => {
      const { memento, clock } = storedAs(version);
      const log = new RecordingLogger();
      const history = new AnswerHistory(memento, log, { now: () => clock.now });
      t.after(() => history.dispose());
      const entries = history.entries();
      assert.deepEqual(entries.map((e) => e.requestId), ['E', 'A']);
      const auth = entries.find((e) => e.requestId === 'A');
      assert.deepEqual(auth?.sends[0]?.outcomes.map((o) => o.kind), ['ack-timed-out']);
      assert.deepEqual(auth?.sends[0]?.answer, { text: SECRET_MARK });
      const expired = entries.find((e) => e.requestId === 'E');
      assert.equal(expired?.ended, 'timed-out', 'the agent timed the request out: its status word is unchanged');
      assert.deepEqual(expired?.agentOutcomes.map((o) => o.kind), ['timeout']);
      assert.ok(!log.levels().includes('warn'), log.lines.join('\n'));
      const rewritten = JSON.stringify(memento.get<unknown>(HISTORY_STORAGE_KEY, undefined));
      assert.ok(!rewritten.includes('"kind":"timed-out"'), 'written back under the new name');
      assert.ok(!rewritten.includes(SSO_PASSWORD));
    });
  }
});

describe('AnswerHistory: bounds', () => {
  test('by count: the newest maxEntries are kept, pruned ones are gone from lookups, and applyLimits prunes at once', (t) => {
    let limits: HistoryLimits = { maxEntries: 3, maxAgeDays: 30 };
    const w = world({ limits: () => limits });
    t.after(() => w.history.dispose());
    const commands: RespondCommand[] = [];
    for (const id of ['R1', 'R2', 'R3', 'R4']) {
      w.request(id);
      w.clock.now += 1_000;
      commands.push(w.send(id, { text: id }));
    }
    assert.deepEqual(requestIds(w.history), ['R4', 'R3', 'R2']);
    const r1 = w.inbox.findRequest('s1', 'R1', SRC);
    assert.ok(r1);
    assert.equal(w.history.entry(historyEntryId(HUB, r1.key)), undefined);
    const before = w.changes;
    w.history.recordOutcome(commands[0]?.id ?? '', { kind: 'accepted', commandId: commands[0]?.id ?? '' });
    assert.equal(w.changes, before, "a pruned entry's command is unknown");

    limits = { maxEntries: 1, maxAgeDays: 30 };
    w.history.applyLimits();
    assert.deepEqual(requestIds(w.history), ['R4']);
    assert.equal(w.changes, before + 1);
    const stored = w.memento.get<{ entries: HistoryEntry[] }>(HISTORY_STORAGE_KEY, { entries: [] });
    w.history.dispose();
    assert.deepEqual(w.memento.get<{ entries: HistoryEntry[] }>(HISTORY_STORAGE_KEY, stored).entries.map((e) => e.requestId), ['R4']);
  });

  test('by count, requests that ended without an answer from here take at most half: a mass timeout cannot push the answers out', (t) => {
    const w = world({ limits: () => ({ maxEntries: 4, maxAgeDays: 30 }) });
    t.after(() => w.history.dispose());
    for (const id of ['A1', 'A2']) {
      w.request(id);
      w.send(id, { text: id });
      w.clock.now += 1_000;
    }
    // Ten requests open here for a while, then all timed out by their agent: newer than both answers.
    for (let i = 0; i < 10; i++) w.request(`T${i}`);
    w.clock.now += 5_000;
    for (let i = 0; i < 10; i++) w.timeout(`T${i}`);
    assert.deepEqual(requestIds(w.history), ['T9', 'T8', 'A2', 'A1'], 'the two newest timeouts, and both answers');
    w.request('A3');
    w.send('A3', { text: 'A3' });
    assert.deepEqual(requestIds(w.history), ['A3', 'T9', 'T8', 'A2'], 'answers still take the room left: the oldest entry goes');
  });

  test('by age: entries older than maxAgeDays go, on a change and on load', (t) => {
    const limits = () => ({ maxEntries: 200, maxAgeDays: 2 });
    const w = world({ limits });
    t.after(() => w.history.dispose());
    w.request('OLD');
    w.send('OLD', { text: 'old' });
    w.clock.now += 1.5 * DAY;
    w.request('MID');
    w.send('MID', { text: 'mid' });
    w.clock.now += 1 * DAY;
    w.request('NEW');
    w.send('NEW', { text: 'new' });
    assert.deepEqual(requestIds(w.history), ['NEW', 'MID']);
    w.history.dispose();

    const later = new AnswerHistory(w.memento, new RecordingLogger(), { limits, now: () => w.clock.now + 1.25 * DAY });
    t.after(() => later.dispose());
    assert.deepEqual(requestIds(later), ['NEW']);
  });

  test('by bytes: the oldest go until the stored JSON fits', (t) => {
    const maxBytes = 12_000;
    const w = world({ maxBytes });
    t.after(() => w.history.dispose());
    const ids = Array.from({ length: 12 }, (_, i) => `R${i}`);
    for (const id of ids) {
      w.request(id, { prompt: `${id}: ${'a long question '.repeat(20)}` });
      w.clock.now += 1_000;
      w.send(id, { text: 'x'.repeat(200) });
    }
    const kept = requestIds(w.history);
    assert.ok(kept.length > 1 && kept.length < ids.length, `kept ${kept.length}`);
    assert.deepEqual(kept, ids.slice(ids.length - kept.length).reverse(), 'the newest, newest first');
    w.history.dispose();
    assert.ok(w.memento.storedChars <= maxBytes, `${w.memento.storedChars} characters stored`);
    assert.ok(w.memento.storedChars > maxBytes / 2, 'not pruned further than needed');
  });
});

/** How long AnswerHistory waits before writing a change that is neither a send nor its outcome (its SAVE_DELAY_MS). */
const SAVE_DELAY_MS = 500;

describe('AnswerHistory: storage', () => {
  test('sends and outcomes are written at once, other changes after a delay, dispose writes them, and a fresh history on the same storage reads them back', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const w = world();
    t.after(() => w.history.dispose());
    const stored = () => w.memento.get<{ entries?: Array<{ sends: Array<{ outcomes: Array<{ kind: string }> }> }> } | undefined>(HISTORY_STORAGE_KEY, undefined);
    w.request('R1');
    w.request('R2');
    const command = w.send('R1', { text: 'one' });
    assert.equal(stored()?.entries?.length, 1, 'a send is written at once: a reload right after answering keeps it');
    w.history.recordOutcome(command.id, { kind: 'accepted', commandId: command.id });
    assert.deepEqual(stored()?.entries?.[0]?.sends[0]?.outcomes.map((o) => o.kind), ['accepted'], 'and so is its outcome');
    w.clock.now += 2_000;
    w.resolved('R2');
    assert.equal(stored()?.entries?.length, 1, 'a request that ended without an answer from here is not written yet');
    t.mock.timers.tick(SAVE_DELAY_MS - 1);
    assert.equal(stored()?.entries?.length, 1, 'not before the delay');
    t.mock.timers.tick(1);
    assert.equal(stored()?.entries?.length, 2, 'written after the delay');
    w.clock.now += 1_000;
    w.history.recordOutcome(command.id, { kind: 'awaiting-ack', commandId: command.id, sent: true });
    const entries = w.history.entries().map((entry) => structuredClone(entry));
    w.history.dispose();

    const again = new AnswerHistory(w.memento, w.log, { now: () => w.clock.now });
    t.after(() => again.dispose());
    assert.deepEqual(again.entries(), entries);
    assert.deepEqual(requestIds(again), ['R2', 'R1']);
    again.recordOutcome(command.id, { kind: 'refused-by-hub', commandId: command.id, code: 'no-route' });
    assert.deepEqual(again.entry(entries[1]?.id ?? '')?.sends[0]?.outcomes.map((o) => o.kind), ['accepted', 'awaiting-ack', 'refused-by-hub']);
    assert.deepEqual(w.log.entries, []);
  });

  test('corrupt stored entries are skipped with one log line, the rest kept', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.request('GOOD', { prompt: 'a prompt nobody logs' });
    w.send('GOOD', { text: 'an answer nobody logs' });
    w.clock.now += 1_000;
    w.request('GOOD2');
    w.send('GOOD2', { text: 'two' });
    w.history.dispose();
    const saved = w.memento.get<{ version: number; entries: Array<Record<string, unknown>> }>(HISTORY_STORAGE_KEY, { version: 0, entries: [] });
    const [good2, good] = saved.entries;
    assert.ok(good && good2);
    const badOutcome = structuredClone(good2);
    badOutcome['agentOutcomes'] = [{ kind: 'answered', at: 'yesterday' }];
    const wrongId = { ...structuredClone(good2), id: 'someone else' };
    void w.memento.update(HISTORY_STORAGE_KEY, { version: 1, entries: [42, good, { kind: 'input' }, badOutcome, null, wrongId, good2, good] });

    const log = new RecordingLogger();
    const again = new AnswerHistory(w.memento, log, { now: () => w.clock.now });
    t.after(() => again.dispose());
    assert.deepEqual(requestIds(again), ['GOOD2', 'GOOD']);
    assert.deepEqual(log.codes(), ['warn storage-entries-skipped'], log.lines.join('\n'));
    assert.deepEqual(log.entries[0]?.data, { slot: HISTORY_STORAGE_KEY, skipped: 6, kept: 2, entries: '0 2 3 4 5 7' });
    assert.ok(!log.lines.some((line) => line.includes('nobody logs')), 'no prompt or answer text in the log');

    again.dispose();
    const rewritten = w.memento.get<{ entries: unknown[] }>(HISTORY_STORAGE_KEY, { entries: [] });
    assert.equal(rewritten.entries.length, 2, 'the unreadable entries are written away');
  });

  test('a stored value of another form is logged and read as empty', (t) => {
    const memento = new MemoryMemento();
    void memento.update(HISTORY_STORAGE_KEY, { version: 2, entries: 'later' });
    const log = new RecordingLogger();
    const history = new AnswerHistory(memento, log);
    t.after(() => history.dispose());
    assert.deepEqual(history.entries(), []);
    assert.deepEqual(log.codes(), ['warn storage-unreadable']);
  });

  test('clear empties the history and the storage at once', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.request('R1');
    w.send('R1', { text: 'one' });
    w.history.dispose();
    assert.notEqual(w.memento.get<unknown>(HISTORY_STORAGE_KEY, undefined), undefined);

    const again = new AnswerHistory(w.memento, w.log, { now: () => w.clock.now });
    t.after(() => again.dispose());
    let changes = 0;
    again.onDidChange(() => changes++);
    assert.equal(again.entries().length, 1);
    again.clear();
    assert.deepEqual(again.entries(), []);
    assert.equal(changes, 1);
    assert.equal(w.memento.get<unknown>(HISTORY_STORAGE_KEY, undefined), undefined);
    assert.deepEqual(w.memento.keys(), []);
    again.dispose();
    assert.deepEqual(new AnswerHistory(w.memento, w.log).entries(), []);
  });

  test('a storage that fails is logged, and the history in memory stays', async () => {
    let thrown = 0;
    const memento = new FailingMemento((key) => key === HISTORY_STORAGE_KEY && thrown++ === 0, (key) => key === HISTORY_STORAGE_KEY);
    const w = world({ memento });
    w.request('R1');
    w.send('R1', { text: 'one' });
    w.history.dispose();
    w.history.clear();
    const errors = () => w.log.find({ level: 'error' });
    await waitUntil(() => errors().length >= 2, 'both failed writes logged', 5_000, () => w.log.lines.join('\n'));
    assert.deepEqual(errors().map(({ code, data }) => `${code ?? ''} ${String(data['slot'])}`), [
      `storage-write-failed ${HISTORY_STORAGE_KEY}`,
      `storage-write-failed ${HISTORY_STORAGE_KEY}`,
    ]);
  });
});

describe('Export Answer History: JSON Lines and CSV from the entries as stored', () => {
  test('one JSON line per entry, oldest first, with times, hub, agent, session, request, kind, prompt, what was sent, capture and outcome; masked stays masked', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    w.form('F', 'full');
    const command = w.send('F', { text: `deploy with ${GITHUB_TOKEN}`, values: { name: 'billing api', password: PASSWORD, replicas: 3 } }, true);
    w.history.recordOutcome(command.id, { kind: 'accepted', commandId: command.id });
    w.clock.now += 60_000;
    w.request('Q', { prompt: `Use ${GITHUB_TOKEN}?` });
    w.clock.now += 60_000;
    w.resolved('Q', 'cancelled');
    const text = toJsonLines(w.history.entries());
    const lines = text.split('\n');
    assert.equal(lines.pop(), '', 'every line ends with a newline');
    assert.equal(lines.length, 2);
    const [form, question] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(form?.['requestId'], 'F', 'oldest first');
    assert.equal(question?.['requestId'], 'Q');
    assert.deepEqual(form?.['hub'], HUB);
    assert.equal(form?.['agent'], 'claude-code');
    assert.equal(form?.['session'], 's1');
    assert.equal(form?.['kind'], 'form');
    assert.match(String(form?.['at']), /^2026-07-03T10:00:00(\.000)?Z$/);
    const [send] = form?.['sends'] as Array<Record<string, unknown>>;
    assert.equal(send?.['capture'], 'full');
    assert.equal(send?.['commandId'], command.id);
    assert.deepEqual(send?.['answer'], { text: SENT_AS_TYPED_MARK, values: { name: SENT_AS_TYPED_MARK, password: SENT_AS_TYPED_MARK, replicas: 3 } });
    assert.deepEqual((send?.['outcomes'] as Array<Record<string, unknown>>).map((o) => o['kind']), ['accepted']);
    assert.equal(question?.['ended'], 'resolved');
    assert.ok(!String((question?.['prompt'] as Record<string, unknown>)['text']).includes(GITHUB_TOKEN), 'the prompt as stored, credential-masked');
    for (const secret of [GITHUB_TOKEN, PASSWORD, 'billing api']) assert.ok(!text.includes(secret), secret);
  });

  test('CSV: a header and one row per entry; agent text quoted and kept from running as a formula', (t) => {
    const w = world();
    t.after(() => w.history.dispose());
    const hostile = '=HYPERLINK("https://evil.example","Approve, now")\nsecond line';
    w.request('P', { prompt: hostile }, 'full');
    w.send('P', { text: 'yes' });
    const csv = toCsv(w.history.entries());
    const rows = csv.split('\r\n');
    assert.equal(rows.pop(), '');
    assert.equal(rows[0], CSV_COLUMNS.join(','));
    assert.ok(csv.includes(`"'=HYPERLINK(""https://evil.example"",""Approve, now"")\nsecond line"`), csv);
    assert.ok(rows.some((row) => row.includes(',P,input,')), 'the request id and kind in their columns');
  });

  test('csvCell: plain text as is; quotes, commas and line breaks quoted; formula starts made inert', () => {
    assert.equal(csvCell('plain text'), 'plain text');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
    for (const start of ['=', '+', '-', '@', '\t', '\r']) assert.equal(csvCell(`${start}1+1`).startsWith(`"'${start}`), true, JSON.stringify(start));
  });
});
