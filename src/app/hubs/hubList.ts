// No `vscode` here: which hubs a window connects to is plain logic over what
// the settings hold (settings.ts reads them), unit-tested in test/unit/hubList.test.ts.
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { hubEndpoint } from '../../client/hubEndpoint';
import { CAPTURE_LEVELS, type CaptureLevel } from '../../aep/levels';
import { describeZodError } from '../../base/result';

/** Where a hub's address came from, for the status tooltip and the log. */
export type HubSource = 'folder' | 'workspace' | 'user' | 'environment' | 'list';

/** One hub this window connects to, with what its connection is made of. */
export interface HubConfig {
  /** The hub's base URL, or for an address that is not a usable URL, a digest of it (hubId): one connection, one store, one token per id. */
  id: string;
  hubUrl: string;
  source: HubSource;
  /** The user's name for it (`aepAttention.hubs[].label`); undefined when it has none. */
  label: string | undefined;
  /** Workspace folders whose `aepAttention.hubUrl` names it, in folder order. */
  folders: string[];
  filter: Record<string, unknown> | undefined;
  captureCeiling: CaptureLevel | undefined;
}

/** A hub named by one place: a workspace folder, the window, or the environment. */
export interface NamedHub {
  hubUrl: string;
  source: Exclude<HubSource, 'list'>;
  folder?: string;
  filter: Record<string, unknown> | undefined;
  captureCeiling: CaptureLevel | undefined;
}

export interface HubListInput {
  /** Each workspace folder's hub (or the window's, with no folder), in folder order; empty addresses left out. */
  named: NamedHub[];
  /** The user-level `aepAttention.hubs`, unparsed: it is typed by hand. */
  list: unknown;
  /** Applied to list entries that set none of their own: the user-level `aepAttention.filter` and `captureCeiling`. */
  defaults: { filter: Record<string, unknown> | undefined; captureCeiling: CaptureLevel | undefined };
}

export interface HubList {
  hubs: HubConfig[];
  /** What was wrong with `aepAttention.hubs`, entry by entry, in words to act on. */
  problems: string[];
}

const listEntrySchema = z.object({
  url: z.string().check(z.minLength(1)),
  label: z.optional(z.string()),
  filter: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  captureCeiling: z.optional(z.nullable(z.enum(CAPTURE_LEVELS))),
});

const MAX_LABEL = 64;

const UNUSABLE_PREFIX = 'unusable-address:';

/**
 * The id of a hub address: its base URL (hubEndpoint's `base`: scheme and host
 * lowercase, default port dropped, ws/wss as http/https, no trailing slash or
 * endpoint name), so two spellings of one hub share a connection, its saved
 * state and its token, and two hubs on one origin with different paths do
 * not. A hub with no path has its origin as id, the key its state was saved
 * under before paths told hubs apart. An address that is not a usable URL gets a
 * digest of its text instead: it may hold credentials (`https://user:pass@…`,
 * which hubEndpoint refuses), and an id reaches logs and screens.
 */
export function hubId(hubUrl: string): string {
  const endpoint = hubEndpoint(hubUrl, true);
  return endpoint.ok ? endpoint.value.base : UNUSABLE_PREFIX + createHash('sha256').update(hubUrl).digest('hex').slice(0, 12);
}

/** Whether the id is of an address that is not a usable URL (it then names no hub). */
export function isUnusableHubId(id: string): boolean {
  return id.startsWith(UNUSABLE_PREFIX);
}

/**
 * Every distinct hub the window names. The user's list comes first: its
 * entries carry a label, a filter and a ceiling chosen for that hub, which
 * win over a folder naming the same one. Hubs are told apart by base URL
 * (hubId); folders naming the same hub share its connection.
 */
export function hubList(input: HubListInput): HubList {
  const hubs = new Map<string, HubConfig>();
  const problems: string[] = [];
  const entries = input.list === undefined || input.list === null ? [] : Array.isArray(input.list) ? input.list : undefined;
  if (entries === undefined) problems.push('aepAttention.hubs must be a list of hubs, e.g. [{ "url": "http://127.0.0.1:8787", "label": "laptop" }].');
  (entries ?? []).forEach((raw, index) => {
    const parsed = listEntrySchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(`aepAttention.hubs entry ${index + 1} was left out: ${describeZodError(parsed.error)}.`);
      return;
    }
    const entry = parsed.data;
    const hubUrl = entry.url.trim();
    const id = hubId(hubUrl);
    if (hubs.has(id)) {
      problems.push(`aepAttention.hubs entry ${index + 1} names ${id} again; only the first entry for it is used.`);
      return;
    }
    const label = entry.label?.trim().slice(0, MAX_LABEL);
    hubs.set(id, {
      id,
      hubUrl,
      source: 'list',
      label: label || undefined,
      folders: [],
      filter: entry.filter === undefined ? input.defaults.filter : (entry.filter ?? undefined),
      captureCeiling: entry.captureCeiling === undefined ? input.defaults.captureCeiling : (entry.captureCeiling ?? undefined),
    });
  });
  for (const named of input.named) {
    const id = hubId(named.hubUrl);
    const known = hubs.get(id);
    if (known) {
      if (named.folder !== undefined && !known.folders.includes(named.folder)) known.folders.push(named.folder);
      continue;
    }
    hubs.set(id, {
      id,
      hubUrl: named.hubUrl,
      source: named.source,
      label: undefined,
      folders: named.folder === undefined ? [] : [named.folder],
      filter: named.filter,
      captureCeiling: named.captureCeiling,
    });
  }
  return { hubs: [...hubs.values()], problems };
}

/** How a hub is named on every surface: the user's label, else its host and port, and its path when it has one. */
export function hubLabel(config: Pick<HubConfig, 'id' | 'label'>): string {
  if (config.label) return config.label;
  if (isUnusableHubId(config.id)) return '(invalid hub URL)';
  try {
    const url = new URL(config.id);
    return url.host ? url.host + url.pathname.replace(/\/$/, '') : config.id;
  } catch {
    return config.id;
  }
}
