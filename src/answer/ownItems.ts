// Whether an agent's label reads like one of our own items ("Reply with
// text…", "Open as page", "Answer", "Answer 3 Similar…": the registry in
// src/shared/ownActionWords.ts), or like another of its labels. One rule for
// every surface that lists agent options beside our actions (notification
// buttons, the inline quick input, Answer Similar, the request page): an
// agent that labels an option like our own item could make a person pick
// the agent's option while meaning ours. Our items' words are l10n strings;
// the registry words them, and a surface may pass its own too.
import { foldNearLooking } from '../base/lookAlikes';
import { readingKey } from '../base/readingKey';
import { ANY_COUNT, ownActionWords } from '../shared/ownActionWords';

export { readingKey };

/**
 * The key folded further, so labels a reader could take for each other are
 * one (I and l, 0 and O, rn and m, Greek ν and v). Only for asking whether a
 * label could pass for another: there, folding more is the safe side.
 */
export function lookAlikeKey(label: string): string {
  return foldNearLooking(readingKey(label));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a label reads like any of `ours`, as a test of the label. An own
 * word with a number (`ANY_COUNT`) reads like ours with any text in its
 * place: "Answer 2 Similar…", "Answer 99 similar...", "Answer ２ Similar".
 */
function ownMatcher(ours: readonly string[]): (label: string) => boolean {
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const own of ours) {
    if (!own.includes(ANY_COUNT)) {
      exact.add(lookAlikeKey(own));
      continue;
    }
    const parts = own.split(ANY_COUNT).map((part) => lookAlikeKey(part));
    patterns.push(new RegExp(`^${parts.map(escape).join('.*')}$`, 'u'));
  }
  return (label) => {
    const key = lookAlikeKey(label);
    return key !== '' && (exact.has(key) || patterns.some((pattern) => pattern.test(key)));
  };
}

/** Whether `label` reads like one of `ours` (our own item words, as shown): by default every word of the registry. */
export function readsLikeOurs(label: string, ours: readonly string[] = ownActionWords()): boolean {
  return ownMatcher(ours)(label);
}

/**
 * Whether an agent's option could pass for one of our own items, so that
 * sending it takes a second step (the quick input's "Send the agent's
 * option", the page's confirmation) and its name says whose it is. `words`
 * is its label as the surface names it; undefined when the label is
 * withheld at capture and the surface names it by place and id, in our
 * words. The one question every surface asks; a notification shows no such
 * option at all (distinctOptions).
 */
export function optionPassesForOurs(words: string | undefined): boolean {
  return words !== undefined && readsLikeOurs(words);
}

/**
 * For each label of a list, whether another label of it reads alike
 * (lookAlikeKey), or it reads as nothing: such an item is named with its id
 * wherever the list is offered (the quick input, the request page), or two
 * rows that read "Allow" send different answers with nothing to tell them
 * apart. The notification leaves them out instead (distinctOptions).
 */
export function readAlike(labels: readonly string[]): boolean[] {
  const keys = labels.map(lookAlikeKey);
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return keys.map((key) => key === '' || (counts.get(key) ?? 0) > 1);
}

/**
 * The options that can stand beside our own items as they are (notification
 * buttons): each reads, as `shown` renders it, differently from our items
 * (every word of the registry, and `ours`) and from every other option, and
 * reads as something. `shown` is the surface's own rendering (its cap: two
 * labels alike in their first 32 characters are alike as buttons). The rest
 * are answered where the option is named in full (the request page).
 */
export function distinctOptions<T extends { label: string }>(options: readonly T[], ours: readonly string[] = [], shown: (label: string) => string = (label) => label): T[] {
  const keyOf = (label: string) => lookAlikeKey(shown(label));
  const counts = new Map<string, number>();
  for (const option of options) counts.set(keyOf(option.label), (counts.get(keyOf(option.label)) ?? 0) + 1);
  const own = ownMatcher([...ownActionWords(), ...ours]);
  return options.filter((option) => {
    const key = keyOf(option.label);
    return key !== '' && !own(shown(option.label)) && !own(option.label) && counts.get(key) === 1;
  });
}
