// An answer whose client stopped before the agent's ack (a reload, a rebuild)
// is not "not sent": the page says it waits for the acknowledgement and will
// go out again unchanged, keeps Send disabled (a second answer would be a new
// command), and takes the outcome the next client reports.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { goldenForm, viewOf } from '../support/pageRequests';
import { requestPages } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

describe('request page: an answer awaiting its acknowledgement across a restart', chromiumSuite(), () => {
  const { open } = requestPages();

  test('shown as waiting, Send stays disabled, then the restored outcome lands', async () => {
    const page = await open(viewOf(goldenForm()));
    const p = page.page;
    await p.keyboard.type('billing-api');
    await p.keyboard.press('Enter');
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    const waiting = 'Sent; waiting for claude-code to acknowledge it. It will be sent again, unchanged, when the connection is back.';
    await page.post({ type: 'outcome', submitId: String(submit['submitId']), phase: 'awaiting-ack', message: waiting });
    await p.waitForFunction(() => document.getElementById('outcome')?.dataset['tone'] === 'info');
    assert.equal(await p.locator('#outcome').innerText(), waiting);
    assert.equal(await p.locator('#send').evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled), true, 'no second answer while the first may still be executed');
    // The next client resends the same command; its outcome comes under the command id.
    await page.post({ type: 'outcome', submitId: 'C01restored', phase: 'accepted', message: 'claude-code accepted the answer.' });
    await p.waitForFunction(() => document.getElementById('outcome')?.dataset['tone'] === 'success');
    assert.equal((await page.posted()).filter((m) => m['type'] === 'submit').length, 1);
  });
});
