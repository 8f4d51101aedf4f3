// A second window, for test/unit/noticeClaims.test.ts: claims requests in a
// directory another process claims them in too, and prints the ones it won.
//
//   node out/peers/noticeClaimer/main.js DIR WINDOW COUNT [reverse]
//
// `reverse` claims from the last request down, so two claimers meet in the middle and contend there.
//
// It says "ready" and waits for "go" on stdin before claiming, so two of them start together.
import { NoticeClaims } from '../../../src/inbox/noticeClaims';

async function main(): Promise<void> {
  const [dir, window, count, order] = process.argv.slice(2);
  if (dir === undefined || window === undefined || count === undefined) throw new Error('usage: DIR WINDOW COUNT');
  const claims = new NoticeClaims(dir, window, { onProblem: (message) => console.error(message) });
  const go = new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  process.stdout.write('ready\n');
  await go;
  const won: string[] = [];
  const ids = Array.from({ length: Number(count) }, (_, i) => `r${i}`);
  if (order === 'reverse') ids.reverse();
  for (const id of ids) if (await claims.claimRequest({ hub: 'https://hub.example', source: 'agent', session: 's1', requestId: id })) won.push(id);
  process.stdout.write(`${JSON.stringify(won)}\n`);
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(String(error));
  process.exit(1);
});
