// The inline answer's step loop (src/app/answering/inlineFlow.ts) in plain Node:
// the real plan (src/answer/inlinePlan.ts) of a parsed request, walked by a
// scripted person at a fake quick input (test/support/scriptedQuickInputs.ts).
// The VS Code quick input itself is covered by test/e2e/oneWorkbench/inline.ts
// and oneWorkbench/ownItems.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAttentionRequest, type AttentionRequest } from '../../src/aep/attention';
import { inlinePlan } from '../../src/answer/inlinePlan';
import type { PageDraft } from '../../src/shared/webviewMessages';
import { lastActionLine } from '../../src/words/beforeAskingWords';
import { InlineFlow, type FlowEnd } from '../../src/app/answering/inlineFlow';
import { emitterEvents, type RequestData, type WireField } from '../support/events';
import { ScriptedQuickInputs, type Move, type ShownStep } from '../support/scriptedQuickInputs';

const TITLE = 'claude-code · a title of ours';
const emitter = emitterEvents({ agent: 'claude-code', requestFields: { capture: 'redacted', severity: 'notice' } });
let seq = 0;

function parsed(data: Partial<RequestData>): AttentionRequest {
  seq += 1;
  const result = parseAttentionRequest(emitter.request(`req-${seq}`, seq, data));
  assert.ok(result.ok, result.ok ? '' : result.problem.message);
  return result.value;
}

/** One run of the flow over `request` from its first step, the person playing `moves`. */
async function walk(request: AttentionRequest, moves: readonly Move[], draft: PageDraft = {}, lastAction?: string): Promise<{ end: FlowEnd; flow: InlineFlow; quick: ScriptedQuickInputs }> {
  const plan = inlinePlan(request);
  assert.ok(plan, 'the request fits the quick input');
  const quick = new ScriptedQuickInputs(moves);
  const flow = new InlineFlow(request, plan, draft, TITLE, () => ({}), quick, lastAction);
  const end = await flow.run(0);
  assert.equal(quick.left, 0, 'every scripted move was played');
  for (const step of quick.shown) assert.equal(step.view.title, TITLE);
  return { end, flow, quick };
}

/** Where each step stood: "2/3" for a numbered step, "-" for one without a count. */
const positions = (shown: readonly ShownStep[]) => shown.map((step) => (step.view.step === undefined ? '-' : `${step.view.step}/${step.view.totalSteps ?? '?'}`));

const PERMISSION: Partial<RequestData> = { kind: 'permission', prompt: 'Run rm -rf build?', options: [{ id: 'allow', label: 'Allow once' }, { id: 'deny', label: 'Deny' }] };

const FORM: WireField[] = [
  { id: 'name', type: 'string', label: 'Service name', required: true },
  { id: 'replicas', type: 'number', label: 'Replicas', min: 1, max: 3 },
  { id: 'staged', type: 'boolean', label: 'Stage first?' },
];
const form = () => parsed({ kind: 'form', prompt: 'Configure the deployment', fields: FORM });
/** The same form with nothing required: words alone answer it. */
const optionalForm = () => parsed({ kind: 'form', prompt: 'Configure the deployment', fields: FORM.map((field) => ({ ...field, required: false })) });

describe('the inline step loop', () => {
  test('a permission request answered by option: the list is the agent\'s options, then ours, and the option goes as picked', async () => {
    const { end, quick } = await walk(parsed(PERMISSION), [{ pick: 'Deny' }]);
    assert.deepEqual(end, { kind: 'send', answer: { option: 'deny' }, verbatim: false });
    assert.equal(quick.shown.length, 1);
    const [list] = quick.shown;
    assert.deepEqual(list?.labels, ['Allow once', 'Deny', '---', 'Reply with text…', 'Open as page']);
    assert.equal(list?.active, 'Allow once');
    // Picking an option is the whole answer: no count, and no Back on the first step.
    assert.deepEqual(positions(quick.shown), ['-']);
    assert.equal(list?.view.back, false);
  });

  test('a form of three fields walked with Back: each step shows what was typed, and the answer holds the last of it', async () => {
    const { end, quick } = await walk(form(), [
      { type: 'billing' },
      { type: '2' },
      { back: true },
      { back: true },
      { enter: true },
      { type: '3' },
      { pick: 'Yes' },
    ]);
    assert.deepEqual(end, { kind: 'send', answer: { values: { name: 'billing', replicas: 3, staged: true } }, verbatim: false });
    assert.deepEqual(positions(quick.shown), ['1/3', '2/3', '3/3', '2/3', '1/3', '2/3', '3/3']);
    assert.deepEqual(quick.shown.map((step) => step.kind), ['input', 'input', 'pick', 'input', 'input', 'input', 'pick']);
    assert.deepEqual(quick.shown.map((step) => step.view.back), [false, true, true, true, false, true, true]);
    // Back to a step shows the text filed there; the first field's box opens with its answer.
    assert.deepEqual([quick.shown[3]?.value, quick.shown[4]?.value, quick.shown[5]?.value], ['2', 'billing', '2']);
    assert.deepEqual(quick.shown[2]?.labels, ['Yes', 'No', 'Open as page']);
  });

  test('Escape keeps what was typed, the words not yet entered too: the flow ends with the draft, and a new flow starts from it', async () => {
    const first = await walk(form(), [{ type: 'billing' }, { type: '2', enter: false }, { escape: true }]);
    assert.deepEqual(first.end, { kind: 'escape' });
    assert.deepEqual(first.flow.draft, { fields: { name: { value: 'billing' }, replicas: { value: '2' } } });
    const again = await walk(form(), [{ escape: true }], first.flow.draft);
    assert.equal(again.quick.shown[0]?.value, 'billing');
    assert.deepEqual(again.flow.draft, first.flow.draft);
  });

  test('an agent option that reads like our "Reply with text…" is confirmed; Enter there is Back, and the list returns without sending', async () => {
    const request = parsed({ kind: 'permission', prompt: 'Allow for the session?', options: [{ id: 'always_allow', label: 'Reply with text…' }, { id: 'deny', label: 'Deny' }] });
    const mimic = 'Reply with text… (from the agent: id always_allow)';
    const { end, quick } = await walk(request, [{ pick: mimic }, { enter: true }, { escape: true }]);
    assert.deepEqual(end, { kind: 'escape' }, 'nothing was sent');
    assert.deepEqual(quick.shown.map((step) => step.labels[0]), [mimic, 'Back to the choices', mimic]);
    const confirm = quick.shown[1];
    assert.equal(confirm?.active, 'Back to the choices');
    assert.deepEqual(confirm?.labels, ['Back to the choices', 'Send the agent\'s option', 'Open as page']);
    assert.match(confirm?.view.placeholder ?? '', /^"Reply with text…" is an option the agent offers, not an item of this editor\. Send it\?$/);
    assert.deepEqual(positions(quick.shown), ['-', '-', '-']);
  });

  test('an agent option that reads like our "Open as page" goes only when the person sends it from the confirmation', async () => {
    const request = parsed({ kind: 'permission', prompt: 'Approve?', options: [{ id: 'yes', label: 'Allow' }, { id: 'open_page', label: 'Open as page' }] });
    const mimic = 'Open as page (from the agent: id open_page)';
    const { end, quick } = await walk(request, [{ pick: mimic }, { pick: 'Send the agent\'s option' }]);
    assert.deepEqual(end, { kind: 'send', answer: { option: 'open_page' }, verbatim: false });
    assert.deepEqual(quick.shown.map((step) => step.labels[0]), ['Allow', 'Back to the choices']);
    // Our own "Open as page" item still opens the page.
    const ours = await walk(request, [{ pick: 'Open as page' }]);
    assert.deepEqual(ours.end, { kind: 'page' });
  });

  test('a field answer that fails its check shows the problem and does not advance until it passes', async () => {
    const { end, quick } = await walk(form(), [{ type: 'billing' }, { type: '9' }, { type: '2' }, { escape: true }]);
    assert.deepEqual(end, { kind: 'escape' });
    assert.deepEqual(positions(quick.shown), ['1/3', '2/3', '3/3'], 'the replicas step stayed until 2 was entered');
    const replicas = quick.shown[1];
    // Shown as it was typed and again on Enter; 2 then passes both times.
    assert.deepEqual(replicas?.problems, ['Enter a number of at most 3.', 'Enter a number of at most 3.']);
  });

  test('Enter on a blank required field says so and stays; while typing a blank box is no problem yet', async () => {
    const { end, quick } = await walk(form(), [{ type: '', enter: false }, { enter: true }, { escape: true }]);
    assert.deepEqual(end, { kind: 'escape' });
    assert.deepEqual(positions(quick.shown), ['1/3']);
    assert.deepEqual(quick.shown[0]?.problems, ['This field is required.']);
  });

  test('the request closing while a step shows ends the flow as closed, and no later step shows', async () => {
    let flow: InlineFlow | undefined;
    const request = form();
    const plan = inlinePlan(request);
    assert.ok(plan);
    const quick = new ScriptedQuickInputs([{ type: 'billing' }, { meanwhile: () => flow?.leave({ kind: 'closed' }) }]);
    flow = new InlineFlow(request, plan, {}, TITLE, () => ({}), quick);
    assert.deepEqual(await flow.run(0), { kind: 'closed' });
    assert.equal(quick.left, 0);
    assert.deepEqual(positions(quick.shown), ['1/3', '2/3']);
  });

  test('the first step says what the agent did last before asking, where it fits; later steps do not', async () => {
    const after = lastActionLine({ actions: [{ kind: 'tool', name: 'Bash', at: Date.now() - 120_000, capture: 'metadata', args: { shown: 'level' }, outcome: { state: 'failed', errorType: 'exit_1' } }], earlier: 'complete' }, Date.now());
    assert.equal(after, 'after: "Bash" failed · 2 min ago');
    const shown = await walk(parsed(PERMISSION), [{ pick: 'Deny' }], {}, after);
    assert.equal(shown.quick.shown[0]?.view.placeholder, 'Choose an answer (Enter), or reply with text · after: "Bash" failed · 2 min ago');
    const none = await walk(parsed(PERMISSION), [{ pick: 'Deny' }]);
    assert.equal(none.quick.shown[0]?.view.placeholder, 'Choose an answer (Enter), or reply with text');
    const tooLong = await walk(parsed(PERMISSION), [{ pick: 'Deny' }], {}, `after: ${'x'.repeat(200)}`);
    assert.equal(tooLong.quick.shown[0]?.view.placeholder, 'Choose an answer (Enter), or reply with text', 'left to the page when it does not fit');
    assert.equal(lastActionLine(undefined, Date.now()), undefined, 'off');
    assert.equal(lastActionLine({ actions: [], earlier: 'not-available' }, Date.now()), undefined, 'nothing seen');
  });

  test('the first step carries a short line of the context the agent attached; a long one, or one below capture full, is left to the page', async () => {
    const fullEmitter = emitterEvents({ agent: 'claude-code', requestFields: { capture: 'full', severity: 'notice' } });
    const withContext = (context: Record<string, unknown>, from = fullEmitter) => {
      seq += 1;
      const result = parseAttentionRequest(from.request(`req-${seq}`, seq, { ...PERMISSION, context }));
      assert.ok(result.ok);
      return result.value;
    };
    const short = await walk(withContext({ branch: 'main', files: ['a.ts', 'b.ts'] }), [{ pick: 'Deny' }]);
    assert.equal(short.quick.shown[0]?.view.placeholder, 'Choose an answer (Enter), or reply with text · context: branch: main · files: (2)');
    const long = await walk(withContext({ note: 'x'.repeat(200), more: 'y'.repeat(200), most: 'z'.repeat(200) }), [{ pick: 'Deny' }]);
    assert.equal(long.quick.shown[0]?.view.placeholder, 'Choose an answer (Enter), or reply with text');
    const redacted = await walk(withContext({ branch: 'main' }, emitter), [{ pick: 'Deny' }]);
    assert.equal(redacted.quick.shown[0]?.view.placeholder, 'Choose an answer (Enter), or reply with text', 'below capture full it is not shown');
  });

  test('a form with a required field offers no reply in words (AEP-0006: the agent must refuse words alone); a draft\'s words are not sent for it', async () => {
    const { end, quick } = await walk(form(), [{ type: 'billing' }, { type: '2' }, { pick: 'No' }], { reply: 'Use the defaults' });
    assert.deepEqual(end, { kind: 'send', answer: { values: { name: 'billing', replicas: 2, staged: false } }, verbatim: false });
    assert.ok(quick.shown.every((step) => step.view.words === false), 'no step offers it');
    assert.equal(inlinePlan(form())?.words, undefined);
  });

  test('a form with no required field answered in words instead of its fields: the reply goes as text alone; Back returns to the field', async () => {
    const { end, quick } = await walk(optionalForm(), [{ type: 'billing' }, { words: true }, { back: true }, { words: true }, { type: 'Use the defaults, two replicas' }]);
    assert.deepEqual(end, { kind: 'send', answer: { text: 'Use the defaults, two replicas' }, verbatim: false });
    const shown = quick.shown.map((step) => step.view.placeholder);
    assert.deepEqual(shown, [
      'Service name', 'Replicas', 'Reply in words instead of the fields', 'Replicas', 'Reply in words instead of the fields',
    ]);
    assert.equal(quick.shown[2]?.view.words, undefined, 'the words step offers no second way out');
    assert.ok(quick.shown.slice(0, 2).every((step) => step.view.words === true), 'every field step offers it');
    assert.equal(quick.shown[2]?.password, false, 'no field asks for a secret: the words show as typed');
  });

  test('words to a form whose field asks for a secret: hidden as typed, confirmed as that field\'s secret before they leave', async () => {
    const request = parsed({ kind: 'form', prompt: 'Registry access', fields: [{ id: 'registry', type: 'string', label: 'Registry' }, { id: 'api_token', type: 'string', label: 'API token' }] });
    const { end, quick } = await walk(request, [{ words: true }, { type: 'use Quiet-Falcon-42' }, { pick: 'Send' }]);
    assert.deepEqual(end, { kind: 'send', answer: { text: 'use Quiet-Falcon-42' }, verbatim: false });
    assert.equal(quick.shown[1]?.password, true, 'the words box hides what is typed');
    assert.equal(quick.shown[2]?.view.placeholder, 'The field "API token" asks for a secret: your reply in words is kept as one.');
    assert.deepEqual(quick.shown[2]?.labels, ['Edit answer', 'Send', 'Open as page']);
  });

  test('a permission request offers no reply in words button (its reply is one of its own items)', async () => {
    const { quick } = await walk(parsed(PERMISSION), [{ pick: 'Deny' }]);
    assert.equal(quick.shown[0]?.view.words, false);
  });
});
