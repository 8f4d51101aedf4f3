// Finding a VS Code command line (`code`, `code-insiders`, `codium`, or the one
// --editor-cli names) the way a shell would: a path as given, a name on PATH.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EditorCli } from './editorChoice';

/**
 * Where macOS keeps the command line inside each app bundle: found even when the
 * user never ran "Shell Command: Install 'code' command in PATH".
 */
const MACOS_BUNDLES: Record<string, string> = {
  code: '/Applications/Visual Studio Code.app/Contents/Resources/app/bin/code',
  'code-insiders': '/Applications/Visual Studio Code - Insiders.app/Contents/Resources/app/bin/code',
  codium: '/Applications/VSCodium.app/Contents/Resources/app/bin/codium',
};

function executable(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `nameOrPath` resolved like a shell: a path (it has a separator) as is, otherwise the first match on PATH. */
export function findExecutable(nameOrPath: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  if (nameOrPath.includes('/') || (platform === 'win32' && nameOrPath.includes('\\'))) {
    const file = paths.resolve(nameOrPath);
    return executable(file, platform) ? file : undefined;
  }
  // Windows: `code` is bin\code.cmd; PATHEXT lists the endings a bare name may have.
  const endings = platform === 'win32' ? ['', ...(env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  const pathVar = env['PATH'] ?? env['Path'] ?? '';
  for (const dir of pathVar.split(paths.delimiter)) {
    if (!dir) continue;
    for (const ending of endings) {
      const file = paths.join(dir, nameOrPath + ending);
      if (executable(file, platform)) return file;
    }
  }
  const bundled = platform === 'darwin' ? MACOS_BUNDLES[nameOrPath] : undefined;
  return bundled !== undefined && executable(bundled, platform) ? bundled : undefined;
}

/** The command lines among `names` that exist here, in the order given. */
export function findEditorClis(names: readonly string[], env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): EditorCli[] {
  const found: EditorCli[] = [];
  for (const name of names) {
    const file = findExecutable(name, env, platform);
    if (file !== undefined && !found.some((cli) => cli.name === name)) found.push({ name, path: file });
  }
  return found;
}
