// An entry of the answer history (issue 16) on the real request page: read-only,
// with what was sent as the history keeps it (masked) and every outcome. The
// entry is made the way the extension makes one: a real request through the
// inbox, a real command, the history store's own masking.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildRespondCommand } from '../../src/aep/control';
import { AnswerHistory } from '../../src/history/answerHistory';
import { historyItem } from '../../src/history/historyItem';
import { Inbox } from '../../src/inbox/inbox';
import { pageRequest } from '../../src/app/page/pageContent';
import { goldenForm, viewOf } from '../support/pageRequests';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { requestPages } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

const TOKEN = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

function answeredEntry() {
  const inbox = new Inbox({ hub: 'http://127.0.0.1:8787' });
  inbox.apply(goldenForm());
  const [item] = inbox.open();
  assert.ok(item?.request);
  const built = buildRespondCommand(item.request, { values: { name: `billing-api ${TOKEN}`, staged: true, regions: ['1', '3'], db: 'MariaDB' } }, { agent: 'vscode', source: 'aep://editor/agent/vscode' }, Date.now(), { verbatim: true });
  assert.ok(built.ok);
  const history = new AnswerHistory(new MemoryMemento(), new RecordingLogger());
  history.recordSent({ id: 'http://127.0.0.1:8787', label: 'laptop' }, item, built.command);
  history.recordOutcome(built.command.id, { kind: 'accepted', commandId: built.command.id });
  const [entry] = history.entries();
  assert.ok(entry);
  history.dispose();
  return entry;
}

describe('a history entry on the request page', chromiumSuite(), () => {
  const { open } = requestPages();

  test('shows what was sent, masked as kept, and every outcome; nothing on it can be sent', async () => {
    const entry = answeredEntry();
    const request = pageRequest(historyItem(entry), { state: 'unknown' }, 'laptop');
    const page = await open(request);
    const p = page.page;
    await page.post({
      type: 'init', request, now: Date.now(),
      history: { sent: entry.sends[0]?.answer, accepted: true, note: 'masked here', lines: ['10:00: answer sent', '10:00: accepted'] },
    });
    const summary = p.locator('.summary');
    await summary.waitFor();
    const shown = await summary.innerText();
    assert.match(shown, /What you sent/);
    assert.ok(!shown.includes(TOKEN), 'the token sent at capture full is not on the page');
    assert.match(shown, /masked here/);
    assert.deepEqual(await p.locator('.history li').allInnerTexts(), ['10:00: answer sent', '10:00: accepted']);
    const header = await p.locator('.request-header').innerText();
    assert.match(header, /Hub\s+laptop/);
    assert.doesNotMatch(header, /Delivery/, 'whether an answer could reach the agent now is not a history page\'s question');
    // Read-only: the answer's controls are gone (Send is disabled besides), and Enter in the page posts nothing.
    assert.equal(await p.locator('#send').isVisible(), false, 'no Send button to press');
    assert.equal(await p.locator('#send').evaluate((button) => (button as HTMLButtonElement & { disabled: boolean }).disabled), true);
    assert.equal(await p.locator('.answer input, .answer textarea, .answer vscode-text-field, .answer vscode-checkbox').filter({ visible: true }).count(), 0, 'no field to type into');
    await p.keyboard.press('Enter');
    // The marker: the same page made a live form (as a preview page is reused) and sent by Enter, the
    // way a submit from the entry would have gone. Once the marker's submit is posted, one from the
    // entry's render would have been posted before it.
    const entryRender = page.generation;
    await page.post({ type: 'init', request: viewOf(goldenForm()), now: Date.now() });
    await p.locator('#field-0').click();
    await p.keyboard.type('billing-api');
    await p.locator('[data-field="regions"] [role="checkbox"]').nth(1).click();
    await p.locator('#field-0').click();
    await p.keyboard.press('Enter');
    const marker = await page.waitForPosted((message) => message['type'] === 'submit');
    assert.equal(marker['generation'], entryRender + 1, 'the marker is the live render\'s');
    const submits = (await page.posted()).filter((message) => message['type'] === 'submit');
    assert.deepEqual(submits.map((message) => message['generation']), [entryRender + 1], 'nothing was submitted from the entry');
  });
});
