import type { AttentionRequest, FieldSpec } from './attention';
import { captureAtLeast, type CaptureLevel } from './levels';

/**
 * What a prompt or label really is, given the request's capture
 * (AEP-0002 §5.3 `[metadata*]`, AEP-0006):
 * - `structural`: capture `metadata` or `none`; the text is a placeholder
 *   (a 1-based index, a field key) or, for a prompt, a synthesized sentence.
 *   It is not the question and must never be shown as if it were.
 * - `redacted`: real text that passed the emitter's redaction pipeline.
 * - `verbatim`: capture `full`, the text as the agent wrote it.
 * The one list: the page's messages and the stored History read it too.
 */
export const TEXT_HONESTIES = ['structural', 'redacted', 'verbatim'] as const;
export type TextHonesty = (typeof TEXT_HONESTIES)[number];

export function textHonesty(capture: CaptureLevel): TextHonesty {
  if (capture === 'full') return 'verbatim';
  if (captureAtLeast(capture, 'redacted')) return 'redacted';
  return 'structural';
}

export interface HonestText {
  text: string;
  honesty: TextHonesty;
}

export interface HonestField {
  id: string;
  type: FieldSpec['type'];
  label: HonestText;
  choices: Array<{ id: string; label: HonestText }>;
}

export interface HonestRequestText {
  capture: CaptureLevel;
  /** At structural capture the prompt was synthesized by the emitter from metadata. */
  prompt: HonestText;
  options: Array<{ id: string; label: HonestText }>;
  fields: HonestField[];
}

/** Every agent-authored string of a request, each tagged with what it really is. */
export function honestRequestText(request: AttentionRequest): HonestRequestText {
  const honesty = textHonesty(request.capture);
  const tag = (text: string): HonestText => ({ text, honesty });
  return {
    capture: request.capture,
    prompt: tag(request.prompt),
    options: request.options.map((option) => ({ id: option.id, label: tag(option.label) })),
    fields: request.fields.map((field) => ({
      id: field.id,
      type: field.type,
      label: tag(field.label),
      choices: field.type === 'select' ? field.choices.map((c) => ({ id: c.id, label: tag(c.label) })) : [],
    })),
  };
}
