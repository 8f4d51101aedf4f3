// The only folders the demo ever deletes are the ones it made: each carries a
// marker file the demo wrote when it created it. `--dir ~` on a case-insensitive
// file system makes `<dir>/desktop` the user's Desktop; without the marker the
// demo refuses, and says what to do, rather than reset it.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const OWNED_MARKER = '.aep-demo-owned';
const MARKER_TEXT = 'Made by `npm run demo`, which empties this folder on its next run. Delete the folder to reclaim it.\n';

export class OwnedDirError extends Error {
  override readonly name = 'OwnedDirError';
}

/** Whether `dir` is a real folder (not a link) holding the demo's marker. */
export function isOwnedDir(dir: string): boolean {
  try {
    if (!fs.lstatSync(dir).isDirectory()) return false;
    return fs.lstatSync(path.join(dir, OWNED_MARKER)).isFile();
  } catch {
    return false;
  }
}

/** Makes `dir` if it is missing, with the marker; an existing folder must be the demo's already. */
export function claimOwnedDir(dir: string): void {
  if (fs.existsSync(dir) || isSymlink(dir)) {
    if (!isOwnedDir(dir)) throw notOurs(dir);
    return;
  }
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, OWNED_MARKER), MARKER_TEXT, { flag: 'wx' });
}

/** Empties a folder the demo made (or makes it): refuses, deleting nothing, when it is not the demo's. */
export function resetOwnedDir(dir: string): void {
  if (fs.existsSync(dir) || isSymlink(dir)) {
    if (!isOwnedDir(dir)) throw notOurs(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  claimOwnedDir(dir);
}

function isSymlink(dir: string): boolean {
  try {
    return fs.lstatSync(dir).isSymbolicLink();
  } catch {
    return false;
  }
}

function notOurs(dir: string): OwnedDirError {
  return new OwnedDirError(
    `${dir} exists and was not made by the demo (it has no ${OWNED_MARKER} file), so the demo leaves it alone. ` +
      'Pass --dir with a folder of its own (the default is .cache/demo), or, if this is a demo folder from before the marker, delete it yourself.',
  );
}
