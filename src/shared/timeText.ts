// How long ago, and how long left, in words: one home for the host (tree
// item descriptions) and the webview (request header). Each side's bundle has
// its own `@vscode/l10n`, loaded with the same strings (src/words/l10n.ts,
// webview/l10n.ts), so these words are translated wherever they run.
import * as l10n from '@vscode/l10n';

/** "12 s ago", "3 min ago", "2 h ago": rounded, for a one-line place. */
export function agoRounded(since: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  if (seconds < 60) return l10n.t('{0} s ago', seconds);
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return l10n.t('{0} min ago', minutes);
  return l10n.t('{0} h ago', Math.round(minutes / 60));
}

/**
 * "30 s left", "5 min left", or that `expires_at` has passed by this
 * computer's clock; never "expired": the request stays open then, since only
 * the agent ends it (AEP-0002 §7). Rounded, for a one-line place.
 */
export function leftRounded(until: number, now: number): string {
  if (until <= now) return l10n.t('deadline passed');
  // Up, so a deadline not yet passed never reads "0 s left".
  const seconds = Math.ceil((until - now) / 1000);
  if (seconds < 60) return l10n.t('{0} s left', seconds);
  return l10n.t('{0} min left', Math.round(seconds / 60));
}

/** "250 ms", "3.2 s", "2 min 5 s": how long something took, as an agent reported it. */
export function durationShort(ms: number): string {
  if (ms < 1_000) return l10n.t('{0} ms', Math.round(ms));
  if (ms < 60_000) return l10n.t('{0} s', (Math.round(ms / 100) / 10).toLocaleString(undefined, { maximumFractionDigits: 1 }));
  const seconds = Math.round(ms / 1000);
  return l10n.t('{0} min {1} s', Math.floor(seconds / 60), seconds % 60);
}

/** "45 s", "2 min 5 s": to the second (rounded up), for a live countdown. */
export function durationExact(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return l10n.t('{0} s', seconds);
  return l10n.t('{0} min {1} s', Math.floor(seconds / 60), seconds % 60);
}

/** "just now" under 5 s, else "2 min 5 s ago": to the second, for a live age. */
export function agoExact(ms: number): string {
  return ms < 5_000 ? l10n.t('just now') : l10n.t('{0} ago', durationExact(ms));
}
