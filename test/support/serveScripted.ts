/**
 * A real Helix server process for crash tests: the production start-up path, with an executor
 * whose turns take HELIX_TEST_TURN_MS, or a random 0..HELIX_TEST_TURN_MAX_MS when that is set (so
 * cancels race turns in flight). With HELIX_TEST_ASK_EVERY=N, every Nth turn of a run also asks
 * one question (`q<turn>`), so answers take part. Prints {"url": …} on its first stdout line once
 * listening.
 */
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { emptyOutcome } from '../../src/domain/turn.js';
import { startHelix } from '../../src/server.js';
import { ScriptedExecutor } from '../../src/solver/scriptedExecutor.js';

const turnMs = Number(process.env.HELIX_TEST_TURN_MS ?? '0');
const turnMaxMs =
  process.env.HELIX_TEST_TURN_MAX_MS === undefined ? undefined : Number(process.env.HELIX_TEST_TURN_MAX_MS);
const askEvery = Number(process.env.HELIX_TEST_ASK_EVERY ?? '0');
const executor = new ScriptedExecutor([], async (input) => {
  const ms = turnMaxMs === undefined ? turnMs : Math.random() * turnMaxMs;
  await new Promise((resolve) => setTimeout(resolve, ms));
  if (input.signal.aborted) throw new Error('aborted');
  if (askEvery <= 0 || input.turn % askEvery !== 0) return emptyOutcome();
  return { ...emptyOutcome(), questions: [{ question_id: `q${input.turn}`, prompt: 'Which one is meant?' }] };
});
const config = loadConfig(process.env, { port: 0, host: '127.0.0.1' });
// Logs go to stderr so stdout carries only the announcement line.
const helix = await startHelix(config, { executor, logger: createLogger(config.logLevel, pino.destination(2)) });
process.stdout.write(`${JSON.stringify({ url: helix.url, pid: process.pid })}\n`);
process.on('SIGTERM', () => void helix.close().then(() => process.exit(0)));
