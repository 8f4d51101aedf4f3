import type { SecretValueStorage } from './alwaysSecretValues';
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
 * Asks the person whether the hub at `hub` (a base URL with a path) may be
 * sent the token filed for `origin`, another hub's; resolves to their answer.
 * The UI asks it as a modal question (originTokenQuestion.ts).
 */
export type OriginTokenConsent = (hub: string, origin: string) => Promise<boolean>;

/** Where a token came from: the hub's own, the environment's, or its origin's, which the person just agreed to use (and is now its own). */
export type TokenFrom = 'hub' | 'origin' | 'environment';

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
 * origin, as before paths told hubs apart.
 *
 * A hub with a path and no token of its own is never sent the one filed under
 * its origin unasked: that token belongs to the hub at the origin (or was
 * filed there by a version before paths told hubs apart, which is why it is
 * offered at all). The person is asked once; agreeing files a copy as the
 * path's own token, so the question is not asked again; refusing (or
 * dismissing) is remembered until the window reloads, so one refusal is not
 * followed by the same question at every reconnect.
 */
export class TokenStore {
  /** Hubs (base URLs) whose person refused their origin's token in this window. */
  private readonly refused = new Set<string>();
  /** A question being asked, per hub: every reader waits for the one answer. */
  private readonly asking = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly secrets: SecretValueStorage,
    private readonly fromEnvironment: EnvironmentToken | undefined,
    private readonly consent: OriginTokenConsent,
    /** Told every token this store hands out or files, so answers mask it (alwaysSecretValues.ts maskHubToken). */
    private readonly seen: (token: string) => void = () => undefined,
  ) {
    if (fromEnvironment) seen(fromEnvironment.token);
  }

  /** Fires with the key (a base URL or an origin) whose token was set or cleared. */
  readonly onDidChange = (listener: (key: string) => void) =>
    this.secrets.onDidChange((event) => {
      if (event.key.startsWith(KEY_PREFIX)) listener(event.key.slice(KEY_PREFIX.length));
    });

  /**
   * The hub's token: its own, else the environment's given for it, else, for a
   * hub with a path, its origin's once the person agrees (asked here, at most
   * once per hub while a question is open).
   */
  async get(key: TokenKey): Promise<{ token: string; from: TokenFrom } | undefined> {
    const found = await this.find(key);
    if (found) this.seen(found.token);
    return found;
  }

  private async find(key: TokenKey): Promise<{ token: string; from: TokenFrom } | undefined> {
    const own = await this.secrets.get(KEY_PREFIX + key.base);
    if (own) return { token: own, from: 'hub' };
    if (this.fromEnvironment?.base === key.base) return { token: this.fromEnvironment.token, from: 'environment' };
    if (key.base === key.origin || this.refused.has(key.base) || !(await this.secrets.get(KEY_PREFIX + key.origin))) return undefined;
    let question = this.asking.get(key.base);
    if (!question) {
      question = this.askForOrigin(key).finally(() => this.asking.delete(key.base));
      this.asking.set(key.base, question);
    }
    const token = await question;
    return token === undefined ? undefined : { token, from: 'origin' };
  }

  private async askForOrigin(key: TokenKey): Promise<string | undefined> {
    const agreed = await this.consent(key.base, key.origin).catch(() => false);
    if (!agreed) {
      this.refused.add(key.base);
      return undefined;
    }
    // Read again: the origin's token may have changed or gone while the question was open.
    const token = await this.secrets.get(KEY_PREFIX + key.origin);
    if (!token) return undefined;
    await this.secrets.store(KEY_PREFIX + key.base, token);
    return token;
  }

  set(key: TokenKey, token: string): PromiseLike<void> {
    this.refused.delete(key.base);
    this.seen(token);
    return this.secrets.store(KEY_PREFIX + key.base, token);
  }

  /**
   * Clears the hub's own token, and only that: a token filed under its origin
   * is the origin's hub's. A hub with a path is then not offered its origin's
   * again until the window reloads: the person just said it has none.
   */
  async clear(key: TokenKey): Promise<void> {
    if (key.base !== key.origin) this.refused.add(key.base);
    await this.secrets.delete(KEY_PREFIX + key.base);
  }
}
