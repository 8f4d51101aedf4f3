// Keeps this window's focus marker (noticeClaims.ts) true while the person
// looks at it. A marker not refreshed within FOCUS_MARKER_TTL_MS counts for
// nobody: a window whose page went without a word (a crashed tab, a lost
// connection) keeps its extension host, and the focus it last knew, for hours
// on a remote server, and its marker would keep every other window quiet. So a
// focused window writes its marker again every FOCUS_REFRESH_MS, each time only
// once its page has answered a round trip: a gone page never answers, and its
// marker ages out.
import { FOCUS_REFRESH_MS, type FocusedHub, type NoticeClaims } from './noticeClaims';

export class FocusMarker {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Which `mark` is the latest: a round trip that completes after the focus changed refreshes nothing. */
  private generation = 0;

  constructor(
    private readonly claims: Pick<NoticeClaims, 'shared' | 'setFocused' | 'clearFocused'>,
    /** Completes once the window's page has answered; never while it is gone. */
    private readonly pageAnswers: () => PromiseLike<unknown>,
    private readonly onProblem: (error: unknown) => void,
  ) {}

  /** The window's focus now; `hubs` is read at each write, so a refresh names the hubs of its time. */
  mark(focused: boolean, hubs: () => ReadonlyArray<FocusedHub>): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const generation = ++this.generation;
    // No directory shared with other windows: no marker to write, and no round trip to the page every refresh for it.
    if (!this.claims.shared) return;
    (focused ? this.claims.setFocused(hubs()) : this.claims.clearFocused()).catch(this.onProblem);
    if (!focused) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      Promise.resolve(this.pageAnswers()).then(() => {
        if (generation === this.generation) this.mark(true, hubs);
      }, this.onProblem);
    }, FOCUS_REFRESH_MS);
  }

  /** Stops refreshing; the marker itself is cleared by whoever marks the window unfocused. */
  dispose(): void {
    this.generation++;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
