// Child processes started in a process group of their own (detached), so that
// stopping one stops everything it started (npm, node-gyp, code-server's
// helpers...).

/** Sends `signal` to every process of the group led by `pgid`; a group already gone is not an error. */
export function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** Whether any process of the group led by `pgid` is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A set of process groups SIGKILLed should this process exit while they still run. */
export function groupsKilledOnExit(): Set<number> {
  const groups = new Set<number>();
  process.on('exit', () => {
    for (const pgid of groups) killGroup(pgid, 'SIGKILL');
  });
  return groups;
}
