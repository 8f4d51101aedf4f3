// The demo's one-shot child processes (setup.sh, vsce): each runs in a process
// group of its own, so that stopping it stops everything it started (npm,
// node-gyp, esbuild...), and nothing is left behind if the demo exits early.
import { spawn } from 'node:child_process';
import { groupAlive, groupsKilledOnExit, killGroup } from '../../support/processGroups';
import { waitUntil } from '../../support/waitUntil';

/** Process groups of steps still running: SIGKILLed should the demo exit before they end. */
const liveGroups = groupsKilledOnExit();

export class StepError extends Error {
  override readonly name = 'StepError';
  constructor(
    message: string,
    /** Everything the step printed. */
    readonly output: string,
    /** Set when the step was stopped by `stopSteps()` rather than failing by itself. */
    readonly stopped: boolean,
  ) {
    super(message);
  }
}

export interface StepOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Run through the shell: Windows runs a `.cmd` (VS Code's bin\code.cmd) no other way. */
  shell?: boolean;
  /** Each chunk of stdout and stderr as it comes. */
  onOutput?: (text: string) => void;
}

let stoppingSteps = false;

/** Runs `command args` to completion in a process group of its own; resolves with its output, rejects with a StepError. */
export function runStep(label: string, command: string, args: string[], options: StepOptions): Promise<string> {
  if (stoppingSteps) return Promise.reject(new StepError(`${label}: not started, the demo is stopping`, '', true));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'], shell: options.shell ?? false });
    const pgid = child.pid;
    let output = '';
    const append = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      options.onOutput?.(text);
    };
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    if (pgid !== undefined) liveGroups.add(pgid);
    child.on('error', (error) => {
      if (pgid !== undefined) liveGroups.delete(pgid);
      reject(new StepError(`${label}: could not run ${command}: ${error.message}`, output, false));
    });
    child.on('exit', () => {
      // Whatever the step left running in its group goes with it (and lets its pipes close).
      if (pgid !== undefined && groupAlive(pgid)) killGroup(pgid, 'SIGKILL');
    });
    child.on('close', (code, signal) => {
      if (pgid !== undefined) liveGroups.delete(pgid);
      if (code === 0 && !stoppingSteps) resolve(output);
      else reject(new StepError(`${label} ${stoppingSteps ? 'stopped' : `failed (exit ${code ?? signal})`}`, output, stoppingSteps));
    });
  });
}

/** Stops every running step (SIGTERM to its group, SIGKILL after 5 s) and refuses new ones. */
export async function stopSteps(): Promise<void> {
  stoppingSteps = true;
  const groups = [...liveGroups];
  for (const pgid of groups) killGroup(pgid, 'SIGTERM');
  await waitUntil(() => !groups.some(groupAlive), 'the steps to stop on SIGTERM', 5_000, undefined, 50).catch(() => undefined);
  for (const pgid of groups) if (groupAlive(pgid)) killGroup(pgid, 'SIGKILL');
  await waitUntil(() => !groups.some(groupAlive), 'the steps\' process groups to go after SIGKILL', 10_000, () => groups.filter(groupAlive).join(' '), 20);
}
