// Which window gives a request's system notification and sound (issue 38
// item 6). Every window of one profile on one machine connected to a hub
// receives the same request; each would notify on its own. They share one
// directory (the extension's global storage: in code-server too, where every
// window's extension host runs on the server), and what is decided there is
// decided by the file system, atomically:
//   - a claim per request (`r-<digest>`), created exclusively: the window that
//     creates it notifies, every other one finds it there and stays quiet;
//   - slots per minute (`s-<minute>-<n>`), created exclusively too: at most
//     `perMinute` notifications a minute across all windows, so a flood cannot
//     bury the newest request under a stack of others;
//   - the focused window's marker (`focused.json`): a window the person is
//     looking at shows its own toast, so the windows behind it give no system
//     notification for the same hub; it names, per hub, which requests it
//     shows a toast for (toastPolicy.ts), so a window whose toasts are off
//     silences nobody. A marker not refreshed for FOCUS_MARKER_TTL_MS is
//     nobody's (focusMarker.ts keeps it fresh while the window's page answers).
// Nothing here holds a request's text: the names are digests. A hub is named
// by its identity (its base URL), not as a window's settings spell it: two
// windows naming `http://127.0.0.1:8787` and `http://127.0.0.1:8787/` share one
// hub, and must share its claims.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod/mini';
import { hubIdentity } from '../aep/hubBase';
import { SEVERITIES } from '../aep/levels';
import { showsToast, type ToastPolicy, type ToastSubject } from './toastPolicy';

/** How long a request's claim is kept: a request redelivered within it (a reconnect, a replay) is not notified again by another window. */
export const CLAIM_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Slots are only asked for the current minute; older ones are swept soon. */
const SLOT_MAX_AGE_MS = 10 * 60 * 1000;
export const MINUTE_MS = 60_000;
/** How often a focused window whose page answers writes its marker again (focusMarker.ts). */
export const FOCUS_REFRESH_MS = 30_000;
/**
 * A marker older than this is ignored: its window's page is gone (a crashed tab, a lost connection) while its
 * extension host runs on, for hours on a remote server, still focused as far as it knows.
 */
export const FOCUS_MARKER_TTL_MS = 3 * FOCUS_REFRESH_MS;

/** A hub of the focused window, with what it shows a toast for. */
export interface FocusedHub {
  readonly hub: string;
  readonly policy: ToastPolicy;
}

/** What names one request on one hub, the same in every window. */
export interface ClaimedRequest {
  readonly hub: string;
  readonly source: string;
  readonly session: string;
  readonly requestId: string;
}

const focusedSchema = z.object({
  window: z.string(),
  pid: z.number(),
  /** When it was written (ms since the epoch, the writer's clock: the same machine's). */
  at: z.number(),
  hubs: z.array(z.object({ hub: z.string(), notifications: z.enum(['all', 'forms', 'off']), minSeverity: z.enum(SEVERITIES) })),
});
type Focused = z.infer<typeof focusedSchema>;

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 40);
const hubDigest = (hub: string) => digest(hubIdentity(hub));
const claimName = (request: ClaimedRequest) => `r-${digest(hubIdentity(request.hub), request.source, request.session, request.requestId)}`;

/** Whether a process runs on this machine: a window whose host crashed leaves its focus marker behind. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface NoticeClaimsOptions {
  /** At most this many system notifications a minute, across every window. */
  perMinute?: number;
  /** This process, as the focus marker names it (tests pass another to play a second window). */
  pid?: number;
  /** Called once per kind of failure to use the directory; every question then answers as if no other window existed. */
  onProblem?: (message: string) => void;
}

export class NoticeClaims {
  private readonly perMinute: number;
  private readonly pid: number;
  private readonly onProblem: ((message: string) => void) | undefined;
  private readonly told = new Set<string>();

  /** `dir` undefined: no directory is shared (a storage that is not a file), and this window decides alone, as before. */
  constructor(private readonly dir: string | undefined, private readonly window: string, options: NoticeClaimsOptions = {}) {
    this.perMinute = options.perMinute ?? 5;
    this.pid = options.pid ?? process.pid;
    this.onProblem = options.onProblem;
  }

  /** Whether a directory is shared with the other windows: without one, nothing here is written or read. */
  get shared(): boolean {
    return this.dir !== undefined;
  }

  /** True when this window is the first to claim the request: it notifies. */
  async claimRequest(request: ClaimedRequest): Promise<boolean> {
    return this.create(claimName(request));
  }

  /**
   * True when some window claimed the request already, so its notification
   * and sound were given: nothing is left to give for it. False when no
   * directory is shared, or it cannot be read (each window then decides as
   * if alone, as `claimRequest` does).
   */
  async claimedAlready(request: ClaimedRequest): Promise<boolean> {
    if (this.dir === undefined) return false;
    try {
      await fs.access(path.join(this.dir, claimName(request)));
      return true;
    } catch {
      return false;
    }
  }

  /** True when a notification may be given now, within this minute's budget shared by every window. */
  async claimSlot(now: number): Promise<boolean> {
    if (this.dir === undefined) return true;
    const minute = Math.floor(now / MINUTE_MS);
    for (let slot = 0; slot < this.perMinute; slot++) {
      const created = await this.createExclusive(`s-${minute}-${slot}`);
      if (created !== false) return true;
    }
    return false;
  }

  /** This window has the person's attention now; `hubs` are its hubs, each with what it shows a toast for. */
  async setFocused(hubs: ReadonlyArray<FocusedHub>, now = Date.now()): Promise<void> {
    if (this.dir === undefined) return;
    const marker: Focused = { window: this.window, pid: this.pid, at: now, hubs: hubs.map(({ hub, policy }) => ({ hub: hubDigest(hub), ...policy })) };
    const temp = path.join(this.dir, `focused-${randomBytes(6).toString('hex')}.tmp`);
    try {
      await fs.mkdir(this.dir, { recursive: true });
      await fs.writeFile(temp, JSON.stringify(marker));
      // A rename replaces at once: a reader sees the old marker or the new one, never half of one.
      await fs.rename(temp, path.join(this.dir, 'focused.json'));
    } catch (error) {
      this.problem('focus', error);
      await fs.rm(temp, { force: true }).catch(() => undefined);
    }
  }

  /** This window lost the person's attention: its marker goes, unless another window's already replaced it. */
  async clearFocused(): Promise<void> {
    if (this.dir === undefined) return;
    const marker = await this.focused();
    if (marker?.window !== this.window) return;
    await fs.rm(path.join(this.dir, 'focused.json'), { force: true }).catch((error: unknown) => this.problem('focus', error));
  }

  /** Whether another window, still running and its marker fresh, has the person's attention and shows this request of `hub` as a toast. */
  async focusedElsewhere(item: { readonly hub: string } & ToastSubject, now = Date.now()): Promise<boolean> {
    const marker = await this.focused();
    if (marker === undefined || marker.window === this.window || now - marker.at > FOCUS_MARKER_TTL_MS) return false;
    const digest = hubDigest(item.hub);
    const shown = marker.hubs.some(({ hub, ...policy }) => hub === digest && showsToast(policy, item));
    return shown && alive(marker.pid);
  }

  /** Removes claims past their age, and slots of minutes long gone. */
  async sweep(now: number): Promise<number> {
    if (this.dir === undefined) return 0;
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.problem('sweep', error);
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const maxAge = name.startsWith('r-') ? CLAIM_MAX_AGE_MS : name.startsWith('s-') || name.endsWith('.tmp') ? SLOT_MAX_AGE_MS : undefined;
      if (maxAge === undefined) continue;
      const file = path.join(this.dir, name);
      try {
        const { mtimeMs } = await fs.stat(file);
        if (mtimeMs > now - maxAge) continue;
        await fs.rm(file, { force: true });
        removed++;
      } catch {
        // Another window swept it first.
      }
    }
    return removed;
  }

  private async focused(): Promise<Focused | undefined> {
    if (this.dir === undefined) return undefined;
    try {
      const parsed = focusedSchema.safeParse(JSON.parse(await fs.readFile(path.join(this.dir, 'focused.json'), 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private async create(name: string): Promise<boolean> {
    if (this.dir === undefined) return true;
    // A directory that cannot be used must not silence every window: each then notifies.
    return (await this.createExclusive(name)) !== false;
  }

  /** True: created. False: it exists. Undefined: the directory cannot be used. */
  private async createExclusive(name: string): Promise<boolean | undefined> {
    if (this.dir === undefined) return undefined;
    const file = path.join(this.dir, name);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        // 'wx': created only if absent, in one step, by exactly one of the windows racing for it.
        const handle = await fs.open(file, 'wx');
        await handle.close();
        return true;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return false;
        if (code === 'ENOENT' && attempt === 0) {
          await fs.mkdir(this.dir, { recursive: true }).catch(() => undefined);
          continue;
        }
        this.problem('claim', error);
        return undefined;
      }
    }
    return undefined;
  }

  private problem(kind: string, error: unknown): void {
    if (this.told.has(kind)) return;
    this.told.add(kind);
    this.onProblem?.(`could not use the shared notifications directory (${kind}): ${error instanceof Error ? error.message : String(error)}`);
  }
}
