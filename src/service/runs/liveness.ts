import { hostname } from 'node:os';
import type { ActiveTurn } from '../../domain/run.js';
import type { UnitOfWork } from '../../store/port.js';
import type { ActiveTurns } from './activeTurns.js';
import type { Clock } from '../../domain/clock.js';

/** A worker whose heartbeat is older than this is presumed dead, wherever it ran. */
export const HEARTBEAT_STALE_MS = 30_000;
export const HEARTBEAT_INTERVAL_MS = 5_000;

export interface WorkerLiveness {
  /** Whether the process that claimed `turn` may still finalize it; reads through `uow`. */
  isTurnAlive(uow: UnitOfWork, runId: string, turn: ActiveTurn): Promise<boolean>;
}

const processExists = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * A turn is dead when its lease has expired, when this process claimed it but no longer runs it,
 * or when its worker stopped, stopped heartbeating, or (on this host) its pid is gone. The pid
 * check is what lets a restarted server recover a `kill -9`ed turn without waiting out the lease.
 */
export const storeLiveness = (clock: Clock, selfWorkerId: string, turns: ActiveTurns): WorkerLiveness => ({
  async isTurnAlive(uow, runId, turn) {
    if (clock.now() >= turn.leaseExpiresAt) return false;
    if (turn.workerId === selfWorkerId) return turns.has(runId, turn.turnId);
    const worker = await uow.workers.get(turn.workerId);
    if (worker === undefined || worker.stoppedAt !== null) return false;
    if (clock.now() - worker.heartbeatAt > HEARTBEAT_STALE_MS) return false;
    if (worker.host === hostname() && !processExists(worker.pid)) return false;
    return true;
  },
});
