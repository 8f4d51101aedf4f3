// How a label withheld at capture `metadata` is named (AEP-0002 §5.3
// `[metadata*]`, AEP-0006): a placeholder is never shown as the question, and
// the field's or choice's id stands beside it. The request page
// (webview/honestText.ts, with elements in its slots) and the quick input
// (src/words/inlineWords.ts, and Answer Similar's options) all say it with these words, and name an agent's item with its id. Each side's
// bundle has its own `@vscode/l10n`, loaded with the same strings.
import * as l10n from '@vscode/l10n';

/** A field whose label was withheld: its 1-based position and the request's capture. */
export function withheldFieldLabel(position: string | number, capture: string): string {
  return l10n.t('Question {0} · label withheld at capture {1}', position, capture);
}

/** The field's id and type beside a withheld label. */
export function fieldIdNote(id: string, type: string): string {
  return l10n.t('(field {0}, {1})', id, type);
}

/** A choice whose label was withheld: its 1-based position. */
export function withheldChoiceLabel(position: string | number): string {
  return l10n.t('Choice {0}', position);
}

/** The choice's id beside a withheld label. */
export function choiceIdNote(id: string): string {
  return l10n.t('(id {0})', id);
}

/** An option whose label was withheld (or that has none): its 1-based position and its id. */
export function withheldOptionLabel(position: string | number, id: string): string {
  return l10n.t('Option {0} ({1})', position, id);
}

/**
 * An agent's item named with its id beside its words: one that reads like one of our items, or like
 * another of the list's (src/answer/ownItems.ts). `id` as the surface shows it (capped, or without
 * reordering controls).
 */
export function agentItemWithId(words: string, id: string): string {
  return l10n.t('{0} (from the agent: id {1})', words, id);
}
