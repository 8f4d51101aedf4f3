import { draftIsEmpty } from '../../answer/inlinePlan';
import type { AttentionItem } from '../../inbox/inbox';
import type { Logger } from '../../base/logger';
import { webviewStateSchema, type PageDraft } from '../../shared/webviewMessages';

/**
 * Partial answers typed in the quick input (issue 15), by request key, until
 * a page takes them: the inline flow starts from one again, and the page
 * shows it when it opens. In memory only, like an unsaved edit. Kept apart
 * from the pages, which are loaded on first need, so the quick input keeps a
 * draft before any page has been opened.
 */
export class PageDrafts {
  private readonly drafts = new Map<string, PageDraft>();

  /** `inInbox`: whether a request is still in the inbox; drafts of those gone are dropped. */
  constructor(private readonly inInbox: (key: string) => boolean) {}

  /** Keeps a partial answer for the request's page (an empty one forgets it). Drafts of requests gone from the inbox are dropped. */
  keep(key: string, draft: PageDraft): void {
    for (const kept of this.drafts.keys()) if (!this.inInbox(kept)) this.drafts.delete(kept);
    if (draftIsEmpty(draft)) this.drafts.delete(key);
    else this.drafts.set(key, draft);
  }

  /** The partial answer kept for a request, still kept. */
  get(key: string): PageDraft | undefined {
    return this.drafts.get(key);
  }

  has(key: string): boolean {
    return this.drafts.has(key);
  }

  /** The partial answer kept for a request, handed over once: a page that takes it keeps it with `setState` from then on. */
  take(key: string): PageDraft | undefined {
    const draft = this.drafts.get(key);
    this.drafts.delete(key);
    return draft;
  }
}

/** Where a saved page finds its request again (Hubs is one). */
export interface SavedRequests {
  item(key: string): Readonly<AttentionItem> | undefined;
  list(): ReadonlyArray<{ readonly id: string }>;
}

/** The request of a key a page saved; one saved before keys named their hub is looked for under each hub (InboxOptions.hub). */
export function findSaved(requests: SavedRequests, key: string): Readonly<AttentionItem> | undefined {
  return requests.item(key) ?? requests.list().map((hub) => requests.item(`${hub.id}\u0000${key}`)).find((item) => item !== undefined);
}

/**
 * A panel VS Code kept across a window reload, handed to the pages once their
 * code is loaded. When it did not load (`pages` resolves undefined: the loader
 * logged it and told the person once), the panel cannot be shown and closes,
 * but what the person had typed in it is not lost with it: its unsent input
 * is kept in `drafts`, and comes back the next time the request's page (or the
 * quick input) opens. A state that names no request still in the inbox keeps nothing.
 */
export async function restoreSavedPage<Panel extends { dispose(): void }>(
  pages: () => Promise<{ restore(panel: Panel, state: unknown): void } | undefined>,
  panel: Panel,
  state: unknown,
  drafts: PageDrafts,
  requests: SavedRequests,
  log: Logger,
): Promise<void> {
  const loaded = await pages();
  if (loaded) {
    loaded.restore(panel, state);
    return;
  }
  const saved = webviewStateSchema.safeParse(state);
  const item = saved.success ? findSaved(requests, saved.data.key) : undefined;
  if (saved.success && item) {
    const { key: _key, ...draft } = saved.data;
    if (!draftIsEmpty(draft) && !drafts.has(item.key)) {
      drafts.keep(item.key, draft);
      log.info(`kept the unsent input of a restored page for ${item.requestId}: its page did not load`);
    }
  }
  panel.dispose();
}
