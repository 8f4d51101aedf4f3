// Moves TypeScript modules and rewrites every relative import of them.
//
//   node scripts/moveModules.mjs moves.json
//
// moves.json maps old paths to new ones, relative to the repository root:
// { "src/ui/hubs/hubs.ts": "src/app/hubs.ts", ... }. Each file is moved with
// `git mv`; then every .ts/.mts/.mjs/.js file under src/, webview/, test/,
// bench/ and scripts/ has each relative specifier that resolved to a moved
// file (or that a moved file wrote) rewritten, so nothing else changes.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = process.cwd();
const moves = new Map(Object.entries(JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))).map(([from, to]) => [path.resolve(root, from), path.resolve(root, to)]));
const ROOTS = ['src', 'webview', 'test', 'bench', 'scripts'];
const EXTENSIONS = ['.ts', '.mts', '.mjs', '.js'];

function files(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'out', 'dist', 'fixtures'].includes(entry.name) ? [] : files(full);
    return EXTENSIONS.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a relative specifier names from `dir`, as a module resolver finds it (with or without .ts, or a folder's index.ts). */
function resolveSpecifier(dir, specifier) {
  const base = path.resolve(dir, specifier);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function specifierFor(fromFile, target, original) {
  let relative = path.relative(path.dirname(fromFile), target).split(path.sep).join('/');
  if (!original.endsWith('.ts') && relative.endsWith('.ts')) relative = relative.slice(0, -3);
  if (path.basename(target) === 'index.ts' && !original.endsWith('index') && !original.endsWith('index.ts')) relative = path.dirname(relative);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

const SPECIFIER = /((?:from\s+|require\(\s*|import\(\s*|import\s+|export\s+\*\s+from\s+)['"])(\.{1,2}\/[^'"]*)(['"])/g;

// Plan every rewrite against the tree as it is, before anything moves.
const all = ROOTS.flatMap((dir) => files(path.join(root, dir)));
const rewrites = new Map();
for (const file of all) {
  const text = fs.readFileSync(file, 'utf8');
  const newFile = moves.get(file) ?? file;
  let changed = false;
  const next = text.replace(SPECIFIER, (match, head, specifier, tail) => {
    const target = resolveSpecifier(path.dirname(file), specifier);
    if (target === undefined) return match;
    const newTarget = moves.get(target) ?? target;
    if (newFile === file && newTarget === target) return match;
    const rewritten = specifierFor(newFile, newTarget, specifier);
    if (rewritten === specifier) return match;
    changed = true;
    return `${head}${rewritten}${tail}`;
  });
  if (changed) rewrites.set(file, next);
}
for (const [file, text] of rewrites) fs.writeFileSync(file, text);
for (const [from, to] of moves) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  execFileSync('git', ['mv', path.relative(root, from), path.relative(root, to)], { stdio: 'inherit' });
}
// Folders a move emptied go.
for (const from of moves.keys()) {
  for (let dir = path.dirname(from); dir.startsWith(path.join(root, 'src')) && dir !== path.join(root, 'src'); dir = path.dirname(dir)) {
    if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
    else break;
  }
}
console.log(`moved ${moves.size} files; rewrote imports in ${rewrites.size} files`);
