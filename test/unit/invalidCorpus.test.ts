// Every case of the vendored `invalid` corpus through the hub's admission and,
// for the payload cases, through the extension's own parsers. Which party
// refuses which case is argued in test/support/invalidCorpus.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAttentionRequest, readAnswered, readResolved, readRouted } from '../../src/aep/attention';
import { matchesFilter } from '../../src/aep/attrMatch';
import { SUBSCRIBED_TYPES } from '../../src/client/userFilter';
import { readRejected } from '../../src/aep/control';
import { parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import { Inbox } from '../../src/inbox/inbox';
import { admitValue } from '../peers/hub/admission';
import { INVALID_CASE_LEVELS, invalidCases } from '../support/invalidCorpus';

const cases = invalidCases();

/** The extension's payload readers, by the event type whose `data` each reads; `ok: false` is a refusal. */
const CLIENT_READERS: Readonly<Record<string, (event: AepEvent) => { ok: boolean }>> = {
  'attention.requested': parseAttentionRequest,
  'attention.answered': readAnswered,
  'attention.resolved': readResolved,
  'attention.routed': readRouted,
  'control.rejected': readRejected,
};

function envelopeOf(raw: Record<string, unknown>): AepEvent {
  const parsed = parseEnvelope(raw);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
  return parsed.value;
}

test('the corpus has its 35 cases, each classified: 17 envelope, 8 payload, 10 stream', () => {
  assert.equal(cases.length, 35);
  assert.equal(Object.keys(INVALID_CASE_LEVELS).length, 35, 'no classification is left over from an older corpus');
  const count = (level: string) => cases.filter((c) => c.level === level).length;
  assert.deepEqual([count('envelope'), count('payload'), count('stream')], [17, 8, 10]);
});

describe('hub admission (test/peers/hub/admission.ts)', () => {
  for (const c of cases.filter((c) => c.level === 'envelope')) {
    test(`refuses: ${c.name} (${c.rule})`, () => {
      const [raw] = c.events;
      const admission = admitValue(raw, JSON.stringify(raw));
      assert.equal(admission.ok, false);
      if (!admission.ok) {
        assert.equal(admission.id, raw?.['id'], 'the refusal names the event, for the error frame\'s `cause`');
        assert.ok(admission.problem.length > 0);
      }
    });
  }
  for (const c of cases.filter((c) => c.level !== 'envelope')) {
    test(`forwards every event of: ${c.name} (a ${c.level} rule, not the relay's to enforce)`, () => {
      for (const raw of c.events) {
        const admission = admitValue(raw, JSON.stringify(raw));
        assert.ok(admission.ok, admission.ok ? '' : `${String(raw['id'])}: ${admission.problem}`);
      }
    });
  }
});

describe('the extension\'s parsers, payload cases', () => {
  for (const c of cases.filter((c) => c.level === 'payload')) {
    const [raw] = c.events;
    const type = String(raw?.['type']);
    const reader = CLIENT_READERS[type];
    if (reader) {
      test(`${c.name}: the envelope parses, the ${type} reader refuses the payload, the request cannot be answered`, () => {
        const event = envelopeOf(raw ?? {});
        assert.equal(reader(event).ok, false);
        const inbox = new Inbox();
        const outcome = inbox.apply(event);
        assert.ok(outcome.applied && outcome.problem !== undefined, 'applied, with the problem reported');
        const item = inbox.item(inbox.open()[0]?.key ?? '');
        assert.ok(item && item.request === undefined && item.problem !== undefined, 'kept as a request that cannot be rendered');
      });
    } else {
      test(`${c.name}: the extension reads no ${type} payload, so the event applies and opens nothing`, () => {
        const event = envelopeOf(raw ?? {});
        const inbox = new Inbox();
        const outcome = inbox.apply(event);
        assert.deepEqual(outcome, { applied: true, positionAdvanced: event.seq !== undefined });
        assert.equal(inbox.open().length, 0);
        // Whether it even arrives: only types the extension subscribes to reach the inbox.
        assert.equal(matchesFilter({ type: [...SUBSCRIBED_TYPES] }, event), type.startsWith('session.'));
      });
    }
  }
});
