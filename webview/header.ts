import type { RequestView } from '../src/shared/webviewMessages';
import { el } from './dom';

/**
 * Who is asking, apart from what they ask: agent, session, host, kind,
 * severity, capture, age and a live countdown to `expires_at`. Drawn as UI
 * chrome, never mixed with agent text.
 */
export class Header {
  readonly element: HTMLElement;
  private readonly ageCell: HTMLElement;
  private readonly countdown: HTMLElement | undefined;
  private readonly reachCell: HTMLElement;
  private clockOffset = 0;
  /** Set once the request is over: the countdown shows this instead of a time left. */
  private endedAs: string | undefined;

  constructor(private readonly request: RequestView, hostNow: number) {
    this.clockOffset = hostNow - Date.now();
    this.ageCell = el('dd', { id: 'age' });
    this.reachCell = el('dd', { id: 'reachability' });
    const rows: Array<[string, Node | string]> = [
      ['Agent', request.agent],
      ['Session', request.session],
      ['Host', request.host ?? request.source],
      ['Kind', request.kind],
      ['Severity', request.severity],
      ['Capture', request.capture],
    ];
    const list = el('dl', { class: 'provenance', 'aria-label': 'Who is asking' });
    for (const [name, value] of rows) list.append(el('dt', {}, name), el('dd', {}, value));
    list.append(el('dt', {}, 'Received'), this.ageCell);
    if (request.expiresAt !== undefined) {
      this.countdown = el('dd', { id: 'countdown', role: 'timer', 'aria-live': 'off' });
      list.append(el('dt', {}, 'Expires'), this.countdown);
    }
    list.append(el('dt', {}, 'Delivery'), this.reachCell);
    this.element = el('header', { class: 'request-header' }, list);
    this.setReachability(request.reachability.state, request.reachability.detail);
    this.tick();
  }

  setReachability(state: string, detail: string | undefined): void {
    const words: Record<string, string> = {
      reachable: 'the agent is connected to the hub',
      unreachable: 'the agent is not connected right now',
      ambiguous: 'ambiguous: answers will be refused',
      unknown: 'unknown until an answer is sent',
    };
    this.reachCell.textContent = `${words[state] ?? state}${detail && state !== 'reachable' ? ` (${detail})` : ''}`;
    this.reachCell.dataset['state'] = state;
  }

  /** The request is over (its status said so, possibly before this clock did): stop counting down. */
  end(words: string): void {
    this.endedAs = words;
    this.tick();
  }

  /** Updates age and countdown; returns true when the request has expired. */
  tick(): boolean {
    const now = Date.now() + this.clockOffset;
    this.ageCell.textContent = formatAgo(now - this.request.receivedAt);
    if (this.countdown && this.endedAs !== undefined) {
      this.countdown.textContent = this.endedAs;
      return false;
    }
    if (this.countdown && this.request.expiresAt !== undefined) {
      const left = this.request.expiresAt - now;
      this.countdown.textContent = left > 0 ? `in ${formatDuration(left)}` : 'expired';
      return left <= 0;
    }
    return false;
  }
}

function formatDuration(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${seconds % 60} s`;
}

function formatAgo(ms: number): string {
  return ms < 5_000 ? 'just now' : `${formatDuration(ms)} ago`;
}
