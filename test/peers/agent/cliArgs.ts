// Command-line options of `npm run agent` (node:util parseArgs), and the
// environment it reads: AEP_HUB, AEP_TOKEN.
import { parseArgs } from 'node:util';
import { DEFAULT_HUB, type AgentOptions } from './agent';
import { SCENARIOS, isScenarioName, type ScenarioName } from './scenarios';

export const USAGE = `usage: npm run agent -- [--scenario ${SCENARIOS.join('|')}]... [--every MS] [--count N] [--expire-ms MS] [--oob-ms MS] [--linger-ms MS] [--hub URL]
environment: AEP_HUB (default ${DEFAULT_HUB}), AEP_TOKEN (sent as Authorization: Bearer)`;

export class UsageError extends Error {}

function number(name: string, value: string | undefined, integer = false): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0 || (integer && !Number.isInteger(parsed))) {
    throw new UsageError(`--${name} needs a positive ${integer ? 'whole ' : ''}number, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

export function optionsFromArgs(argv: string[], env: NodeJS.ProcessEnv): AgentOptions & { help: boolean } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      scenario: { type: 'string', multiple: true },
      every: { type: 'string' },
      count: { type: 'string' },
      'expire-ms': { type: 'string' },
      'oob-ms': { type: 'string' },
      'linger-ms': { type: 'string' },
      hub: { type: 'string' },
      'allow-insecure-remote': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const scenarios: ScenarioName[] = [];
  for (const name of values.scenario ?? []) {
    if (!isScenarioName(name)) throw new UsageError(`unknown scenario ${JSON.stringify(name)}; choose from ${SCENARIOS.join(', ')}`);
    scenarios.push(name);
  }
  const options: AgentOptions & { help: boolean } = { help: values.help ?? false, hubUrl: values.hub ?? env['AEP_HUB'] ?? DEFAULT_HUB };
  const token = env['AEP_TOKEN'];
  if (token !== undefined && token !== '') options.token = token;
  if (scenarios.length > 0) options.scenarios = scenarios;
  const every = number('every', values.every);
  if (every !== undefined) options.everyMs = every;
  const count = number('count', values.count, true);
  if (count !== undefined) options.count = count;
  const expire = number('expire-ms', values['expire-ms']);
  if (expire !== undefined) options.expireMs = expire;
  const oob = number('oob-ms', values['oob-ms']);
  if (oob !== undefined) options.oobMs = oob;
  const linger = number('linger-ms', values['linger-ms']);
  if (linger !== undefined) options.lingerMs = linger;
  if (values['allow-insecure-remote']) options.allowInsecureRemote = true;
  return options;
}
