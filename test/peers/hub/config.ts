import { parseArgs } from 'node:util';

/**
 * The local hub's knobs. The environment variable names match the public
 * reference relay's, so a user can swap one for the other.
 */
export interface HubConfig {
  /** 0 picks a free port (tests). */
  port: number;
  host: string;
  /** Without a token the hub is watch-only: it refuses every command (AEP-0004 §4.1). */
  token?: string;
  /** Events held per session for replay (AEP-0003 §5). */
  buffer: number;
  maxSessions: number;
  /** Largest HTTP body or WebSocket frame, in bytes. */
  maxBody: number;
  /** Most events in one NDJSON batch. */
  maxBatch: number;
  maxSubscriptionsPerConnection: number;
  /** Most resume positions one `subscribe` may name; more is `limit-exceeded`. */
  maxFromPositions: number;
  /** Liveness: ping every `pingMs`, drop a peer silent for `idleMs` (AEP-0003 §3.5.5). */
  pingMs: number;
  idleMs: number;
  /** A consumer this far behind (bytes queued) loses debug/info, then is disconnected (AEP-0003 §8.4). */
  slowConsumerBytes: number;
  /** Command routing and other decisions, one line each; never the token. */
  log: (line: string) => void;
}

export const DEFAULT_CONFIG: HubConfig = {
  port: 8787,
  host: '127.0.0.1',
  buffer: 10_000,
  maxSessions: 1_000,
  maxBody: 1024 * 1024,
  maxBatch: 1_000,
  maxSubscriptionsPerConnection: 64,
  maxFromPositions: 256,
  pingMs: 30_000,
  idleMs: 90_000,
  slowConsumerBytes: 8 * 1024 * 1024,
  log: () => undefined,
};

function positiveInt(name: string, value: string | undefined, fallback: number, allowZero = false): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < (allowZero ? 0 : 1)) {
    throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

/** Reads AEP_PORT, AEP_HOST, AEP_TOKEN, AEP_BUFFER, AEP_MAX_SESSIONS, AEP_MAX_BODY, AEP_MAX_BATCH. */
export function configFromEnv(env: NodeJS.ProcessEnv, argv: string[] = []): Partial<HubConfig> {
  const { values } = parseArgs({ args: argv, options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true });
  const config: Partial<HubConfig> = {
    port: positiveInt('AEP_PORT', values.port ?? env['AEP_PORT'], DEFAULT_CONFIG.port, true),
    host: values.host ?? env['AEP_HOST'] ?? DEFAULT_CONFIG.host,
    buffer: positiveInt('AEP_BUFFER', env['AEP_BUFFER'], DEFAULT_CONFIG.buffer),
    maxSessions: positiveInt('AEP_MAX_SESSIONS', env['AEP_MAX_SESSIONS'], DEFAULT_CONFIG.maxSessions),
    maxBody: positiveInt('AEP_MAX_BODY', env['AEP_MAX_BODY'], DEFAULT_CONFIG.maxBody),
    maxBatch: positiveInt('AEP_MAX_BATCH', env['AEP_MAX_BATCH'], DEFAULT_CONFIG.maxBatch),
  };
  const token = env['AEP_TOKEN'];
  if (token) config.token = token;
  return config;
}
