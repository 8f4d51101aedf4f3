// The demo deletes only folders it made (test/peers/demo/ownedDir.ts): on a
// case-insensitive disk `--dir ~` makes `<dir>/desktop` and `<dir>/editor` name
// the user's own folders, which must come out of a demo run untouched.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { OWNED_MARKER, OwnedDirError, claimOwnedDir, isOwnedDir, resetOwnedDir } from '../peers/demo/ownedDir';

function scratch(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'aep-demo-owned-'));
}

test('a folder the demo makes carries the marker, and resetting it empties it', () => {
  const root = scratch();
  try {
    const dir = path.join(root, 'editor');
    resetOwnedDir(dir);
    assert.ok(isOwnedDir(dir));
    fs.mkdirSync(path.join(dir, 'user-data'));
    fs.writeFileSync(path.join(dir, 'user-data', 'state'), 'from this run');
    resetOwnedDir(dir);
    assert.deepEqual(fs.readdirSync(dir), [OWNED_MARKER]);
    claimOwnedDir(dir);
    assert.deepEqual(fs.readdirSync(dir), [OWNED_MARKER], 'claiming an owned folder changes nothing');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("a folder the demo did not make is refused, with what to do, and kept as it was", () => {
  const root = scratch();
  try {
    const desktop = path.join(root, 'Desktop');
    fs.mkdirSync(desktop);
    fs.writeFileSync(path.join(desktop, 'notes.txt'), 'mine');
    for (const step of [() => resetOwnedDir(desktop), () => claimOwnedDir(desktop)]) {
      assert.throws(step, (error: Error) => error instanceof OwnedDirError && error.message.includes(`${desktop} exists and was not made by the demo`) && /--dir/.test(error.message));
    }
    assert.deepEqual(fs.readdirSync(desktop), ['notes.txt']);
    // A file where the folder would be is not the demo's either.
    const file = path.join(root, 'workspace');
    fs.writeFileSync(file, 'a file');
    assert.throws(() => resetOwnedDir(file), OwnedDirError);
    assert.equal(fs.readFileSync(file, 'utf8'), 'a file');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a link to a folder is refused even when the folder it points at is marked', { skip: process.platform === 'win32' }, () => {
  const root = scratch();
  try {
    const elsewhere = path.join(root, 'elsewhere');
    claimOwnedDir(elsewhere);
    fs.writeFileSync(path.join(elsewhere, 'kept'), 'x');
    const link = path.join(root, 'desktop');
    fs.symlinkSync(elsewhere, link);
    assert.throws(() => resetOwnedDir(link), OwnedDirError);
    assert.ok(fs.existsSync(path.join(elsewhere, 'kept')));
    // A dangling link is refused too, rather than replaced by a folder.
    const dangling = path.join(root, 'editor');
    fs.symlinkSync(path.join(root, 'gone'), dangling);
    assert.throws(() => claimOwnedDir(dangling), OwnedDirError);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
