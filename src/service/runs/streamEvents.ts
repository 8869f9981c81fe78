import { StreamEventsQuerySchema } from '../../api/schemas.js';
import { projectEvent, type EventView } from '../../api/runView.js';
import type { Principal } from '../../auth/principal.js';
import { HelixError } from '../../domain/errors.js';
import { isRunTerminal } from '../../domain/run.js';
import { loadOwnedRun, ownerOf, requireOperation, requireRunId } from './access.js';
import type { RunServiceDeps } from './deps.js';
import { watchRun } from './runNotifier.js';
import { parseInput } from '../validate.js';

export const STREAM_HEARTBEAT_MS = 15_000;
const PAGE = 200;

export type StreamItem =
  | { readonly type: 'event'; readonly event: EventView }
  | { readonly type: 'heartbeat' }
  | { readonly type: 'end' };

/**
 * GET /api/v1/agent-runs/{run_id}/events/stream. Every check (scope, id, ownership, cursor) runs
 * before the first byte, so a refused stream is an ordinary JSON error. The stream resumes after
 * `Last-Event-ID` (or `after_seq`), sends each event once with `id: seq`, heartbeats while idle,
 * and ends after the run's last event once the run is terminal.
 */
export const openEventStream = async (
  deps: RunServiceDeps,
  principal: Principal,
  runId: string,
  query: unknown,
  lastEventId: string | undefined,
): Promise<(signal: AbortSignal) => AsyncGenerator<StreamItem>> => {
  requireOperation(principal, 'run.events_stream');
  requireRunId(runId);
  const cursor = resumeSeqOf(query, lastEventId);
  await loadOwnedRun(deps, runId, ownerOf(deps, principal));
  return runEventStream(deps, runId, cursor);
};

/** Where a stream resumes: after `Last-Event-ID` when the client sends one, else after `after_seq` (0). */
export const resumeSeqOf = (query: unknown, lastEventId: string | undefined): number => {
  const { after_seq: afterSeq } = parseInput(StreamEventsQuerySchema, query);
  if (lastEventId === undefined) return afterSeq ?? 0;
  if (!/^\d{1,15}$/.test(lastEventId))
    throw new HelixError('invalid_request', { issues: [{ path: 'Last-Event-ID', message: 'must be an event seq' }] });
  return Number(lastEventId);
};

/**
 * The events of a run the caller was already found to own, after `afterSeq`: each once, a
 * heartbeat while idle, and an end once the run is terminal and every event has been sent.
 */
export const runEventStream = (deps: RunServiceDeps, runId: string, afterSeq: number) =>
  async function* stream(signal: AbortSignal): AsyncGenerator<StreamItem> {
    let cursor = afterSeq;
    // Watching before the first read: an event committed while this reads is never waited past.
    const watch = watchRun(deps.notifier, runId);
    try {
      while (!signal.aborted) {
        const rows = await deps.store.read.events.list(runId, cursor, PAGE);
        for (const row of rows) {
          cursor = row.seq;
          yield { type: 'event', event: projectEvent(row) };
        }
        if (rows.length === PAGE) continue;
        const run = await deps.store.read.runs.get(runId);
        if (run === undefined || (isRunTerminal(run) && run.lastEventSeq <= cursor)) {
          yield { type: 'end' };
          return;
        }
        if (run.lastEventSeq > cursor) continue;
        await watch.next(STREAM_HEARTBEAT_MS, signal);
        const after = await deps.store.read.runs.get(runId);
        if (after !== undefined && after.lastEventSeq === run.lastEventSeq && !isRunTerminal(after))
          yield { type: 'heartbeat' };
      }
    } finally {
      watch.close();
    }
  };
