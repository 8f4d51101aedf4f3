import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AepEvent } from '../../src/aep/envelope';
import { parseEnvelope } from '../../src/aep/envelope';

/** The repository root, found from wherever the compiled test runs. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'test', 'fixtures'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no repository root above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

/** Path of a vendored AEP fixture, e.g. `golden/golden.jsonl`. */
export function aepFixturePath(relative: string): string {
  return path.join(repoRoot(), 'test', 'fixtures', 'aep', relative);
}

export function readAepFixture(relative: string): string {
  return fs.readFileSync(aepFixturePath(relative), 'utf8');
}

export function readAepJson<T = unknown>(relative: string): T {
  return JSON.parse(readAepFixture(relative)) as T;
}

/** The golden corpus lines as text, in file order. */
export function goldenLines(): string[] {
  return readAepFixture('golden/golden.jsonl').split('\n').filter((line) => line.length > 0);
}

/** The golden corpus parsed through our own envelope parser (which must accept every line). */
export function goldenEvents(): AepEvent[] {
  return goldenLines().map((line, index) => {
    const parsed = parseEnvelope(JSON.parse(line));
    if (!parsed.ok) throw new Error(`golden line ${index + 1} refused: ${parsed.problem}`);
    return parsed.value;
  });
}
