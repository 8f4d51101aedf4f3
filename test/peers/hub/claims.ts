import type { ClientHello } from './clientFrames';

/** A live duplex connection that emits for some sessions and may accept commands. */
export interface Claimant {
  readonly hello: ClientHello;
  sendText(text: string): void;
  /** The source of the sequenced events this claimant sent for `session`: whose session a command reached. */
  sourceOf(session: string): string | undefined;
}

export type RouteDecision =
  | { ok: true; target: Claimant }
  | { ok: false; code: 'no-route' | 'ambiguous' | 'unsupported'; detail: string };

/**
 * Which live connection claims which session: a connection claims a session
 * by emitting a sequenced event for it (AEP-0003 §4.1 rule 3, AEP-0004 §4).
 */
export class ClaimRegistry {
  private readonly bySession = new Map<string, Set<Claimant>>();
  private readonly byClaimant = new Map<Claimant, Set<string>>();

  claim(claimant: Claimant, session: string): void {
    let claimants = this.bySession.get(session);
    if (!claimants) this.bySession.set(session, (claimants = new Set()));
    claimants.add(claimant);
    let sessions = this.byClaimant.get(claimant);
    if (!sessions) this.byClaimant.set(claimant, (sessions = new Set()));
    sessions.add(session);
  }

  /**
   * The claimant ended `session` (`session.ended`): it is no longer a live
   * route for it, so the roster stops listing it and a command nacks
   * `no-route`. A later sequenced event claims it again.
   */
  releaseSession(claimant: Claimant, session: string): void {
    const claimants = this.bySession.get(session);
    claimants?.delete(claimant);
    if (claimants?.size === 0) this.bySession.delete(session);
    const sessions = this.byClaimant.get(claimant);
    sessions?.delete(session);
    if (sessions?.size === 0) this.byClaimant.delete(claimant);
  }

  release(claimant: Claimant): void {
    for (const session of this.byClaimant.get(claimant) ?? []) {
      const claimants = this.bySession.get(session);
      claimants?.delete(claimant);
      if (claimants?.size === 0) this.bySession.delete(session);
    }
    this.byClaimant.delete(claimant);
  }

  /**
   * AEP-0004 §4.2/§4.5: deliver to at most one target. No claimant is
   * `no-route`, several are `ambiguous` (never guess, never broadcast), and a
   * type outside the target's declared `accepts` is `unsupported`.
   */
  route(session: string, commandType: string): RouteDecision {
    const claimants = [...(this.bySession.get(session) ?? [])];
    if (claimants.length === 0) {
      return { ok: false, code: 'no-route', detail: `no connected emitter owns session ${JSON.stringify(session)}` };
    }
    if (claimants.length > 1) {
      return { ok: false, code: 'ambiguous', detail: `${claimants.length} live connections claim session ${JSON.stringify(session)}` };
    }
    const [target] = claimants;
    if (!target) return { ok: false, code: 'no-route', detail: 'no target' };
    if (!declaredAccepts(target.hello).includes(commandType)) {
      return { ok: false, code: 'unsupported', detail: `the target does not declare ${commandType} in control.accepts` };
    }
    return { ok: true, target };
  }

  /** One entry per live (connection, claimed session), declarations verbatim (AEP-0003 §4.1 rules 3–5). */
  roster(): Array<Record<string, unknown>> {
    const entries: Array<Record<string, unknown>> = [];
    for (const [claimant, sessions] of this.byClaimant) {
      const { identity, capabilities } = claimant.hello;
      for (const session of sessions) {
        const entry: Record<string, unknown> = { session };
        if (identity.agent !== undefined) entry['agent'] = identity.agent;
        if (identity.instance !== undefined) entry['instance'] = identity.instance;
        if (capabilities['control'] !== undefined) entry['control'] = capabilities['control'];
        if (capabilities['emits'] !== undefined) entry['emits'] = capabilities['emits'];
        entries.push(entry);
      }
    }
    return entries;
  }
}

function declaredAccepts(hello: ClientHello): string[] {
  const control = hello.capabilities['control'];
  if (typeof control !== 'object' || control === null || !('accepts' in control)) return [];
  const accepts = (control as { accepts: unknown }).accepts;
  return Array.isArray(accepts) ? accepts.filter((type): type is string => typeof type === 'string') : [];
}
