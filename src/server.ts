import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Authenticator } from './auth/authenticate.js';
import { loadInstanceSecret } from './auth/instanceSecret.js';
import { createOAuthVerifier } from './auth/oauthJwt.js';
import type { HelixConfig } from './config.js';
import { buildApp } from './http/app.js';
import { createLogger } from './logger.js';
import { ActiveTurns } from './service/activeTurns.js';
import { allowAllPolicy } from './service/admission.js';
import { systemClock, type Clock, type RunServiceDeps } from './service/deps.js';
import { HEARTBEAT_INTERVAL_MS, storeLiveness } from './service/liveness.js';
import { RunService } from './service/runService.js';
import type { TurnExecutor } from './solver/executor.js';
import { ExtractiveExecutor } from './solver/extractive/extractiveExecutor.js';
import { ModelExecutor } from './solver/model/modelExecutor.js';
import { FileCredentialDocumentStore } from './model/codex/credentialStore.js';
import { modelClientFor } from './model/providerClients.js';
import { OwnerModelResolver } from './providers/ownerModelResolver.js';
import { ProviderService } from './providers/providerService.js';
import { buildRegistry } from './sources/configuredSources.js';
import { openStore, describeLocation, isPostgresUrl } from './store/openStore.js';
import { PostgresRunNotifier } from './notify/postgresRunNotifier.js';
import { LocalRunNotifier, type RunNotifier } from './service/runNotifier.js';
import type { Store } from './store/port.js';
import { startTelemetry, type TelemetryOverrides } from './telemetry/startTelemetry.js';
import { HELIX_VERSION } from './version.js';

export const RECEIPT_TTL_MS = 24 * 60 * 60 * 1000;
/** How long shutdown waits for turns in progress before closing connections (a later start recovers any left). */
export const SHUTDOWN_GRACE_MS = 5_000;

export interface StartOptions {
  readonly executor?: TurnExecutor;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** An already-open store (tests); otherwise `config.database` is opened and migrated. */
  readonly store?: Store;
  /** In-memory exporters in place of OTLP (tests); telemetry is on whenever one is given. */
  readonly telemetry?: TelemetryOverrides;
}

export interface RunningHelix {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly store: Store;
  readonly service: RunService;
  readonly workerId: string;
  close(): Promise<void>;
}

const newId = (prefix: string): string => `${prefix}_${randomBytes(16).toString('base64url')}`;

/**
 * The default solver: a run's turn is driven by its owner's model provider, else the operator's
 * (HELIX_MODEL_PROVIDER), else the offline extractive executor. Either way the outcome goes through
 * the same re-entry, terminal-authority and completion checks.
 */
const defaultExecutor = (config: HelixConfig, store: Store, clock: Clock): TurnExecutor => {
  const codex = config.model.codex;
  const codexBinding = { store: new FileCredentialDocumentStore({ home: codex.home }), ownerKey: codex.ownerKey, endpoints: codex.endpoints, version: HELIX_VERSION };
  return new ModelExecutor({
    resolver: new OwnerModelResolver({
      store,
      secretBox: config.model.secretBox,
      operatorDefault: config.model.defaultProvider,
      clientFor: (settings) => modelClientFor(settings, codexBinding),
    }),
    fallback: new ExtractiveExecutor(),
    maxToolCalls: config.model.maxToolCalls,
    now: () => clock.now(),
  });
};

/**
 * The composition root. Start-up is explicit and ordered: open and migrate the store, load the
 * installation secret, register this worker, recover interrupted turns, then listen. Any failure
 * stops start-up with the underlying message.
 */
export const startHelix = async (config: HelixConfig, options: StartOptions = {}): Promise<RunningHelix> => {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const store = options.store ?? (await openStore(config.database));
  const instanceSecret = await loadInstanceSecret(store);
  const workerId = newId('wkr');
  const startedAt = clock.now();
  await store.read.workers.upsert({ workerId, host: hostname(), pid: process.pid, startedAt, heartbeatAt: startedAt, stoppedAt: null });

  const registry = buildRegistry(store, config.sources);
  // Replicas sharing PostgreSQL signal each other through LISTEN/NOTIFY; otherwise signals stay in-process.
  const notifier: RunNotifier =
    options.store === undefined && isPostgresUrl(config.database) ? await PostgresRunNotifier.start(config.database) : new LocalRunNotifier();
  const turns = new ActiveTurns();
  const deps: RunServiceDeps = {
    store,
    executor: options.executor ?? defaultExecutor(config, store, clock),
    registry,
    clock,
    config: {
      turnTimeoutMs: config.turnTimeoutMs,
      receiptTtlMs: RECEIPT_TTL_MS,
      scopes: {
        enabled: config.enabledScopes,
        available: registry.availableScopes(),
        capabilities: registry.capabilityIds(),
      },
      instanceSecret,
      workerId,
    },
    turns,
    liveness: storeLiveness(clock, workerId, turns),
    policy: allowAllPolicy,
    newId,
    notifier,
    onExecutorError: (err, runId) => logger.error({ run_id: runId, err: { message: (err as Error)?.message } }, 'executor failed'),
  };
  const service = new RunService(deps);
  const recovered = await service.recoverInterrupted();
  if (recovered > 0) logger.warn({ recovered }, 'recovered interrupted turns');

  const heartbeat = setInterval(() => {
    const now = clock.now();
    void store.read.workers.heartbeat(workerId, now).catch((err: unknown) => logger.warn({ err: { message: (err as Error).message } }, 'heartbeat failed'));
    void store.read.receipts.deleteExpired(now).catch(() => undefined);
  }, HEARTBEAT_INTERVAL_MS);
  heartbeat.unref();

  const authenticator = new Authenticator(
    store,
    {
      localJwt:
        config.localJwt === undefined
          ? undefined
          : { secret: new TextEncoder().encode(config.localJwt.secret), issuer: config.localJwt.issuer, audience: config.localJwt.audience },
      oauth: config.oauth === undefined ? undefined : { verify: createOAuthVerifier(config.oauth), provider: config.oauth.provider },
      instanceSecret,
    },
    () => clock.now(),
  );
  const stopTelemetry = await startTelemetry(config.telemetry, (message) => logger.warn(message), options.telemetry);
  const app = buildApp({
    service,
    authenticator,
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    mcpBodyLimitBytes: config.mcpBodyLimitBytes,
    publicBaseUrl: config.publicBaseUrl,
    hostPolicy: { hosts: config.allowedHosts, origins: config.allowedOrigins, allowLoopbackOrigins: !config.production },
    authorizationServers: config.oauth === undefined ? [] : [config.oauth.issuer],
    accounts: { store, now: () => clock.now(), secureCookies: config.production },
    providers: new ProviderService({
      store,
      secretBox: config.model.secretBox,
      instanceSecret,
      now: () => clock.now(),
      baseUrlPolicy: { production: config.production, allowedHosts: config.model.providerAllowedHosts },
    }),
    hardening: { rateLimits: config.rateLimits, trustProxy: config.trustProxy, requireHttps: config.production },
  });
  await app.listen({ host: config.host, port: config.port }).catch(async (err: unknown) => {
    await stopTelemetry();
    throw err;
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  logger.info({ url, database: describeLocation(config.database), dialect: store.dialect, worker_id: workerId }, 'helix listening');

  return {
    url,
    app,
    store,
    service,
    workerId,
    async close() {
      clearInterval(heartbeat);
      // Connections are closed forcibly (streams hold theirs open), so let running turns finish first.
      const deadline = Date.now() + SHUTDOWN_GRACE_MS;
      while (turns.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await app.close();
      await stopTelemetry();
      await notifier.close();
      await store.read.workers.stop(workerId, clock.now()).catch(() => undefined);
      if (options.store === undefined) await store.close();
    },
  };
};
