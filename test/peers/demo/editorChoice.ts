// Which editor `npm run demo` opens: code-server (VS Code in the browser), the
// user's desktop VS Code through its command line, or none. A pure function of
// what was found, so that every branch is tested without either editor.

/** The command lines tried for --desktop, in this order, when --editor-cli names none. */
export const DEFAULT_EDITOR_CLIS = ['code', 'code-insiders', 'codium'] as const;

/** A VS Code command line that was found: the name it was asked for by, and the file it resolved to. */
export interface EditorCli {
  name: string;
  path: string;
}

export interface EditorFlags {
  noEditor: boolean;
  desktop: boolean;
  /** --editor-cli: a command name or a path; implies --desktop. */
  editorCli?: string;
}

export interface EditorChoiceInput {
  platform: NodeJS.Platform;
  arch: string;
  /** e2eAvailable(): whether code-server is installed (scripts/e2e/setup.sh, recorded in .cache/e2e). */
  codeServer: { ok: true } | { ok: false; why: string };
  /** The command lines found, in preference order (DEFAULT_EDITOR_CLIS, then --editor-cli's). */
  clis: readonly EditorCli[];
  flags: EditorFlags;
}

export type EditorChoice =
  | { mode: 'code-server'; why: string }
  | { mode: 'desktop'; cli: EditorCli; why: string }
  /** Nothing to open: asked for (--no-editor), or nothing can run here (`why` says what to do instead). */
  | { mode: 'none'; why: string };

/** An editor was asked for explicitly (--desktop, --editor-cli) and cannot be had. */
export class EditorChoiceError extends Error {
  override readonly name = 'EditorChoiceError';
}

const INSTALL_CLI_HINT = 'In VS Code, run "Shell Command: Install \'code\' command in PATH" from the Command Palette, or pass --editor-cli PATH';

export function chooseEditor(input: EditorChoiceInput): EditorChoice {
  const { platform, arch, codeServer, clis, flags } = input;
  if (flags.noEditor) return { mode: 'none', why: '--no-editor: only the hub and the agent' };

  if (flags.editorCli !== undefined) {
    const cli = clis.find((found) => found.name === flags.editorCli);
    if (!cli) throw new EditorChoiceError(`--editor-cli ${flags.editorCli}: no such executable, neither a path nor a command on PATH`);
    return { mode: 'desktop', cli, why: `--editor-cli ${flags.editorCli}` };
  }
  const first = clis[0];
  if (flags.desktop) {
    if (!first) throw new EditorChoiceError(`--desktop needs a VS Code command line, and none of ${DEFAULT_EDITOR_CLIS.join(', ')} is on PATH. ${INSTALL_CLI_HINT}.`);
    return { mode: 'desktop', cli: first, why: '--desktop' };
  }

  // code-server's build (and the Node 24 it runs on) is Linux x64 only: scripts/e2e/setup.sh.
  const linuxX64 = platform === 'linux' && arch === 'x64';
  if (linuxX64 && codeServer.ok) return { mode: 'code-server', why: 'code-server is installed (npm run test:e2e:setup)' };
  if (first) {
    const reason = linuxX64 ? `code-server is not installed (${codeServer.ok ? '' : codeServer.why})` : `code-server runs only on Linux x64, and this is ${platform} ${arch}`;
    return { mode: 'desktop', cli: first, why: `${reason}; ${first.name} is on PATH, so your desktop VS Code it is` };
  }
  // Nothing installed yet, but it can be: the first run installs it (today's fresh-clone path).
  if (linuxX64) return { mode: 'code-server', why: `no VS Code command line on PATH (${DEFAULT_EDITOR_CLIS.join(', ')}), so code-server, installed by scripts/e2e/setup.sh` };
  return {
    mode: 'none',
    why:
      `no editor can run here: code-server runs only on Linux x64 (this is ${platform} ${arch}), and none of ${DEFAULT_EDITOR_CLIS.join(', ')} is on PATH.\n` +
      `${INSTALL_CLI_HINT}; or run "npm run demo -- --no-editor" and set up your VS Code by hand.`,
  };
}
