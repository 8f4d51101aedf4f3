// The demo agent's requests (AEP-0002 §5.3, AEP-0006, AEP-0008): what each
// named scenario raises. The form payloads are read at runtime from the
// vendored conformance fixtures (golden `s_form`, and the Claude Code
// AskUserQuestion / MCP elicitation mappings at both capture levels), so the
// demo raises exactly what the conformance corpus pins and cannot drift from it.
import * as z from 'zod/mini';
import type { Answer } from '../../../src/aep/attention';
import { parseEnvelope } from '../../../src/aep/envelope';
import type { CaptureLevel } from '../../../src/aep/levels';
import { readAepFixture } from '../../support/fixtures';

export const SCENARIOS = ['form', 'permission', 'input', 'oob', 'expiring'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export function isScenarioName(name: string): name is ScenarioName {
  return (SCENARIOS as readonly string[]).includes(name);
}

/** One request the agent is about to raise. */
export interface RequestPlan {
  scenario: ScenarioName;
  /** Short human name for log lines, e.g. `form s_form` or `form ask-user-question (metadata)`. */
  label: string;
  /** The `capture` of the `attention.requested` event; labels and prompt are placeholders at `metadata`. */
  capture: CaptureLevel;
  /** The `attention.requested` data, without `expires_at` (stamped when raised). */
  data: Record<string, unknown>;
  /** AEP-0008: the option that unmatched text applies on a permission request (never the permissive one). */
  refusingOption?: string;
  /** Answered by the agent itself, out of band, after `afterMs` (AEP-0008 `respond_via: ["oob"]`). */
  outOfBand?: { afterMs: number; answer: Answer; by: string };
  /** `expires_at` lies this far ahead; unanswered, the request ends in `attention.timeout`. */
  expiresInMs?: number;
}

export interface ScenarioTimings {
  /** How far ahead the `expiring` scenario's `expires_at` lies. */
  expireMs: number;
  /** How long the `oob` card waits before the agent answers it in its "own UI". */
  oobMs: number;
}

// ---- the fixture-backed forms -------------------------------------------------

const payload = z.record(z.string(), z.unknown());
const mappingEntry = z.object({ expected_data: payload, expected_data_metadata: payload });
const claudeCodeMappings = z.object({ ask_user_question: mappingEntry, elicitation: mappingEntry });

interface FormVariant {
  label: string;
  capture: CaptureLevel;
  data: Record<string, unknown>;
}

/** The golden corpus' `s_form` request data (four fields: string, boolean, multi-select, select with `other`). */
function goldenFormData(): Record<string, unknown> {
  for (const line of readAepFixture('golden/golden.jsonl').split('\n')) {
    if (!line.includes('"s_form"')) continue;
    const parsed = parseEnvelope(JSON.parse(line));
    if (parsed.ok && parsed.value.type === 'attention.requested' && parsed.value.session === 's_form' && parsed.value.data) {
      return parsed.value.data;
    }
  }
  throw new Error('golden/golden.jsonl has no attention.requested for session s_form');
}

let formVariants: FormVariant[] | undefined;

/** Read once: the five forms the `form` scenario cycles through. */
export function loadFormVariants(): FormVariant[] {
  if (formVariants) return formVariants;
  const mappings = claudeCodeMappings.parse(JSON.parse(readAepFixture('mappings/claude-code.json')));
  formVariants = [
    { label: 'form s_form', capture: 'redacted', data: goldenFormData() },
    { label: 'form ask-user-question (redacted)', capture: 'redacted', data: mappings.ask_user_question.expected_data },
    { label: 'form ask-user-question (metadata)', capture: 'metadata', data: mappings.ask_user_question.expected_data_metadata },
    { label: 'form mcp-elicitation (redacted)', capture: 'redacted', data: mappings.elicitation.expected_data },
    { label: 'form mcp-elicitation (metadata)', capture: 'metadata', data: mappings.elicitation.expected_data_metadata },
  ];
  return formVariants;
}

// ---- the hand-written ones ------------------------------------------------------

const ALLOW_DENY = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];

const PERMISSION_PROMPTS = [
  'demo-agent wants to run: npm publish --dry-run',
  'demo-agent wants to delete the build cache (rm -rf ./out)',
  'demo-agent wants to push branch demo/attention to origin',
];

const QUESTIONS = [
  'What should the release notes headline say?',
  'Which issue number should this change close?',
  'Anything the reviewer should look at first?',
];

/** A deep copy, so a raised request never shares objects with the plan source. */
function copy(data: Record<string, unknown>): Record<string, unknown> {
  return structuredClone(data);
}

/** The `index`-th request of one scenario (variants rotate). */
export function planFor(scenario: ScenarioName, index: number, timings: ScenarioTimings): RequestPlan {
  const pick = <T>(items: readonly T[]): T => {
    const item = items[index % items.length];
    if (item === undefined) throw new Error('empty variant list');
    return item;
  };
  switch (scenario) {
    case 'form': {
      const variant = pick(loadFormVariants());
      return { scenario, label: variant.label, capture: variant.capture, data: copy(variant.data) };
    }
    case 'permission':
      return {
        scenario,
        label: 'permission',
        capture: 'redacted',
        data: { kind: 'permission', prompt: pick(PERMISSION_PROMPTS), options: ALLOW_DENY.map((option) => ({ ...option })), respond_via: ['control'] },
        refusingOption: 'deny',
      };
    case 'input':
      return {
        scenario,
        label: 'input',
        capture: 'redacted',
        data: { kind: 'input', prompt: pick(QUESTIONS), respond_via: ['control'] },
      };
    case 'oob':
      // The Hermes-style observed approval card (fixtures/mappings/hermes.json
      // pre_approval_request): the decision menu is information, the answer
      // happens in the agent's own terminal.
      return {
        scenario,
        label: 'oob',
        capture: 'redacted',
        data: {
          kind: 'permission',
          prompt: 'Approval requested in the agent terminal: sudo make install',
          options: [
            { id: 'once', label: 'Allow once' },
            { id: 'deny', label: 'Deny' },
          ],
          respond_via: ['oob'],
        },
        outOfBand: { afterMs: timings.oobMs, answer: { option: 'deny' }, by: 'terminal' },
      };
    case 'expiring': {
      const seconds = Math.max(1, Math.round(timings.expireMs / 1000));
      return {
        scenario,
        label: 'expiring',
        capture: 'redacted',
        data: {
          kind: 'permission',
          prompt: `demo-agent wants to restart the dev server (this request expires in ${seconds} s)`,
          options: ALLOW_DENY.map((option) => ({ ...option })),
          respond_via: ['control'],
        },
        refusingOption: 'deny',
        expiresInMs: timings.expireMs,
      };
    }
  }
}

/**
 * Round-robin over the chosen scenarios; each scenario rotates through its own
 * variants (the `form` scenario starts with the golden `s_form`, unless
 * `firstVariant` says where each rotation starts).
 */
export class ScenarioCycle {
  private turn = 0;
  private readonly perScenario = new Map<ScenarioName, number>();

  constructor(
    private readonly scenarios: readonly ScenarioName[],
    private readonly timings: ScenarioTimings,
    private readonly firstVariant = 0,
  ) {
    if (scenarios.length === 0) throw new Error('no scenarios chosen');
  }

  next(): RequestPlan {
    const scenario = this.scenarios[this.turn++ % this.scenarios.length];
    if (scenario === undefined) throw new Error('no scenarios chosen');
    const index = this.perScenario.get(scenario) ?? this.firstVariant;
    this.perScenario.set(scenario, index + 1);
    return planFor(scenario, index, this.timings);
  }
}
