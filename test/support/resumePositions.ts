import type { AepEvent } from '../../src/aep/envelope';
import type { ResumePosition } from '../../src/aep/frames';
import { resumeEntries } from '../../src/client/resumePlan';
import type { KeptPosition } from '../../src/client/positionStore';
import type { Inbox } from '../../src/inbox/inbox';

/**
 * The resume points the client would ask for, for the session strings
 * `events` name, built as the client builds them: each emitter's position
 * (`Inbox.positionOf`, what it saves), then the lowest of the emitters that
 * share a session string (`resumeEntries`, what `subscribe.from` names). In
 * the order the sessions first appear; sessions the inbox does not track are left out.
 */
export function resumePositions(inbox: Inbox, events: Iterable<Pick<AepEvent, 'session' | 'source'>>): ResumePosition[] {
  const sessions = new Set<string>();
  const emitters = new Set<string>();
  const kept: KeptPosition[] = [];
  for (const { source, session } of events) {
    if (session === undefined) continue;
    sessions.add(session);
    const emitter = JSON.stringify([source, session]);
    if (emitters.has(emitter)) continue;
    emitters.add(emitter);
    const position = inbox.positionOf(source, session);
    if (position !== undefined) kept.push(position);
  }
  const bySession = new Map(resumeEntries(kept).map((position) => [position.session, position]));
  return [...sessions].map((session) => bySession.get(session)).filter((position) => position !== undefined);
}

/** One session string's resume point, from the emitters (`sources`) known to use it. */
export function resumePosition(inbox: Inbox, session: string, ...sources: string[]): ResumePosition | undefined {
  return resumePositions(inbox, sources.map((source) => ({ source, session })))[0];
}
