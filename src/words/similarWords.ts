// The words of Answer Similar Requests… (answerSimilarFlow.ts) for a group
// that src/answer/similarRequests.ts decided: every request gives each id the
// same words, so an option is named by those words, or, when every request's
// labels are withheld, by its place and id, and the pick and the dialog say
// so before anything the agent wrote. No vscode import, so they are built
// and tested in plain Node.
import * as l10n from '@vscode/l10n';
import { agentItemWithId, withheldOptionLabel } from '../shared/withheldLabelWords';
import { optionPassesForOurs } from '../answer/ownItems';
import type { SimilarGroup, SimilarOption } from '../answer/similarRequests';
import type { AttentionItem } from '../inbox/inbox';
import { OWN_ACTIONS } from '../shared/ownActionWords';
import { agentName } from './describe';
import type { PickItem } from './pickItem';
import { piece, PIECES } from './untrustedText';

/** Room for the agents' names at the end of the dialog's sentence, after everything that matters. */
const NAMES = 120;
/**
 * Most characters of an option's words, so the pick's item (the words, then
 * "(from the agent: id …)" with an id of up to 32) fits its 200 whole and
 * the dialog's sentence its 400: a group's options are shown whole or the
 * request joins no group (similarRequests.ts).
 */
const OPTION_WORDS = 140;

/** An option's words as the pick and the dialog show them: cleaned, and cut when longer than they have room for. */
export function similarOptionWords(label: string): string {
  return piece(label, OPTION_WORDS);
}

/** An option as the pick and the dialog name it: the words every request uses, or its place and id. */
export function similarOptionName(option: SimilarOption): string {
  const id = piece(option.id, PIECES.kind);
  if (option.label === undefined) return withheldOptionLabel(option.position, id);
  const words = similarOptionWords(option.label);
  // Words that read like one of ours (the registry) say whose they are, as the quick input's do.
  return optionPassesForOurs(option.label) ? agentItemWithId(words, id) : words;
}

/** The pick of the option: the words, then the id; with withheld labels, the title says so before any item. */
export function similarOptionItems(group: SimilarGroup): Array<PickItem<SimilarOption>> {
  return group.options.map((option) => ({
    label: similarOptionName(option),
    description: l10n.t('id {0}', piece(option.id, PIECES.kind)),
    value: option,
  }));
}

export function similarOptionTitle(group: SimilarGroup, count: number): string {
  return group.withheld
    ? l10n.t('Labels withheld at capture: answer {0} requests with the option at the same place and id', count)
    : l10n.t('Answer {0} requests with', count);
}

/**
 * The confirmation: with withheld labels the warning comes first, so no
 * label can push it out; the words are capped; the agents' names come last.
 */
export function similarConfirmation(group: SimilarGroup, option: SimilarOption, checked: ReadonlyArray<Readonly<AttentionItem>>): { message: string; action: string } {
  const names = piece([...new Set(checked.map((item) => agentName(item.agent)))].join(', '), NAMES);
  const message = group.withheld
    ? l10n.t('Labels withheld at capture: this editor cannot show what each agent calls this option. Send {0} to {1} requests, one command each ({2})?', similarOptionName(option), checked.length, names)
    : l10n.t('Send "{0}" to {1} requests, one command each ({2})?', similarOptionName(option), checked.length, names);
  return { message, action: OWN_ACTIONS.sendAnswers.words(checked.length) };
}

/** A group in the pick of groups: how many, and the options by their words. */
export function similarGroupLabel(group: SimilarGroup): string {
  const words = group.options.map((option) => similarOptionName(option)).join(' / ');
  return group.withheld
    ? l10n.t('{0} requests, labels withheld at capture: {1}', group.items.length, piece(words, PIECES.prompt))
    : l10n.t('{0} requests: {1}', group.items.length, piece(words, PIECES.prompt));
}
