import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import { Inbox } from '../../src/aep/inbox/inbox';
import { WorkspacePersistence } from '../../src/host/persistence';

/** workspaceState as VS Code keeps it: JSON values by key. */
class MemoryMemento {
  private readonly values = new Map<string, string>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T {
    const value = this.values.get(key);
    return value === undefined ? (fallback as T) : (JSON.parse(value) as T);
  }
  update(key: string, value: unknown): Promise<void> {
    this.values.set(key, JSON.stringify(value));
    return Promise.resolve();
  }
}

function requestEvent(id: string, seq: number): AepEvent {
  const parsed = parseEnvelope({
    aep: '0.1', id, type: 'attention.requested', time: '2026-07-03T10:00:00Z', source: 'aep://h/agent/a/session/s1',
    agent: 'a', session: 's1', seq, data: { kind: 'input', prompt: 'Which branch?' },
  });
  assert.ok(parsed.ok);
  return parsed.value;
}

test('a reload restores the open requests with the time they first arrived, not the time of the reload', () => {
  const memento = new MemoryMemento();
  let clock = 1_000_000;
  const first = new Inbox({ now: () => clock });
  const before = new WorkspacePersistence(memento, 'http://127.0.0.1:8787');
  before.restoreInto(first);
  first.apply(requestEvent('R1', 1));
  clock += 60_000;
  first.apply(requestEvent('R2', 2));
  before.flush();
  before.dispose();

  clock += 3_600_000; // an hour later, the window reloads
  const second = new Inbox({ now: () => clock });
  const after = new WorkspacePersistence(memento, 'http://127.0.0.1:8787');
  assert.equal(after.restoreInto(second), 2);
  assert.deepEqual(second.open().map((item) => [item.requestId, item.receivedAt]), [['R1', 1_000_000], ['R2', 1_060_000]]);
  after.dispose();
});

test('a saved state without arrival times (an older version) restores with the current time', () => {
  const memento = new MemoryMemento();
  void memento.update('aepAttention.open:http://127.0.0.1:8787', [requestEvent('R1', 1)]);
  const inbox = new Inbox({ now: () => 42 });
  const persistence = new WorkspacePersistence(memento, 'http://127.0.0.1:8787');
  assert.equal(persistence.restoreInto(inbox), 1, memento.keys().join(', '));
  assert.equal(inbox.open()[0]?.receivedAt, 42);
  persistence.dispose();
});
