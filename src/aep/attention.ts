import * as z from 'zod/mini';
import { UNSHOWABLE_KEY } from './bounds';
import { captureOf, nonEmpty, severityOf, type AepEvent } from './envelope';
import type { CaptureLevel, Severity } from './levels';
import { withheldContent, type WithheldContent } from './withheldRequest';
import { describeZodError, parsedOk, parsedProblem, safeParseEnglish, type Parsed } from '../base/result';

/** The `kind`s AEP-0002 §5.3 defines (with AEP-0006's `form`). Others are kept and shown as prompt + reply. */
export const KNOWN_KINDS = ['permission', 'input', 'auth', 'review', 'form', 'other'] as const;
export type KnownKind = (typeof KNOWN_KINDS)[number];

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

// A field as `readField` makes it. The request page gets it as it is (in
// src/shared/webviewMessages.ts), so page and host check answers against the
// same spec; this schema is what the page checks the host's message with.
const fieldBase = { id: nonEmpty, label: z.string(), required: z.boolean() };
const stringFieldSchema = z.object({ ...fieldBase, type: z.literal('string') });
const numberFieldSchema = z.object({ ...fieldBase, type: z.literal('number'), min: z.optional(z.number()), max: z.optional(z.number()) });
const booleanFieldSchema = z.object({ ...fieldBase, type: z.literal('boolean') });
const selectFieldSchema = z.object({ ...fieldBase, type: z.literal('select'), multi: z.boolean(), other: z.boolean(), choices: z.array(choiceSchema) });
/** A field whose type this extension does not know; it is shown, never answered. */
const unsupportedFieldSchema = z.object({ ...fieldBase, type: z.literal('unsupported'), declaredType: nonEmpty });
export const fieldSpecSchema = z.discriminatedUnion('type', [stringFieldSchema, numberFieldSchema, booleanFieldSchema, selectFieldSchema, unsupportedFieldSchema]);
export type StringField = z.infer<typeof stringFieldSchema>;
export type NumberField = z.infer<typeof numberFieldSchema>;
export type BooleanField = z.infer<typeof booleanFieldSchema>;
export type SelectField = z.infer<typeof selectFieldSchema>;
export type UnsupportedField = z.infer<typeof unsupportedFieldSchema>;
export type FieldSpec = z.infer<typeof fieldSpecSchema>;

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
  /** For the log, in English; the UI words the problem itself. */
  message: string;
  /** Set when its content was withheld on the way (capture `none`), not broken by the agent. */
  withheld?: WithheldContent;
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

// Hand-written equivalents of the schemas above for the hot path: every event
// of a flood goes through them, and zod's general machinery cost about half of
// the client's time per event (see BENCHMARKS.md). What they do not accept
// goes through the schema, which words the problem. A differential test
// (test/unit/hostile.test.ts) holds them to the schema's verdict and output.
const isString = (v: unknown): v is string => typeof v === 'string';
const isNonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);
const isBoolean = (v: unknown) => typeof v === 'boolean';
const isFiniteNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isChoice = (v: unknown) => isPlainObject(v) && isNonEmpty(v['id']) && isString(v['label']);
const isChoiceList = (v: unknown) => Array.isArray(v) && v.every(isChoice);

/**
 * A checked choice list in our shape (`{ id, label }` each): the event's own
 * list when each choice has no other key, so the copy would equal it. A
 * request is held beside the event it came in (kept verbatim for a reload),
 * and a copy of every list and choice was a third of the objects an open
 * request held (issue 40). Events are not changed once bounded
 * (src/aep/bounds.ts), so both read one list and neither changes it.
 */
function choicesOf(list: Choice[]): Choice[] {
  for (const choice of list) {
    let keys = 0;
    for (const _key in choice) keys++;
    if (keys !== 2) return list.map((c) => ({ id: c.id, label: c.label }));
  }
  return list;
}

function certainRawField(v: unknown): z.infer<typeof rawFieldSchema> | undefined {
  if (!isPlainObject(v)) return undefined;
  const ok = isNonEmpty(v['id']) && isNonEmpty(v['type']) && isString(v['label']) &&
    optional(v['required'], isBoolean) && optional(v['multi'], isBoolean) && optional(v['other'], isBoolean) &&
    optional(v['choices'], isChoiceList) && optional(v['min'], isFiniteNumber) && optional(v['max'], isFiniteNumber);
  if (!ok) return undefined;
  const field = { id: v['id'], type: v['type'], label: v['label'] } as z.infer<typeof rawFieldSchema>;
  if (v['required'] !== undefined) field.required = v['required'] as boolean;
  if (v['multi'] !== undefined) field.multi = v['multi'] as boolean;
  if (v['other'] !== undefined) field.other = v['other'] as boolean;
  if (v['choices'] !== undefined) field.choices = choicesOf(v['choices'] as Choice[]);
  if (v['min'] !== undefined) field.min = v['min'] as number;
  if (v['max'] !== undefined) field.max = v['max'] as number;
  return field;
}

function certainRequestedData(v: unknown): z.infer<typeof requestedDataSchema> | undefined {
  if (!isPlainObject(v)) return undefined;
  const ok = isNonEmpty(v['kind']) && isString(v['prompt']) && optional(v['options'], isChoiceList) &&
    optional(v['fields'], Array.isArray) && optional(v['expires_at'], isString) &&
    optional(v['respond_via'], (r) => Array.isArray(r) && r.every(isString)) && optional(v['context'], isPlainObject);
  if (!ok) return undefined;
  const data = { kind: v['kind'], prompt: v['prompt'] } as z.infer<typeof requestedDataSchema>;
  if (v['options'] !== undefined) data.options = choicesOf(v['options'] as Choice[]);
  if (v['fields'] !== undefined) data.fields = v['fields'] as unknown[];
  if (v['expires_at'] !== undefined) data.expires_at = v['expires_at'] as string;
  // A checked list of strings, shared with the event as choicesOf says.
  if (v['respond_via'] !== undefined) data.respond_via = v['respond_via'] as string[];
  if (v['context'] !== undefined) data.context = v['context'] as Record<string, unknown>;
  return data;
}

function readField(raw: unknown, index: number): Parsed<FieldSpec> {
  const certain = certainRawField(raw);
  const parsed = certain ? { success: true as const, data: certain } : safeParseEnglish(rawFieldSchema, raw);
  if (!parsed.success) {
    const id = typeof raw === 'object' && raw !== null && 'id' in raw && typeof raw.id === 'string' ? raw.id : undefined;
    const name = id ? `field \`${id}\`` : `field ${index + 1}`;
    return parsedProblem(`${name} is malformed (${describeZodError(parsed.error)})`);
  }
  const f = parsed.data;
  // A field called `__proto__` cannot survive a JSON round trip as a values key.
  if (f.id === '__proto__') return parsedProblem('field id `__proto__` cannot be answered safely');
  // Each field's literal is written out whole (members in the order they always had):
  // spreading a shared base into it was the costliest line of a flood's CPU profile.
  const id = f.id;
  const label = f.label;
  const required = f.required ?? false;
  switch (f.type) {
    case 'string':
      return parsedOk({ id, label, required, type: 'string' });
    case 'boolean':
      return parsedOk({ id, label, required, type: 'boolean' });
    case 'number': {
      if (f.min !== undefined && f.max !== undefined && f.min > f.max) {
        return parsedProblem(`number field \`${f.id}\` has min ${f.min} above max ${f.max}`);
      }
      const field: NumberField = { id, label, required, type: 'number' };
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
      return parsedOk({ id, label, required, type: 'select', multi: f.multi ?? false, other: f.other ?? false, choices: f.choices });
    }
    default:
      return parsedOk({ id, label, required, type: 'unsupported', declaredType: f.type });
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

// One empty list for every request without options, frozen: a request is read, never changed.
const NO_OPTIONS = /* @__PURE__ */ Object.freeze([]) as unknown as AttentionOption[];

/**
 * Reads an `attention.requested` event into something the UI can render, or
 * into a problem that names the agent and what is wrong ("agent X sent a form
 * that cannot be rendered: select field `db` has no choices"). Never throws.
 */
export type RequestParse = { ok: true; value: AttentionRequest } | { ok: false; problem: RequestProblem };

/** `ceiling`: the capture this window asks its hub for (AEP-0003 §6.4), so a request it withheld is not blamed on the agent. */
export function parseAttentionRequest(event: AepEvent, { ceiling }: { ceiling?: CaptureLevel | undefined } = {}): RequestParse {
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
  const unshowable = isPlainObject(event.data) ? event.data[UNSHOWABLE_KEY] : undefined;
  if (typeof unshowable === 'string') {
    const kind = event.data?.['kind'];
    return fail(typeof kind === 'string' ? describeKind(kind) : 'a request', unshowable);
  }
  const certain = certainRequestedData(event.data ?? {});
  const data = certain ? { success: true as const, data: certain } : safeParseEnglish(requestedDataSchema, event.data ?? {});
  if (!data.success) {
    const withheld = withheldContent(event, ceiling);
    if (withheld) {
      const problem: RequestProblem = { id: event.id, source: event.source, agent: event.agent, message: withheldMessage(event, withheld), withheld };
      problem.session = event.session;
      return { ok: false, problem };
    }
    const kind = event.data?.['kind'];
    return fail(typeof kind === 'string' ? describeKind(kind) : 'a request', describeZodError(data.error));
  }
  const d = data.data;
  const what = describeKind(d.kind);
  // Sized once: grown by push, a form's list kept room for 17 fields, held for as long as the request is.
  const fields = new Array<FieldSpec>(d.fields?.length ?? 0);
  if (d.fields) {
    for (let index = 0; index < d.fields.length; index++) {
      const field = readField(d.fields[index], index);
      if (!field.ok) return fail(what, field.problem);
      fields[index] = field.value;
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
    options: d.options ?? NO_OPTIONS,
    fields,
    answerableHere: d.respond_via === undefined || d.respond_via.includes('control'),
    // Set here, `undefined` when absent, not added after: an object grown after it is made holds a second, property, array.
    subject: event.subject,
    expiresAt,
    respondVia: d.respond_via,
    context: d.context,
  };
  return { ok: true, value: request };
}

function withheldMessage(event: AepEvent, withheld: WithheldContent): string {
  const by = withheld.by === 'own-ceiling' ? "this window's capture ceiling (none) withholds it" : 'it was withheld before it reached this window';
  return `${event.agent}'s request ${event.id} came without its content (capture none): ${by}`;
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

const routedDataSchema = z.object({ to: z.optional(z.string()), via: z.optional(z.string()) });
export type RoutedData = z.infer<typeof routedDataSchema>;

function readData<T>(schema: z.ZodMiniType<T>, event: AepEvent): Parsed<T> {
  const result = safeParseEnglish(schema, event.data ?? {});
  if (result.success) return parsedOk(result.data);
  return parsedProblem(`${event.type} from ${event.agent} is malformed: ${describeZodError(result.error)}`);
}

function certainAnswered(v: unknown): AnsweredData | undefined {
  if (!isPlainObject(v) || !optional(v['by'], isString) || !optional(v['via'], isString)) return undefined;
  const a = v['answer'];
  if (!isPlainObject(a) || !optional(a['option'], isString) || !optional(a['text'], isString) || !optional(a['values'], isPlainObject)) return undefined;
  const answer: Answer = {};
  if (a['option'] !== undefined) answer.option = a['option'] as string;
  if (a['text'] !== undefined) answer.text = a['text'] as string;
  if (a['values'] !== undefined) answer.values = { ...(a['values'] as Record<string, unknown>) };
  const data: AnsweredData = { answer };
  if (v['by'] !== undefined) data.by = v['by'] as string;
  if (v['via'] !== undefined) data.via = v['via'] as string;
  return data;
}

function certainResolved(v: unknown): ResolvedData | undefined {
  if (!isPlainObject(v) || !isNonEmpty(v['resolution']) || !optional(v['latency_ms'], isFiniteNumber)) return undefined;
  const data: ResolvedData = { resolution: v['resolution'] };
  if (v['latency_ms'] !== undefined) data.latency_ms = v['latency_ms'] as number;
  return data;
}

export const readAnswered = (event: AepEvent): Parsed<AnsweredData> => {
  const certain = certainAnswered(event.data ?? {});
  return certain ? parsedOk(certain) : readData(answeredDataSchema, event);
};
export const readResolved = (event: AepEvent): Parsed<ResolvedData> => {
  const certain = certainResolved(event.data ?? {});
  return certain ? parsedOk(certain) : readData(resolvedDataSchema, event);
};

/** Each hand-written check beside the schema it must agree with; exported for the differential test only. */
export const PAYLOAD_FAST_PATHS: ReadonlyArray<{ name: string; schema: z.ZodMiniType; certain: (value: unknown) => unknown }> = [
  { name: 'attention.requested data', schema: requestedDataSchema, certain: certainRequestedData },
  { name: 'field_spec', schema: rawFieldSchema, certain: certainRawField },
  { name: 'attention.answered data', schema: answeredDataSchema, certain: certainAnswered },
  { name: 'attention.resolved data', schema: resolvedDataSchema, certain: certainResolved },
];
export const readRouted = (event: AepEvent) => readData(routedDataSchema, event);
