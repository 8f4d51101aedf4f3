import { DisposableStore, toDisposable } from '../../base/disposable';
import type { Logger } from '../../base/logger';
import { hostToWebviewSchema, isRequestMessage, webviewToHostSchema, type HostToWebview, type PageInit, type PageRender, type RequestMessage, type WebviewToHost } from '../../shared/webviewMessages';

// The host's side of one page (webview/main.ts), whatever it shows: a live
// request or an entry of the answer history. Free of `vscode` so the pages'
// controllers run in plain Node against a fake webview (pagePanel.ts adapts
// a real panel).

export interface Unsubscribe {
  dispose(): void;
}

/** An event as `vscode.Event` is one (that type is assignable to this). */
export type Listen<T> = (listener: (event: T) => void) => Unsubscribe;

/** What a page host needs of a webview panel. */
export interface PageWebview {
  /**
   * Loads the page into the webview (its HTML, from scratch), with `init`, its
   * first render, in the HTML when given: the page draws it as soon as its
   * script runs, and says so in its `ready`.
   */
  load(init: Extract<HostToWebview, { type: 'init' }> | undefined): void;
  postMessage(message: HostToWebview): void;
  readonly onDidReceiveMessage: Listen<unknown>;
  readonly visible: boolean;
  /** Fires whenever `visible` may have changed. */
  readonly onDidChangeVisible: Listen<void>;
  readonly onDidDispose: Listen<void>;
  reveal(): void;
  dispose(): void;
}

/** A message from the page other than its ready handshake, validated; one about a request is about the one shown now. */
export type PageMessage = Exclude<WebviewToHost, { type: 'ready' }>;

/**
 * The generation of every render of every page in this window, counting up:
 * a webview taken over by another page host (a preview page reused) never
 * sees a number twice, even for a request it showed before.
 */
let renders = 0;

export interface PageHostOptions {
  /** Names the page in log lines ("request page", "history page"). */
  name: string;
  /** Built each time the page (re)loads, so it renders what holds now; the host gives it its generation. */
  init: () => PageInit;
  /** Posts what follows each `init` (the answers already sent, say). */
  afterInit?: () => void;
  onMessage: (message: PageMessage) => void;
  /**
   * The webview already holds a loaded page (a preview page taken over for
   * another request): `init` goes at once, with no `ready` to wait for.
   */
  alreadyLoaded?: boolean;
}

/**
 * The webview plumbing every page shares. Nothing is posted before the page's
 * `ready`: a page that is loading, or hidden (VS Code drops what is posted to
 * a hidden webview and rebuilds the page on show), would lose it. What is
 * posted meanwhile waits and follows the fresh `init` once the page is ready.
 * Both directions are checked against the one message protocol
 * (src/shared/webviewMessages.ts); what fails is logged, never acted on.
 */
export class PageHost {
  private ready = false;
  private readonly waiting: HostToWebview[] = [];
  /** What the page was last told to render: its messages about a request must name it. */
  private shown: PageRender | undefined;
  /** The render in the HTML the webview loads now (`load`), until a `ready` names it. */
  private inHtml: PageRender | undefined;
  /** The webview's events, then the listeners of `onDidDispose`: released together, in that order, when the host lets go. */
  private readonly owned = new DisposableStore();

  constructor(
    private readonly webview: PageWebview,
    private readonly log: Logger,
    private readonly options: PageHostOptions,
  ) {
    this.owned.add(webview.onDidReceiveMessage((raw) => this.receive(raw)));
    this.owned.add(
      webview.onDidChangeVisible(() => {
        // Hidden, the page is gone; shown again, it loads anew and says ready.
        // (VS Code rebuilds it from the HTML it was last given: the page draws a render held there only
        // when it has saved no state, on its first load, and otherwise waits for a fresh `init`.)
        // A render its HTML held was built when it loaded: a page rebuilt later takes a fresh `init` instead.
        if (!webview.visible) {
          this.ready = false;
          this.inHtml = undefined;
        }
      }),
    );
    this.owned.add(webview.onDidDispose(() => this.dispose()));
    // Rendered by the owner's `refresh()` once it is built.
    if (options.alreadyLoaded && webview.visible) this.ready = true;
  }

  /** The page has loaded and is not hidden since: what is posted now reaches it. */
  get isReady(): boolean {
    return this.ready;
  }

  /** Posts at once to a ready page, else when it is ready (after its `init`). */
  post(message: HostToWebview): void {
    if (this.owned.isDisposed) return;
    // Checked here too, so a host bug shows up in the log rather than as a broken page.
    const checked = hostToWebviewSchema.safeParse(message);
    if (!checked.success) {
      this.log.error(`refused to post an invalid message to a ${this.options.name}: ${checked.error.message}`, { code: 'page-message-invalid', data: { page: this.options.name, type: message.type } });
      return;
    }
    // Nothing goes to a page that was not rendered what it is about (a refused `init` leaves it showing the one before).
    if (this.isReady && this.shown !== undefined) this.webview.postMessage(checked.data);
    else this.keep(checked.data);
  }

  /**
   * Loads the page into the webview with its first render in the HTML
   * (`init` built now): the page draws it at once, and its `ready` names it,
   * so no `init` follows. A render the host refuses loads the page without one.
   */
  load(): void {
    if (this.owned.isDisposed) return;
    this.ready = false;
    this.shown = undefined;
    const init = this.checkedInit();
    this.inHtml = init ? { key: init.request.key, generation: init.generation } : undefined;
    this.webview.load(init);
  }

  /** Renders the page again with a fresh `init`, if it is ready; a page not ready takes one when it is. */
  refresh(): void {
    if (this.isReady) this.render();
    // Asked for before the page said ready: the render its HTML holds is out of date (a handed draft, a change), so its `ready` takes a fresh one.
    else this.inHtml = undefined;
  }

  reveal(): void {
    this.webview.reveal();
  }

  /** Runs `listener` when the host lets go of the webview, at once if it has already. */
  onDidDispose(listener: () => void): void {
    this.owned.add(toDisposable(listener));
  }

  dispose(): void {
    if (this.release()) this.webview.dispose();
  }

  /**
   * Lets go of the webview without closing it, so another host can take it
   * over (a preview page reused); whether this host was ready, which the
   * next one is too. Listeners of `onDidDispose` run as on dispose.
   */
  detach(): boolean {
    const wasReady = this.ready;
    this.release();
    return wasReady;
  }

  private release(): boolean {
    if (this.owned.isDisposed) return false;
    this.ready = false;
    this.waiting.length = 0;
    this.owned.dispose();
    return true;
  }

  /**
   * Only what the page still needs waits: an `update` carries the whole
   * state, so it replaces the one before; an answer's outcome replaces that
   * answer's earlier one; an `init` is built fresh on ready.
   */
  private keep(message: HostToWebview): void {
    if (message.type === 'init') return;
    const superseded = this.waiting.findIndex((kept) => kept.type === message.type && (message.type !== 'outcome' || (kept.type === 'outcome' && kept.submitId === message.submitId)));
    if (superseded >= 0) this.waiting.splice(superseded, 1);
    this.waiting.push(message);
  }

  /**
   * Only a render that reached the page is recorded as shown: a refused
   * `init` leaves the page showing what it showed before, and nothing it
   * sends about that, nor anything posted about the new request, is taken
   * or passed on until a render reaches it.
   */
  private render(): void {
    this.shown = undefined;
    const init = this.checkedInit();
    if (!init) return;
    this.webview.postMessage(init);
    this.shown = { key: init.request.key, generation: init.generation };
    this.afterRender();
  }

  /** A fresh `init`, with the next generation, checked; undefined (and logged) when refused. */
  private checkedInit(): Extract<HostToWebview, { type: 'init' }> | undefined {
    const checked = hostToWebviewSchema.safeParse({ ...this.options.init(), generation: ++renders });
    if (!checked.success) {
      this.log.error(`refused to post an invalid message to a ${this.options.name}: ${checked.error.message}`, { code: 'page-message-invalid', data: { page: this.options.name, type: 'init' } });
      return undefined;
    }
    return checked.data.type === 'init' ? checked.data : undefined;
  }

  /** What follows a render that reached the page: the owner's own messages, then what waited. */
  private afterRender(): void {
    this.options.afterInit?.();
    for (const kept of this.waiting.splice(0)) this.post(kept);
  }

  private receive(raw: unknown): void {
    if (this.owned.isDisposed) return;
    const parsed = webviewToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`ignored a malformed message from a ${this.options.name}`, { code: 'page-message-malformed', data: { page: this.options.name } });
      return;
    }
    const message = parsed.data;
    if (isRequestMessage(message) && !this.shows(message)) return;
    if (message.type !== 'ready') {
      this.options.onMessage(message);
      return;
    }
    this.ready = true;
    // The page drew the render its HTML held: that is what it shows, as if an `init` had gone (nothing was posted before).
    const drawn = message.shows;
    const held = this.inHtml;
    this.inHtml = undefined;
    if (drawn && held && drawn.key === held.key && drawn.generation === held.generation) {
      this.shown = held;
      this.afterRender();
      return;
    }
    this.render();
  }

  /**
   * Whether a message about a request is about the render the page shows:
   * one composed before the page was reused for another request, or rendered
   * again, would answer what the person no longer reads. Dropped, never
   * passed on; the log names only our own numbers.
   */
  private shows(message: RequestMessage): boolean {
    const { shown } = this;
    if (shown?.key === message.key && shown.generation === message.generation) return true;
    this.log.warn(`dropped a ${message.type} from a ${this.options.name}: it was for render ${message.generation}, the page shows ${shown?.generation ?? 'none'}`, {
      code: 'page-message-stale',
      data: { page: this.options.name, type: message.type, render: message.generation, shown: shown?.generation ?? 'none' },
    });
    return false;
  }
}
