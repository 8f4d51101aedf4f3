/**
 * Whose CPU time `cpuTime` reads: the calling thread's where Node can tell
 * (`process.threadCpuUsage`, Node 23.9 and later: the extension host's own
 * thread, not the workbench's nor V8's helper threads), else the whole process's.
 */
export type CpuScope = 'thread' | 'process';

interface Usage {
  user: number;
  system: number;
}

/** CPU time used so far (user and system), in microseconds, and whose. */
export function cpuTime(): { micros: number; scope: CpuScope } {
  const thread = (process as { threadCpuUsage?: () => Usage }).threadCpuUsage;
  const usage: Usage = thread ? thread.call(process) : process.cpuUsage();
  return { micros: usage.user + usage.system, scope: thread ? 'thread' : 'process' };
}

/** "4.20 ms of CPU (thread)": what was used since `start` (a `cpuTime()`), for a log line. */
export function cpuSince(start: { micros: number }): string {
  const now = cpuTime();
  return `${((now.micros - start.micros) / 1000).toFixed(2)} ms of CPU (${now.scope})`;
}
