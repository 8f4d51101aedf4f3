import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import { validateFilter } from '../../../src/aep/attrMatch';
import { AEP_VERSION, severityOf } from '../../../src/aep/envelope';
import { resumePositionSchema, type ResumePosition } from '../../../src/aep/frames';
import { parseUntrustedJson } from '../../../src/base/json';
import { CAPTURE_LEVELS, severityRank, type CaptureLevel } from '../../../src/aep/levels';
import { admitValue, isCommandType, type Admitted } from './admission';
import type { HubConfig } from './config';
import { render, sinkWants, type Fanout, type Sink } from './fanout';
import type { SessionStore, StoredEvent } from './sessionStore';

export interface HttpServices {
  readonly config: HubConfig;
  readonly store: SessionStore;
  readonly fanout: Fanout;
  discovery(): Record<string, unknown>;
  health(): Record<string, unknown>;
  ingest(admitted: Admitted): StoredEvent;
  /** Open SSE streams, ended on shutdown. */
  readonly streams: Set<ServerResponse>;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Routes one HTTP request (AEP-0003 §3.2 emit, §3.3 SSE, §3.4 discovery). Auth is checked by the caller. */
export function handleHttp(req: IncomingMessage, res: ServerResponse, url: URL, services: HttpServices): void {
  const route = `${req.method ?? 'GET'} ${url.pathname}`;
  switch (route) {
    case 'GET /events':
    case 'GET /.well-known/aep':
      sendJson(res, 200, services.discovery());
      return;
    case 'GET /healthz':
      sendJson(res, 200, services.health());
      return;
    case 'POST /events':
      ingestBody(req, res, services);
      return;
    case 'GET /stream':
      openStream(req, res, url, services);
      return;
    default:
      if (['/events', '/stream', '/healthz', '/.well-known/aep'].includes(url.pathname)) {
        sendJson(res, 405, { error: 'method-not-allowed', detail: `${req.method} is not served at ${url.pathname}` });
      } else {
        sendJson(res, 404, { error: 'not-found', detail: `nothing is served at ${url.pathname}` });
      }
  }
}

// ---- POST /events ---------------------------------------------------------------

function ingestBody(req: IncomingMessage, res: ServerResponse, services: HttpServices): void {
  const { config } = services;
  const version = req.headers['aep-version'];
  if (version === undefined) {
    sendJson(res, 400, { error: 'missing-version', detail: `send the AEP-Version header (this hub speaks ${AEP_VERSION})` });
    req.resume();
    return;
  }
  if (version !== AEP_VERSION) {
    sendJson(res, 426, { versions: [AEP_VERSION] });
    req.resume();
    return;
  }
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json' && mediaType !== 'application/x-ndjson') {
    sendJson(res, 415, { error: 'unsupported-media-type', detail: 'send application/json (one event) or application/x-ndjson (a batch)' });
    req.resume();
    return;
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > config.maxBody) {
    sendJson(res, 413, { error: 'too-large', detail: `the body exceeds ${config.maxBody} bytes` }, { connection: 'close' });
    req.destroy();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (size > config.maxBody) {
      refused = true;
      sendJson(res, 413, { error: 'too-large', detail: `the body exceeds ${config.maxBody} bytes` }, { connection: 'close' });
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (refused) return;
    const body = Buffer.concat(chunks).toString('utf8');
    const lines = mediaType === 'application/json' ? [body] : body.split('\n').filter((line) => line.trim() !== '');
    if (lines.length > config.maxBatch) {
      sendJson(res, 413, { error: 'batch-too-large', detail: `a batch holds at most ${config.maxBatch} events` });
      return;
    }
    const admitted: Admitted[] = [];
    for (const [index, line] of lines.entries()) {
      const problem = (detail: string) =>
        sendJson(res, 400, { error: 'invalid-event', line: index, detail: lines.length > 1 ? `line ${index + 1}: ${detail}` : detail });
      let value: unknown;
      try {
        value = parseUntrustedJson(line);
      } catch {
        problem('not valid JSON');
        return;
      }
      const admission = admitValue(value, line.trim());
      if (!admission.ok) {
        problem(admission.problem);
        return;
      }
      if (isCommandType(admission.value.event.type)) {
        problem('commands flow only on an authenticated WebSocket (AEP-0004 §4.1); send it on /socket');
        return;
      }
      admitted.push(admission.value);
    }
    for (const event of admitted) services.ingest(event);
    sendJson(res, 202, { accepted: admitted.length });
  });
}

// ---- GET /stream (SSE) ------------------------------------------------------------

type StreamRequest = { filter: Sink['filter']; capture: CaptureLevel | undefined; from: ResumePosition[] | 'all' | undefined; live: boolean };

function readStreamRequest(req: IncomingMessage, url: URL): { ok: true; value: StreamRequest } | { ok: false; detail: string } {
  let rawFilter: unknown = {};
  const filterParam = url.searchParams.get('filter');
  if (filterParam !== null) {
    try {
      rawFilter = parseUntrustedJson(filterParam);
    } catch {
      return { ok: false, detail: '`filter` is not JSON' };
    }
  }
  const filter = validateFilter(rawFilter);
  if (!filter.ok) return { ok: false, detail: filter.problem };
  const captureParam = url.searchParams.get('capture');
  if (captureParam !== null && !(CAPTURE_LEVELS as readonly string[]).includes(captureParam)) {
    return { ok: false, detail: '`capture` must be one of none, metadata, redacted, full' };
  }
  let from: StreamRequest['from'];
  const fromParam = url.searchParams.get('from');
  if (fromParam === 'all') {
    from = 'all';
  } else if (fromParam !== null) {
    let value: unknown;
    try {
      value = parseUntrustedJson(fromParam);
    } catch {
      return { ok: false, detail: '`from` is neither "all" nor a JSON array of positions' };
    }
    const positions = z.array(resumePositionSchema).safeParse(value);
    if (!positions.success) return { ok: false, detail: '`from` must be a JSON array of {session, epoch, seq}' };
    from = positions.data;
  } else {
    // §3.3.3: Last-Event-ID names one session's position as `{session}:{epoch}:{seq}`.
    const lastId = req.headers['last-event-id'];
    const match = typeof lastId === 'string' ? /^(.+):(\d+):(\d+)$/.exec(lastId) : null;
    if (match?.[1] !== undefined) from = [{ session: match[1], epoch: Number(match[2]), seq: Number(match[3]) }];
  }
  return {
    ok: true,
    value: { filter: filter.value, capture: (captureParam ?? undefined) as CaptureLevel | undefined, from, live: url.searchParams.get('live') !== '0' },
  };
}

const NOTICE = severityRank('notice');

/** A session string an `id:` field can carry: a line break would end the field and start an emitter-authored line, and a NUL voids it (WHATWG SSE). */
const SSE_ID_SAFE = /^[^\r\n\0]*$/;

function sseMessage(entry: StoredEvent, text: string): string {
  const { session } = entry.event;
  // §3.3.2: session-scoped events carry `id:`; one whose session cannot be written there goes without, like an agent-scoped event.
  const id = session !== undefined && entry.sub === 0 && SSE_ID_SAFE.test(session) ? `id: ${session}:${entry.epoch}:${entry.seq}\n` : '';
  return `event: ${entry.event.type}\ndata: ${text}\n${id}\n`;
}

function openStream(req: IncomingMessage, res: ServerResponse, url: URL, services: HttpServices): void {
  const read = readStreamRequest(req, url);
  if (!read.ok) {
    sendJson(res, 400, { error: 'invalid-filter', detail: read.detail });
    return;
  }
  const request = read.value;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  // Node holds the headers until the first write: a live stream with nothing to replay would
  // leave its consumer waiting for the first ping (30 s) to learn that it is open.
  res.flushHeaders();
  let shed = 0;
  const sink: Sink = {
    filter: request.filter,
    ceiling: request.capture,
    deliver: (entry, text) => {
      if (res.destroyed) return;
      // Backpressure (AEP-0003 §8.4), as on the socket: shed debug/info toward a slow
      // consumer, never notice+; for those the choice is deliver or end the stream, so
      // the consumer resumes exactly (from its Last-Event-ID).
      if (res.writableLength > services.config.slowConsumerBytes) {
        if (severityRank(severityOf(entry.event)) < NOTICE) {
          if (shed++ === 0) services.config.log(`hub: shedding debug/info toward a slow SSE consumer (${res.writableLength} bytes queued)`);
          return;
        }
        services.config.log(`hub: ending slow SSE consumer (${res.writableLength} bytes queued)`);
        res.destroy();
        return;
      }
      res.write(sseMessage(entry, text));
    },
  };
  const replay = (entries: StoredEvent[]) => {
    for (const entry of entries) if (sinkWants(sink, entry)) sink.deliver(entry, render(entry, sink.ceiling));
  };
  const { store } = services;
  if (request.from === 'all') {
    for (const entries of store.replayAll()) replay(entries);
  } else if (request.from) {
    const seen = new Set<string>();
    for (const position of request.from) {
      if (seen.has(position.session)) continue;
      seen.add(position.session);
      for (const plan of store.replay(position.session, position)) {
        if (plan.exhausted) res.write(`: replay-exhausted ${position.session} ${plan.exhausted.epoch}:${plan.exhausted.seq}\n\n`);
        replay(plan.entries);
      }
    }
  }
  // A replay the consumer could not keep up with ended the stream already.
  if (res.destroyed) return;
  if (!request.live) {
    res.end();
    return;
  }
  const remove = services.fanout.add(sink);
  services.streams.add(res);
  const ping = setInterval(() => res.destroyed || res.write(': ping\n\n'), services.config.pingMs);
  const close = () => {
    clearInterval(ping);
    remove();
    services.streams.delete(res);
  };
  req.on('close', close);
  res.on('error', close);
}
