import * as l10n from '@vscode/l10n';
import { agoExact, durationExact } from '../src/shared/timeText';
import type { PageRequest } from '../src/shared/webviewMessages';
import { el } from './dom';

/**
 * The details of a request, drawn after its fields: agent, session, host,
 * kind, severity, capture, age and a live countdown to `expires_at`. Drawn as
 * UI chrome, never mixed with agent text.
 */
export class Header {
  readonly element: HTMLElement;
  private readonly ageCell: HTMLElement;
  private readonly countdown: HTMLElement | undefined;
  private readonly reachCell: HTMLElement;
  private clockOffset = 0;
  /** Set once the request is over: the countdown shows this instead of a time left. */
  private endedAs: string | undefined;

  constructor(private readonly request: PageRequest, hostNow: number) {
    this.clockOffset = hostNow - Date.now();
    this.ageCell = el('dd', { id: 'age' });
    this.reachCell = el('dd', { id: 'reachability' });
    const rows: Array<[string, Node | string]> = [
      [l10n.t('Agent'), request.agent],
      [l10n.t('Session'), request.session],
      [l10n.t('Host'), request.host ?? request.source],
      ...(request.hub === undefined ? [] : [[l10n.t('Hub'), request.hub] as [string, string]]),
      [l10n.t('Kind'), request.kind],
      [l10n.t('Severity'), request.severity],
      [l10n.t('Capture'), request.capture],
    ];
    const list = el('dl', { class: 'provenance', 'aria-label': l10n.t('Who is asking') });
    for (const [name, value] of rows) list.append(el('dt', {}, name), el('dd', {}, value));
    list.append(el('dt', {}, l10n.t('Received')), this.ageCell);
    if (request.expiresAt !== undefined) {
      this.countdown = el('dd', { id: 'countdown', role: 'timer', 'aria-live': 'off' });
      list.append(el('dt', {}, l10n.t('Expires')), this.countdown);
    }
    list.append(el('dt', {}, l10n.t('Delivery')), this.reachCell);
    // After the fields: the question and who asks come first; open, so nothing that was shown before is hidden behind a click.
    this.element = el('details', { class: 'request-header', open: '' }, el('summary', {}, l10n.t('Details')), list);
    this.setReachability(request.reachability.state, request.reachability.detail);
    this.tick();
  }

  /** A page of the answer history: whether an answer could reach the agent now is not its question. */
  hideDelivery(): void {
    const term = this.reachCell.previousElementSibling;
    if (term?.tagName === 'DT') term.remove();
    this.reachCell.remove();
  }

  setReachability(state: string, detail: string | undefined): void {
    this.reachCell.textContent = reachabilityText(state, detail && state !== 'reachable' ? detail : undefined);
    this.reachCell.dataset['state'] = state;
  }

  /** The request is over (its status said so, possibly before this clock did): stop counting down. */
  end(words: string): void {
    this.endedAs = words;
    this.tick();
  }

  /**
   * Updates age and countdown; returns true once `expires_at` has passed by
   * this computer's clock. That ends nothing: the agent decides (AEP-0002 §7).
   */
  tick(): boolean {
    const now = Date.now() + this.clockOffset;
    this.ageCell.textContent = agoExact(now - this.request.receivedAt);
    const passed = this.request.expiresAt !== undefined && this.request.expiresAt <= now;
    if (!this.countdown || this.request.expiresAt === undefined) return passed;
    if (this.endedAs !== undefined) this.countdown.textContent = this.endedAs;
    else this.countdown.textContent = passed ? l10n.t('passed, by this computer\'s clock') : l10n.t('in {0}', durationExact(this.request.expiresAt - now));
    this.countdown.dataset['passed'] = String(passed);
    return passed;
  }
}

/** Whether an answer can reach the agent, with the host's detail (one whole message each, for translators). */
function reachabilityText(state: string, detail: string | undefined): string {
  switch (state) {
    case 'reachable':
      return l10n.t('the agent is connected to the hub');
    case 'unreachable':
      return detail ? l10n.t('the agent is not connected right now ({0})', detail) : l10n.t('the agent is not connected right now');
    case 'ambiguous':
      return detail ? l10n.t('ambiguous: answers will be refused ({0})', detail) : l10n.t('ambiguous: answers will be refused');
    case 'not-accepting':
      return detail ? l10n.t('this agent does not take answers from editors ({0})', detail) : l10n.t('this agent does not take answers from editors');
    case 'unknown':
      return detail ? l10n.t('unknown until an answer is sent ({0})', detail) : l10n.t('unknown until an answer is sent');
    case 'watch-only':
      return l10n.t('This hub is watch-only: set a token to answer.');
    default:
      return detail ? `${state} (${detail})` : state;
  }
}
