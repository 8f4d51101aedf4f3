// The inline answer's step logic (issue 15) in plain Node: which requests fit
// a quick input, each step read and checked with the page's own code
// (formValidation.ts, answerCheck.ts), capture-aware names, "Other…", the
// hand-off of a partial answer to the page as its draft, and the words the
// quick input shows (src/words/inlineWords.ts, no vscode import).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerProblem } from '../../src/aep/answerCheck';
import { parseAttentionRequest, type AttentionRequest, type SelectField } from '../../src/aep/attention';
import type { AepEvent } from '../../src/aep/envelope';
import { Inbox, type AttentionItem } from '../../src/inbox/inbox';
import { fieldValue, type SimpleField } from '../../src/answer/fieldDraft';
import {
  draftIsEmpty, fieldDraftOf, fieldProblem, formAnswer, INLINE_LIMITS, inlinePlan, optionAnswer, replyAnswer, selectDraft, selectPickOf,
  checkedRequestOf, sendCheck, stepOfField, withField, withReply, type InlinePlan, type InlineStep,
} from '../../src/answer/inlinePlan';
import type { CaptureLevel } from '../../src/aep/levels';
import { choiceText, fieldPrompt, fieldQuestion, inlineTitle, optionText, replacementsLine, sensitivityText } from '../../src/words/inlineWords';
import { forSurface, ICON_SYNTAX, LINK_SYNTAX } from '../../src/words/untrustedText';
import { hostToWebviewSchema, OTHER_CHOICE_DRAFT, pageDraftSchema, webviewStateSchema, type PageDraft } from '../../src/shared/webviewMessages';
import { hostileStrings } from '../support/hostileCorpus';
import { goldenForm, requestEvent } from '../support/pageRequests';
import type { RequestData, WireField } from '../support/events';

type FieldStep = Extract<InlineStep, { kind: 'field' }>;

function parsed(event: AepEvent): AttentionRequest {
  const result = parseAttentionRequest(event);
  assert.ok(result.ok, result.ok ? '' : result.problem.message);
  return result.value;
}

const request = (data: RequestData, capture: CaptureLevel = 'redacted'): AttentionRequest => parsed(requestEvent(data, { capture }));

function itemOf(event: AepEvent): Readonly<AttentionItem> {
  const inbox = new Inbox();
  inbox.apply(event);
  const [item] = inbox.open();
  assert.ok(item);
  return item;
}

function planOf(value: AttentionRequest): InlinePlan {
  const plan = inlinePlan(value);
  assert.ok(plan, `expected ${value.kind} to fit the quick input`);
  return plan;
}

function fieldStep(plan: InlinePlan, fieldId: string): FieldStep {
  const step = plan.steps.find((s): s is FieldStep => s.kind === 'field' && s.field.id === fieldId);
  assert.ok(step, `no step for ${fieldId}`);
  return step;
}

const ALLOW_DENY = [{ id: 'allow', label: 'Allow once' }, { id: 'deny', label: 'Deny' }];
const FIVE_FIELDS: WireField[] = [
  { id: 'name', type: 'string', label: 'Service name', required: true },
  { id: 'replicas', type: 'number', label: 'Replicas', min: 1, max: 3 },
  { id: 'staged', type: 'boolean', label: 'Stage first?' },
  { id: 'db', type: 'select', label: 'Database', other: true, choices: [{ id: 'pg', label: 'PostgreSQL' }, { id: 'lite', label: 'SQLite' }] },
  { id: 'regions', type: 'select', label: 'Regions', multi: true, required: true, choices: [{ id: 'us', label: 'us-east' }, { id: 'eu', label: 'eu-west' }] },
];
const fiveFieldForm = (capture: CaptureLevel = 'redacted') => request({ kind: 'form', prompt: 'Configure the deployment', fields: FIVE_FIELDS }, capture);
const choices = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `c${i}`, label: `choice ${i}` }));

describe('which requests fit the quick input', () => {
  const cases: Array<{ name: string; data: RequestData; fits: boolean; steps?: string[] }> = [
    { name: 'a permission with options', data: { kind: 'permission', prompt: 'Run rm -rf build?', options: ALLOW_DENY }, fits: true, steps: ['option', 'reply'] },
    { name: 'a question (free text only)', data: { kind: 'input', prompt: 'Which branch?' }, fits: true, steps: ['reply'] },
    { name: 'a review without options', data: { kind: 'review', prompt: 'Look at the diff' }, fits: true, steps: ['reply'] },
    { name: 'an unknown kind with options (shown as prompt and reply, plus its options)', data: { kind: 'x.acme.vote', prompt: 'Pick', options: ALLOW_DENY }, fits: true, steps: ['option', 'reply'] },
    { name: 'a form of five simple fields', data: { kind: 'form', prompt: 'Configure', fields: FIVE_FIELDS }, fits: true, steps: ['field', 'field', 'field', 'field', 'field'] },
    { name: 'a form of six fields', data: { kind: 'form', prompt: 'Configure', fields: [...FIVE_FIELDS, { id: 'sixth', type: 'string', label: 'Sixth' }] }, fits: false },
    { name: 'a form with a field type this extension cannot answer, even optional', data: { kind: 'form', prompt: 'Configure', fields: [{ id: 'when', type: 'date', label: 'When' }] }, fits: false },
    { name: 'a select of 50 choices', data: { kind: 'form', prompt: 'Pick', fields: [{ id: 's', type: 'select', label: 'S', choices: choices(INLINE_LIMITS.choices) }] }, fits: true, steps: ['field'] },
    { name: 'a select of 51 choices', data: { kind: 'form', prompt: 'Pick', fields: [{ id: 's', type: 'select', label: 'S', choices: choices(INLINE_LIMITS.choices + 1) }] }, fits: false },
    { name: 'an out-of-band card (AEP-0008 §2)', data: { kind: 'permission', prompt: 'Approve in the terminal', options: ALLOW_DENY, respond_via: ['oob'] }, fits: false },
    { name: 'a request answered through control or out of band', data: { kind: 'permission', prompt: 'Approve', options: ALLOW_DENY, respond_via: ['oob', 'control'] }, fits: true, steps: ['option', 'reply'] },
    { name: 'a sign-in (auth) request', data: { kind: 'auth', prompt: 'Paste your token' }, fits: false },
  ];
  for (const { name, data, fits, steps } of cases) {
    test(`${name}: ${fits ? 'quick input' : 'the page'}`, () => {
      const plan = inlinePlan(request(data));
      assert.equal(plan !== undefined, fits);
      if (steps) assert.deepEqual(plan?.steps.map((step) => step.kind), steps);
    });
  }

  test('the golden four-field form fits, one step per field, in order', () => {
    const plan = planOf(parsed(goldenForm()));
    assert.equal(plan.mode, 'form');
    assert.deepEqual(plan.steps.map((step) => (step.kind === 'field' ? [step.position, step.field.id, step.field.type] : step.kind)), [
      [1, 'name', 'string'], [2, 'staged', 'boolean'], [3, 'regions', 'select'], [4, 'db', 'select'],
    ]);
  });
});

describe('each step, checked as the page checks it', () => {
  const plan = planOf(fiveFieldForm());
  const field = (id: string): SimpleField => fieldStep(plan, id).field;

  test('number: parsed like the page (trimmed, text that is no number stays text), min and max enforced', () => {
    const replicas = field('replicas');
    assert.equal(fieldValue(replicas, { value: ' 2 ' }), 2);
    assert.equal(fieldProblem(replicas, { value: '2' }), undefined);
    assert.deepEqual(fieldProblem(replicas, { value: '0' }), { code: 'below-min', min: 1 });
    assert.deepEqual(fieldProblem(replicas, { value: '4' }), { code: 'above-max', max: 3 });
    assert.equal(fieldValue(replicas, { value: 'two' }), 'two');
    assert.deepEqual(fieldProblem(replicas, { value: 'two' }), { code: 'not-number' });
    assert.deepEqual(fieldProblem(replicas, { value: 'Infinity' }), { code: 'not-number' });
  });

  test('required is enforced; an optional field left empty passes and is left out of the answer', () => {
    assert.deepEqual(fieldProblem(field('name'), { value: '' }), { code: 'required' });
    assert.deepEqual(fieldProblem(field('name'), { value: '   ' }), { code: 'required' });
    assert.deepEqual(fieldProblem(field('name'), undefined), { code: 'required' });
    assert.equal(fieldProblem(field('replicas'), { value: '' }), undefined);
    assert.equal(fieldValue(field('replicas'), { value: '  ' }), undefined);
    const built = formAnswer(fiveFieldForm(), plan, { fields: { name: { value: 'billing' }, replicas: { value: '' }, regions: { value: ['us'] } } });
    assert.ok(built.ok, JSON.stringify(built));
    assert.deepEqual(built.answer, { values: { name: 'billing', staged: false, regions: ['us'] } });
  });

  test('boolean: an untouched box is "no", as on the page', () => {
    assert.equal(fieldValue(field('staged'), undefined), false);
    assert.equal(fieldValue(field('staged'), { value: true }), true);
    assert.equal(fieldProblem(field('staged'), undefined), undefined);
  });

  test('single select: a listed choice, nothing, or "Other…" with its own text when the field allows it', () => {
    const db = field('db') as SelectField;
    assert.equal(fieldValue(db, selectDraft(db, { choices: ['pg'] })), 'pg');
    assert.equal(fieldValue(db, selectDraft(db, { choices: [] })), undefined);
    assert.deepEqual(selectDraft(db, { choices: [], other: 'MariaDB' }), { value: OTHER_CHOICE_DRAFT, other: 'MariaDB' });
    assert.equal(fieldValue(db, selectDraft(db, { choices: [], other: '  MariaDB ' })), 'MariaDB');
    assert.equal(fieldValue(db, selectDraft(db, { choices: [], other: '  ' })), undefined, 'no text, no answer');
    assert.equal(fieldProblem(db, selectDraft(db, { choices: [], other: 'MariaDB' })), undefined);
  });

  test('"Other…" on a select that does not allow it: never offered, and a stray value is refused with the page\'s words', () => {
    const strict = planOf(request({ kind: 'form', prompt: 'P', fields: [{ id: 'db', type: 'select', label: 'Database', required: true, choices: [{ id: 'pg', label: 'PostgreSQL' }] }] }));
    const db = fieldStep(strict, 'db').field as SelectField;
    assert.deepEqual(selectDraft(db, { choices: [], other: 'MariaDB' }), { value: '' }, 'the draft has no "Other…" to hold');
    assert.deepEqual(fieldProblem(db, selectDraft(db, { choices: [], other: 'MariaDB' })), { code: 'required' });
    assert.deepEqual(fieldProblem(db, { value: 'MariaDB' }), { code: 'unlisted-choice', other: false });
  });

  test('multi select: ticked choices, plus "Other…" text when given; none ticked fails a required field', () => {
    const regions = field('regions') as SelectField;
    assert.deepEqual(fieldValue(regions, selectDraft(regions, { choices: ['us', 'eu'] })), ['us', 'eu']);
    assert.deepEqual(fieldProblem(regions, selectDraft(regions, { choices: [] })), { code: 'required' });
    const open = planOf(request({ kind: 'form', prompt: 'P', fields: [{ id: 'r', type: 'select', label: 'R', multi: true, other: true, choices: [{ id: 'us', label: 'us' }] }] }));
    const withOther = fieldStep(open, 'r').field as SelectField;
    assert.deepEqual(fieldValue(withOther, selectDraft(withOther, { choices: ['us'], other: 'mars-1' })), ['us', 'mars-1']);
    assert.deepEqual(fieldValue(withOther, selectDraft(withOther, { choices: ['us'], other: '' })), ['us'], '"Other…" ticked without text adds nothing');
    assert.equal(fieldProblem(withOther, selectDraft(withOther, { choices: [] })), undefined, 'optional: nothing ticked passes');
  });

  test('a select draft reads back as the pick it came from (choices the field does not list are dropped)', () => {
    const regions = field('regions') as SelectField;
    const db = field('db') as SelectField;
    assert.deepEqual(selectPickOf(regions, selectDraft(regions, { choices: ['eu', 'us'] })), { choices: ['eu', 'us'] });
    assert.deepEqual(selectPickOf(db, selectDraft(db, { choices: [], other: 'MariaDB' })), { choices: [], other: 'MariaDB' });
    assert.deepEqual(selectPickOf(db, { value: 'gone' }), { choices: [] });
    assert.deepEqual(selectPickOf(db, undefined), { choices: [] });
  });
});

describe('capture-aware names: a placeholder is never shown as the question', () => {
  // At capture metadata a conformant emitter sends placeholders; these labels are distinctive so a leak shows.
  const leaky = (capture: CaptureLevel) => request({
    kind: 'form', prompt: 'A form with 2 fields',
    fields: [
      { id: 'name', type: 'string', label: 'LEAKED-FIELD-LABEL', required: true },
      { id: 'db', type: 'select', label: 'LEAKED-SELECT-LABEL', choices: [{ id: 'pg', label: 'LEAKED-CHOICE-LABEL' }] },
    ],
  }, capture);

  test('structural (metadata, none): the page\'s placeholder wording with the position and the id, never the label', () => {
    for (const capture of ['metadata', 'none'] as const) {
      const plan = planOf(leaky(capture));
      const name = fieldStep(plan, 'name');
      const db = fieldStep(plan, 'db');
      assert.deepEqual(name.name, { withheld: true, position: 1, id: 'name', capture });
      assert.equal(fieldQuestion(name), `Question 1 · label withheld at capture ${capture} (field name, string)`);
      assert.equal(fieldQuestion(db), `Question 2 · label withheld at capture ${capture} (field db, select)`);
      assert.equal(choiceText(db.choices[0]!.name), 'Choice 1 (id pg)');
      for (const shown of [fieldQuestion(name), fieldPrompt(name), fieldQuestion(db), fieldPrompt(db), choiceText(db.choices[0]!.name)]) {
        assert.doesNotMatch(shown, /LEAKED/);
      }
    }
  });

  test('redacted and full: the label itself', () => {
    for (const capture of ['redacted', 'full'] as const) {
      const plan = planOf(leaky(capture));
      assert.equal(fieldQuestion(fieldStep(plan, 'name')), 'LEAKED-FIELD-LABEL');
      assert.equal(choiceText(fieldStep(plan, 'db').choices[0]!.name), 'LEAKED-CHOICE-LABEL');
      assert.deepEqual(fieldStep(plan, 'name').name, { withheld: false, text: 'LEAKED-FIELD-LABEL', honesty: capture === 'full' ? 'verbatim' : 'redacted' });
    }
  });

  test('options at structural capture read as the page\'s buttons: "Option 1 (allow)"', () => {
    const plan = planOf(request({ kind: 'permission', prompt: 'claude-code requests permission: Bash', options: ALLOW_DENY }, 'metadata'));
    const [step] = plan.steps;
    assert.equal(step?.kind, 'option');
    if (step?.kind !== 'option') return;
    assert.deepEqual(step.options.map((option) => optionText(option.name)), ['Option 1 (allow)', 'Option 2 (deny)']);
    const real = planOf(request({ kind: 'permission', prompt: 'Run it?', options: ALLOW_DENY }));
    assert.deepEqual(real.steps[0]?.kind === 'option' ? real.steps[0].options.map((option) => optionText(option.name)) : [], ['Allow once', 'Deny']);
  });

  test('the title leads with the agent; a synthesized prompt says so before the prompt', () => {
    const event = requestEvent({ kind: 'permission', prompt: 'claude-code requests permission: Bash', options: ALLOW_DENY }, { capture: 'metadata' });
    assert.equal(inlineTitle(itemOf(event), planOf(parsed(event))), 'claude-code · permission · synthesized at capture metadata: claude-code requests permission: Bash');
    const real = requestEvent({ kind: 'input', prompt: 'Which branch?' });
    assert.equal(inlineTitle(itemOf(real), planOf(parsed(real))), 'claude-code · question: Which branch?');
    assert.equal(inlineTitle(itemOf(real), planOf(parsed(real)), 'laptop'), 'claude-code via laptop · question: Which branch?', 'with several hubs, the hub is named');
  });

  test('a field\'s prompt says whether it is required and its rule, whatever the label holds (hostile corpus)', () => {
    for (const { name, text } of hostileStrings()) {
      const plan = planOf(request({ kind: 'form', prompt: 'P', fields: [{ id: 'n', type: 'number', label: text, required: true, min: 1, max: 3 }] }));
      const shown = forSurface('quickPickDetail', fieldPrompt(fieldStep(plan, 'n')));
      assert.match(shown, /\(required\) A number from 1 to 3\.$/, `${name}: the marker and the rule survive the label`);
      assert.equal(shown.match(LINK_SYNTAX), null, `${name}: no live link`);
      assert.equal(shown.match(ICON_SYNTAX), null, `${name}: no live icon`);
    }
  });
});

describe('the partial answer becomes the page\'s draft', () => {
  test('a draft built step by step is what the page saves and takes in init, and reads back to the same values', () => {
    const value = fiveFieldForm();
    const plan = planOf(value);
    const db = fieldStep(plan, 'db').field as SelectField;
    const regions = fieldStep(plan, 'regions').field as SelectField;
    let draft: PageDraft = {};
    draft = withField(draft, 'name', { value: 'billing-api' });
    draft = withField(draft, 'replicas', { value: 'two' });
    draft = withField(draft, 'staged', { value: true });
    draft = withField(draft, 'db', selectDraft(db, { choices: [], other: 'MariaDB' }));
    draft = withField(draft, 'regions', selectDraft(regions, { choices: ['eu'] }));
    const saved = webviewStateSchema.safeParse(JSON.parse(JSON.stringify({ key: 'k', ...draft })));
    assert.ok(saved.success, 'the page\'s setState schema reads it');
    const handed = pageDraftSchema.safeParse(draft);
    assert.ok(handed.success);
    const init = hostToWebviewSchema.safeParse({ type: 'init', request: {}, now: 0, generation: 1, draft });
    assert.ok(!init.success && init.error.issues.every((issue) => issue.path[0] === 'request'), 'only the (omitted) request is wrong with that init');
    for (const step of plan.steps) {
      if (step.kind !== 'field') continue;
      assert.deepEqual(fieldValue(step.field, fieldDraftOf(saved.data, step.field.id)), fieldValue(step.field, fieldDraftOf(draft, step.field.id)), step.field.id);
    }
    // Invalid input goes to the page as typed, so the page shows the same problem there.
    assert.deepEqual(fieldProblem(fieldStep(plan, 'replicas').field, fieldDraftOf(saved.data, 'replicas')), { code: 'not-number' });
  });

  test('a reply draft, and an empty draft (nothing to hand over)', () => {
    assert.deepEqual(withReply({}, 'main, please'), { reply: 'main, please' });
    assert.deepEqual(withReply({ reply: 'x' }, ''), {});
    assert.ok(draftIsEmpty({}));
    assert.ok(draftIsEmpty({ reply: '' }));
    assert.ok(!draftIsEmpty({ fields: { name: { value: '' } } }), 'a field visited and left empty is still the person\'s input');
  });

  test('a field id that spells a prototype key stays a plain key', () => {
    const draft = withField({}, 'constructor', { value: 'x' });
    assert.deepEqual(Object.keys(draft.fields ?? {}), ['constructor']);
    assert.equal(fieldDraftOf({}, 'constructor'), undefined, 'never read from the prototype');
    assert.equal(fieldDraftOf({}, 'toString'), undefined);
  });
});

describe('the answer sent is the one the page would send, and only when the page would send it', () => {
  const golden = parsed(goldenForm());
  const plan = planOf(golden);
  const regions = fieldStep(plan, 'regions').field as SelectField;
  const db = fieldStep(plan, 'db').field as SelectField;
  const cases: Array<{ name: string; draft: PageDraft; values?: Record<string, unknown>; fieldId?: string }> = [
    {
      name: 'the golden answer (an "Other…" database)',
      draft: { fields: { name: { value: 'billing-api' }, staged: { value: true }, regions: selectDraft(regions, { choices: ['1', '3'] }), db: selectDraft(db, { choices: [], other: 'MariaDB' }) } },
      values: { name: 'billing-api', staged: true, regions: ['1', '3'], db: 'MariaDB' },
    },
    { name: 'only the required field', draft: { fields: { name: { value: 'x' } } }, values: { name: 'x', staged: false } },
    { name: 'the required name missing', draft: { fields: { staged: { value: true } } }, fieldId: 'name' },
    { name: 'a region that is not listed', draft: { fields: { name: { value: 'x' }, regions: { value: ['9'] } } }, fieldId: 'regions' },
  ];
  for (const { name, draft, values, fieldId } of cases) {
    test(name, () => {
      const built = formAnswer(golden, plan, draft);
      if (values) {
        assert.ok(built.ok, JSON.stringify(built));
        assert.deepEqual(built.answer, { values });
        assert.equal(answerProblem(golden, built.answer), undefined, 'the host\'s check passes it');
      } else {
        assert.ok(!built.ok);
        assert.equal(built.problem.fieldId, fieldId);
        assert.equal(built.step, stepOfField(plan, fieldId));
        assert.deepEqual(built.problem, answerProblem(golden, { values: Object.fromEntries(plan.steps.flatMap((s) => (s.kind === 'field' && fieldValue(s.field, fieldDraftOf(draft, s.field.id)) !== undefined ? [[s.field.id, fieldValue(s.field, fieldDraftOf(draft, s.field.id))]] : []))) }));
      }
    });
  }

  test('a reply is trimmed and must not be empty; an option must be one of the request\'s', () => {
    const permission = request({ kind: 'permission', prompt: 'Run it?', options: ALLOW_DENY });
    const replyPlan = planOf(permission);
    const reply = replyAnswer(permission, replyPlan, { reply: '  only the build folder \n' });
    assert.deepEqual(reply, { ok: true, answer: { text: 'only the build folder' } });
    const empty = replyAnswer(permission, replyPlan, { reply: '   ' });
    assert.ok(!empty.ok);
    assert.equal(empty.step, 1, 'back to the reply step');
    assert.deepEqual(optionAnswer(permission, replyPlan, 'allow'), { ok: true, answer: { option: 'allow' } });
    const sudo = optionAnswer(permission, replyPlan, 'sudo');
    assert.ok(!sudo.ok);
    assert.deepEqual(sudo.problem, { code: 'unknown-option', option: 'sudo' });
  });
});

describe('honest capture before the answer leaves', () => {
  const home = '/home/alice';
  const form = (fields: WireField[], capture: CaptureLevel = 'redacted') => request({ kind: 'form', prompt: 'P', fields }, capture);

  test('text the pipeline passes goes as it is; no free text at all needs nothing', () => {
    const question = request({ kind: 'input', prompt: 'Which branch?' });
    assert.deepEqual(sendCheck(checkedRequestOf(question), { text: 'main' }, { home }), { kind: 'send' });
    const permission = request({ kind: 'permission', prompt: 'Run it?', options: ALLOW_DENY });
    assert.deepEqual(sendCheck(checkedRequestOf(permission), { option: 'allow' }, { home }), { kind: 'send' });
  });

  test('a credential in a reply: the person chooses redacted or as typed; the line names the part and the kind, not the secret', () => {
    const question = request({ kind: 'input', prompt: 'Which token?' });
    const plan = planOf(question);
    const secret = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const answer = { text: `use ${secret} from ${home}/repo` };
    const check = sendCheck(checkedRequestOf(question), answer, { home });
    assert.equal(check.kind, 'redaction');
    if (check.kind !== 'redaction') return;
    assert.equal(check.redaction.answer.text, 'use [REDACTED:secret] from ~/repo');
    const line = replacementsLine(check.redaction, answer, plan);
    assert.match(line, /^Reply → \[REDACTED:secret\] \(GitHub token\) · Reply → ~$/);
    assert.doesNotMatch(line, /ghp_/);
  });

  test('a field that asks for a secret is confirmed even when nothing would change; a withheld label asks nothing', () => {
    const labelled = form([{ id: 'k', type: 'string', label: 'Your API key' }]);
    const check = sendCheck(checkedRequestOf(labelled), { values: { k: 'none' } }, { home });
    assert.equal(check.kind, 'sensitive');
    if (check.kind === 'sensitive') assert.equal(sensitivityText(check.sensitive, planOf(labelled)), 'The field "Your API key" asks for a secret.');
    const withheld = form([{ id: 'k', type: 'string', label: 'Your API key' }], 'metadata');
    assert.deepEqual(sendCheck(checkedRequestOf(withheld), { values: { k: 'none' } }, { home }), { kind: 'send' });
    const byId = form([{ id: 'password', type: 'string', label: 'x' }], 'metadata');
    const dropped = sendCheck(checkedRequestOf(byId), { values: { password: 'correct horse' } }, { home });
    assert.equal(dropped.kind, 'redaction', 'a credential-named field goes whole');
    if (dropped.kind === 'redaction') {
      assert.deepEqual(dropped.redaction.answer, { values: { password: '[REDACTED:secret]' } });
      assert.equal(dropped.sensitive?.kind, 'secret-field');
      assert.equal(sensitivityText(dropped.sensitive!, planOf(byId)), 'The field "Question 1 (password)" asks for a secret.');
    }
    assert.equal(fieldStep(planOf(byId), 'password').secret, true, 'its input box hides what is typed');
  });
});
