import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { e2eOutDir, repoRoot } from './codeServer';

/** Runs the repository's own vsce in `cwd`; rejects with its output when it fails. */
export function runVsce(args: string[], cwd: string): Promise<void> {
  const bin = path.join(repoRoot(), 'node_modules', '@vscode', 'vsce', 'vsce');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vsce ${args.join(' ')} exited with ${code}:\n${output}`))));
  });
}

/**
 * Packages a throwaway extension of the tests' own into `dir`/`name`.vsix: `manifest` over what every one
 * shares (version, MIT, activated once the window has started, `extension.js` its entry), and `files` (its
 * extension.js and anything beside it) written into `dir`/`name`.
 */
export async function packageScratchExtension(dir: string, name: string, manifest: Record<string, unknown>, files: Record<string, string | Buffer>): Promise<string> {
  const source = path.join(dir, name);
  fs.mkdirSync(source, { recursive: true });
  fs.writeFileSync(path.join(source, 'package.json'), JSON.stringify({
    version: '0.0.1', license: 'MIT', activationEvents: ['onStartupFinished'], main: './extension.js', ...manifest,
  }, null, 2));
  for (const [file, contents] of Object.entries(files)) fs.writeFileSync(path.join(source, file), contents);
  const out = path.join(dir, `${name}.vsix`);
  // vsce would only warn (no TTY to ask on) about the missing repository and
  // LICENSE; the flags say so explicitly, and --no-dependencies keeps it from running npm.
  await runVsce(['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], source);
  if (!fs.existsSync(out)) throw new Error(`vsce did not write ${out}`);
  return out;
}

/** The files a package may hold (.vscodeignore lets in no others), and the folders whose every file counts. */
const PACKAGED_FILES = ['.vscodeignore', 'package.json', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE'];
const PACKAGED_FOLDERS = ['dist', 'media', 'l10n'];

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * A digest of everything a package could be made from, as it is now: the same digest,
 * the same package. Every file under dist/, media/ and l10n/ counts, whether or not
 * .vscodeignore lets it in (a chunk added to dist/ changes it), and so does .vscodeignore.
 */
export function packagedInputsDigest(root = repoRoot()): string {
  const hash = createHash('sha256');
  const files = [...PACKAGED_FILES.map((name) => path.join(root, name)), ...PACKAGED_FOLDERS.flatMap((name) => filesUnder(path.join(root, name)))].sort();
  for (const file of files) {
    hash.update(`${path.relative(root, file)}\0`);
    hash.update(fs.existsSync(file) ? fs.readFileSync(file) : '\0missing');
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 32);
}

/** Where packages made in this checkout are kept, by digest (out/e2e/packages). */
function packageCache(): string {
  const dir = path.join(e2eOutDir(), 'packages');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Packages AEP Attention exactly as a user installs it (vsce, the prepublish build
 * included) into `outFile`. A package vsce made earlier from the same files, by this
 * or another test file, is copied instead: packaging took 8–20 s, and the end-to-end
 * files package some twenty-five times per run.
 */
export async function packageExtension(outFile: string): Promise<string> {
  const cache = packageCache();
  const kept = path.join(cache, `${packagedInputsDigest()}.vsix`);
  if (fs.existsSync(kept)) {
    fs.copyFileSync(kept, outFile);
    return outFile;
  }
  await runVsce(['package', '--no-dependencies', '--out', outFile], repoRoot());
  // Kept under the digest of what it was made from, after the prepublish build rewrote dist/.
  const made = path.join(cache, `${packagedInputsDigest()}.vsix`);
  const partial = `${made}.${process.pid}.partial`;
  fs.copyFileSync(outFile, partial);
  fs.renameSync(partial, made);
  for (const name of fs.readdirSync(cache)) {
    if (name.endsWith('.vsix') && path.join(cache, name) !== made) fs.rmSync(path.join(cache, name), { force: true });
  }
  return outFile;
}
