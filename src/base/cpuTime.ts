interface Usage {
  user: number;
  system: number;
}

/**
 * CPU time used so far (user and system), in microseconds: the whole
 * process's (`process.cpuUsage`, to the microsecond, every thread of the
 * process included: V8's compiler and collector threads, libuv's pool), and
 * the calling thread's alone where Node can tell it (`process.threadCpuUsage`,
 * Node 23.9 and later, as in code-server's extension host; on Linux it
 * advances in scheduler ticks, 4 ms here, so a figure under a few
 * milliseconds reads as 0 or one tick).
 */
export function cpuTime(): { process: number; thread?: number } {
  const own = (process as { threadCpuUsage?: () => Usage }).threadCpuUsage;
  const sum = (usage: Usage) => usage.user + usage.system;
  return own ? { process: sum(process.cpuUsage()), thread: sum(own.call(process)) } : { process: sum(process.cpuUsage()) };
}

/** "CPU 4.20 ms (process), 4.01 ms (thread)": what was used since `start` (a `cpuTime()`), for a log line. */
export function cpuSince(start: { process: number; thread?: number }): string {
  const now = cpuTime();
  const ms = (micros: number) => (micros / 1000).toFixed(2);
  const thread = now.thread !== undefined && start.thread !== undefined ? `, ${ms(now.thread - start.thread)} ms (thread)` : '';
  return `CPU ${ms(now.process - start.process)} ms (process)${thread}`;
}
