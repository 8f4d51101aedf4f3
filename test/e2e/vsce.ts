import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from './codeServer';

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

/** Packages AEP Attention exactly as a user installs it (the prepublish build included). */
export async function packageExtension(outFile: string): Promise<string> {
  await runVsce(['package', '--no-dependencies', '--out', outFile], repoRoot());
  return outFile;
}
