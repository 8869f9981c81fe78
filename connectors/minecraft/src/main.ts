// Entry point: `npm --prefix connectors/minecraft start` (docs/connectors.md). Exit codes:
// 0 stopped by SIGINT/SIGTERM, 1 configuration or start-up failure, 2 credential rejected,
// 3 the Minecraft server closed the connection.
import { readFileSync } from 'node:fs';
import { readConfig } from './config.js';
import { runConnector, type StopReason } from './connector.js';
import { createActionClient, createIngressClient } from './ingressClient.js';
import { enableActions, joinGame } from './joinGame.js';
import type { Log } from './log.js';
import { startSession } from './session.js';

const EXIT_CODES: Record<StopReason, number> = { stopped: 0, credential_rejected: 2, game_disconnected: 3 };

/** One JSON line per event on stderr; fields are chosen by the caller and never include the bearer. */
const log: Log = (message, fields = {}) =>
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), message, ...fields })}\n`);

const packageVersion = (): string =>
  (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const main = async (): Promise<number> => {
  const config = readConfig();
  const bot = await joinGame(config.minecraft);
  log('joined the Minecraft server', {
    host: config.minecraft.host,
    port: config.minecraft.port,
    username: bot.username,
  });
  const client = createIngressClient({
    baseUrl: config.base_url,
    bindingId: config.binding_id,
    bearer: config.source_bearer,
  });
  const session = startSession({ client });
  // The action lane is opened only with its own credential, and shares this process start's epoch.
  const actions =
    config.action_bearer === undefined
      ? undefined
      : startSession({
          client: createActionClient({
            baseUrl: config.base_url,
            bindingId: config.binding_id,
            bearer: config.action_bearer,
          }),
          producerEpoch: session.producerEpoch,
        });
  if (actions !== undefined) enableActions(bot);
  log(actions === undefined ? 'read-only: no action credential' : 'action lane enabled');
  const connector = await runConnector({
    config,
    bot,
    session,
    ...(actions === undefined ? {} : { actions }),
    log,
    version: packageVersion(),
  }).catch((error: unknown) => {
    bot.quit();
    throw error;
  });
  const stop = () => void connector.stop();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return EXIT_CODES[await connector.stopped];
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log('connector failed to start', { error: error instanceof Error ? error.message : 'unknown' });
    process.exit(1);
  },
);
