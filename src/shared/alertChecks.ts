// The checks of the notifications view's messages (alertMessages.ts), on
// both sides: by hand rather than with zod, since they are eleven flat
// messages and zod was 21 KB of the view's 28. In a module of their own so
// that activation, which reads the modes, does not load them.
// test/unit/alertMessages.property.test.ts holds them to what the zod schemas
// they replaced accepted and gave.
import {
  OS_NOTIFICATION_MODES, PERMISSION_STATES, SOUND_STATES, type AlertSettings, type AlertsToHost, type HostToAlerts,
} from './alertMessages';
import { isRecord } from '../base/isRecord';

/** A message checked: the message as its type says, with nothing but its own keys, or what is wrong with it. */
export type Checked<T> = { success: true; data: T } | { success: false; error: { message: string } };

/** A check of one value: what it gives, or a throw of `Invalid` naming where and what. */
type Check<T> = (value: unknown, path: string) => T;

class Invalid extends Error {}

function invalid(path: string, expected: string): never {
  throw new Invalid(`${path || 'the message'}: expected ${expected}`);
}

const text = (min: number, max: number): Check<string> => (value, path) =>
  typeof value === 'string' && value.length >= min && value.length <= max ? value : invalid(path, `a string of ${min} to ${max} characters`);
const id = text(1, 64);
const words = text(0, 400);
const flag: Check<boolean> = (value, path) => (typeof value === 'boolean' ? value : invalid(path, 'true or false'));
const oneOf = <T extends string>(values: readonly T[]): Check<T> => (value, path) =>
  (values as readonly unknown[]).includes(value) ? (value as T) : invalid(path, `one of ${values.join(', ')}`);

/** An object with these keys (an optional one only when present); other keys are left out of what it gives. */
function object<T>(shape: { [K in keyof T]-?: Check<T[K]> }, optional: ReadonlyArray<keyof T> = []): Check<T> {
  return (value, path) => {
    if (!isRecord(value)) return invalid(path, 'an object');
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(shape) as Array<keyof T & string>) {
      if (optional.includes(key) && (!(key in value) || value[key] === undefined)) {
        if (key in value) out[key] = undefined;
        continue;
      }
      out[key] = shape[key](value[key], path ? `${path}.${key}` : key);
    }
    return out as T;
  };
}

/** Plain data only (not a Map, a Date or a class's instance): what `postMessage` hands over as an object. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const made = (value as { constructor?: unknown }).constructor;
  if (made === undefined) return true;
  const prototype = (made as { prototype?: unknown }).prototype;
  return isRecord(prototype) && Object.prototype.hasOwnProperty.call(prototype, 'isPrototypeOf');
}

/** The view's strings by their English text: its own keys only, every value a string. */
const strings: Check<Record<string, string>> = (value, path) => {
  if (!isPlainObject(value)) return invalid(path, 'an object of strings');
  const out: Record<string, string> = {};
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string') return invalid(path, 'string keys');
    if (key === '__proto__') continue;
    const item = value[key];
    if (typeof item !== 'string') return invalid(`${path}.${key}`, 'a string');
    out[key] = item;
  }
  return out;
};

const alertSettings = object<AlertSettings>({ mode: oneOf(OS_NOTIFICATION_MODES), sound: flag, focused: flag });

/** One check per `type`, of the message's other keys: a message of any other type is refused. */
function byType<T extends { type: string }>(checks: { [K in T['type']]: Check<Omit<Extract<T, { type: K }>, 'type'>> }): (raw: unknown) => Checked<T> {
  return (raw) => {
    try {
      if (!isRecord(raw)) return invalid('', 'an object');
      const type = raw['type'];
      if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(checks, type)) return invalid('type', `one of ${Object.keys(checks).join(', ')}`);
      return { success: true, data: { type, ...checks[type as T['type']](raw, '') } as unknown as T };
    } catch (error) {
      if (error instanceof Invalid) return { success: false, error: { message: error.message } };
      throw error;
    }
  };
}

export const checkHostToAlerts = byType<HostToAlerts>({
  init: object({ settings: alertSettings, l10n: strings }, ['l10n']),
  settings: object({ settings: alertSettings }),
  alert: object({ id, notice: object({ title: words, body: words }), sound: flag }, ['notice']),
  close: object({ id }),
  opened: object({ ask: flag }),
});

export const checkAlertsToHost = byType<AlertsToHost>({
  ready: object({ permission: oneOf(PERMISSION_STATES), sound: oneOf(SOUND_STATES) }),
  permission: object({ permission: oneOf(PERMISSION_STATES) }),
  sound: object({ sound: oneOf(SOUND_STATES) }),
  shown: object({ id }),
  failed: object({ id }),
  clicked: object({ id }),
});
