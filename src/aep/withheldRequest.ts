import { captureOf, type AepEvent } from './envelope';
import type { CaptureLevel } from './levels';

/**
 * Who withheld a request's content: `own-ceiling` when this window's
 * subscription asked the hub for capture `none` (AEP-0003 §6.4), so the
 * person's own setting did; `upstream` when it came at `none` all the same
 * (the agent emitted it so, or a hop down-levelled it).
 */
export type WithheldBy = 'own-ceiling' | 'upstream';

/** A request whose content was legally withheld on its way here (AEP-0001 §8.2): nothing the agent did wrong. */
export interface WithheldContent {
  by: WithheldBy;
}

/**
 * Whether a request that cannot be read was withheld rather than broken.
 * At capture `none` an event is its envelope only (AEP-0001 §8.2), so a
 * missing `kind` or `prompt` is the capture, not the agent: the event says
 * `none`, or this window asked for `none` and the hub stripped `data`
 * without relabelling it. Called only for a request that does not parse.
 */
export function withheldContent(event: Pick<AepEvent, 'capture' | 'data'>, ceiling: CaptureLevel | undefined): WithheldContent | undefined {
  const stripped = captureOf(event) === 'none' || (ceiling === 'none' && event.data === undefined);
  if (!stripped) return undefined;
  return { by: ceiling === 'none' ? 'own-ceiling' : 'upstream' };
}
