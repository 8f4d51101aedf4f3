import type * as z from 'zod/mini';
import { en } from 'zod/locales';

/** The outcome of reading untrusted input: a value, or a sentence saying what was wrong. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

export function parsedOk<T>(value: T): Parsed<T> {
  return { ok: true, value };
}

export function parsedProblem<T = never>(problem: string): Parsed<T> {
  return { ok: false, problem };
}

/**
 * zod/mini carries no wording of its own: without a locale every issue it
 * raises says only "Invalid input". These are the English messages the
 * classic API loaded (and that `plainMessage` below rewrites), applied per
 * parse rather than through `z.config`, whose setting lives on `globalThis`
 * and so is shared with every other extension in the same host.
 */
const english = /* @__PURE__ */ en();

/**
 * `schema.safeParse(input)` with zod's English issue messages, for a result
 * that goes to `describeZodError`. Messages a schema sets itself still win.
 */
export function safeParseEnglish<S extends z.ZodMiniType>(schema: S, input: unknown): z.util.SafeParseResult<z.output<S>> {
  return schema.safeParse(input, { error: english.localeError });
}

/**
 * Turns a zod error into one short sentence a person can act on, naming the
 * attribute path the way it appears on the wire (`data.fields[2].choices`).
 * Expects an error from `safeParseEnglish`: with zod/mini's bare "Invalid
 * input" a missing attribute can no longer be told from a mistyped one.
 */
export function describeZodError(error: z.core.$ZodError, limit = 3): string {
  const parts = error.issues.slice(0, limit).map((issue) => {
    const where = formatPath(issue.path);
    const what = plainMessage(issue);
    if (!where) return what;
    return what === 'is missing' ? `\`${where}\` is missing` : `\`${where}\`: ${what}`;
  });
  const more = error.issues.length > limit ? ` (and ${error.issues.length - limit} more)` : '';
  return parts.join('; ') + more;
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** Zod's default wording ("Invalid input: expected string, received undefined") in plainer words. */
function plainMessage(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'invalid_type') return issue.message;
  if (/received undefined$/.test(issue.message)) return 'is missing';
  const expected = String(issue.expected);
  const article = /^[aeiou]/.test(expected) ? 'an' : 'a';
  return expected === 'array' || expected === 'object' || /^[a-z]+$/.test(expected) ? `must be ${article} ${expected}` : issue.message;
}
