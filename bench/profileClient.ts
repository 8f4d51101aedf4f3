// The throughput benchmark's client side alone, for a CPU profile of what
// HubClient + Inbox spend per event without the bare client's rounds in it:
//
//   node bench/build.js && node --cpu-prof --cpu-prof-dir=.bench/profile out/bench/profileClient.js [rounds]
//
// The hub runs in its own process (not profiled), preloaded as in the
// benchmark; this process runs one untimed warm-up round, then `rounds`
// (default 5) rounds of (b) and prints each round's events/s.
import { HubChild } from './hubChild';
import { ourClient, throughputOptions } from './throughput';

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 5);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`rounds must be a positive integer, not ${process.argv[2]}`);
  const options = throughputOptions(false);
  const hub = await HubChild.start({ buffer: 10_000, maxSessions: 1_000, slowConsumerBytes: 2 ** 31 });
  try {
    await hub.preload(options.events, options.sessions, 'flood');
    await ourClient(hub.url, 5_000, { timeoutMs: 180_000, roomy: true });
    for (let round = 1; round <= rounds; round++) {
      const b = await ourClient(hub.url, options.events, { timeoutMs: 180_000, roomy: true });
      process.stdout.write(`round ${round}: ${Math.round(b.events / (b.ms / 1000))} events/s\n`);
    }
  } finally {
    await hub.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
