// The always-secret values (src/app/hubs/alwaysSecretValues.ts) read in
// the background: activation begins the read and returns, and what needs the
// values waits for them. Plain Node, over a secret storage whose read the
// test resolves by hand, as a slow keychain would.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { readSecretValues, writeSecretValues } from '../../src/aep/alwaysSecret';
import { redactText, SECRET_MARK } from '../../src/aep/redaction';
import { maskStoredText, setStoredSecretValues } from '../../src/aep/secretAsking';
import { Emitter } from '../../src/base/emitter';
import { afterLoaded, AlwaysSecretValues, type SecretValueStorage } from '../../src/app/hubs/alwaysSecretValues';
import { RecordingLogger } from '../support/recordingLogger';

const KEY = 'aepAttention.alwaysSecretValues';
const SECRET = 'correct-horse-battery';

/** Secret storage whose reads wait until the test settles them, one by one. */
class SlowStorage implements SecretValueStorage {
  readonly reads: Array<{ resolve: (value: string | undefined) => void; reject: (error: Error) => void }> = [];
  readonly stored = new Map<string, string>();
  private readonly changes = new Emitter<{ readonly key: string }>();
  readonly onDidChange = this.changes.event;

  get(): Promise<string | undefined> {
    return new Promise((resolve, reject) => this.reads.push({ resolve, reject }));
  }

  store(key: string, value: string): Promise<void> {
    this.stored.set(key, value);
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.stored.delete(key);
    return Promise.resolve();
  }

  changed(key: string): void {
    this.changes.fire({ key });
  }
}

// The values these tests store are the module's for every later file of the same process: none is left to them.
afterEach(() => setStoredSecretValues([]));

/** Whether `promise` has settled, after everything already queued has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

test('start() returns before the read does; nothing masks with an empty list meanwhile, and what waits for the values runs once they are read', async () => {
  const storage = new SlowStorage();
  const values = new AlwaysSecretValues(storage, new RecordingLogger());
  values.start();
  assert.equal(storage.reads.length, 1, 'the read is begun');
  const ran: string[] = [];
  const command = afterLoaded(values, (text: string) => ran.push(maskStoredText(text)));
  const running = command(`the password is ${SECRET}`);
  assert.equal(await settled(values.loaded()), false);
  assert.throws(() => values.redaction(), /not read yet/, 'the pipeline is never handed an empty list for the values not yet read');
  assert.deepEqual(ran, [], 'a command waits for the values');
  storage.reads[0]?.resolve(writeSecretValues([SECRET]));
  await running;
  assert.equal(await settled(values.loaded()), true);
  assert.deepEqual(values.redaction().secretValues, [SECRET]);
  assert.deepEqual(ran, ['the password is [REDACTED:secret]'], 'what it keeps is masked with the values read');
  values.dispose();
});

test('a value added while the first read is slow joins the values stored, never replaces them', async () => {
  const storage = new SlowStorage();
  const values = new AlwaysSecretValues(storage, new RecordingLogger());
  values.start();
  const adding = values.add('another-secret-value');
  assert.equal(await settled(adding), false, 'the addition waits for the values it adds to');
  storage.reads[0]?.resolve(writeSecretValues([SECRET]));
  assert.equal((await adding).ok, true);
  assert.deepEqual(readSecretValues(storage.stored.get(KEY)).values.sort(), [SECRET, 'another-secret-value'].sort());
  assert.equal(values.count, 2);
  values.dispose();
});

test('values cleared while the first read is slow stay cleared when the read ends', async () => {
  const storage = new SlowStorage();
  const values = new AlwaysSecretValues(storage, new RecordingLogger());
  values.start();
  const clearing = values.clear();
  storage.reads[0]?.resolve(writeSecretValues([SECRET]));
  await clearing;
  assert.equal(values.count, 0);
  assert.deepEqual(values.redaction().secretValues, []);
  values.dispose();
});

test('a failed read is logged and leaves the values unknown until a later read succeeds', async () => {
  const storage = new SlowStorage();
  const log = new RecordingLogger();
  const values = new AlwaysSecretValues(storage, log);
  values.start();
  storage.reads[0]?.reject(new Error('the keychain is locked'));
  assert.equal(await settled(values.loaded()), false);
  assert.deepEqual(log.codes(), ['error secret-values-unreadable']);
  assert.ok(log.entries[0]?.message.includes('the keychain is locked'), 'with what the storage said');
  assert.throws(() => values.redaction());
  storage.changed(KEY);
  storage.reads[1]?.resolve(writeSecretValues([SECRET]));
  assert.equal(await settled(values.loaded()), true);
  assert.deepEqual(values.redaction().secretValues, [SECRET]);
  values.dispose();
});

test("a hub token this window holds is masked as the person's values are, before and after they are read, and is never listed or stored with them", async () => {
  const storage = new SlowStorage();
  const values = new AlwaysSecretValues(storage, new RecordingLogger());
  values.start();
  const TOKEN = 'hub-token-7f3a9c';
  values.maskHubToken(TOKEN);
  values.maskHubToken('test');
  values.maskHubToken('local12');
  storage.reads[0]?.resolve(writeSecretValues([SECRET]));
  await values.loaded();
  const typed = `here it is: ${TOKEN}, and ${SECRET}`;
  assert.equal(redactText(typed, values.redaction()).text, `here it is: ${SECRET_MARK}, and ${SECRET_MARK}`, 'what is sent');
  assert.equal(maskStoredText(typed), `here it is: ${SECRET_MARK}, and ${SECRET_MARK}`, 'what drafts and the history keep');
  assert.equal(maskStoredText('run the test suite on local12'), 'run the test suite on local12', 'a token too short to mask without replacing words is left');
  const LATER = 'second-hub-token-5521';
  values.maskHubToken(LATER);
  assert.equal(maskStoredText(LATER), SECRET_MARK, 'a token read after the values is masked from then on');
  assert.deepEqual(values.redaction().secretValues, [SECRET, TOKEN, LATER]);
  assert.equal(values.count, 1, 'the count the commands word is the listed values');
  await values.add('another-secret-value');
  assert.deepEqual(readSecretValues(storage.stored.get(KEY)).values, [SECRET, 'another-secret-value'], 'no token is written into the list');
  assert.equal(maskStoredText(TOKEN), SECRET_MARK, 'adding a value keeps the tokens masked');
  await values.clear();
  assert.deepEqual(values.redaction().secretValues, [TOKEN, LATER], 'clearing the list leaves the tokens masked');
  values.dispose();
});

test('what is masked changing is told: the values read, added and cleared, a hub token added once, and nothing before the values are read', async () => {
  const storage = new SlowStorage();
  const log = new RecordingLogger();
  const values = new AlwaysSecretValues(storage, log);
  let told = 0;
  values.onDidChange(() => told++);
  values.start();
  values.maskHubToken('hub-token-7f3a9c');
  assert.equal(told, 0, 'nothing masks before the values are read');
  storage.reads[0]?.resolve(writeSecretValues([SECRET]));
  await values.loaded();
  assert.equal(told, 1, 'read');
  values.maskHubToken('second-hub-token');
  values.maskHubToken('second-hub-token');
  values.maskHubToken('short');
  values.maskHubToken('short-2');
  assert.equal(told, 2, 'a new token, once; a short one is not masked');
  assert.deepEqual(log.codes(), ['warn hub-token-short'], 'a token too short to mask is said once, never shown');
  assert.ok(!log.lines.join('\n').includes('short'.repeat(2)) && !log.entries.some((entry) => entry.message.includes('short-2')));
  await values.add('another-secret-value');
  await values.clear();
  assert.equal(told, 4, 'added, cleared');
  values.dispose();
});
