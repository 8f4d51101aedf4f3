// `npm run hub`: the local AEP hub, configured like the reference relay
// (AEP_PORT, AEP_HOST, AEP_TOKEN, AEP_BUFFER, AEP_MAX_SESSIONS, AEP_MAX_BODY,
// AEP_MAX_BATCH). Prints one line with its URL (and, without a token, how to
// set one); SIGTERM or Ctrl+C closes it in order (a `closing` frame to every
// socket first).
import { configFromEnv } from './config';
import { startHub } from './hub';

async function main(): Promise<void> {
  const config = configFromEnv(process.env, process.argv.slice(2));
  const hub = await startHub({ ...config, log: (line) => console.error(line) });
  const mode = config.token ? 'token required; commands routed' : 'no token: watch-only, commands refused, web pages refused';
  console.log(`AEP hub listening on ${hub.url} (${mode})`);
  if (!config.token) {
    console.log('To require a token (and route answers): AEP_TOKEN=<secret> npm run hub, then give the extension that token (AEP Attention: Set Hub Token).');
  }
  const stop = (signal: string) => {
    void hub.close(signal === 'SIGTERM' ? 'shutdown' : 'interrupted').then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(`AEP hub failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
