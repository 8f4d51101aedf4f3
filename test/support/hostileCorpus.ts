// The hostile corpus (test/fixtures/hostile/): strings and events an agent or a
// hub might send to break or abuse the extension. Each file is a JSON array of
// entries; an entry names itself and holds its text literally or, for sizes no
// repository should store, as a generator (`repeat` × `times`, optionally
// between `prefix` and `suffix`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './fixtures';

export interface HostileString {
  name: string;
  text: string;
}

interface RawString {
  name: string;
  text?: string;
  repeat?: string;
  times?: number;
  prefix?: string;
  suffix?: string;
}

function expand(raw: RawString): HostileString {
  if (typeof raw.text === 'string') return { name: raw.name, text: raw.text };
  if (typeof raw.repeat === 'string' && typeof raw.times === 'number') {
    return { name: raw.name, text: `${raw.prefix ?? ''}${raw.repeat.repeat(raw.times)}${raw.suffix ?? ''}` };
  }
  throw new Error(`hostile corpus entry "${raw.name}" has neither text nor repeat × times`);
}

export function hostileCorpusPath(file: string): string {
  return path.join(repoRoot(), 'test', 'fixtures', 'hostile', file);
}

/** Every string of every `*.strings.json` file of the corpus, generators expanded. */
export function hostileStrings(): HostileString[] {
  const dir = path.join(repoRoot(), 'test', 'fixtures', 'hostile');
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.strings.json'))
    .sort()
    .flatMap((file) => (JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as RawString[]).map(expand));
}

/** The entries of one JSON corpus file, as written. */
export function hostileJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(hostileCorpusPath(file), 'utf8')) as T;
}
