// The disposal helpers: each releases once, in a known order, and one failing dispose never keeps the rest alive.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Disposable, DisposableMap, DisposableStore, MutableDisposable, toDisposable } from '../../src/base/disposable';

/** A disposable that notes its name in `log` each time it is disposed. */
function noting(log: string[], name: string): { dispose(): void } {
  return { dispose: () => log.push(name) };
}

function failing(log: string[], name: string): { dispose(): void } {
  return {
    dispose: () => {
      log.push(name);
      throw new Error(`${name} failed`);
    },
  };
}

describe('toDisposable', () => {
  test('runs its function on the first dispose only', () => {
    let runs = 0;
    const disposable = toDisposable(() => runs++);
    assert.equal(runs, 0);
    disposable.dispose();
    disposable.dispose();
    assert.equal(runs, 1);
  });
});

describe('DisposableStore', () => {
  test('disposes what it holds once, in the order added; disposing twice is safe', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    const added = noting(log, 'a');
    assert.equal(store.add(added), added);
    store.add(noting(log, 'b'));
    store.dispose();
    store.dispose();
    assert.deepEqual(log, ['a', 'b']);
    assert.equal(store.isDisposed, true);
  });

  test('clear releases what it holds and keeps taking new ones', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(noting(log, 'a'));
    store.clear();
    assert.deepEqual(log, ['a']);
    store.add(noting(log, 'b'));
    assert.deepEqual(log, ['a'], 'a store cleared is not disposed');
    store.dispose();
    assert.deepEqual(log, ['a', 'b']);
  });

  test('adding after dispose disposes at once', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.dispose();
    store.add(noting(log, 'late'));
    assert.deepEqual(log, ['late']);
  });

  test('one failing dispose does not stop the rest', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(noting(log, 'a'));
    store.add(failing(log, 'b'));
    store.add(noting(log, 'c'));
    assert.doesNotThrow(() => store.dispose());
    assert.deepEqual(log, ['a', 'b', 'c']);
  });
});

describe('MutableDisposable', () => {
  test('setting a value disposes the one held; setting the same one does not', () => {
    const log: string[] = [];
    const holder = new MutableDisposable<{ dispose(): void }>();
    const first = noting(log, 'first');
    holder.value = first;
    holder.value = first;
    assert.deepEqual(log, []);
    holder.value = noting(log, 'second');
    assert.deepEqual(log, ['first']);
    holder.clear();
    assert.deepEqual(log, ['first', 'second']);
    assert.equal(holder.value, undefined);
  });

  test('dispose releases the value; a value set after is released at once and not kept', () => {
    const log: string[] = [];
    const holder = new MutableDisposable<{ dispose(): void }>();
    holder.value = noting(log, 'held');
    holder.dispose();
    holder.dispose();
    assert.deepEqual(log, ['held']);
    holder.value = noting(log, 'late');
    assert.deepEqual(log, ['held', 'late']);
    assert.equal(holder.value, undefined);
  });

  test('a failing old value does not stop the new one being kept', () => {
    const log: string[] = [];
    const holder = new MutableDisposable<{ dispose(): void }>();
    holder.value = failing(log, 'old');
    const next = noting(log, 'new');
    assert.doesNotThrow(() => {
      holder.value = next;
    });
    assert.equal(holder.value, next);
    assert.deepEqual(log, ['old']);
  });
});

describe('DisposableMap', () => {
  test('set disposes the value it replaces, not the same value set again', () => {
    const log: string[] = [];
    const map = new DisposableMap<string, { dispose(): void }>();
    const a = noting(log, 'a1');
    map.set('a', a);
    map.set('a', a);
    assert.deepEqual(log, []);
    map.set('a', noting(log, 'a2'));
    assert.deepEqual(log, ['a1']);
    assert.equal(map.size, 1);
  });

  test('deleteAndDispose releases the value; deleteAndLeak hands it back unreleased', () => {
    const log: string[] = [];
    const map = new DisposableMap<string, { dispose(): void }>();
    map.set('a', noting(log, 'a'));
    const b = noting(log, 'b');
    map.set('b', b);
    map.deleteAndDispose('a');
    map.deleteAndDispose('missing');
    assert.deepEqual(log, ['a']);
    assert.equal(map.deleteAndLeak('b'), b);
    assert.deepEqual(log, ['a']);
    assert.equal(map.has('a') || map.has('b'), false);
  });

  test('dispose releases every value once, in the order set, past one that fails; later values are released at once', () => {
    const log: string[] = [];
    const map = new DisposableMap<string, { dispose(): void }>();
    map.set('a', noting(log, 'a'));
    map.set('b', failing(log, 'b'));
    map.set('c', noting(log, 'c'));
    assert.doesNotThrow(() => map.dispose());
    map.dispose();
    assert.deepEqual(log, ['a', 'b', 'c']);
    assert.equal(map.size, 0);
    map.set('d', noting(log, 'd'));
    assert.deepEqual(log, ['a', 'b', 'c', 'd']);
    assert.equal(map.has('d'), false);
  });
});

describe('Disposable', () => {
  class Owner extends Disposable {
    register<T extends { dispose(): void }>(disposable: T): T {
      return this._register(disposable);
    }
  }

  test('releases what it owns once, newest first, past one that fails', () => {
    const log: string[] = [];
    const owner = new Owner();
    owner.register(noting(log, 'a'));
    owner.register(failing(log, 'b'));
    owner.register(noting(log, 'c'));
    assert.doesNotThrow(() => owner.dispose());
    owner.dispose();
    assert.deepEqual(log, ['c', 'b', 'a']);
    owner.register(noting(log, 'late'));
    assert.deepEqual(log, ['c', 'b', 'a', 'late']);
  });
});
