// Lifecycle events and acks that claim someone else's request or command
// (test/fixtures/hostile/spoofed-lifecycle.json): only the request's own
// emitter closes it (AEP-0002 §7), only the addressed target settles a
// command (AEP-0004 §4.5), and whatever is refused is said, not dropped.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ControlSender, type SendOutcome } from '../../src/client/controlSender';
import { buildRespondCommand } from '../../src/aep/control';
import { parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import { Inbox } from '../../src/inbox/inbox';
import { hostileJson } from '../support/hostileCorpus';
import { RecordingLogger } from '../support/recordingLogger';

interface LifecycleCase {
  name: string;
  before?: boolean;
  events: unknown[];
  status: string;
  problems: boolean[];
  requestProblem?: boolean;
  routedBy?: string[];
}
interface AckCase {
  name: string;
  ack: Record<string, unknown>;
  settles: boolean;
}
interface Corpus {
  request: unknown;
  cases: LifecycleCase[];
  acks: { cases: AckCase[] };
}

const corpus = hostileJson<Corpus>('spoofed-lifecycle.json');

function envelope(raw: unknown): AepEvent {
  const parsed = parseEnvelope(raw);
  assert.ok(parsed.ok, `a corpus event must be a valid envelope: ${JSON.stringify(raw)}`);
  return parsed.value;
}

describe('spoofed lifecycle events', () => {
  assert.ok(corpus.cases.length >= 8);
  for (const scenario of corpus.cases) {
    test(scenario.name, () => {
      const inbox = new Inbox();
      const request = envelope(corpus.request);
      const events = scenario.events.map(envelope);
      const problems: boolean[] = [];
      let requestProblem: string | undefined;
      const applyRequest = () => {
        const outcome = inbox.apply(request);
        assert.ok(outcome.applied);
        requestProblem = outcome.problem;
      };
      if (!scenario.before) applyRequest();
      for (const event of events) {
        const outcome = inbox.apply(event);
        assert.ok(outcome.applied);
        problems.push(outcome.problem !== undefined);
        if (outcome.problem) assert.match(outcome.problem, /only the request's own emitter/);
      }
      if (scenario.before) applyRequest();
      const item = inbox.findRequest('s1', '01REQ', request.source);
      assert.ok(item);
      assert.equal(item.status, scenario.status);
      assert.deepEqual(problems, scenario.problems);
      assert.equal(requestProblem !== undefined, scenario.requestProblem ?? false, requestProblem);
      if (scenario.requestProblem) assert.match(requestProblem ?? '', /mallory.*only the request's own emitter/);
      assert.deepEqual(item.routedBy, scenario.routedBy ?? []);
    });
  }
});

describe('misrouted acks', () => {
  const request = envelope(corpus.request);
  const sender = { agent: 'vscode-aep-attention', source: 'aep://workstation/agent/vscode-aep-attention' };
  for (const scenario of corpus.acks.cases) {
    test(`${scenario.name}: ${scenario.settles ? 'settles the command' : 'is logged and changes nothing'}`, async () => {
      const log = new RecordingLogger();
      const control = new ControlSender(log);
      control.connected(() => true);
      const built = buildRespondCommand({ id: request.id, session: 's1', fields: [] }, { option: 'allow' }, sender);
      assert.ok(built.ok, 'an option answer carries no free text: always built');
      const command = built.command;
      let settled: SendOutcome | undefined;
      const outcome = control.send(command, 60_000, { session: 's1', source: request.source }).then((o) => (settled = o));
      const ack = envelope({ aep: '0.1', id: `ACK-${scenario.name.length}`, time: '2026-07-03T10:00:02.000Z', cause: command.id, ...scenario.ack });
      assert.equal(control.onAck(ack), scenario.settles);
      await new Promise((resolve) => setImmediate(resolve));
      if (scenario.settles) {
        assert.equal(settled?.kind, scenario.ack['type'] === 'control.accepted' ? 'accepted' : 'rejected');
      } else {
        assert.equal(settled, undefined, 'the command is still waiting for its own target');
        assert.deepEqual(log.dataOf('warn', 'ack-misrouted'), [{ commandId: command.id }], log.lines.join('\n'));
        control.dispose();
      }
      await outcome;
    });
  }
});

describe('attention.routed floods', () => {
  test('each router is named once and at most 16 are kept; the rest are refused and said', () => {
    const inbox = new Inbox();
    const request = envelope(corpus.request);
    assert.ok(inbox.apply(request).applied);
    const problemOf = (event: AepEvent) => {
      const outcome = inbox.apply(event);
      return outcome.applied ? outcome.problem : 'not applied';
    };
    const routed = (n: number, agent: string) =>
      envelope({ aep: '0.1', id: `R${n}`, type: 'attention.routed', time: '2026-07-03T10:00:01.000Z', source: `aep://host-b/agent/${agent}`, agent, session: 's1', subject: '01REQ' });
    for (let i = 0; i < 5; i++) assert.equal(problemOf(routed(i, 'telegram-sink')), undefined);
    const problems = Array.from({ length: 40 }, (_, i) => problemOf(routed(100 + i, `router-${i}`)));
    const item = inbox.findRequest('s1', '01REQ', request.source);
    assert.equal(item?.routedBy.length, 16);
    assert.equal(item?.routedBy.filter((a) => a === 'telegram-sink').length, 1);
    assert.equal(problems.filter((p) => p !== undefined).length, 40 - 15);
    assert.match(problems.at(-1) ?? '', /16 routers are already recorded/);
    assert.equal(item?.status, 'pending');
  });
});
