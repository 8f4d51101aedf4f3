// How long ago, and how long left, in words: one home for the host (tree
// item descriptions) and the webview (request header). Each side localizes
// with its own `@vscode/l10n` instance, loaded with the same bundle, so the
// caller passes its `t`; the English messages here are the bundle keys.

/** A whole message, English as written, with `{0}`, `{1}`… replaced by `args` (host and webview `t`). */
export type Translate = (message: string, ...args: Array<string | number>) => string;

/** "12 s ago", "3 min ago", "2 h ago": rounded, for a one-line place. */
export function agoRounded(t: Translate, since: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  if (seconds < 60) return t('{0} s ago', seconds);
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('{0} min ago', minutes);
  return t('{0} h ago', Math.round(minutes / 60));
}

/**
 * "30 s left", "5 min left", or that `expires_at` has passed by this
 * computer's clock; never "expired": the request stays open then, since only
 * the agent ends it (AEP-0002 §7). Rounded, for a one-line place.
 */
export function leftRounded(t: Translate, until: number, now: number): string {
  if (until <= now) return t('deadline passed');
  // Up, so a deadline not yet passed never reads "0 s left".
  const seconds = Math.ceil((until - now) / 1000);
  if (seconds < 60) return t('{0} s left', seconds);
  return t('{0} min left', Math.round(seconds / 60));
}

/** "45 s", "2 min 5 s": to the second (rounded up), for a live countdown. */
export function durationExact(t: Translate, ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return t('{0} s', seconds);
  return t('{0} min {1} s', Math.floor(seconds / 60), seconds % 60);
}

/** "just now" under 5 s, else "2 min 5 s ago": to the second, for a live age. */
export function agoExact(t: Translate, ms: number): string {
  return ms < 5_000 ? t('just now') : t('{0} ago', durationExact(t, ms));
}
