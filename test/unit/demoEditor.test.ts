// `npm run demo`'s choice of editor (code-server, desktop VS Code, none), the
// desktop editor's environment, and its command line driven for real: a fake
// `code` that records how it was called.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { demoProfile, desktopEnv, extensionId, launchDesktop, uninstallCommand } from '../peers/demo/desktop';
import { OWNED_MARKER, claimOwnedDir } from '../peers/demo/ownedDir';
import { findEditorClis } from '../peers/demo/editorCli';
import { EditorChoiceError, chooseEditor, type EditorChoiceInput, type EditorCli } from '../peers/demo/editorChoice';
import { repoRoot } from '../support/fixtures';

const code: EditorCli = { name: 'code', path: '/usr/bin/code' };
const insiders: EditorCli = { name: 'code-insiders', path: '/usr/bin/code-insiders' };
const codium: EditorCli = { name: 'codium', path: '/usr/bin/codium' };
const notInstalled = { ok: false as const, why: 'e2e harness not installed' };

function input(overrides: Partial<Omit<EditorChoiceInput, 'flags'>> & { flags?: Partial<EditorChoiceInput['flags']> }): EditorChoiceInput {
  return {
    platform: 'linux',
    arch: 'x64',
    codeServer: { ok: true },
    clis: [],
    ...overrides,
    flags: { noEditor: false, desktop: false, ...overrides.flags },
  };
}

test('editor choice: code-server where it is installed, even with a VS Code command line', () => {
  assert.deepEqual(chooseEditor(input({ clis: [code] })), { mode: 'code-server', why: 'code-server is installed (npm run test:e2e:setup)' });
});

test('editor choice: desktop VS Code when code-server cannot run here and a command line exists', () => {
  const notLinux = chooseEditor(input({ platform: 'darwin', arch: 'arm64', codeServer: notInstalled, clis: [code, codium] }));
  assert.equal(notLinux.mode, 'desktop');
  assert.deepEqual(notLinux.mode === 'desktop' && notLinux.cli, code);
  assert.match(notLinux.why, /runs only on Linux x64, and this is darwin arm64/);
  const notInstalledHere = chooseEditor(input({ codeServer: notInstalled, clis: [code] }));
  assert.equal(notInstalledHere.mode, 'desktop');
  assert.match(notInstalledHere.why, /code-server is not installed \(e2e harness not installed\)/);
  // A Linux that is not x64, with code-server somehow recorded: still not runnable.
  assert.equal(chooseEditor(input({ arch: 'arm64', clis: [code] })).mode, 'desktop');
});

test('editor choice: code-insiders or codium when code is not there', () => {
  for (const cli of [insiders, codium]) {
    const choice = chooseEditor(input({ platform: 'win32', codeServer: notInstalled, clis: [cli] }));
    assert.deepEqual(choice.mode === 'desktop' && choice.cli, cli);
  }
});

test('editor choice: nothing can run → none, with the reason and the --no-editor hint; Linux x64 installs code-server', () => {
  const none = chooseEditor(input({ platform: 'darwin', arch: 'arm64', codeServer: notInstalled }));
  assert.equal(none.mode, 'none');
  assert.match(none.why, /code-server runs only on Linux x64 \(this is darwin arm64\)/);
  assert.match(none.why, /none of code, code-insiders, codium is on PATH/);
  assert.match(none.why, /npm run demo -- --no-editor/);
  const install = chooseEditor(input({ codeServer: notInstalled }));
  assert.equal(install.mode, 'code-server');
  assert.match(install.why, /installed by scripts\/e2e\/setup\.sh/);
});

test('editor choice: --no-editor, --desktop and --editor-cli', () => {
  assert.equal(chooseEditor(input({ clis: [code], flags: { noEditor: true } })).mode, 'none');
  const forced = chooseEditor(input({ clis: [insiders, codium], flags: { desktop: true } }));
  assert.deepEqual(forced, { mode: 'desktop', cli: insiders, why: '--desktop' });
  assert.throws(
    () => chooseEditor(input({ flags: { desktop: true } })),
    (error: unknown) => error instanceof EditorChoiceError && /--desktop needs a VS Code command line/.test(error.message) && /--editor-cli/.test(error.message),
  );
  const mine: EditorCli = { name: '/opt/vscodium/bin/codium', path: '/opt/vscodium/bin/codium' };
  const picked = chooseEditor(input({ clis: [code, mine], flags: { desktop: true, editorCli: mine.name } }));
  assert.deepEqual(picked, { mode: 'desktop', cli: mine, why: `--editor-cli ${mine.name}` });
  assert.throws(() => chooseEditor(input({ clis: [code], flags: { editorCli: 'nope' } })), /--editor-cli nope: no such executable/);
});

test('desktopEnv: adds the pair, drops what would attach to another VS Code or leak, leaves its input alone', () => {
  const base: NodeJS.ProcessEnv = {
    PATH: '/usr/bin',
    HOME: '/home/me',
    ELECTRON_OZONE_PLATFORM_HINT: 'wayland',
    VSCODE_IPC_HOOK_CLI: '/run/user/1000/vscode-ipc.sock',
    VSCODE_PID: '1234',
    VSCODE_CWD: '/elsewhere',
    ELECTRON_RUN_AS_NODE: '1',
    NODE_OPTIONS: '--require x',
    npm_lifecycle_event: 'demo',
    TERM_PROGRAM: 'vscode',
    AEP_TOKEN: 'an old one',
  };
  const before = { ...base };
  const env = desktopEnv(base, 'http://127.0.0.1:8787', 'secret');
  assert.deepEqual(env, { PATH: '/usr/bin', HOME: '/home/me', ELECTRON_OZONE_PLATFORM_HINT: 'wayland', AEP_HUB: 'http://127.0.0.1:8787', AEP_TOKEN: 'secret' });
  assert.deepEqual(base, before);
});

test('the extension id and the uninstall command', () => {
  const id = extensionId(JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { publisher?: unknown; name?: unknown });
  assert.equal(id, 'aepattention.aep-attention');
  assert.equal(uninstallCommand(code, '/d/ext dir', id), '/usr/bin/code --extensions-dir "/d/ext dir" --uninstall-extension aepattention.aep-attention');
});

/** A fake VS Code command line: records each call's argv and AEP_* environment, one JSON line each. */
function fakeCli(dir: string, name: string): { path: string; calls: () => Array<{ argv: string[]; hub?: string; token?: string; ipcHook?: string }> } {
  const log = path.join(dir, `${name}.calls`);
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    `#!${process.execPath}
const fs = require('node:fs');
const argv = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ argv, hub: process.env.AEP_HUB, token: process.env.AEP_TOKEN, ipcHook: process.env.VSCODE_IPC_HOOK_CLI }) + '\\n');
if (argv.includes('--version')) console.log('1.99.3\\ncafe\\nx64');
`,
    { mode: 0o755 },
  );
  return {
    path: file,
    calls: () =>
      fs
        .readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { argv: string[]; hub?: string; token?: string; ipcHook?: string }),
  };
}

test('findEditorClis: code-insiders on PATH when code is not', { skip: process.platform === 'win32' }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-demo-cli-'));
  try {
    const cli = fakeCli(dir, 'code-insiders');
    fs.writeFileSync(path.join(dir, 'code'), 'not executable', { mode: 0o644 });
    assert.deepEqual(findEditorClis(['code', 'code-insiders', 'codium'], { PATH: `/nonexistent${path.delimiter}${dir}` }, 'linux'), [{ name: 'code-insiders', path: cli.path }]);
    assert.deepEqual(findEditorClis([cli.path], { PATH: '' }, 'linux'), [{ name: cli.path, path: cli.path }]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('launchDesktop drives the CLI: --install-extension <vsix> --force, then --new-window <workspace> with the pair in its environment only', { skip: process.platform === 'win32' }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-demo-desktop-'));
  try {
    const cli = fakeCli(dir, 'code');
    const workspaceDir = path.join(dir, 'workspace');
    fs.mkdirSync(workspaceDir);
    const profile = demoProfile(dir);
    // An earlier run made the profile (its marker) and left an extension in it.
    claimOwnedDir(profile.root);
    fs.mkdirSync(profile.extensionsDir, { recursive: true });
    fs.writeFileSync(path.join(profile.extensionsDir, 'stale'), 'from an earlier run');
    const token = 'tok-' + 'x'.repeat(24);
    const steps: string[] = [];
    const editor = await launchDesktop({
      cli: { name: 'code', path: cli.path },
      vsixPath: path.join(dir, 'aep-attention.vsix'),
      workspaceDir,
      workspaceSettings: { 'aepAttention.hubUrl': 'http://127.0.0.1:8787' },
      profile,
      // As the e2e defaults have it: trust off.
      userSettings: { 'workbench.startupEditor': 'readme', 'security.workspace.trust.enabled': false, 'security.workspace.trust.startupPrompt': 'never' },
      hubUrl: 'http://127.0.0.1:8787',
      token,
      baseEnv: { ...process.env, VSCODE_IPC_HOOK_CLI: '/tmp/other-vscode.sock', ELECTRON_RUN_AS_NODE: '1' },
      onStep: (what) => steps.push(what),
    });
    assert.deepEqual(editor, { version: '1.99.3', opened: 'returned' });
    assert.deepEqual(steps, ['code --version: 1.99.3', "installing the extension into the demo's profile ...", 'opening a new window ...']);
    const dirs = ['--user-data-dir', profile.userDataDir, '--extensions-dir', profile.extensionsDir];
    const calls = cli.calls();
    assert.deepEqual(
      calls.map((call) => call.argv),
      [['--version'], [...dirs, '--install-extension', path.join(dir, 'aep-attention.vsix'), '--force'], [...dirs, '--new-window', workspaceDir]],
    );
    const [version, install, open] = calls;
    assert.equal(version?.token, undefined);
    assert.equal(install?.token, undefined, 'installing needs no token');
    assert.equal(open?.hub, 'http://127.0.0.1:8787');
    assert.equal(open?.token, token);
    for (const call of calls) {
      assert.equal(call.ipcHook, undefined, 'never attached to another VS Code');
      assert.ok(!call.argv.some((arg) => arg.includes(token)), 'the token is in no argument');
    }
    // The profile was reset; the settings are written, and hold no token.
    assert.ok(!fs.existsSync(path.join(profile.extensionsDir, 'stale')));
    const written = [path.join(profile.userDataDir, 'User', 'settings.json'), path.join(workspaceDir, '.vscode', 'settings.json')].map((file) => fs.readFileSync(file, 'utf8'));
    assert.match(written[0] ?? '', /"workbench.startupEditor": "readme"/);
    const userSettings = JSON.parse(written[0] ?? '{}') as Record<string, unknown>;
    assert.equal(userSettings['security.workspace.trust.enabled'], true, "Workspace Trust stays on in the demo's profile");
    assert.equal(userSettings['security.workspace.trust.startupPrompt'], 'once');
    assert.ok(fs.existsSync(path.join(profile.root, OWNED_MARKER)), 'the reset profile is marked as the demo\'s again');
    assert.match(written[1] ?? '', /"aepAttention.hubUrl": "http:\/\/127.0.0.1:8787"/);
    assert.ok(written.every((text) => !text.includes(token)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('launchDesktop refuses while the demo profile is open in a VS Code (its code.lock), before calling the CLI', { skip: process.platform === 'win32' }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-demo-locked-'));
  const profile = demoProfile(dir);
  // Stands in for VS Code's main process: alive, with the user data dir on its command line.
  const editor = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', '--', `--user-data-dir=${profile.userDataDir}`], { stdio: 'ignore' });
  try {
    const cli = fakeCli(dir, 'code');
    const launch = () => launchDesktop({
      cli: { name: 'code', path: cli.path }, vsixPath: path.join(dir, 'x.vsix'), workspaceDir: dir, workspaceSettings: {},
      profile, userSettings: {}, hubUrl: 'http://127.0.0.1:8787', token: 't', baseEnv: process.env,
    });
    claimOwnedDir(profile.root);
    fs.mkdirSync(profile.userDataDir, { recursive: true });
    fs.writeFileSync(path.join(profile.userDataDir, 'code.lock'), String(editor.pid));
    await assert.rejects(
      launch(),
      new RegExp(`still open \\(pid ${editor.pid}`),
    );
    assert.ok(!fs.existsSync(path.join(dir, 'code.calls')), 'the CLI was not called');
    // Once that process is gone, the lock it left is stale and no longer refuses.
    editor.kill();
    await new Promise((resolve) => editor.once('exit', resolve));
    await launch();
  } finally {
    editor.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("launchDesktop never resets a profile folder the demo did not make: --dir ~ on a case-insensitive disk makes <dir>/desktop the user's Desktop", { skip: process.platform === 'win32' }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-demo-notours-'));
  try {
    const cli = fakeCli(dir, 'code');
    const profile = demoProfile(dir);
    // Stands in for ~/Desktop, reached as ~/desktop: the user's files, no marker.
    fs.mkdirSync(profile.root);
    fs.writeFileSync(path.join(profile.root, 'thesis.odt'), 'years of work');
    await assert.rejects(
      launchDesktop({
        cli: { name: 'code', path: cli.path }, vsixPath: path.join(dir, 'x.vsix'), workspaceDir: dir, workspaceSettings: {},
        profile, userSettings: {}, hubUrl: 'http://127.0.0.1:8787', token: 't', baseEnv: process.env,
      }),
      (error: Error) => error.name === 'DesktopError' && error.message.includes(`${profile.root} exists and was not made by the demo`),
    );
    assert.equal(fs.readFileSync(path.join(profile.root, 'thesis.odt'), 'utf8'), 'years of work');
    assert.deepEqual(fs.readdirSync(profile.root), ['thesis.odt'], 'nothing written into it either');
    assert.ok(!cli.calls().some((call) => call.argv.includes('--install-extension')), 'nothing installed');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
