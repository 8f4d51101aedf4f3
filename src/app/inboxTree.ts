// No `vscode` here: which levels the inbox shows is plain logic over the open
// requests, unit-tested in test/unit/inboxTree.test.ts. inboxView.ts words the rows.
import type { AttentionItem } from '../inbox/inbox';

type Item = Readonly<AttentionItem>;

/**
 * A row of the inbox. A level is shown only where it tells something apart:
 * hubs only when there are several, agents only when several are waiting in
 * one place, sessions only when one agent has several. A row whose level was
 * left out says it itself: a request row names its agent (`byAgent`) when no
 * agent row is above it and its session (`bySession`) when no session row is.
 */
export type InboxNode<H> =
  | { readonly kind: 'hub'; readonly hub: H; readonly items: readonly Item[] }
  | { readonly kind: 'agent'; readonly agent: string; readonly items: readonly Item[] }
  | { readonly kind: 'session'; readonly agent: string; readonly session: string; readonly source: string; readonly byAgent: boolean; readonly items: readonly Item[] }
  | { readonly kind: 'request'; readonly item: Item; readonly byAgent: boolean; readonly bySession: boolean };

export interface HubItems<H> {
  readonly hub: H;
  readonly items: readonly Item[];
}

/** The rows under `node` (the top when undefined), oldest request first as the inbox gives them. */
export function inboxChildren<H>(node: InboxNode<H> | undefined, hubs: ReadonlyArray<HubItems<H>>): Array<InboxNode<H>> {
  if (node === undefined) {
    // Every hub has its row, one with nothing waiting too: the tree says which hubs this window watches.
    if (hubs.length > 1) return hubs.map(({ hub, items }) => ({ kind: 'hub', hub, items }));
    return agentLevel(hubs.flatMap((hub) => hub.items));
  }
  switch (node.kind) {
    case 'hub':
      return agentLevel(node.items);
    case 'agent':
      return sessionLevel(node.items, false);
    case 'session':
      return node.items.map((item) => ({ kind: 'request', item, byAgent: false, bySession: false }));
    case 'request':
      return [];
  }
}

function agentLevel<H>(items: readonly Item[]): Array<InboxNode<H>> {
  const byAgent = groupBy(items, (item) => item.agent);
  if (byAgent.size <= 1) return sessionLevel(items, true);
  return [...byAgent.entries()].map(([agent, list]) => ({ kind: 'agent', agent, items: list }));
}

function sessionLevel<H>(items: readonly Item[], byAgent: boolean): Array<InboxNode<H>> {
  const bySession = groupBy(items, (item) => `${item.source}\u0000${item.session}`);
  if (bySession.size <= 1) return items.map((item) => ({ kind: 'request', item, byAgent, bySession: true }));
  return [...bySession.values()].map((list) => {
    const first = list[0] as Item;
    return { kind: 'session', agent: first.agent, session: first.session, source: first.source, byAgent, items: list };
  });
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
