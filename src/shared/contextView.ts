import * as z from 'zod/mini';
import type { AttentionRequest } from '../aep/attention';
import { isRecord } from '../base/isRecord';

// The `context` object an agent attaches to `attention.requested` (AEP-0002
// §5.3; `x-aep-capture: full`), as rows the page shows as structured plain
// text: key: value, nested values collapsible, long values folded with their
// size. Built once on the host, bounded, then validated again by the page.
// The agent's keys and values are hostile text: they stay text on every side.

/** Nesting shown; deeper objects and lists are one row with their size. */
export const CONTEXT_MAX_DEPTH = 6;
/** Entries shown per object or list; the rest are counted on one row. */
export const CONTEXT_MAX_ENTRIES = 50;
/** Rows in all: what a person can read, and what one message carries. */
export const CONTEXT_MAX_ROWS = 400;
/** A value longer than this is folded: its start is shown, with its size, and the rest on request. */
export const CONTEXT_FOLD_CHARS = 160;
/** The most of one value the page is given; beyond it the value is cut, and says so. */
export const CONTEXT_MAX_CHARS = 4_000;
const MAX_KEY_CHARS = 200;

export const CONTEXT_ROW_KINDS = ['text', 'number', 'boolean', 'null', 'object', 'list', 'more'] as const;
export type ContextRowKind = (typeof CONTEXT_ROW_KINDS)[number];

export const contextRowSchema = z.object({
  depth: z.number().check(z.int(), z.minimum(0), z.maximum(CONTEXT_MAX_DEPTH)),
  key: z.string().check(z.maxLength(MAX_KEY_CHARS + 1)),
  kind: z.enum(CONTEXT_ROW_KINDS),
  /** A scalar as text (a string's first CONTEXT_MAX_CHARS). */
  text: z.optional(z.string().check(z.maxLength(CONTEXT_MAX_CHARS))),
  /** A string's whole length in characters, when it is longer than CONTEXT_FOLD_CHARS (folded; cut when longer than `text`). */
  chars: z.optional(z.number()),
  /** An object's or a list's entries; for `more`, how many were left out. */
  count: z.optional(z.number()),
});
export type ContextRow = z.infer<typeof contextRowSchema>;

export const contextViewSchema = z.object({
  rows: z.array(contextRowSchema).check(z.maxLength(CONTEXT_MAX_ROWS + 1)),
  /** Whether entries were left out past CONTEXT_MAX_ROWS. */
  truncated: z.boolean(),
});
export type ContextView = z.infer<typeof contextViewSchema>;

/** The first `max` UTF-16 units of `text`, never splitting a surrogate pair (the page would show a replacement character). */
export function head(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${head(text, max)}…`;
}

/** The rows of `context`, depth first in the agent's order, within the bounds above. */
export function contextView(context: Record<string, unknown>): ContextView {
  const rows: ContextRow[] = [];
  let truncated = false;
  const push = (row: ContextRow): boolean => {
    if (rows.length >= CONTEXT_MAX_ROWS) {
      truncated = true;
      return false;
    }
    rows.push(row);
    return true;
  };
  const walk = (entries: Array<[string, unknown]>, depth: number): void => {
    for (const [index, [rawKey, value]] of entries.entries()) {
      if (index >= CONTEXT_MAX_ENTRIES) {
        push({ depth, key: '', kind: 'more', count: entries.length - CONTEXT_MAX_ENTRIES });
        return;
      }
      const key = cut(rawKey, MAX_KEY_CHARS);
      if (typeof value === 'string') {
        push({ depth, key, kind: 'text', text: head(value, CONTEXT_MAX_CHARS), ...(value.length > CONTEXT_FOLD_CHARS ? { chars: value.length } : {}) });
      } else if (typeof value === 'number') {
        push({ depth, key, kind: 'number', text: String(value) });
      } else if (typeof value === 'boolean') {
        push({ depth, key, kind: 'boolean', text: String(value) });
      } else if (value === null || value === undefined) {
        push({ depth, key, kind: 'null', text: 'null' });
      } else if (Array.isArray(value) || isRecord(value)) {
        const children: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, i) => [String(i + 1), item]) : Object.entries(value);
        const kind = Array.isArray(value) ? 'list' : 'object';
        if (!push({ depth, key, kind, count: children.length })) continue;
        // Deeper than shown: the row says its size, and nothing under it is drawn.
        if (depth + 1 <= CONTEXT_MAX_DEPTH) walk(children, depth + 1);
      } else {
        // A parsed JSON value is one of the above; anything else is named, not shown.
        push({ depth, key, kind: 'null', text: typeof value });
      }
    }
  };
  walk(Object.entries(context), 0);
  return { rows, truncated };
}

/** The first scalar entries as one short line ("branch: main · files: 3"), for a surface with room for one line. */
export function contextSummary(view: ContextView, maxEntries = 3): string {
  const top = view.rows.filter((row) => row.depth === 0 && row.kind !== 'more');
  const parts = top.slice(0, maxEntries).map((row) => {
    const value = row.kind === 'object' || row.kind === 'list' ? `(${row.count ?? 0})` : cut(row.text ?? '', 40);
    return row.key ? `${row.key}: ${value}` : value;
  });
  return top.length > maxEntries ? `${parts.join(' · ')} · …` : parts.join(' · ');
}

/**
 * What of a request's context may be shown, decided once for every surface:
 * its rows at capture `full`, the one level `context` may come at (its
 * schema's `x-aep-capture: full`); `withheld` when an emitter sent it at a
 * lower level, which claims less than it carries; none without one.
 */
export function shownContext(request: Pick<AttentionRequest, 'context' | 'capture'>): ContextView | 'withheld' | undefined {
  if (request.context === undefined) return undefined;
  return request.capture === 'full' ? contextView(request.context) : 'withheld';
}
