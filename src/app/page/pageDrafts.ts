import { draftIsEmpty } from '../../answer/inlinePlan';
import type { PageDraft } from '../../shared/webviewMessages';

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
