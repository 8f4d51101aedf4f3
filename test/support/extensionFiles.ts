import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The extension's JavaScript as built in `dist/` (esbuild.js splits it): the
 * entry, every chunk, and which of them activation loads, the entry and what
 * it imports statically, followed through the chunks (an `import("./x.mjs")`
 * is what loads later, on first need). The build test's budgets and the
 * footprint benchmark read it.
 */
export function extensionFiles(root: string): { entry: string; chunks: string[]; activation: string[] } {
  const dist = path.join(root, 'dist');
  const entry = path.join(dist, 'extension.mjs');
  const chunksDir = path.join(dist, 'chunks');
  const chunks = fs.existsSync(chunksDir) ? fs.readdirSync(chunksDir).map((name) => path.join(chunksDir, name)) : [];
  const activation = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (activation.has(file)) continue;
    activation.add(file);
    // Minified static imports: `import{a as b}from"./chunks/x.mjs"` or `import"./x.mjs"`.
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/(?:^|[;}\n])\s*import\s*(?:[^"'()]*?from\s*)?["'](\.[^"']+)["']/g)) {
      queue.push(path.resolve(path.dirname(file), m[1] ?? ''));
    }
  }
  return { entry, chunks, activation: [...activation] };
}
