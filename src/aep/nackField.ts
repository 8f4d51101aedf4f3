const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const BACKTICK = 0x60;

/**
 * The field an `invalid` nack's detail names (AEP-0004 §5: `invalid` keeps
 * the request open, so the form can point at the field to fix), when it names
 * exactly one field of the form, quoted with ", ' or `. The detail is
 * agent-authored and may be long, the form may have many fields: the text
 * between each pair of neighbouring quote marks is looked up in a set of the
 * ids, in one pass over the detail whatever the number of fields. An id that
 * itself contains a quote mark cannot be told apart from the quoting and is
 * never matched.
 */
export function fieldNamedIn(detail: string | undefined, fieldIds: readonly string[]): string | undefined {
  if (!detail || fieldIds.length === 0) return undefined;
  const ids = new Set(fieldIds);
  let longest = 0;
  for (const id of fieldIds) if (id.length > longest) longest = id.length;
  let named: string | undefined;
  let previous = -1;
  for (let i = 0; i < detail.length; i++) {
    const c = detail.charCodeAt(i);
    if (c !== DOUBLE_QUOTE && c !== SINGLE_QUOTE && c !== BACKTICK) continue;
    const length = i - previous - 1;
    if (previous >= 0 && length > 0 && length <= longest) {
      const token = detail.slice(previous + 1, i);
      if (token !== named && ids.has(token)) {
        if (named !== undefined) return undefined;
        named = token;
      }
    }
    previous = i;
  }
  return named;
}
