import type { Capabilities } from '../aep/frames';

/**
 * Whether answers can go through a hub at all. A hub that declared no
 * `control` in its hello (AEP-0003 §3.4: it offers no command routing),
 * reached without a token, is watch-only: it refuses every command
 * (AEP-0004 §4.1). Knowing that, nothing is sent to it: every surface says
 * so before the person answers, and an answer is refused here, not by the
 * hub. Before any hello nothing is known, and nothing is refused.
 */
export function isWatchOnly(hello: { capabilities?: Capabilities | undefined } | undefined, hasToken: boolean): boolean {
  return hello !== undefined && hello.capabilities?.control === undefined && !hasToken;
}

/** The code of an answer refused here because its hub is watch-only (SendOutcome `cancelled`). */
export const WATCH_ONLY = 'watch-only';
