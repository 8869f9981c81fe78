/**
 * `npm run demo`: the main job, end to end on this machine. It starts Helix on its embedded
 * SQLite store (.helix/demo.db), indexes the project's own docs/ as the research library, and asks
 * Helix a question about itself through the same client loop `helix ask` uses: start a run,
 * continue one governed turn at a time, print the answer with its cited sources.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createApiKey } from '../src/auth/apiKeys.js';
import { loadInstanceSecret } from '../src/auth/instanceSecret.js';
import { askHelix } from '../src/client/askLoop.js';
import { HelixRestClient } from '../src/client/restClient.js';
import { renderOutcome } from '../src/cli/ask.js';
import { loadConfig } from '../src/config.js';
import { counted } from '../src/cli/counted.js';
import { createLogger } from '../src/logger.js';
import { startHelix } from '../src/server.js';
import { createAccount } from '../src/service/accounts/createAccount.js';
import { isSupportedDocument } from '../src/sources/library/extract/detect.js';
import { ingestPaths } from '../src/sources/library/ingest.js';
import { openStore } from '../src/store/openStore.js';

const DEMO_ACCOUNT = 'Demo';
const CONSOLE = 'http://127.0.0.1:1522';

/** How to look at the run in the web console afterwards: the demo's server stops when it ends. */
const consoleHint = (accountId: string, runId: string): string =>
  [
    '',
    'See this run in the web console:',
    '  npx helix serve --database .helix/demo.db &',
    `  npx helix accounts login-link --account ${accountId} --database .helix/demo.db`,
    `then open the printed sign-in link (valid 15 minutes), then ${CONSOLE}/account/runs/${runId}`,
    'Stop the server with `kill %1`.',
  ].join('\n');

const QUESTION = process.argv[2] ?? 'How does Helix recover a run after its server process is killed?';
const database = resolve('.helix/demo.db');
const say = (line: string) => process.stderr.write(`${line}\n`);

const started = Date.now();
say(`demo: embedded store ${database}`);
const store = await openStore(database);
say('demo: indexing docs/ into the research library …');
// The user-facing docs say what Helix does; docs/spec/ is the contract as received, rooms and all.
// A file named here is indexed or reported failed, so only the kinds the library reads are named
// (docs/openapi.json is the contract as JSON; docs/api.md says the same in prose).
const userDocs = readdirSync('docs', { withFileTypes: true })
  .filter((entry) => entry.name !== 'spec' && (entry.isDirectory() || isSupportedDocument(entry.name)))
  .map((entry) => join('docs', entry.name));
const report = await ingestPaths(store, userDocs, Date.now, (p) =>
  say(
    `  [${p.index}/${p.total}] ${p.outcome} ${p.path}${p.outcome === 'failed' ? `: ${p.reason}` : ` (${counted(p.passages, 'passage')})`}`,
  ),
);
say(`demo: library ready (${report.added} added, ${report.updated} updated, ${report.unchanged} unchanged)`);

const config = loadConfig(
  { HELIX_LOG_LEVEL: 'warn', HELIX_AGENT_DATABASE_SCOPES: 'research_library' },
  { host: '127.0.0.1', port: 0, database },
);
const helix = await startHelix(config, { store, logger: createLogger('warn') });
// A console account owns the demo's key, so the run shows on its Runs page afterwards.
const accounts = { store, instanceSecret: await loadInstanceSecret(store), now: Date.now };
const account =
  (await store.read.accounts.list()).find((a) => a.displayName === DEMO_ACCOUNT) ??
  (await createAccount(accounts, { displayName: DEMO_ACCOUNT }));
const { key, record } = await createApiKey(
  store,
  {
    tenantId: 'demo',
    accountId: account.accountId,
    scopes: ['helix.agent_runs.read', 'helix.agent_runs.write', 'helix.data.research_library.read'],
    label: 'npm run demo',
  },
  Date.now(),
);
say(`demo: Helix listening on ${helix.url}; asking: "${QUESTION}"`);

try {
  const outcome = await askHelix(
    new HelixRestClient(helix.url, key),
    { objective: QUESTION, scopes: ['research_library'] },
    {
      onRun: (run) =>
        say(
          `  ${run.budget.steps_used === 0 ? 'started' : `turn ${run.budget.steps_used}`}: ${run.completion_status} · ${run.evidence.count} evidence · terminal authority ${run.terminal_authority_status}`,
        ),
    },
  );
  process.stdout.write(`\n${renderOutcome(outcome)}`);
  say(`demo: finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  say(consoleHint(account.accountId, outcome.run.run_id));
  if (outcome.run.completion_status !== 'completed') process.exitCode = 1;
} finally {
  await store.read.apiKeys.revoke(record.keyId, Date.now());
  await helix.close();
  await store.close();
}
