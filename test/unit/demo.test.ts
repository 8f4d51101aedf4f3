// `npm run demo`'s small parts: its options, the busy-port fallback, the editor's
// port forwarder, and the workspace it writes. The whole command runs in
// test/e2e/demo.e2e.test.ts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { SCENARIOS } from '../peers/agent/scenarios';
import { DEFAULT_EDITOR_PORT, DEFAULT_EVERY_MS, DEFAULT_HUB_PORT, UsageError, parseDemoArgs } from '../peers/demo/args';
import { PortError, listenOnFreePort, startForwarder } from '../peers/demo/ports';
import { prepareWorkspace } from '../peers/demo/workspace';

test('demo options: defaults, flags, and refusals', () => {
  const defaults = parseDemoArgs([], '/repo');
  assert.deepEqual(defaults, {
    help: false,
    editor: true,
    desktop: false,
    editorCli: undefined,
    hubPort: { port: DEFAULT_HUB_PORT, explicit: false },
    editorPort: { port: DEFAULT_EDITOR_PORT, explicit: false },
    scenarios: [...SCENARIOS],
    everyMs: DEFAULT_EVERY_MS,
    dir: path.resolve('/repo/.cache/demo'),
  });
  const given = parseDemoArgs(['--no-editor', '--port', '0', '--editor-port', '9000', '--scenario', 'form', '--scenario', 'form', '--every', '500', '--dir', '/x'], '/repo');
  assert.equal(given.editor, false);
  assert.deepEqual(given.hubPort, { port: 0, explicit: true });
  assert.deepEqual(given.editorPort, { port: 9000, explicit: true });
  assert.deepEqual(given.scenarios, ['form']);
  assert.equal(given.everyMs, 500);
  assert.equal(given.dir, path.resolve('/x'));
  assert.equal(parseDemoArgs(['-h'], '/repo').help, true);
  assert.equal(parseDemoArgs(['--desktop'], '/repo').desktop, true);
  const cli = parseDemoArgs(['--editor-cli', 'codium'], '/repo');
  assert.deepEqual([cli.desktop, cli.editorCli], [true, 'codium'], '--editor-cli implies --desktop');
  for (const bad of [['--no-editor', '--desktop'], ['--no-editor', '--editor-cli', 'code'], ['--editor-cli', ' '], ['--port', '70000'], ['--port', ''], ['--every', '0'], ['--scenario', 'nope'], ['--bogus'], ['extra']]) {
    assert.throws(() => parseDemoArgs(bad, '/repo'), UsageError, bad.join(' '));
  }
});

async function occupy(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return server;
}

const listenOn = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

test('a busy default port moves to the next free one; a busy explicit port is an error', async () => {
  const busy = await occupy();
  const port = (busy.address() as AddressInfo).port;
  try {
    const moved = await listenOnFreePort('hub', { port, explicit: false }, listenOn);
    assert.equal(moved.moved, true);
    assert.ok((moved.value.address() as AddressInfo).port > port);
    moved.value.close();
    await assert.rejects(listenOnFreePort('hub', { port, explicit: true }, listenOn), (error: unknown) => {
      assert.ok(error instanceof PortError);
      assert.match(error.message, new RegExp(`the hub port ${port} is in use`));
      return true;
    });
  } finally {
    busy.close();
  }
});

test('the editor port forwarder pipes both ways and cuts connections when closed', async () => {
  const echo = createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', () => resolve()));
  const forwarder = await startForwarder(0, (echo.address() as AddressInfo).port, (error) => assert.fail(error));
  try {
    const client = connect(forwarder.port, '127.0.0.1');
    const reply = await new Promise<string>((resolve, reject) => {
      client.once('error', reject);
      client.once('data', (data) => resolve(data.toString()));
      client.write('ping');
    });
    assert.equal(reply, 'ping');
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await forwarder.close();
    await closed;
  } finally {
    await forwarder.close();
    echo.close();
  }
});

test('the demo workspace: a README, and hubUrl merged into existing settings (never the token)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-demo-unit-'));
  try {
    fs.mkdirSync(path.join(dir, '.vscode'));
    fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), '{ "editor.fontSize": 15, "aepAttention.hubUrl": "http://old" }');
    const facts = { hubUrl: 'http://127.0.0.1:8787', scenarios: SCENARIOS, everyMs: 8_000, expireMs: 30_000, oobMs: 10_000 };
    const settings = prepareWorkspace(dir, facts);
    assert.deepEqual(settings, { 'editor.fontSize': 15, 'aepAttention.hubUrl': 'http://127.0.0.1:8787' });
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    assert.match(readme, /every 8 s/);
    assert.match(readme, /expires\*\* after 30 s/);
    assert.match(readme, /http:\/\/127\.0\.0\.1:8787/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
