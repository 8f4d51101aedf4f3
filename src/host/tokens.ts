import type * as vscode from 'vscode';
import { hubEndpoint } from '../aep/client/hubEndpoint';

const KEY_PREFIX = 'aepAttention.token:';

/** A token from the environment, bound to the one hub origin it was given for. */
export interface EnvironmentToken {
  origin: string;
  token: string;
}

/**
 * Reads `AEP_HUB` + `AEP_TOKEN` from the extension host's environment (for
 * launches without a UI to type into). The token is only ever offered to
 * `AEP_HUB`'s origin.
 */
export function environmentToken(env: NodeJS.ProcessEnv): EnvironmentToken | undefined {
  const hub = env['AEP_HUB']?.trim();
  const token = env['AEP_TOKEN'];
  if (!hub || !token) return undefined;
  const endpoint = hubEndpoint(hub, true);
  return endpoint.ok ? { origin: endpoint.value.origin, token } : undefined;
}

export function originOf(hubUrl: string): string | undefined {
  const endpoint = hubEndpoint(hubUrl, true);
  return endpoint.ok ? endpoint.value.origin : undefined;
}

/**
 * Hub tokens in `SecretStorage`, keyed by the hub's origin, so a workspace
 * that points `hubUrl` elsewhere never receives another hub's token.
 */
export class TokenStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly fromEnvironment: EnvironmentToken | undefined,
  ) {}

  /** Fires with the origin whose token was set or cleared. */
  readonly onDidChange = (listener: (origin: string) => void) =>
    this.secrets.onDidChange((event) => {
      if (event.key.startsWith(KEY_PREFIX)) listener(event.key.slice(KEY_PREFIX.length));
    });

  async get(origin: string): Promise<string | undefined> {
    const stored = await this.secrets.get(KEY_PREFIX + origin);
    if (stored) return stored;
    return this.fromEnvironment?.origin === origin ? this.fromEnvironment.token : undefined;
  }

  set(origin: string, token: string): Thenable<void> {
    return this.secrets.store(KEY_PREFIX + origin, token);
  }

  clear(origin: string): Thenable<void> {
    return this.secrets.delete(KEY_PREFIX + origin);
  }
}
