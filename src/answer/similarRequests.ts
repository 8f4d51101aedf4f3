import type { AttentionRequest } from '../aep/attention';
import { dedupeKey } from '../aep/envelope';
import { textHonesty } from '../aep/labels';
import type { AttentionItem } from '../inbox/inbox';
import { isOpenStatus } from '../inbox/inbox';
import { lookAlikeKey, readingKey } from './ownItems';

// Requests that can take the same answer (issue 29): with several agents at
// work the same ask arrives many times, and the person answers them in one
// decision, every item shown and each checked. Decided here, once, for every
// surface that offers it (the inbox, the notification of a burst).
//
// One decision must mean what the person read (issue 38): the person picks
// an option by its words, and each request of the group receives the id
// whose label reads as those words. So requests group only when every option
// id carries the same words in each (`readingKey`: case, width, spacing and
// invisibles folded, letters of other scripts drawn like Latin ones read as
// those), compared in full. Ids alone say nothing: one agent's "1" is "Yes",
// another's "No — refuse…".
//
// And the person must read those words whole: a request with a label the
// pick or the dialog would cut joins no group. Comparing what is shown
// instead would not do: two labels alike up to the cut read the same while
// meaning different things, and cut at different places (one spelling has
// more invisible characters) they read differently while saying the same,
// and neither shows the words that decide. Such a request is answered on its
// own, where its options are named in full (the request page).

/** One option of a group, as the person picks it. */
export interface SimilarOption {
  readonly id: string;
  /** The words every request of the group gives this id (the oldest's spelling); undefined when the labels are withheld. */
  readonly label: string | undefined;
  /** 1-based place in the oldest request: a withheld option is named by it, as the page names it. */
  readonly position: number;
}

/** Requests of one kind offering the same options, each id with the same words: one option answers each of them. */
export interface SimilarGroup {
  readonly key: string;
  readonly kind: string;
  /**
   * The labels are withheld (capture `metadata` or `none`: each label is a
   * placeholder) in every request of the group: no one can read what the
   * agents call an option. Such requests never group with ones whose labels
   * are real text, and only with the same ids in the same places.
   */
  readonly withheld: boolean;
  /** The options, in the oldest request's order. */
  readonly options: readonly SimilarOption[];
  /** Oldest first. */
  readonly items: ReadonlyArray<Readonly<AttentionItem>>;
}

/**
 * What the surfaces of Answer Similar show of an option's words (the pick
 * and the dialog: their cap, their cleaning). Given by the surface, as it
 * alone knows how it draws them.
 */
export type ShownWords = (label: string) => string;

/**
 * What a request's options read as, for grouping: the same key, the same
 * words for each id. Undefined when its options cannot be answered by words
 * at all: an id twice, or two options a reader could take for each other
 * (the person could not tell which one they pick), or one that reads as
 * nothing, or one whose words `shown` cuts (the person could not read them).
 */
function optionsKey(request: AttentionRequest, shown: ShownWords): string | undefined {
  const ids = request.options.map((option) => option.id);
  if (new Set(ids).size !== ids.length) return undefined;
  // Withheld: each label is a placeholder; the page names an option by its place and id.
  if (textHonesty(request.capture) === 'structural') return `withheld\u0000${ids.join('\u0000')}`;
  const keys = request.options.map((option) => readingKey(option.label));
  const near = new Set(request.options.map((option) => lookAlikeKey(option.label)));
  if (keys.includes('') || near.size !== keys.length) return undefined;
  // Read as the full label, or something was left out (a cut and its ellipsis read as fewer words).
  if (request.options.some((option, index) => readingKey(shown(option.label)) !== keys[index])) return undefined;
  return `read\u0000${request.options.map((option, index) => `${option.id}\u0001${keys[index] ?? ''}`).sort().join('\u0000')}`;
}

/**
 * Which requests can be answered together: open ones answered through the
 * hub (not `oob`), with options (a form's answer is its own), that `canAnswer`
 * says take an answer from here now (the pipeline admits one, the agent takes
 * answers from editors, not dismissed), whose options read alike and are
 * shown whole by `shown` (above).
 * A request whose labels are withheld (capture metadata) groups only with
 * others whose labels are withheld too. Groups of two or more, the largest
 * first.
 */
export function similarGroups(items: ReadonlyArray<Readonly<AttentionItem>>, canAnswer: (item: Readonly<AttentionItem>) => boolean, shown: ShownWords): SimilarGroup[] {
  const groups = new Map<string, { kind: string; items: Array<Readonly<AttentionItem>> }>();
  // One request is answered once: the same `(source, id)` through a second hub (the same hub under
  // another address, or another relaying its agent) is the request again (AEP-0001 §5.1), not another.
  const requests = new Set<string>();
  for (const item of items) {
    const request = item.request;
    if (!request || !isOpenStatus(item.status) || !request.answerableHere || request.renderKind === 'form' || request.options.length === 0) continue;
    if (!canAnswer(item)) continue;
    const requestKey = dedupeKey({ source: item.source, id: item.requestId });
    if (requests.has(requestKey)) continue;
    requests.add(requestKey);
    const options = optionsKey(request, shown);
    if (options === undefined) continue;
    const key = `${request.kind}\u0000${options}`;
    const group = groups.get(key) ?? { kind: request.kind, items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  return [...groups.entries()]
    .filter(([, group]) => group.items.length >= 2)
    .flatMap(([key, group]) => {
      const sorted = [...group.items].sort((a, b) => a.receivedAt - b.receivedAt);
      const oldest = sorted[0]?.request;
      if (!oldest) return [];
      const withheld = textHonesty(oldest.capture) === 'structural';
      const options = oldest.options.map((option, index): SimilarOption => ({ id: option.id, label: withheld ? undefined : option.label, position: index + 1 }));
      return [{ key, kind: group.kind, withheld, options, items: sorted }];
    })
    .sort((a, b) => b.items.length - a.items.length || (a.items[0]?.receivedAt ?? 0) - (b.items[0]?.receivedAt ?? 0));
}

/** The group `item` belongs to, if it has one. */
export function groupOf(groups: readonly SimilarGroup[], item: Pick<AttentionItem, 'key'>): SimilarGroup | undefined {
  return groups.find((group) => group.items.some((member) => member.key === item.key));
}

/**
 * The requests among `items` whose notification offers Answer Similar…, each with its group's size:
 * those whose group holds two or more of the requests that arrived `together` (one burst's keys).
 */
export function similarOffers(groups: readonly SimilarGroup[], together: ReadonlySet<string>, items: ReadonlyArray<Pick<AttentionItem, 'key'>>): Map<string, number> {
  const offers = new Map<string, number>();
  for (const item of items) {
    const group = groupOf(groups, item);
    if (group && group.items.filter((member) => together.has(member.key)).length >= 2) offers.set(item.key, group.items.length);
  }
  return offers;
}
