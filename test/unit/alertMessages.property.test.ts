// The notifications view's messages are checked by hand (src/shared/alertChecks.ts)
// since they left zod, to keep the view small. These properties hold the hand
// checks to the zod schemas they replaced, kept here as the reference: for
// messages of every type, the same messages mangled (a key dropped, a value
// swapped for anything, strings at and past their bounds, other keys added)
// and anything at all, both accept the same and give the same. fast-check
// prints the seed and the shrunk case on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import * as z from 'zod/mini';
import { checkAlertsToHost, checkHostToAlerts, type Checked } from '../../src/shared/alertChecks';
import { OS_NOTIFICATION_MODES, PERMISSION_STATES, SOUND_STATES } from '../../src/shared/alertMessages';

// The schemas as they were before the hand checks (git history: src/shared/alertMessages.ts).
const id = z.string().check(z.minLength(1), z.maxLength(64));
const words = z.string().check(z.maxLength(400));
const alertSettings = z.object({ mode: z.enum(OS_NOTIFICATION_MODES), sound: z.boolean(), focused: z.boolean() });
const hostToAlertsSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('init'), settings: alertSettings, l10n: z.optional(z.record(z.string(), z.string())) }),
  z.object({ type: z.literal('settings'), settings: alertSettings }),
  z.object({ type: z.literal('alert'), id, notice: z.optional(z.object({ title: words, body: words })), sound: z.boolean() }),
  z.object({ type: z.literal('close'), id }),
  z.object({ type: z.literal('opened'), ask: z.boolean() }),
]);
const alertsToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), permission: z.enum(PERMISSION_STATES), sound: z.enum(SOUND_STATES) }),
  z.object({ type: z.literal('permission'), permission: z.enum(PERMISSION_STATES) }),
  z.object({ type: z.literal('sound'), sound: z.enum(SOUND_STATES) }),
  z.object({ type: z.literal('shown'), id }),
  z.object({ type: z.literal('failed'), id }),
  z.object({ type: z.literal('clicked'), id }),
]);

/** Strings around the bounds the messages set (0, 1, 64, 65, 400, 401 characters), and any others. */
const boundedText = fc.oneof(
  fc.constantFrom(0, 1, 63, 64, 65, 399, 400, 401).map((length) => 'x'.repeat(length)),
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const settings = fc.record({ mode: fc.constantFrom(...OS_NOTIFICATION_MODES), sound: fc.boolean(), focused: fc.boolean() });
const optional = <T>(value: fc.Arbitrary<T>) => fc.oneof(value, fc.constant(undefined));
const strings = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), { maxKeys: 6 }),
  fc.constant(JSON.parse('{"__proto__": "x", "Allow": "Autoriser"}') as unknown),
  fc.constant(new Map([['a', 'b']])),
);

const hostMessages = fc.oneof(
  fc.record({ type: fc.constant('init'), settings, l10n: optional(strings) }, { requiredKeys: ['type', 'settings'] }),
  fc.record({ type: fc.constant('settings'), settings }),
  fc.record({ type: fc.constant('alert'), id: boundedText, notice: optional(fc.record({ title: boundedText, body: boundedText })), sound: fc.boolean() }, { requiredKeys: ['type', 'id', 'sound'] }),
  fc.record({ type: fc.constant('close'), id: boundedText }),
  fc.record({ type: fc.constant('opened'), ask: fc.boolean() }),
);
const viewMessages = fc.oneof(
  fc.record({ type: fc.constant('ready'), permission: fc.constantFrom(...PERMISSION_STATES), sound: fc.constantFrom(...SOUND_STATES) }),
  fc.record({ type: fc.constant('permission'), permission: fc.constantFrom(...PERMISSION_STATES) }),
  fc.record({ type: fc.constant('sound'), sound: fc.constantFrom(...SOUND_STATES) }),
  fc.record({ type: fc.constantFrom('shown', 'failed', 'clicked'), id: boundedText }),
);

/** Anything a page or a host could post: structured-clone data, plain or not. */
const anything = fc.oneof(
  fc.anything({ maxDepth: 3, withDate: true, withMap: true, withSet: true, withNullPrototype: true, withBigInt: true }),
  fc.constantFrom('init', 'alert', 'ready', 'granted', 'always', '', true, 0),
);

/** A message with one thing wrong, or right, or extra: a key dropped, a value (anywhere one level down) swapped, a key added. */
function mangled(messages: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc.tuple(messages, fc.nat(), fc.nat(), anything, fc.string({ maxLength: 10 }), fc.constantFrom('drop', 'swap', 'swapInner', 'add', 'keep')).map(
    ([message, pick, innerPick, value, extraKey, how]) => {
      const copy: Record<string, unknown> = { ...message };
      const keys = Object.keys(copy);
      const key = keys[pick % keys.length] ?? 'type';
      switch (how) {
        case 'drop': delete copy[key]; break;
        case 'swap': copy[key] = value; break;
        case 'swapInner': {
          const inner = copy[key];
          if (inner !== null && typeof inner === 'object' && !Array.isArray(inner) && !(inner instanceof Map)) {
            const innerCopy: Record<string, unknown> = { ...(inner as Record<string, unknown>) };
            const innerKeys = Object.keys(innerCopy);
            innerCopy[innerKeys[innerPick % Math.max(1, innerKeys.length)] ?? 'x'] = value;
            copy[key] = innerCopy;
          }
          break;
        }
        case 'add': copy[extraKey] = value; break;
        case 'keep': break;
      }
      return copy;
    },
  );
}

function sameAs(ours: Checked<unknown>, reference: { success: boolean; data?: unknown; error?: unknown }, input: unknown): void {
  assert.equal(ours.success, reference.success, `accepted by the hand check: ${ours.success}, by the reference: ${reference.success}; ${ours.success ? '' : ours.error.message}`);
  if (ours.success) assert.deepStrictEqual(ours.data, reference.data, `the same message given for ${String(JSON.stringify(input, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)))}`);
}

test('a message from the host to the notifications view: the hand check accepts and gives what the zod schema did', () => {
  fc.assert(
    fc.property(fc.oneof(hostMessages, mangled(hostMessages), mangled(viewMessages), anything), (input) => {
      sameAs(checkHostToAlerts(input), hostToAlertsSchema.safeParse(input), input);
    }),
    { numRuns: 3_000 },
  );
});

test('a message from the notifications view to the host: the hand check accepts and gives what the zod schema did', () => {
  fc.assert(
    fc.property(fc.oneof(viewMessages, mangled(viewMessages), mangled(hostMessages), anything), (input) => {
      sameAs(checkAlertsToHost(input), alertsToHostSchema.safeParse(input), input);
    }),
    { numRuns: 3_000 },
  );
});

test('a refused message says which key is wrong, in words the log can carry', () => {
  const refused = (checked: Checked<unknown>) => (checked.success ? assert.fail('refused') : checked.error.message);
  assert.equal(refused(checkHostToAlerts({ type: 'alert', id: '', sound: true })), 'id: expected a string of 1 to 64 characters');
  assert.equal(refused(checkHostToAlerts({ type: 'alert', id: 'a', sound: true, notice: { title: 't', body: 5 } })), 'notice.body: expected a string of 0 to 400 characters');
  assert.equal(refused(checkHostToAlerts({ type: 'init', settings: { mode: 'sometimes', sound: true, focused: false } })), 'settings.mode: expected one of whenUnfocused, always, off');
  assert.equal(refused(checkAlertsToHost({ type: 'open' })), 'type: expected one of ready, permission, sound, shown, failed, clicked');
  assert.equal(refused(checkAlertsToHost(null)), 'the message: expected an object');
  // Its keys only: what the other side added is not passed on.
  assert.deepEqual(checkAlertsToHost({ type: 'clicked', id: 'alert-1', extra: '<b>' }), { success: true, data: { type: 'clicked', id: 'alert-1' } });
});
