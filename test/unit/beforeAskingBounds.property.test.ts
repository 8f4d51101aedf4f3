// Whatever an agent sends in its tool calls and runs, the "Before asking"
// view built from it is one the page's schema accepts: a view the host could
// not post would leave the page unrendered. fast-check prints the seed and
// the shrunk case on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { AepEvent } from '../../src/aep/envelope';
import { RecentActions } from '../../src/inbox/recentActions';
import { pageBeforeAskingSchema } from '../../src/shared/beforeAsking';
import { pageBeforeAsking } from '../../src/words/beforeAskingContent';
import { makeEvent } from '../support/events';

const UNSAFE_CHARS = ['\u202e', '\u0000', '\u200b', '\u2066', '\u0085', '\ufeff', '\udc00', '\u{e0041}', 'a', '\\'];
const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.tuple(fc.constantFrom(...UNSAFE_CHARS), fc.integer({ min: 1, max: 3_000 })).map(([c, n]) => c.repeat(n)),
  fc.array(fc.constantFrom(...UNSAFE_CHARS), { maxLength: 2_000 }).map((cs) => cs.join('')),
);
const hostileNumber = fc.oneof(
  fc.constantFrom(1e300, 2 ** 53 - 1, 2 ** 53, 1.7e308, Number.MAX_VALUE, -1, 0.5, 0),
  fc.double({ noNaN: false }),
  fc.integer({ min: 0, max: 1_000 }),
);
const TYPES = ['tool.requested', 'tool.completed', 'tool.failed', 'tool.denied', 'run.started', 'run.finished', 'run.failed'] as const;
const CAPTURES = ['metadata', 'redacted', 'full'] as const;

const hostileEvent = fc.record({
  type: fc.constantFrom(...TYPES),
  capture: fc.constantFrom(...CAPTURES),
  callId: fc.constantFrom('c1', 'c2', 'c3'),
  name: hostileString,
  args: fc.oneof(hostileString, fc.dictionary(fc.string({ maxLength: 5 }), hostileString, { maxKeys: 3 })),
  text: hostileString,
  duration: hostileNumber,
  input: hostileNumber,
  output: hostileNumber,
  total: hostileNumber,
});

function eventOf(e: typeof hostileEvent extends fc.Arbitrary<infer T> ? T : never, seq: number): AepEvent {
  return makeEvent(e.type, 's1', seq, {
    capture: e.capture,
    run: 'r1',
    data: {
      tool: { name: e.name, call_id: e.callId },
      args: e.args,
      args_redacted: e.args,
      duration_ms: e.duration,
      status: e.text,
      reason: e.text,
      by: e.text,
      rule: e.text,
      error: { type: e.text, message: e.text },
      'gen_ai.usage.input_tokens': e.input,
      'gen_ai.usage.output_tokens': e.output,
      cost: { currency: 'USD', total: e.total },
    },
  });
}

test('hostile strings and numbers in actions never make a view the page refuses', () => {
  fc.assert(
    fc.property(fc.array(hostileEvent, { minLength: 1, maxLength: 6 }), fc.constantFrom(...CAPTURES, undefined), (events, ceiling) => {
      const store = new RecentActions();
      events.forEach((e, i) => store.note('k', eventOf(e, i + 1), ceiling, 1_000));
      const view = pageBeforeAsking(store.of('k'), { seq: 100 });
      const checked = pageBeforeAskingSchema.safeParse(view);
      assert.ok(checked.success, checked.success ? '' : checked.error.message);
    }),
    { numRuns: 300 },
  );
});

test('the review\'s cases: escapes past the bound, unsafe integers, infinite sums', () => {
  const cases: Array<Record<string, unknown>[]> = [
    [{ type: 'tool.requested', capture: 'full', data: { tool: { name: 'Bash', call_id: 'c1' }, args: '\u202e'.repeat(1_000) } }],
    [{ type: 'tool.completed', data: { tool: { name: 'Bash', call_id: 'c1' }, 'gen_ai.usage.input_tokens': 1e300 } }],
    [
      { type: 'tool.completed', data: { tool: { name: 'A', call_id: 'c1' }, 'gen_ai.usage.input_tokens': 2 ** 53 - 1 } },
      { type: 'tool.completed', data: { tool: { name: 'B', call_id: 'c2' }, 'gen_ai.usage.input_tokens': 2 ** 53 - 1 } },
    ],
    [
      { type: 'run.started', data: {} },
      { type: 'tool.completed', data: { tool: { name: 'A', call_id: 'c1' }, cost: { currency: 'USD', total: 1.7e308 } } },
      { type: 'tool.completed', data: { tool: { name: 'B', call_id: 'c2' }, cost: { currency: 'USD', total: 1.7e308 } } },
    ],
    [{ type: 'tool.completed', data: { tool: { name: 'Bash', call_id: 'c1' }, duration_ms: 1e300 } }],
  ];
  for (const events of cases) {
    const store = new RecentActions();
    events.forEach((e, i) => store.note('k', makeEvent(String(e['type']), 's1', i + 1, { run: 'r1', ...(e['capture'] ? { capture: e['capture'] as AepEvent['capture'] } : {}), data: e['data'] as Record<string, unknown> }), 'full', 1_000));
    const checked = pageBeforeAskingSchema.safeParse(pageBeforeAsking(store.of('k'), { seq: 100 }));
    assert.ok(checked.success, `${JSON.stringify(events).slice(0, 200)}: ${checked.success ? '' : checked.error.message}`);
  }
});
