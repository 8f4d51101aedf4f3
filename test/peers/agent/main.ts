// `npm run agent`: the demo agent against a hub.
//
//   AEP_HUB=http://127.0.0.1:8787 AEP_TOKEN=… npm run agent -- [options]
//
//   --scenario NAME   form | permission | input | oob | expiring (repeatable; default all)
//   --every MS        delay between requests (default 5000)
//   --count N         raise N requests, wait for them to close, end the sessions, exit 0
//                     (default: forever, until Ctrl+C / SIGTERM)
//   --expire-ms MS    lifetime of the `expiring` request (default 5000)
//   --oob-ms MS       delay before the `oob` card is answered in the agent's own UI (default 3000)
//   --linger-ms MS    with --count: how long to wait for open requests before dismissing them (default 120000)
//   --hub URL         overrides AEP_HUB
//   --allow-insecure-remote   permit plain ws:// to another machine (AEP requires TLS off-host)
//
// One line per decision on stdout; start-up failures are one line on stderr
// and exit 1. The token is sent only as `Authorization: Bearer`, never printed.
import { AGENT_NAME, AgentStartError, startAgent, type AgentOptions, type RunningAgent } from './agent';
import { USAGE, optionsFromArgs } from './cliArgs';

async function main(): Promise<number> {
  let options: AgentOptions & { help: boolean };
  try {
    options = optionsFromArgs(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`${AGENT_NAME}: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  let agent: RunningAgent;
  try {
    agent = await startAgent(options);
  } catch (error) {
    if (error instanceof AgentStartError) {
      console.error(`${AGENT_NAME}: ${error.message}`);
      return 1;
    }
    throw error;
  }
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      console.error(`${AGENT_NAME}: ${signal} again, exiting without closing requests`);
      process.exit(130);
    }
    signalled = true;
    console.log(`${AGENT_NAME}: ${signal}: dismissing open requests and ending sessions`);
    void agent.close();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const exit = await agent.done;
  if (exit.reason === 'connection-lost') {
    console.error(`${AGENT_NAME}: stopped: ${exit.detail}`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`${AGENT_NAME}: failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
