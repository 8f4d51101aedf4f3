// The extension-host integration suite. The same `run()` executes under
// @vscode/test-electron (`npm run test:vscode`, desktop VS Code) and, in CI,
// inside code-server's extension host (test/e2e/vscodeSuite.e2e.test.ts).
// It expects AEP_HUB and AEP_TOKEN in the environment, pointing at a local
// hub where the demo agent raises form requests.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AepAttentionApi } from '../../src/extension';
import packageJson from '../../package.json';
import { waitForValue } from '../support/waitUntil';
import * as fs from 'node:fs';

const EXTENSION_ID = 'aepattention.aep-attention';

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const value = await waitForValue(probe, (seen) => seen !== undefined && seen !== false, what, { timeoutMs, everyMs: 100 });
  return value as T;
}

/**
 * Resolves once the workbench has shown a tab opened after everything this extension
 * asked for before it: a new untitled editor, as a marker (the workbench handles an
 * extension's requests in order and reports tabs in order).
 */
async function workbenchCaughtUp(): Promise<void> {
  const before = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'untitled').length;
  await vscode.commands.executeCommand('workbench.action.files.newUntitledFile');
  await until('the marker tab', () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'untitled').length > before);
}

function requestTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('aepAttention.request'));
}

type Case = [name: string, body: (api: AepAttentionApi) => Promise<void>];

const cases: Case[] = [
  ['every contributed command is registered', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const contributed = packageJson.contributes.commands.map((c: { command: string }) => c.command);
    assert.ok(contributed.length >= 10);
    for (const command of contributed) assert.ok(registered.has(command), `${command} is not registered`);
  }],
  ['connects to the hub named by AEP_HUB', async (api) => {
    await until('connected', () => api.connectionState() === 'connected');
  }],
  ['the demo agent\'s form request reaches the inbox', async (api) => {
    await until('a pending form', () => api.pending().some((item) => item.kind === 'form' && item.agent === 'demo-agent'));
  }],
  ['opening a request opens its panel beside the editor; opening it again focuses the same panel', async (api) => {
    const item = api.pending().find((candidate) => candidate.kind === 'form');
    assert.ok(item);
    await vscode.commands.executeCommand('aepAttention.openRequest', item.key);
    await until('the request panel', () => requestTabs().length === 1);
    await vscode.commands.executeCommand('aepAttention.openRequest', item.key);
    await workbenchCaughtUp();
    assert.equal(requestTabs().length, 1);
    assert.equal(api.openPanels(), 1);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('the panel to close', () => api.openPanels() === 0);
  }],
  ['request pages go beside the code in one group: four requests opened in turn take the one preview page in turn, at one split', async (api) => {
    await until('four pending requests', () => api.pending().length >= 4);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    await vscode.window.showTextDocument(vscode.Uri.joinPath(extension.extensionUri, 'package.json'), { viewColumn: vscode.ViewColumn.One });
    const groupsBefore = vscode.window.tabGroups.all.length;
    const four = api.pending().slice(0, 4);
    for (const [index, item] of four.entries()) {
      // Nobody types in these pages: each Open after the first takes the preview page over (VS Code's
      // preview editors), so there is one page, showing the request opened last.
      await vscode.commands.executeCommand('aepAttention.openRequest', item.key);
      await until(`page ${index + 1}`, () => requestTabs().length === 1 && api.openPanels() === 1 && api.shownRequests().includes(item.key));
    }
    const columns = new Set(requestTabs().map((tab) => tab.group.viewColumn));
    assert.equal(columns.size, 1, `request pages in groups ${[...columns].join(', ')}`);
    assert.equal(vscode.window.tabGroups.all.length, groupsBefore + 1, 'one split for any number of requests');
    assert.ok(!columns.has(vscode.ViewColumn.One), 'beside the code, not over it');
    // Opening the one shown brings it forward, in its group, without a new tab.
    const last = four.at(-1);
    assert.ok(last);
    await vscode.commands.executeCommand('aepAttention.openRequest', last.key);
    await workbenchCaughtUp();
    assert.equal(requestTabs().length, 1);
    assert.equal(vscode.window.tabGroups.all.length, groupsBefore + 1);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('the panels to close', () => api.openPanels() === 0);
  }],
  ['Answer Next Request has a keybinding that no other binding in this VS Code takes', async () => {
    const ours = packageJson.contributes.keybindings.find((binding: { command: string }) => binding.command === 'aepAttention.answerNext');
    assert.ok(ours, 'a keybinding is contributed');
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const editor = await until('the default keybindings', () => {
      const active = vscode.window.activeTextEditor;
      return active && /keybindings/i.test(active.document.uri.toString()) ? active : undefined;
    });
    const bindings = [...editor.document.getText().matchAll(/"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"/g)].map((match) => ({ key: match[1] ?? '', command: match[2] ?? '' }));
    assert.ok(bindings.length > 200, `read ${bindings.length} default bindings`);
    const key = process.platform === 'darwin' ? ours.mac : ours.key;
    const first = key.split(' ')[0] ?? key;
    // A chord whose first part VS Code already uses as a chord start changes nothing for that key;
    // a first part bound only alone would newly turn into a chord start.
    const chordStart = key.includes(' ') && bindings.some((binding) => binding.key.startsWith(`${first} `) && !binding.command.startsWith('aepAttention.'));
    const clashes = bindings.filter((binding) => !binding.command.startsWith('aepAttention.') && (binding.key === key || (!chordStart && binding.key === first)));
    assert.deepEqual(clashes, [], `${key} is taken`);
    assert.ok(bindings.some((binding) => binding.command === 'aepAttention.answerNext' && binding.key === key), 'and VS Code lists ours');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }],
  ['dismissing locally hides a request and sends nothing', async (api) => {
    const before = api.pending().length;
    const item = api.pending()[0];
    assert.ok(item);
    await vscode.commands.executeCommand('aepAttention.dismissRequest', item.key);
    assert.equal(api.pending().length, before - 1);
    assert.equal(api.openCount(), before, 'still open at the agent: nothing was answered');
  }],
  ['a hub added to aepAttention.hubs connects at once beside the first; its requests are its own; one going down leaves the other connected; removed, it goes', async (api) => {
    // The second hub, with an agent of its own, is started by whoever runs this suite (AEP_SECOND_HUB),
    // and stopped when this writes AEP_SECOND_HUB_STOP; without them (a desktop run) the case has nothing to add.
    const secondUrl = process.env['AEP_SECOND_HUB'];
    const stopFile = process.env['AEP_SECOND_HUB_STOP'];
    if (!secondUrl || !stopFile) throw new Error('AEP_SECOND_HUB and AEP_SECOND_HUB_STOP are not set: start a second hub with an agent for this case');
    const [first] = api.hubs();
    assert.ok(first && api.hubs().length === 1, 'one hub to begin with');
    const config = vscode.workspace.getConfiguration('aepAttention');
    try {
      await config.update('hubs', [{ url: secondUrl, label: 'second hub' }], vscode.ConfigurationTarget.Global);
      await until('both hubs connected', () => api.hubs().length === 2 && api.hubs().every((hub) => hub.state === 'connected'));
      const added = api.hubs().find((hub) => hub.id !== first.id);
      assert.equal(added?.label, 'second hub');
      const theirs = await until('the second hub\'s request', () => api.pending().find((item) => item.hub === added?.id));
      assert.equal(theirs.kind, 'input');
      assert.ok(api.pending().some((item) => item.hub === first.id), 'the first hub\'s requests are still there');
      assert.ok(!api.pending().some((item) => item.hub === first.id && item.key === theirs.key), 'keys name their hub');
      assert.equal(api.connectionState(), 'connected');
      fs.writeFileSync(stopFile, 'stop');
      await until('the second hub lost', () => api.hubs().find((hub) => hub.id === added?.id)?.state === 'backing-off', 60_000);
      assert.equal(api.hubs().find((hub) => hub.id === first.id)?.state, 'connected', 'the first hub stays connected');
      assert.equal(api.connectionState(), 'backing-off', 'the window says one hub is lost');
      await config.update('hubs', undefined, vscode.ConfigurationTarget.Global);
      await until('back to one hub', () => api.hubs().length === 1 && api.hubs()[0]?.id === first.id);
      assert.ok(!api.pending().some((item) => item.hub === added?.id), 'the removed hub\'s requests went with it');
      await until('connected', () => api.connectionState() === 'connected');
    } finally {
      await config.update('hubs', undefined, vscode.ConfigurationTarget.Global);
    }
  }],
  ['a plain-http hub on another host is refused, with the reason', async (api) => {
    const config = vscode.workspace.getConfiguration('aepAttention');
    await config.update('hubUrl', 'http://192.0.2.1:8787', vscode.ConfigurationTarget.Workspace);
    try {
      await until('failed', () => api.connectionState() === 'failed');
    } finally {
      await config.update('hubUrl', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await until('reconnected to AEP_HUB', () => api.connectionState() === 'connected');
  }],
];

/** `report` receives one line per case and a closing `N passed, N failed`; test-electron calls it with none. */
export async function run(report: (line: string) => void = console.log): Promise<void> {
  const extension = vscode.extensions.getExtension<AepAttentionApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed`);
  const api = await extension.activate();
  const failures: string[] = [];
  for (const [name, body] of cases) {
    const started = Date.now();
    try {
      await body(api);
      report(`ok - ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      failures.push(name);
      report(`not ok - ${name}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    }
  }
  report(`${cases.length - failures.length} passed, ${failures.length} failed`);
  if (failures.length > 0) throw new Error(`${failures.length} extension-host test(s) failed: ${failures.join('; ')}`);
}
