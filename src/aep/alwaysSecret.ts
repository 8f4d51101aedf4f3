// Rule (b) of the AEP-0003 §9.4 pipeline: values the user lists as always
// secret (a database password, a deploy key), replaced wherever the pipeline
// runs. The host keeps the list in VS Code's secret storage, never in
// settings; this is the list's one shape and its rules, in plain TypeScript.
import * as z from 'zod/mini';

/** Shorter values would replace ordinary words (the spec's reference skips them too). */
export const MIN_SECRET_VALUE_LENGTH = 4;

const storedSchema = z.array(z.string());

/** The stored list; a malformed one reads as empty, with the problem to log (never the values). */
export function readSecretValues(raw: string | undefined): { values: string[]; problem?: string } {
  if (raw === undefined || raw === '') return { values: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { values: [], problem: 'the stored always-secret values are not JSON' };
  }
  const result = storedSchema.safeParse(parsed);
  return result.success ? { values: result.data } : { values: [], problem: 'the stored always-secret values are not a list of strings' };
}

export function writeSecretValues(values: readonly string[]): string {
  return JSON.stringify(values);
}

export type AddSecretValue = { ok: true; values: string[] } | { ok: false; reason: 'too-short' | 'already-listed' };

/** The list with `value` added, or why not. Counted in characters as the reference counts them (code points). */
export function addSecretValue(values: readonly string[], value: string): AddSecretValue {
  if ([...value].length < MIN_SECRET_VALUE_LENGTH) return { ok: false, reason: 'too-short' };
  if (values.includes(value)) return { ok: false, reason: 'already-listed' };
  return { ok: true, values: [...values, value] };
}
