// The request page's webview as its host sees it, for host tests in plain
// Node: it records what was posted and fails as VS Code would on a post to a
// hidden or disposed webview; `fromPage` plays the page's side.
import assert from 'node:assert/strict';
import type { Listen, PageWebview } from '../../src/app/page/pageHost';
import type { HostToWebview, PageRender } from '../../src/shared/webviewMessages';

/** A tiny event emitter shaped as `vscode.Event`; `listening` counts who listens now, so a test sees a listener left behind. */
export function emitter<T>(): { event: Listen<T>; fire: (value: T) => void; listening: () => number } {
  const listeners = new Set<(value: T) => void>();
  return {
    event: (listener) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    fire: (value) => [...listeners].forEach((listener) => listener(value)),
    listening: () => listeners.size,
  };
}

/** The webview as the host sees it; `fromPage` plays the page's side. */
export class FakeWebview implements PageWebview {
  readonly posted: HostToWebview[] = [];
  /** Every load of the page, with the first render its HTML held (undefined: none). */
  readonly loads: Array<Extract<HostToWebview, { type: 'init' }> | undefined> = [];
  visible = true;
  disposed = false;
  private readonly messages = emitter<unknown>();
  private readonly visibility = emitter<void>();
  private readonly disposal = emitter<void>();
  readonly onDidReceiveMessage = this.messages.event;
  readonly onDidChangeVisible = this.visibility.event;
  readonly onDidDispose = this.disposal.event;
  load(init: Extract<HostToWebview, { type: 'init' }> | undefined): void {
    assert.ok(!this.disposed, 'loaded a disposed webview');
    this.loads.push(init);
  }
  postMessage(message: HostToWebview): void {
    // VS Code drops what is posted to a hidden webview: a host that posts then has lost it.
    assert.ok(this.visible, `posted to a hidden webview: ${message.type}`);
    // VS Code throws on a disposed webview's postMessage.
    assert.ok(!this.disposed, `posted to a disposed webview: ${message.type}`);
    this.posted.push(message);
  }
  reveal(): void {}
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposal.fire();
  }
  fromPage(message: unknown): void {
    this.messages.fire(message);
  }
  setVisible(visible: boolean): void {
    this.visible = visible;
    this.visibility.fire();
  }
  /** The render the page shows now: the last `init`'s request key and generation, which the page names in what it posts about the request. */
  shown(): PageRender {
    const init = this.posted.filter((message) => message.type === 'init').at(-1);
    assert.ok(init?.type === 'init', `the page was rendered: ${this.types().join(', ')}`);
    return { key: init.request.key, generation: init.generation };
  }
  /** Plays the page posting a message about the request it shows now. */
  fromShown(message: Record<string, unknown>): void {
    this.fromPage({ ...message, ...this.shown() });
  }
  /** Listeners of the webview's events now, whoever holds them. */
  listening(): number {
    return this.messages.listening() + this.visibility.listening() + this.disposal.listening();
  }
  types(): string[] {
    return this.posted.map((message) => message.type);
  }
}
