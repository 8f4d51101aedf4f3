import type { AttentionItem } from '../inbox/inbox';
import { isOpenStatus } from '../inbox/inbox';

// Requests that can take the same answer (issue 29): with several agents at
// work the same ask arrives many times, and the person answers them in one
// decision, every item shown and each checked. Decided here, once, for every
// surface that offers it (the inbox, the notification of a burst).

/** Requests of one kind offering the same option ids: one option answers each of them. */
export interface SimilarGroup {
  readonly key: string;
  readonly kind: string;
  /** The option ids every request of the group offers, in the first request's order. */
  readonly optionIds: readonly string[];
  /** Oldest first. */
  readonly items: ReadonlyArray<Readonly<AttentionItem>>;
}

/**
 * Which requests can be answered together: open ones answered through the
 * hub (not `oob`), with options (a form's answer is its own), that `canAnswer`
 * says take an answer from here now (the pipeline admits one, the agent takes
 * answers from editors, not dismissed). A request whose prompt is withheld
 * (capture metadata) is one like any other: it is shown as withheld, never
 * left out. Groups of two or more, the largest first.
 */
export function similarGroups(items: ReadonlyArray<Readonly<AttentionItem>>, canAnswer: (item: Readonly<AttentionItem>) => boolean): SimilarGroup[] {
  const groups = new Map<string, { kind: string; optionIds: string[]; items: Array<Readonly<AttentionItem>> }>();
  for (const item of items) {
    const request = item.request;
    if (!request || !isOpenStatus(item.status) || !request.answerableHere || request.renderKind === 'form' || request.options.length === 0) continue;
    if (!canAnswer(item)) continue;
    const ids = request.options.map((option) => option.id);
    const key = `${request.kind}\u0000${[...ids].sort().join('\u0000')}`;
    const group = groups.get(key) ?? { kind: request.kind, optionIds: ids, items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  return [...groups.entries()]
    .filter(([, group]) => group.items.length >= 2)
    .map(([key, group]) => ({ key, kind: group.kind, optionIds: group.optionIds, items: [...group.items].sort((a, b) => a.receivedAt - b.receivedAt) }))
    .sort((a, b) => b.items.length - a.items.length || (a.items[0]?.receivedAt ?? 0) - (b.items[0]?.receivedAt ?? 0));
}

/** The group `item` belongs to, if it has one. */
export function groupOf(groups: readonly SimilarGroup[], item: Pick<AttentionItem, 'key'>): SimilarGroup | undefined {
  return groups.find((group) => group.items.some((member) => member.key === item.key));
}
