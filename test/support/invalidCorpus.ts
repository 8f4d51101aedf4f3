import { readAepJson } from './fixtures';

/**
 * The vendored `invalid` corpus (test/fixtures/aep/invalid/cases.json): events
 * that MUST fail validation, each naming its rule. Which party refuses them
 * depends on the layer the rule belongs to (AEP-0001 §4.1, §10: conformance is
 * claimed per layer and role; layers above one's tier are never required):
 *
 * - `envelope` (L0, AEP-0001 §5–§6): a relay refuses the event at ingest
 *   (AEP-0003 §3.2.3: 400 when an event fails envelope validation).
 * - `payload` (L1, AEP-0002 §5 schemas, AEP-0006): the envelope is sound and
 *   a relay forwards it, since relays "MUST NOT require parsing `data`"
 *   (AEP-0001 §5); the consumer that reads the payload refuses it.
 * - `stream` (emitter obligations across events, AEP-0001 §7.2, §10,
 *   AEP-0002 §2, AEP-0004 §3): every event is sound on its own. A relay
 *   cannot tell a regression from backfill or redelivery, which it must pass
 *   (AEP-0001 §7.2, AEP-0003 §5), so it forwards them.
 */
export type InvalidLevel = 'envelope' | 'payload' | 'stream';

export const INVALID_CASE_LEVELS: Readonly<Record<string, InvalidLevel>> = {
  'session-scoped without session': 'envelope',
  'session-scoped without seq': 'envelope',
  'agent-scoped with session': 'envelope',
  'agent-scoped with seq': 'envelope',
  'command with seq': 'envelope',
  'attention.routed with seq': 'envelope',
  'single-segment type': 'envelope',
  'unknown category': 'envelope',
  'uppercase in type': 'envelope',
  'vendor type too short (x.vendor.verb)': 'envelope',
  'extension attribute name over 20 chars': 'envelope',
  'extension attribute with object value': 'envelope',
  'extension attribute name with illegal charset': 'envelope',
  'unknown severity': 'envelope',
  'malformed traceparent': 'envelope',
  'unsupported envelope version': 'envelope',
  'negative seq': 'envelope',
  'form select field without choices': 'payload',
  'agent.presence with an unregistered state': 'payload',
  'agent.presence missing the required state': 'payload',
  'agent.health with an unregistered status': 'payload',
  'session.compacted with a non-integer token count': 'payload',
  'state.delta with a non-array delta': 'payload',
  'run.finished cost missing the required currency': 'payload',
  'tool.completed cost total is a string (amounts are numbers, not bare-float strings)': 'payload',
  'form answered with a non-choice string for a select without other:true': 'stream',
  'second run terminal (finished then cancelled)': 'stream',
  'run terminal repeated (failed twice, distinct events)': 'stream',
  'session ends with a dangling attention request': 'stream',
  'id collision within one emitter (same (source,id), different content)': 'stream',
  'seq regression without an epoch bump': 'stream',
  'epoch regression': 'stream',
  'second ack for one command (accepted twice, distinct events)': 'stream',
  'conflicting ack decisions for one command (accepted then rejected)': 'stream',
  'second session.ended for one session (distinct events)': 'stream',
};

export interface InvalidCase {
  readonly name: string;
  readonly rule: string;
  readonly level: InvalidLevel;
  /** The event, or the stream's events in order. */
  readonly events: ReadonlyArray<Record<string, unknown>>;
}

/** Every case, with its level; throws on a case this file does not classify, so a corpus update is looked at. */
export function invalidCases(): InvalidCase[] {
  const file = readAepJson<{ cases: Array<{ name: string; rule: string; event?: Record<string, unknown>; events?: Array<Record<string, unknown>> }> }>(
    'invalid/cases.json',
  );
  return file.cases.map((c) => {
    const level = INVALID_CASE_LEVELS[c.name];
    if (level === undefined) throw new Error(`invalid/cases.json has an unclassified case: ${c.name}`);
    const events = c.events ?? (c.event ? [c.event] : []);
    if (events.length === 0) throw new Error(`invalid/cases.json case without events: ${c.name}`);
    return { name: c.name, rule: c.rule, level, events };
  });
}
