import type { AepEvent } from '../../src/aep/envelope';
import type { ResumePosition } from '../../src/aep/frames';
import type { Inbox } from '../../src/inbox/inbox';

/**
 * The resume points the client would record for the session strings `events`
 * name, in the order they first appear, each read as the client reads it
 * (`Inbox.positionFor`). Sessions the inbox does not track are left out.
 */
export function resumePositions(inbox: Inbox, events: Iterable<Pick<AepEvent, 'session'>>): ResumePosition[] {
  const sessions = new Set<string>();
  for (const event of events) if (event.session !== undefined) sessions.add(event.session);
  return [...sessions].map((session) => inbox.positionFor(session)).filter((position) => position !== undefined);
}
