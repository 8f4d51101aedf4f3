// Words of the inline answer's quick input (issue 15). No vscode import, like
// describe.ts: they are built with `t` and tested in plain Node. Where the
// request page says the same thing, both take the words from src/shared
// (withheld labels, credential names), so one translation serves both.
// Agent text enters only as capped, inert pieces; surfaces.ts sanitises the
// whole string again for the place it is shown.
import * as l10n from '@vscode/l10n';
import type { Answer } from '../aep/attention';
import type { AnswerPart, AnswerRedaction } from '../aep/capture';
import { credentialKinds } from '../aep/credentials';
import type { SimpleField } from '../answer/fieldDraft';
import { fieldProblem, type InlinePlan, type InlineStep, type Naming, type Sensitivity } from '../answer/inlinePlan';
import type { AttentionItem } from '../inbox/inbox';
import { distinctOptions, readAlike, readsLikeOurs } from '../answer/ownItems';
import { ownActionWords } from '../shared/ownActionWords';
import { credentialName } from '../shared/credentialNames';
import { fieldHint } from '../shared/fieldWords';
import { agentItemWithId, choiceIdNote, fieldIdNote, withheldChoiceLabel, withheldFieldLabel, withheldOptionLabel } from '../shared/withheldLabelWords';
import { fieldProblemText } from '../shared/problemWords';
import type { FieldDraft } from '../shared/webviewMessages';
import { agentName, kindLabel } from './describe';
import type { PickItem } from './pickItem';
import { forSurface, piece, PIECES, SURFACES, withRule } from './untrustedText';

type FieldStep = Extract<InlineStep, { kind: 'field' }>;

/** Room left for the prompt in a title, so the provenance before it always shows. */
const TITLE_PROMPT = 120;

/**
 * "claude-code · permission: Allow Bash?": whose question, then what it is.
 * At capture metadata the prompt was synthesized from structure, and the
 * title says so before the prompt, where a long prompt cannot push it out.
 */
export function inlineTitle(item: Readonly<AttentionItem>, plan: InlinePlan, hub?: string): string {
  // With several hubs the title says which one the request came through: "agent via hub".
  const agent = hub === undefined ? agentName(item.agent) : l10n.t('{0} via {1}', agentName(item.agent), piece(hub, PIECES.agent));
  const kind = kindLabel(item);
  const prompt = piece(plan.prompt.text, TITLE_PROMPT);
  if (prompt === '') return l10n.t('{0} · {1}', agent, kind);
  return plan.prompt.synthesized
    ? l10n.t('{0} · {1} · synthesized at capture {2}: {3}', agent, kind, plan.prompt.capture, prompt)
    : l10n.t('{0} · {1}: {2}', agent, kind, prompt);
}

/** A field's question: its label, or at structural capture the page's placeholder wording with the field's id, never the label. */
export function fieldQuestion(step: FieldStep): string {
  const name = step.name;
  if (!name.withheld) return piece(name.text, PIECES.prompt);
  return `${withheldFieldLabel(name.position, name.capture)} ${fieldIdNote(piece(name.id, PIECES.kind), step.field.type)}`;
}

/** A select's choice as an item label. */
export function choiceText(name: Naming): string {
  if (!name.withheld) return name.text;
  return `${withheldChoiceLabel(name.position)} ${choiceIdNote(piece(name.id, PIECES.kind))}`;
}

/** A request's option as an item label, as the page's option button reads. */
export function optionText(name: Naming): string {
  return name.withheld ? withheldOptionLabel(name.position, piece(name.id, PIECES.kind)) : name.text;
}

/** What the input box says under a field: the question, whether it must be answered, and its rule. */
export function fieldPrompt(step: FieldStep): string {
  const question = fieldQuestion(step);
  const asked = step.field.required ? l10n.t('{0} (required)', question) : l10n.t('{0} (optional: Enter leaves it empty)', question);
  const hint = fieldHint(step.field);
  return hint ? `${asked} ${hint}` : asked;
}

/** A field named in a sentence: its label, or "Question 2 (db)" at structural capture (the page's `fieldName`). */
function fieldName(plan: InlinePlan, fieldId: string): string {
  const step = plan.steps.find((s): s is FieldStep => s.kind === 'field' && s.field.id === fieldId);
  if (!step) return piece(fieldId, PIECES.kind);
  return step.name.withheld ? l10n.t('Question {0} ({1})', step.position, piece(fieldId, PIECES.kind)) : piece(step.name.text, PIECES.prompt);
}

export function sensitivityText(sensitive: Sensitivity, plan: InlinePlan): string {
  switch (sensitive.kind) {
    case 'auth':
      return l10n.t('This is an authentication request: what you type may be a credential.');
    case 'secret-field':
      return l10n.t('The field "{0}" asks for a secret.', fieldName(plan, sensitive.fieldId));
    case 'secret-words':
      return l10n.t('The field "{0}" asks for a secret: your reply in words is kept as one.', fieldName(plan, sensitive.fieldId));
  }
}

function partName(part: AnswerPart, answer: Answer, plan: InlinePlan): string {
  if (part.kind === 'text') return answer.option !== undefined ? l10n.t('Reason') : l10n.t('Reply');
  return fieldName(plan, part.fieldId);
}

/** Why the answer is stopped before it leaves: a credential by name, or text the pipeline replaces. */
export function redactionIntro(redaction: AnswerRedaction): string {
  const kinds = credentialKinds(redaction.changes.flatMap((change) => change.replacements));
  return kinds.length > 0
    ? l10n.t('Your answer looks like it contains a credential ({0}).', kinds.map(credentialName).join(', '))
    : l10n.t('Your answer contains text that the redaction pipeline replaces before it leaves this editor.');
}

/** Most replacements named on the one line a quick pick item has; the rest are counted. */
const NAMED_REPLACEMENTS = 4;

/**
 * What "Send redacted" replaces, part by part: "Reply → [REDACTED:secret]
 * (GitHub token)". The original is not repeated: the person just typed it,
 * and the quick input is a place others may glance at.
 */
export function replacementsLine(redaction: AnswerRedaction, answer: Answer, plan: InlinePlan): string {
  const all = redaction.changes.flatMap((change) => change.replacements.map((replacement) => ({ part: change.part, replacement })));
  const named = all.slice(0, NAMED_REPLACEMENTS).map(({ part, replacement }) => {
    const kind = replacement.kind !== undefined && replacement.confident ? ` ${l10n.t('({0})', credentialName(replacement.kind))}` : '';
    return `${l10n.t('{0} → {1}', partName(part, answer, plan), replacement.replacement)}${kind}`;
  });
  const more = all.length > NAMED_REPLACEMENTS ? [l10n.t('…and {0} more.', all.length - NAMED_REPLACEMENTS)] : [];
  return [...named, ...more].join(' · ');
}

// ---- lists that mix the agent's items with ours --------------------------------

/** An item of a pick as the host builds it: surfaces.ts's own, `icon` only ever on our items. */
export type ListItem<V> = PickItem<V>;

/** An item, or a separator whose label heads the items after it. */
export type Listed<V> = ListItem<V> | { readonly separator: string };

/** An agent-authored item: its label is the agent's text (optionText, choiceText), shown without icons. */
export interface AgentItem<V> {
  readonly label: string;
  readonly id: string;
  readonly value: V;
}

/**
 * A pick that lists the agent's items beside our own: the agent's first, in
 * its order, as plain text; then, apart after a separator, ours, each with
 * its icon (agent text never renders one: untrustedText breaks `$(`). An
 * agent label that reads like one of ours (ownItems.ts) says whose it is,
 * after the label: typed words that match our item then rank ours first
 * (VS Code puts the shorter of two prefix matches first), and the row
 * reads differently. The rule compares with every word of the registry
 * (ownActionWords.ts) and every own item of the pick.
 */
export function mixedItems<V>(agent: ReadonlyArray<AgentItem<V>>, ours: ReadonlyArray<ListItem<V>>): Array<Listed<V>> {
  const own = [...ownActionWords(), ...ours.map((item) => item.label)];
  // Two of the agent's items that read alike are told apart by their ids too (ownItems.ts readAlike).
  const alike = readAlike(agent.map((item) => item.label));
  const theirs = agent.map((item, index): ListItem<V> => ({
    label: alike[index] || readsLikeOurs(item.label, own) ? agentItemWithId(item.label, piece(item.id, PIECES.kind)) : item.label,
    value: item.value,
  }));
  if (theirs.length === 0) return [...ours];
  return ours.length === 0 ? theirs : [...theirs, { separator: '' }, ...ours];
}

/**
 * The options a notification shows as buttons beside ours: none that reads
 * like any of our own words (the registry, ownActionWords.ts: this
 * notification's buttons, "Answer 3 Similar…", the inline answer's items,
 * which the person knows as this editor's; "Reply with text…" as a button
 * would send the agent's option at one click), nor like another option, nor
 * one whose label a button cuts: "Allow writes to /etc and all its su…"
 * would be sent at one click with the rest of its words unread, and a toast
 * has nowhere to show them. Such an option is answered from "Answer" or the
 * page, which name it in full.
 */
export function optionButtons<T extends { label: string }>(options: readonly T[]): T[] {
  const button = SURFACES.notificationButton;
  const whole = (label: string) => withRule(button, label) === withRule({ ...button, cap: button.cap * 16 }, label);
  return distinctOptions(options, [], (label) => forSurface('notificationButton', label)).filter((option) => whole(option.label));
}

/** What is wrong with a field's drafted value, in the words the page shows under the field. */
export function fieldProblemWords(field: SimpleField, draft: FieldDraft | undefined): string | undefined {
  const problem = fieldProblem(field, draft);
  return problem && fieldProblemText(problem);
}
