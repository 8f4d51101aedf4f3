// The request page lists the agent's option buttons beside its own ("Send
// reply only", "Reply in Words Instead…"): an option reading like one of our
// words (the registry, src/shared/ownActionWords.ts) says whose it is on its
// button, as in the quick input; the rest read as the agent wrote them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { requestEvent, viewOf } from '../support/pageRequests';
import { requestPages } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

describe('request page: agent options beside our buttons', chromiumSuite(), () => {
  const { open } = requestPages();

  test('an option labelled like our own button is marked as the agent\'s', async () => {
    const page = await open(viewOf(requestEvent({
      kind: 'permission', prompt: 'Run the migration?',
      options: [{ id: 'allow', label: 'Allow' }, { id: 'allow_always', label: 'SEND REPLY ONLY' }, { id: 'x', label: 'Answer 2 Similar…' }],
    })));
    const label = (id: string) => page.page.locator(`vscode-button[data-option="${id}"]`).innerText();
    assert.equal(await label('allow'), 'Allow');
    assert.equal(await label('allow_always'), 'SEND REPLY ONLY (from the agent: id allow_always)');
    assert.equal(await label('x'), 'Answer 2 Similar… (from the agent: id x)');
  });
});
