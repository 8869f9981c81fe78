import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { CredentialCache } from './auth/credentialCache.js';
import { newId } from './service/newId.js';
import { Authenticator } from './auth/authenticate.js';
import { loadInstanceSecret } from './auth/instanceSecret.js';
import { createOAuthVerifier } from './auth/oauthJwt.js';
import { ConfigError, type HelixConfig } from './config.js';
import { connectionBudgetFor, descriptorHeadroom, openFileLimit } from './http/hardening/descriptorLimit.js';
import { buildApp, type AppOptions } from './http/app.js';
import { createLogger } from './logger.js';
import { embeddingsClient } from './model/embeddings/embeddingsClient.js';
import { ActiveTurns } from './service/runs/activeTurns.js';
import { TurnSlots } from './service/runs/turnSlots.js';
import { AccountPolicies } from './accounts/accountPolicies.js';
import { systemClock, type Clock, type RunServiceDeps } from './service/runs/deps.js';
import { HEARTBEAT_INTERVAL_MS, storeLiveness } from './service/runs/liveness.js';
import { RunService } from './service/runs/runService.js';
import type { TurnExecutor } from './solver/executor.js';
import { ExtractiveExecutor } from './solver/extractive/extractiveExecutor.js';
import { ModelExecutor } from './solver/model/modelExecutor.js';
import { AgentCalls, AgentTaskExecutor } from './solver/agentTask/agentTaskExecutor.js';
import { FileCredentialDocumentStore } from './model/codex/credentialStore.js';
import { modelClientFor } from './providers/providerClients.js';
import { systemResolver, type HostResolver } from './net/resolveDestination.js';
import { OwnerModelResolver } from './providers/ownerModelResolver.js';
import { ownerTransport } from './providers/ownerTransport.js';
import { SubjectService } from './service/subjects/subjectService.js';
import { buildRegistry } from './sources/configuredSources.js';
import { openStore, describeLocation, isPostgresUrl } from './store/openStore.js';
import { PostgresRunNotifier } from './notify/postgresRunNotifier.js';
import { LocalRunNotifier, type RunNotifier } from './service/runs/runNotifier.js';
import type { Store } from './store/port.js';
import { startTelemetry, type TelemetryOverrides } from './telemetry/startTelemetry.js';
import { HELIX_VERSION } from './version.js';
import { roomSourceAdapters } from './service/roomSources/adapterRegistry.js';
import { approvalBootstrapStatus } from './service/approvals/bootstrapStatus.js';

export const RECEIPT_TTL_MS = 24 * 60 * 60 * 1000;
/** How long shutdown waits for turns in progress before closing connections (a later start recovers any left). */
export const SHUTDOWN_GRACE_MS = 5_000;

export interface StartOptions {
  readonly executor?: TurnExecutor;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Where the server's own logger writes (`helix serve --log-file`, stderr in a terminal); stdout otherwise. */
  readonly logDestination?: DestinationStream;
  /** An already-open store (tests); otherwise `config.database` is opened and migrated. */
  readonly store?: Store;
  /** Resolves owners' provider hosts, at registration and before every request; the system resolver unless a test names its own. */
  readonly resolveHost?: HostResolver;
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

/** Distinct keys a process keeps verified at once (each entry is a few hundred bytes). */
const CREDENTIAL_CACHE_ENTRIES = 10_000;

/**
 * The default solver: a run's turn is driven by its owner's model provider, else the operator's
 * (HELIX_MODEL_PROVIDER), else the offline extractive executor. Either way the outcome goes through
 * the same re-entry, terminal-authority and completion checks.
 */
const defaultExecutor = (
  config: HelixConfig,
  store: Store,
  clock: Clock,
  logger: Logger,
  resolveHost: HostResolver,
): TurnExecutor => {
  const codex = config.model.codex;
  const codexBinding = {
    store: new FileCredentialDocumentStore({ home: codex.home }),
    ownerKey: codex.ownerKey,
    endpoints: codex.endpoints,
    version: HELIX_VERSION,
  };
  const owners = ownerTransport({
    policy: config.model.ownerProviderPolicy,
    resolve: resolveHost,
    // Debug only: the owner sees `model_unreachable`, and what listens where is not for the info log either.
    report: (error) =>
      logger.debug(
        { model_error: { kind: error.kind, http_status: error.details.httpStatus, message: error.message } },
        'owner model provider unreachable',
      ),
  });
  return new ModelExecutor({
    resolver: new OwnerModelResolver({
      store,
      secretBox: config.model.secretBox,
      operatorDefault: config.model.defaultProvider,
      clientFor: (settings, source) =>
        modelClientFor(settings, codexBinding, source === 'owner_registration' ? owners : undefined),
    }),
    fallback: new ExtractiveExecutor(),
    maxToolCalls: config.model.maxToolCalls,
    outputLimits: config.model.outputLimits,
    now: () => clock.now(),
  });
};

/** The configured sources; a configuration the registry refuses stops start-up as a configuration error. */
const registryOf = (store: Store, policies: AccountPolicies, config: HelixConfig, logger: Logger) => {
  const hybrid =
    config.embeddings === undefined
      ? undefined
      : {
          embedder: embeddingsClient(config.embeddings),
          onFallback: (reason: string) =>
            logger.warn({ err: { message: reason } }, 'library search fell back to lexical ranking'),
        };
  try {
    return buildRegistry(store, policies, config.sources, hybrid);
  } catch (err) {
    if (err instanceof TypeError) throw new ConfigError(`source configuration: ${err.message}`);
    throw err;
  }
};

/** What every later step of start-up needs: the open store, the installation secret, this worker. */
interface Runtime {
  readonly logger: Logger;
  readonly clock: Clock;
  readonly store: Store;
  readonly instanceSecret: string;
  readonly workerId: string;
  readonly onConnectionError: (err: Error) => void;
  /** Verified `hlx_` keys; cleared on every committed credential change this process hears of. */
  readonly credentials: CredentialCache;
}

/** Step 1: open and migrate the store, load the installation secret, register this worker. */
const openRuntime = async (config: HelixConfig, options: StartOptions): Promise<Runtime> => {
  const logger = options.logger ?? createLogger(config.logLevel, options.logDestination);
  const clock = options.clock ?? systemClock;
  // A dropped idle connection is routine (restart, failover, an admin's pg_terminate_backend): log it, never crash.
  const onConnectionError = (err: Error) =>
    logger.warn({ err: { message: err.message } }, 'database connection lost; it is replaced on next use');
  const store = options.store ?? (await openStore(config.database, { onConnectionError }));
  const instanceSecret = await loadInstanceSecret(store);
  const workerId = newId('wkr');
  const startedAt = clock.now();
  await store.read.workers.upsert({
    workerId,
    host: hostname(),
    pid: process.pid,
    startedAt,
    heartbeatAt: startedAt,
    stoppedAt: null,
  });
  const credentials = new CredentialCache({
    ttlMs: config.credentialCacheTtlMs,
    maxEntries: CREDENTIAL_CACHE_ENTRIES,
    now: () => clock.now(),
  });
  store.onCredentialsChanged(() => credentials.clear());
  return { logger, clock, store, instanceSecret, workerId, onConnectionError, credentials };
};

/** Step 2: the run service and what it runs on (sources, signals, turn slots, account policy). */
const buildRunService = async (config: HelixConfig, options: StartOptions, rt: Runtime, resolveHost: HostResolver) => {
  const { store, clock, logger } = rt;
  const policies = new AccountPolicies(store, config.accountDefaults);
  const registry = registryOf(store, policies, config, logger);
  // Replicas sharing PostgreSQL signal each other through LISTEN/NOTIFY; otherwise signals stay in-process.
  const notifier: RunNotifier =
    options.store === undefined && isPostgresUrl(config.database)
      ? await PostgresRunNotifier.start(config.database, rt.onConnectionError, () => rt.credentials.clear())
      : new LocalRunNotifier();
  const turns = new ActiveTurns();
  const deps: RunServiceDeps = {
    store,
    executor: options.executor ?? defaultExecutor(config, store, clock, logger, resolveHost),
    // Runs started with turn_executor "agent_task": their turns wait for an external agent (docs/agent-tasks.md).
    agentTasks: new AgentTaskExecutor(new AgentCalls()),
    registry,
    clock,
    config: {
      turnTimeoutMs: config.turnTimeoutMs,
      answerMinFocusCoverage: config.answerMinFocusCoverage,
      receiptTtlMs: RECEIPT_TTL_MS,
      scopes: {
        enabled: config.enabledScopes,
        available: registry.availableScopes(),
        capabilities: registry.capabilityIds(),
      },
      instanceSecret: rt.instanceSecret,
      workerId: rt.workerId,
    },
    turns,
    slots: new TurnSlots(config.turnLimits),
    liveness: storeLiveness(clock, rt.workerId, turns),
    policy: policies,
    newId,
    notifier,
    onExecutorError: (err, runId) =>
      logger.error({ run_id: runId, err: { message: (err as Error)?.message } }, 'executor failed'),
  };
  return { service: new RunService(deps), turns, notifier, policies };
};

/** The worker's heartbeat, which also purges expired idempotency receipts. */
const startHeartbeat = ({ store, clock, logger, workerId }: Runtime): NodeJS.Timeout => {
  const heartbeat = setInterval(() => {
    const now = clock.now();
    void store.read.workers
      .heartbeat(workerId, now)
      .catch((err: unknown) => logger.warn({ err: { message: (err as Error).message } }, 'heartbeat failed'));
    void store.read.receipts.deleteExpired(now).catch(() => undefined);
  }, HEARTBEAT_INTERVAL_MS);
  heartbeat.unref();
  return heartbeat;
};

const buildAuthenticator = (
  config: HelixConfig,
  { store, instanceSecret, clock, credentials }: Runtime,
): Authenticator =>
  new Authenticator(
    store,
    {
      localJwt:
        config.localJwt === undefined
          ? undefined
          : {
              secret: new TextEncoder().encode(config.localJwt.secret),
              issuer: config.localJwt.issuer,
              audience: config.localJwt.audience,
            },
      oauth:
        config.oauth === undefined
          ? undefined
          : { verify: createOAuthVerifier(config.oauth), provider: config.oauth.provider },
      instanceSecret,
      requireLinkedAccounts: config.production,
    },
    () => clock.now(),
    credentials,
  );

/** The HTTP facade's options: every surface, each backed by its service. */
const appOptions = (
  config: HelixConfig,
  rt: Runtime,
  run: Awaited<ReturnType<typeof buildRunService>>,
  resolveHost: HostResolver,
  maxConnections: number,
): AppOptions => {
  const { store, instanceSecret, clock } = rt;
  return {
    service: run.service,
    authenticator: buildAuthenticator(config, rt),
    logger: rt.logger,
    bodyLimitBytes: config.bodyLimitBytes,
    mcpBodyLimitBytes: config.mcpBodyLimitBytes,
    roomBodyLimitBytes: config.roomBodyLimitBytes,
    roomIngressBodyLimitBytes: config.roomIngressBodyLimitBytes,
    identity: { publicBaseUrl: config.publicBaseUrl, resource: config.oauth?.audience ?? config.localJwt?.audience },
    hostPolicy: {
      hosts: config.allowedHosts,
      origins: config.allowedOrigins,
      allowLoopbackOrigins: !config.production,
    },
    authorizationServers: config.oauth === undefined ? [] : [config.oauth.issuer],
    accounts: { deps: { store, instanceSecret, now: () => clock.now() }, secureCookies: config.production },
    providers: {
      store,
      secretBox: config.model.secretBox,
      instanceSecret,
      now: () => clock.now(),
      baseUrlPolicy: config.model.ownerProviderPolicy,
      resolveHost,
      policies: run.policies,
    },
    subjects: new SubjectService({ store, instanceSecret, now: () => clock.now() }),
    rooms: {
      store,
      instanceSecret,
      policies: run.policies,
      receiptTtlMs: RECEIPT_TTL_MS,
      now: () => clock.now(),
      adapters: roomSourceAdapters(config.environmentAdapterFixtures),
      runtimeApprovalKeys: config.runtimeApprovalKeys,
      storageLimits: config.roomStorage,
    },
    hardening: {
      rateLimits: config.rateLimits,
      trustProxy: config.trustProxy,
      httpLimits: config.httpLimits,
      maxConnections,
      requireHttps: config.production,
    },
  };
};

/**
 * HELIX_HTTP_MAX_CONNECTIONS, or else a budget that leaves headroom below this process's descriptor
 * limit (src/http/hardening/descriptorLimit.ts). A budget above that headroom is allowed, with a warning.
 */
const connectionBudget = async (config: HelixConfig, logger: Logger): Promise<number> => {
  const limit = await openFileLimit();
  const max = config.httpLimits.maxConnections ?? connectionBudgetFor(limit);
  if (max > limit - descriptorHeadroom(limit))
    logger.warn(
      { max_connections: max, open_file_limit: limit },
      'too few file descriptors for the connection budget: raise ulimit -n or lower HELIX_HTTP_MAX_CONNECTIONS, or a connection flood may starve /healthz',
    );
  return max;
};

const listeningUrl = (app: FastifyInstance, config: HelixConfig): string => {
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
};

/**
 * The composition root. Start-up is explicit and ordered: open and migrate the store, load the
 * installation secret, register this worker, recover interrupted turns, start telemetry, then
 * listen. Any failure stops start-up with the underlying message.
 */
export const startHelix = async (config: HelixConfig, options: StartOptions = {}): Promise<RunningHelix> => {
  const resolveHost = options.resolveHost ?? systemResolver;
  const rt = await openRuntime(config, options);
  const run = await buildRunService(config, options, rt, resolveHost);
  const recovered = await run.service.recoverInterrupted();
  if (recovered > 0) rt.logger.warn({ recovered }, 'recovered interrupted turns');
  const heartbeat = startHeartbeat(rt);
  const stopTelemetry = await startTelemetry(config.telemetry, (message) => rt.logger.warn(message), options.telemetry);
  const maxConnections = await connectionBudget(config, rt.logger);
  const app = buildApp(appOptions(config, rt, run, resolveHost, maxConnections));
  await app.listen({ host: config.host, port: config.port }).catch(async (err: unknown) => {
    await stopTelemetry();
    throw err;
  });
  const url = listeningUrl(app, config);
  rt.logger.info(
    {
      url,
      database: describeLocation(config.database),
      dialect: rt.store.dialect,
      worker_id: rt.workerId,
      max_connections: maxConnections,
      // APR-03, D-06: whether approval-gated mutations can be verified, and against which keys.
      runtime_approvals: approvalBootstrapStatus(config.runtimeApprovalKeys),
    },
    'helix listening',
  );

  return {
    url,
    app,
    store: rt.store,
    service: run.service,
    workerId: rt.workerId,
    async close() {
      clearInterval(heartbeat);
      // Connections are closed forcibly (streams hold theirs open), so let running turns finish first.
      const deadline = Date.now() + SHUTDOWN_GRACE_MS;
      while (run.turns.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await app.close();
      await stopTelemetry();
      await run.notifier.close();
      await rt.store.read.workers.stop(rt.workerId, rt.clock.now()).catch(() => undefined);
      if (options.store === undefined) await rt.store.close();
      // An asynchronous log file keeps its last lines only if flushed before the process ends.
      await new Promise<void>((resolve) => rt.logger.flush(() => resolve()));
    },
  };
};
