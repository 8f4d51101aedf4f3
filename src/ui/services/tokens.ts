import type * as vscode from 'vscode';
import { hubEndpoint } from '../../client/hubEndpoint';

const KEY_PREFIX = 'aepAttention.token:';

/** A token from the environment, bound to the one hub it was given for (its base URL). */
export interface EnvironmentToken {
  base: string;
  token: string;
}

/** Where a hub's token is filed: its base URL (hubList.ts hubId), and the origin older versions filed every token under. */
export interface TokenKey {
  base: string;
  origin: string;
}

/**
 * Reads `AEP_HUB` + `AEP_TOKEN` from the extension host's environment (for
 * launches without a UI to type into). The token is only ever offered to
 * `AEP_HUB` itself: its base URL, not every path on its origin.
 */
export function environmentToken(env: NodeJS.ProcessEnv): EnvironmentToken | undefined {
  const hub = env['AEP_HUB']?.trim();
  const token = env['AEP_TOKEN'];
  if (!hub || !token) return undefined;
  const endpoint = hubEndpoint(hub, true);
  return endpoint.ok ? { base: endpoint.value.base, token } : undefined;
}

/** The keys of a hub address's token; undefined for an address that is not a usable URL. */
export function tokenKeyOf(hubUrl: string): TokenKey | undefined {
  const endpoint = hubEndpoint(hubUrl, true);
  return endpoint.ok ? { base: endpoint.value.base, origin: endpoint.value.origin } : undefined;
}

/**
 * Hub tokens in `SecretStorage`, one per hub (its base URL), so a workspace
 * that points `hubUrl` elsewhere, or at another path behind the same proxy,
 * never receives another hub's token. A hub with no path is filed under its
 * origin, as before paths told hubs apart. A hub with a path that has no
 * token of its own falls back to its origin's: that is where the version
 * before this one filed its token, and it must still connect after the
 * upgrade. Setting its token files one of its own, which wins from then on.
 */
export class TokenStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly fromEnvironment: EnvironmentToken | undefined,
  ) {}

  /** Fires with the key (a base URL or an origin) whose token was set or cleared. */
  readonly onDidChange = (listener: (key: string) => void) =>
    this.secrets.onDidChange((event) => {
      if (event.key.startsWith(KEY_PREFIX)) listener(event.key.slice(KEY_PREFIX.length));
    });

  /** The hub's token, and whether it is the hub's own or its origin's (filed by an older version). */
  async get(key: TokenKey): Promise<{ token: string; from: 'hub' | 'origin' | 'environment' } | undefined> {
    const own = await this.secrets.get(KEY_PREFIX + key.base);
    if (own) return { token: own, from: 'hub' };
    if (key.base !== key.origin) {
      const legacy = await this.secrets.get(KEY_PREFIX + key.origin);
      if (legacy) return { token: legacy, from: 'origin' };
    }
    return this.fromEnvironment?.base === key.base ? { token: this.fromEnvironment.token, from: 'environment' } : undefined;
  }

  set(key: TokenKey, token: string): Thenable<void> {
    return this.secrets.store(KEY_PREFIX + key.base, token);
  }

  /**
   * Clears the hub's own token and, for a hub with a path, its origin's too:
   * otherwise the hub would go on connecting with that one, and "cleared"
   * would be false. Resolves to whether the origin's was cleared as well.
   */
  async clear(key: TokenKey): Promise<boolean> {
    await this.secrets.delete(KEY_PREFIX + key.base);
    if (key.base === key.origin || !(await this.secrets.get(KEY_PREFIX + key.origin))) return false;
    await this.secrets.delete(KEY_PREFIX + key.origin);
    return true;
  }
}
