// The connector's lifecycle: join the game, register the manifest (before any other ingress
// traffic, docs/spec/shared-live-room-requirements.md §22), then three loops (heartbeat, world
// snapshots, probe polling), and with an action credential a fourth (the action lane, MC-07),
// until stop() or a fatal condition (a credential rejected, the game gone).
import type { Bot } from 'mineflayer';
import { setTimeout as sleep } from 'node:timers/promises';
import { startActionLane } from './actions/actionLane.js';
import type { ConnectorConfig } from './config.js';
import { IngressError } from './ingressClient.js';
import type { Log } from './log.js';
import { readSnapshot } from './observe.js';
import { answerPendingProbes } from './probes.js';
import type { ActionSession, IngressSession } from './session.js';
import {
  DOMAIN_ADAPTER,
  INVENTORY_CHECK_PROBE,
  LIMITS,
  MECHANICS_COLLECTION,
  MODALITIES,
  snapshot,
  type WorldEvent,
} from './wire.js';

export const STOP_REASONS = ['stopped', 'credential_rejected', 'game_disconnected'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export interface RunningConnector {
  /** Settles once every loop has ended and the player has left the game. */
  readonly stopped: Promise<StopReason>;
  stop(): Promise<StopReason>;
}

export interface ConnectorParts {
  readonly config: ConnectorConfig;
  readonly bot: Bot;
  readonly session: IngressSession;
  /** The action lane's session; absent without an action credential (the connector stays read-only). */
  readonly actions?: ActionSession;
  readonly log: Log;
  readonly version: string;
}

const registerManifest = (parts: ConnectorParts, signal: AbortSignal) =>
  parts.session.send(
    'manifest',
    {
      schema: 'helix.environment_source_manifest.v1',
      domain_adapter: DOMAIN_ADAPTER,
      world_id: parts.config.world_id,
      protocol_version: parts.bot.version,
      mechanics_collections: [MECHANICS_COLLECTION],
      modalities: [...MODALITIES],
      probe_types: [INVENTORY_CHECK_PROBE],
      producer: { name: 'helix-minecraft-connector', version: parts.version },
    },
    signal,
  );

/** Snapshots wait here until a batch is accepted; when Helix is unreachable the oldest are dropped. */
const snapshotTask = (parts: ConnectorParts) => {
  const queue: WorldEvent[] = [];
  let lastObservedAt: string | null = null;
  const task = async (signal: AbortSignal) => {
    const observedAt = parts.session.now().toISOString();
    // Checked against the wire schema here, so a surprise from the game is reported locally
    // instead of poisoning a whole batch at Helix.
    const seen = snapshot.safeParse(readSnapshot(parts.bot));
    if (!seen.success)
      throw new Error(`snapshot skipped: ${seen.error.issues.map((i) => i.path.join('.')).join(', ')}`);
    queue.push({ event_id: parts.session.newId(), kind: 'snapshot', observed_at: observedAt, snapshot: seen.data });
    lastObservedAt = observedAt;
    queue.splice(0, Math.max(0, queue.length - LIMITS.maxBatchEvents));
    const events = [...queue];
    await parts.session.send(
      'world-events/batch',
      { schema: 'helix.environment_world_event_batch.v1', world_id: parts.config.world_id, events },
      signal,
    );
    queue.splice(0, events.length);
  };
  return { task, lastObservedAt: () => lastObservedAt };
};

/** Runs `task` now and then every `intervalMs` until `signal` aborts; `onError` decides whether a failure ends it all. */
const every = async (
  intervalMs: number,
  signal: AbortSignal,
  task: (signal: AbortSignal) => Promise<unknown>,
  onError: (error: unknown) => void,
): Promise<void> => {
  while (!signal.aborted) {
    await task(signal).catch(onError);
    await sleep(intervalMs, undefined, { signal }).catch(() => undefined);
  }
};

export const runConnector = async (parts: ConnectorParts): Promise<RunningConnector> => {
  const { bot, session, log, config } = parts;
  const controller = new AbortController();
  const signal = controller.signal;
  let reason: StopReason = 'stopped';
  const end = (why: StopReason) => {
    if (!signal.aborted) reason = why;
    controller.abort();
  };
  await registerManifest(parts, signal);
  log('manifest admitted', { binding_id: config.binding_id, world_id: config.world_id, protocol_version: bot.version });

  const onError = (error: unknown) => {
    if (error instanceof IngressError && error.credentialRejected) {
      const credential = error.lane === 'action' ? 'action' : 'source';
      log(`the ${credential} credential was rejected (revoked, rotated or expired); stopping`, { code: error.code });
      end('credential_rejected');
    } else if (!signal.aborted) {
      log('ingress call failed', { error: error instanceof Error ? error.message : 'unknown' });
    }
  };
  bot.once('end', () => end('game_disconnected'));
  const snapshots = snapshotTask(parts);
  const heartbeat = (s: AbortSignal) =>
    session.send(
      'heartbeat',
      {
        schema: 'helix.environment_source_heartbeat.v1',
        game_connected: true,
        last_observed_at: snapshots.lastObservedAt(),
      },
      s,
    );
  const actionLane = parts.actions === undefined ? undefined : startActionLane(bot, parts.actions, onError, log);
  const loops = Promise.all([
    every(config.intervals.snapshot_ms, signal, snapshots.task, onError),
    every(config.intervals.heartbeat_ms, signal, heartbeat, onError),
    every(config.intervals.probe_poll_ms, signal, (s) => answerPendingProbes(bot, session, s), onError),
    actionLane === undefined ? undefined : every(config.intervals.action_poll_ms, signal, actionLane.poll, onError),
  ]);
  const stopped = loops.then(async () => {
    await actionLane?.close();
    await leaveGame(bot);
    log('connector stopped', { reason });
    return reason;
  });
  return {
    stopped,
    stop: () => {
      end('stopped');
      return stopped;
    },
  };
};

const LEAVE_TIMEOUT_MS = 2_000;

const leaveGame = async (bot: Bot): Promise<void> => {
  if (bot._client.ended) return;
  const left = new Promise<void>((resolve) => bot.once('end', () => resolve()));
  bot.quit();
  await Promise.race([left, sleep(LEAVE_TIMEOUT_MS)]);
};
