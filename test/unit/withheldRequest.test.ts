// A request whose content the person's own capture ceiling withheld
// (AEP-0001 §8.2, AEP-0003 §6.4) is not an agent's broken request: the core
// decides which it is, the inbox keeps the decision, and every surface says
// so, naming the setting.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAttentionRequest } from '../../src/aep/attention';
import type { AepEvent } from '../../src/aep/envelope';
import type { CaptureLevel } from '../../src/aep/levels';
import { Inbox } from '../../src/inbox/inbox';
import { pageRequest } from '../../src/app/page/pageContent';
import { promptLine } from '../../src/words/describe';
import { downlevel } from '../peers/hub/downlevel';
import { goldenEvents } from '../support/fixtures';

/** The golden permission request as a hub sends it under `ceiling` (the test hub's own down-levelling). */
function delivered(ceiling: CaptureLevel): AepEvent {
  const event = goldenEvents().find((e) => e.id === '01JX9YB4RQ000000000000GOLD');
  assert.ok(event);
  return downlevel(event, ceiling) as AepEvent;
}

describe('a request withheld by the capture ceiling', () => {
  test('the hub strips its data at ceiling none, as the spec allows', () => {
    const event = delivered('none');
    assert.equal(event.capture, 'none');
    assert.equal(event.data, undefined);
  });

  test('at this window\'s ceiling none it is withheld by the window\'s own setting, and the agent is not blamed', () => {
    const parsed = parseAttentionRequest(delivered('none'), { ceiling: 'none' });
    assert.ok(!parsed.ok);
    assert.deepEqual(parsed.problem.withheld, { by: 'own-ceiling' });
    assert.doesNotMatch(parsed.problem.message, /cannot be rendered|is missing/);
  });

  test('at capture none under another ceiling it was withheld before it got here: still not the agent\'s fault', () => {
    for (const ceiling of [undefined, 'metadata', 'full'] as const) {
      const parsed = parseAttentionRequest(delivered('none'), { ceiling });
      assert.ok(!parsed.ok);
      assert.deepEqual(parsed.problem.withheld, { by: 'upstream' }, `ceiling ${ceiling ?? 'unset'}`);
    }
  });

  test('a hub that strips data at ceiling none without relabelling the capture: the ceiling still explains it', () => {
    const { capture: _capture, data: _data, ...envelope } = delivered('full');
    const parsed = parseAttentionRequest(envelope, { ceiling: 'none' });
    assert.ok(!parsed.ok);
    assert.deepEqual(parsed.problem.withheld, { by: 'own-ceiling' });
  });

  test('a request that claims content and lacks it is the agent\'s, as before', () => {
    const { data: _data, ...envelope } = delivered('full');
    for (const ceiling of [undefined, 'metadata'] as const) {
      const parsed = parseAttentionRequest(envelope, { ceiling });
      assert.ok(!parsed.ok);
      assert.equal(parsed.problem.withheld, undefined);
      assert.match(parsed.problem.message, /cannot be rendered: `kind` is missing/);
    }
  });

  test('at ceiling metadata the request still renders (structure survives)', () => {
    const parsed = parseAttentionRequest(delivered('metadata'), { ceiling: 'metadata' });
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem.message);
  });

  test('the inbox reads requests under the ceiling its connection asks for, from its options and after a change', () => {
    const asked = new Inbox({ hub: 'h1', captureCeiling: 'none' });
    const outcome = asked.apply(delivered('none'));
    assert.ok(outcome.applied);
    assert.doesNotMatch(outcome.problem ?? '', /cannot be rendered/, 'the log line does not blame the agent');
    assert.deepEqual(asked.open()[0]?.problem?.withheld, { by: 'own-ceiling' });

    const changed = new Inbox({ hub: 'h1' });
    changed.setCaptureCeiling('none');
    changed.apply(delivered('none'));
    assert.deepEqual(changed.open()[0]?.problem?.withheld, { by: 'own-ceiling' });
  });

  test('the inbox row and the page say the content is withheld by the window\'s own setting, and name it', () => {
    const inbox = new Inbox({ hub: 'h1', captureCeiling: 'none' });
    inbox.apply(delivered('none'));
    const [item] = inbox.open();
    assert.ok(item);
    const line = promptLine(item);
    assert.match(line, /withheld by this window's own setting aepAttention\.captureCeiling/);
    assert.match(line, /Open the settings/);
    assert.doesNotMatch(line, /cannot be|is missing/);
    const page = pageRequest(item, { state: 'reachable', accepts: ['control.attention.respond'], ackWindowMs: 10_000 });
    assert.equal(page.withheld, 'own-ceiling');
    assert.match(page.problem ?? '', /aepAttention\.captureCeiling/);
    assert.doesNotMatch(page.problem ?? '', /cannot be rendered|is missing/);
  });

  test('withheld upstream, the row says so without naming a setting that would not help', () => {
    const inbox = new Inbox({ hub: 'h1' });
    inbox.apply(delivered('none'));
    const [item] = inbox.open();
    assert.ok(item);
    assert.match(promptLine(item), /withheld before it reached this window/);
    assert.doesNotMatch(promptLine(item), /captureCeiling|cannot be rendered/);
    assert.equal(pageRequest(item, { state: 'unknown' }).withheld, 'upstream');
  });
});
