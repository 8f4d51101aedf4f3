// The folder the demo editor opens: a README saying what to do, and workspace
// settings pointing AEP Attention at the demo hub. The token is never written
// here: it reaches the extension through the editor's environment.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScenarioName } from '../agent/scenarios';

export interface ReadmeFacts {
  hubUrl: string;
  scenarios: readonly ScenarioName[];
  everyMs: number;
  expireMs: number;
  oobMs: number;
  /** The desktop VS Code: its window outlives the demo. */
  editorStays?: boolean;
}

const secondsText = (ms: number) => `${Math.round(ms / 1000)} s`;

function scenarioText(scenario: ScenarioName, facts: ReadmeFacts): string {
  switch (scenario) {
    case 'form':
      return 'a **form** (several fields; the agent checks your answer by its own rules)';
    case 'permission':
      return 'a **permission** prompt (Allow / Deny)';
    case 'input':
      return 'a free-text **question**';
    case 'oob':
      return `an approval the agent takes **in its own terminal**: you see it, and after ${secondsText(facts.oobMs)} it is answered there`;
    case 'expiring':
      return `a permission that **expires** after ${secondsText(facts.expireMs)} if nobody answers`;
  }
}

export function readme(facts: ReadmeFacts): string {
  const { hubUrl, scenarios, everyMs } = facts;
  return `# AEP Attention demo

This folder was opened by \`npm run demo\`. A local AEP hub runs at
${hubUrl}, and a demo agent (\`demo-agent\`) connected to it asks you
something every ${secondsText(everyMs)}, in turn:

${scenarios.map((scenario) => `- ${scenarioText(scenario, facts)}`).join('\n')}

## What to do

1. Watch for the notification, or open the **AEP Attention** inbox (its icon
   in the activity bar on the left). The status bar counts what waits for you.
2. Click a request in the inbox (or **Open** on its notification, or run
   **AEP Attention: Answer Next Request** from the command palette).
3. Answer it. The form checks your input before sending, then tells you
   whether the agent accepted it. The terminal running \`npm run demo\` shows
   what the agent received.

## How this editor is wired

- Workspace Trust is on in the desktop demo's profile: everything in this folder was written by the demo
  (this README, \`.vscode/settings.json\` and \`.aep-demo-owned\`, which marks the folder as the demo's).
  Trusting it or not, the extension reaches the demo hub: the address and token
  come from the editor's environment.

- \`.vscode/settings.json\` sets \`aepAttention.hubUrl\` to ${hubUrl}.
- The hub's token was generated for this run and handed to the editor through
  its environment (\`AEP_HUB\` + \`AEP_TOKEN\`); the extension sends it to that
  hub only. It is not stored in this folder.

${
    facts.editorStays
      ? `Ctrl+C in the terminal running \`npm run demo\` stops the hub and the agent;
this window stays, with a token that no longer works: close it before the next
run. This folder stays; the next run reuses it.`
      : `Ctrl+C in the terminal running \`npm run demo\` stops the hub, the agent and
this editor. This folder stays; the next run reuses it.`
  }
`;
}

/** Writes the README and merges `aepAttention.hubUrl` into the workspace settings; returns the settings to write. */
export function prepareWorkspace(dir: string, facts: ReadmeFacts): Record<string, unknown> {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'README.md'), readme(facts));
  let settings: Record<string, unknown> = {};
  const file = path.join(dir, '.vscode', 'settings.json');
  try {
    const existing: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) settings = existing as Record<string, unknown>;
  } catch {
    // missing, or not plain JSON: written afresh
  }
  return { ...settings, 'aepAttention.hubUrl': facts.hubUrl };
}
