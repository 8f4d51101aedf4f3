import * as z from 'zod/mini';
import { captureOf, severityOf, type AepEvent } from './envelope';
import type { CaptureLevel, Severity } from './levels';
import { describeZodError, parsedOk, parsedProblem, safeParseEnglish, type Parsed } from './result';

/** The `kind`s AEP-0002 §5.3 defines (with AEP-0006's `form`). Others are kept and shown as prompt + reply. */
export const KNOWN_KINDS = ['permission', 'input', 'auth', 'review', 'form', 'other'] as const;
export type KnownKind = (typeof KNOWN_KINDS)[number];

const nonEmpty = z.string().check(z.minLength(1, 'must be a non-empty string'));

const choiceSchema = z.object({ id: nonEmpty, label: z.string() });
export type Choice = z.infer<typeof choiceSchema>;

// field_spec (AEP-0002 §5.2 as amended by AEP-0006). `type` is read as any
// string so that a field type from a newer revision degrades to "cannot
// answer this field" instead of failing the whole form.
const rawFieldSchema = z.object({
  id: nonEmpty,
  type: nonEmpty,
  label: z.string(),
  required: z.optional(z.boolean()),
  multi: z.optional(z.boolean()),
  other: z.optional(z.boolean()),
  choices: z.optional(z.array(choiceSchema)),
  min: z.optional(z.number()),
  max: z.optional(z.number()),
});

interface FieldBase {
  id: string;
  label: string;
  required: boolean;
}
export type StringField = FieldBase & { type: 'string' };
export type NumberField = FieldBase & { type: 'number'; min?: number; max?: number };
export type BooleanField = FieldBase & { type: 'boolean' };
export type SelectField = FieldBase & { type: 'select'; multi: boolean; other: boolean; choices: Choice[] };
/** A field whose type this extension does not know; it is shown, never answered. */
export type UnsupportedField = FieldBase & { type: 'unsupported'; declaredType: string };
export type FieldSpec = StringField | NumberField | BooleanField | SelectField | UnsupportedField;

const optionSchema = choiceSchema;
export type AttentionOption = Choice;

const requestedDataSchema = z.object({
  kind: nonEmpty,
  prompt: z.string(),
  options: z.optional(z.array(optionSchema)),
  fields: z.optional(z.array(z.unknown())),
  expires_at: z.optional(z.string()),
  respond_via: z.optional(z.array(z.string())),
  context: z.optional(z.record(z.string(), z.unknown())),
});

/** A parsed, renderable `attention.requested`. */
export interface AttentionRequest {
  id: string;
  source: string;
  agent: string;
  session: string;
  subject?: string;
  time: string;
  severity: Severity;
  capture: CaptureLevel;
  /** The kind as sent; `renderKind` is what the UI treats it as. */
  kind: string;
  renderKind: KnownKind;
  prompt: string;
  options: AttentionOption[];
  fields: FieldSpec[];
  /** Epoch milliseconds, when the request carries `expires_at`. */
  expiresAt?: number;
  /**
   * AEP-0008 §2: when `respond_via` is present and lacks `control`, the answer
   * happens out of band; the card is informational and offers no send control.
   */
  answerableHere: boolean;
  respondVia?: string[];
  context?: Record<string, unknown>;
}

/** Why a request cannot be rendered, in words for the person who would have answered it. */
export interface RequestProblem {
  id: string;
  source: string;
  agent: string;
  session?: string;
  message: string;
}

function isKnownKind(kind: string): kind is KnownKind {
  return (KNOWN_KINDS as readonly string[]).includes(kind);
}

function describeKind(kind: string): string {
  switch (kind) {
    case 'form':
      return 'a form';
    case 'permission':
      return 'a permission request';
    case 'input':
      return 'a question';
    default:
      return `a ${kind} request`;
  }
}

function readField(raw: unknown, index: number): Parsed<FieldSpec> {
  const parsed = safeParseEnglish(rawFieldSchema, raw);
  if (!parsed.success) {
    const id = typeof raw === 'object' && raw !== null && 'id' in raw && typeof raw.id === 'string' ? raw.id : undefined;
    const name = id ? `field \`${id}\`` : `field ${index + 1}`;
    return parsedProblem(`${name} is malformed (${describeZodError(parsed.error)})`);
  }
  const f = parsed.data;
  // A field called `__proto__` cannot survive a JSON round trip as a values key.
  if (f.id === '__proto__') return parsedProblem('field id `__proto__` cannot be answered safely');
  const base: FieldBase = { id: f.id, label: f.label, required: f.required ?? false };
  switch (f.type) {
    case 'string':
      return parsedOk({ ...base, type: 'string' });
    case 'boolean':
      return parsedOk({ ...base, type: 'boolean' });
    case 'number': {
      if (f.min !== undefined && f.max !== undefined && f.min > f.max) {
        return parsedProblem(`number field \`${f.id}\` has min ${f.min} above max ${f.max}`);
      }
      const field: NumberField = { ...base, type: 'number' };
      if (f.min !== undefined) field.min = f.min;
      if (f.max !== undefined) field.max = f.max;
      return parsedOk(field);
    }
    case 'select': {
      // AEP-0006: choices are REQUIRED when type is select.
      if (!f.choices) return parsedProblem(`select field \`${f.id}\` has no choices`);
      const duplicate = firstDuplicate(f.choices.map((c) => c.id));
      if (duplicate !== undefined) return parsedProblem(`select field \`${f.id}\` lists choice \`${duplicate}\` twice`);
      if (f.choices.length === 0 && !f.other) {
        return parsedProblem(`select field \`${f.id}\` has no choices and allows no other answer`);
      }
      return parsedOk({ ...base, type: 'select', multi: f.multi ?? false, other: f.other ?? false, choices: f.choices });
    }
    default:
      return parsedOk({ ...base, type: 'unsupported', declaredType: f.type });
  }
}

function firstDuplicate(values: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) return value;
    seen.add(value);
  }
  return undefined;
}

/**
 * Reads an `attention.requested` event into something the UI can render, or
 * into a problem that names the agent and what is wrong ("agent X sent a form
 * that cannot be rendered: select field `db` has no choices"). Never throws.
 */
export type RequestParse = { ok: true; value: AttentionRequest } | { ok: false; problem: RequestProblem };

export function parseAttentionRequest(event: AepEvent): RequestParse {
  const fail = (what: string, reason: string): RequestParse => {
    const problem: RequestProblem = {
      id: event.id,
      source: event.source,
      agent: event.agent,
      message: `agent ${event.agent} sent ${what} that cannot be rendered: ${reason}`,
    };
    if (event.session !== undefined) problem.session = event.session;
    return { ok: false, problem };
  };
  if (event.session === undefined) return fail('an attention request', 'it names no session to answer');
  const data = safeParseEnglish(requestedDataSchema, event.data ?? {});
  if (!data.success) {
    const kind = event.data?.['kind'];
    return fail(typeof kind === 'string' ? describeKind(kind) : 'a request', describeZodError(data.error));
  }
  const d = data.data;
  const what = describeKind(d.kind);
  const fields: FieldSpec[] = [];
  if (d.fields) {
    for (const [index, raw] of d.fields.entries()) {
      const field = readField(raw, index);
      if (!field.ok) return fail(what, field.problem);
      fields.push(field.value);
    }
    const duplicate = firstDuplicate(fields.map((f) => f.id));
    if (duplicate !== undefined) return fail(what, `field id \`${duplicate}\` is used twice`);
  }
  if (d.kind === 'form' && fields.length === 0) return fail(what, 'it has no fields');
  const duplicateOption = firstDuplicate((d.options ?? []).map((o) => o.id));
  if (duplicateOption !== undefined) return fail(what, `option \`${duplicateOption}\` is listed twice`);

  let expiresAt: number | undefined;
  if (d.expires_at !== undefined) {
    expiresAt = Date.parse(d.expires_at);
    if (!Number.isFinite(expiresAt)) return fail(what, `\`expires_at\` (${JSON.stringify(d.expires_at.slice(0, 40))}) is not a date`);
  }

  const request: AttentionRequest = {
    id: event.id,
    source: event.source,
    agent: event.agent,
    session: event.session,
    time: event.time,
    severity: severityOf(event),
    capture: captureOf(event),
    kind: d.kind,
    renderKind: isKnownKind(d.kind) ? d.kind : 'other',
    prompt: d.prompt,
    options: d.options ?? [],
    fields,
    answerableHere: d.respond_via === undefined || d.respond_via.includes('control'),
  };
  if (event.subject !== undefined) request.subject = event.subject;
  if (expiresAt !== undefined) request.expiresAt = expiresAt;
  if (d.respond_via !== undefined) request.respondVia = d.respond_via;
  if (d.context !== undefined) request.context = d.context;
  return { ok: true, value: request };
}

// ---- the lifecycle events after `requested` (AEP-0002 §7) -------------------

const valuesSchema = z.record(z.string(), z.unknown());

export const answerSchema = z.object({
  option: z.optional(z.string()),
  text: z.optional(z.string()),
  values: z.optional(valuesSchema),
});
export type Answer = z.infer<typeof answerSchema>;

const answeredDataSchema = z.object({
  answer: answerSchema,
  by: z.optional(z.string()),
  via: z.optional(z.string()),
});
export type AnsweredData = z.infer<typeof answeredDataSchema>;

// `resolution` is read as any string: a value from a newer revision still closes the request.
const resolvedDataSchema = z.object({ resolution: z.string().check(z.minLength(1)), latency_ms: z.optional(z.number()) });
export type ResolvedData = z.infer<typeof resolvedDataSchema>;

const timeoutDataSchema = z.object({ after_ms: z.optional(z.number()) });
const routedDataSchema = z.object({ to: z.optional(z.string()), via: z.optional(z.string()) });
export type RoutedData = z.infer<typeof routedDataSchema>;

function readData<T>(schema: z.ZodMiniType<T>, event: AepEvent): Parsed<T> {
  const result = safeParseEnglish(schema, event.data ?? {});
  if (result.success) return parsedOk(result.data);
  return parsedProblem(`${event.type} from ${event.agent} is malformed: ${describeZodError(result.error)}`);
}

export const readAnswered = (event: AepEvent) => readData(answeredDataSchema, event);
export const readResolved = (event: AepEvent) => readData(resolvedDataSchema, event);
export const readTimeout = (event: AepEvent) => readData(timeoutDataSchema, event);
export const readRouted = (event: AepEvent) => readData(routedDataSchema, event);
