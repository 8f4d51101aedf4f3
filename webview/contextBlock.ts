import * as l10n from '@vscode/l10n';
import { CONTEXT_FOLD_CHARS, head, type ContextRow, type ContextView } from '../src/shared/contextView';
import { el } from './dom';
import { sentenceNodes, SLOTS } from './l10n';

// The context the agent attached to its request (AEP-0002 §5.3), as
// structured plain text: key: value, nested objects and lists collapsible,
// long values folded with their size. Keys and values are agent text: text
// nodes only, set apart as the agent's.

/** A section this short is open at first, groups included; a longer one starts closed, its summary saying how much it holds. */
const OPEN_UP_TO_ROWS = 12;

function sizeWords(row: ContextRow): string {
  if (row.kind === 'list') return row.count === 1 ? l10n.t('list, 1 item') : l10n.t('list, {0} items', row.count ?? 0);
  return row.count === 1 ? l10n.t('object, 1 key') : l10n.t('object, {0} keys', row.count ?? 0);
}

function keyNode(row: ContextRow): HTMLElement {
  return el('span', { class: 'context-key agent-text' }, row.key);
}

function valueNode(row: ContextRow): HTMLElement {
  const text = row.text ?? '';
  if (row.chars === undefined) return el('span', { class: `context-value agent-text ${row.kind}` }, text);
  // Folded: the start, its size, and the rest on request (cut, and said so, past what the page was given).
  const start = head(text, CONTEXT_FOLD_CHARS);
  const cutNote = text.length < row.chars
    ? el('p', { class: 'note' }, l10n.t('Shown up to {0} of {1} characters.', text.length, row.chars))
    : undefined;
  return el(
    'details',
    { class: 'context-long' },
    el('summary', {}, el('span', { class: 'context-value agent-text' }, `${start}…`), ' ', el('span', { class: 'meta' }, l10n.t('({0} characters)', row.chars))),
    el('pre', { class: 'context-full agent-text' }, text),
    cutNote,
  );
}

/** Rows as nested lists: each object or list a collapsible group of the rows under it. */
function build(rows: readonly ContextRow[], openGroups: boolean): HTMLElement {
  const root = el('ul', { class: 'context-rows' });
  const stack: HTMLElement[] = [root];
  for (const row of rows) {
    stack.length = Math.min(stack.length, row.depth + 1);
    const parent = stack[stack.length - 1] ?? root;
    if (row.kind === 'more') {
      parent.append(el('li', { class: 'meta' }, l10n.t('{0} more not shown', row.count ?? 0)));
      continue;
    }
    if (row.kind === 'object' || row.kind === 'list') {
      const children = el('ul', { class: 'context-rows' });
      const group = el('details', openGroups ? { open: '' } : {}, el('summary', {}, keyNode(row), ' ', el('span', { class: 'meta' }, sizeWords(row))), children);
      parent.append(el('li', {}, group));
      stack.push(children);
      continue;
    }
    parent.append(el('li', {}, ...sentenceNodes(l10n.t('{0}: {1}', ...SLOTS), keyNode(row), valueNode(row))));
  }
  return root;
}

/** The request's context section, or a note that the agent sent one its capture level withholds; undefined when there is none. */
export function contextBlock(view: ContextView | undefined, withheld: boolean, agent: string): HTMLElement | undefined {
  if (withheld) {
    return el('p', { class: 'note', id: 'context' }, l10n.t('{0} attached context that its capture level does not allow (context is sent at capture full only); it is not shown.', agent));
  }
  if (!view || view.rows.length === 0) return undefined;
  const short = view.rows.length <= OPEN_UP_TO_ROWS;
  const section = el(
    'details',
    { class: 'context', id: 'context', ...(short ? { open: '' } : {}) },
    el('summary', {}, short ? l10n.t('Context from {0}', agent) : view.truncated ? l10n.t('Context from {0} (more than {1} entries)', agent, view.rows.length) : l10n.t('Context from {0} ({1} entries)', agent, view.rows.length)),
    build(view.rows, short),
    view.truncated ? el('p', { class: 'note' }, l10n.t('Only the first {0} entries are shown.', view.rows.length)) : undefined,
  );
  return section;
}
