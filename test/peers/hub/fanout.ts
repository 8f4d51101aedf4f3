import { matchesFilter, type AttrFilter } from '../../../src/aep/attrMatch';
import type { CaptureLevel } from '../../../src/aep/levels';
import { downlevel } from './downlevel';
import type { StoredEvent } from './sessionStore';

/** A live subscription: a WebSocket `subscribe` or an SSE stream. */
export interface Sink {
  readonly filter: AttrFilter;
  readonly ceiling: CaptureLevel | undefined;
  deliver(entry: StoredEvent, text: string): void;
}

/**
 * The text a subscriber receives: the bytes as they arrived when the ceiling
 * changes nothing (AEP-0001 §4.2 byte identity), otherwise the event
 * down-levelled to the ceiling (AEP-0003 §6.4), serialized once per ceiling.
 */
export function render(entry: StoredEvent, ceiling: CaptureLevel | undefined): string {
  if (ceiling === undefined) return entry.raw;
  let text = entry.rendered.get(ceiling);
  if (text === undefined) {
    const lowered = downlevel(entry.event, ceiling);
    text = lowered === entry.event ? entry.raw : JSON.stringify(lowered);
    entry.rendered.set(ceiling, text);
  }
  return text;
}

export function sinkWants(sink: Sink, entry: StoredEvent): boolean {
  return matchesFilter(sink.filter, entry.event);
}

export class Fanout {
  private readonly sinks = new Set<Sink>();

  get size(): number {
    return this.sinks.size;
  }

  add(sink: Sink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  publish(entry: StoredEvent): void {
    for (const sink of this.sinks) {
      if (sinkWants(sink, entry)) sink.deliver(entry, render(entry, sink.ceiling));
    }
  }
}
