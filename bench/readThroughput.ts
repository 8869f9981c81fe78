/**
 * Read throughput: autocannon drives one REST read, Helix and the floor in alternating rounds
 * (throughputRounds.ts), against one run per server that has been started and continued
 * READ_RUN_TURNS times beforehand, so both hold the same rows:
 *
 * - inspect: GET /api/v1/agent-runs/{run_id}, the run snapshot;
 * - events:  GET /api/v1/agent-runs/{run_id}/events?after_seq=0&limit=50, one page of its events.
 *
 * Each endpoint is probed before and after the load, so a server that answers the wrong thing (or
 * began refusing) breaks the bench rather than inflating a figure.
 */
import autocannon from 'autocannon';
import { continueRun, idempotencyKeys, RUNS_PATH, startRun } from './apiClient.js';
import type { TargetReady } from './childServer.js';
import { measureAlternating, type Load, type LoadShape, type Throughput } from './throughputRounds.js';

export const READ_TARGETS = ['helix', 'floor'] as const;
export type ReadTarget = (typeof READ_TARGETS)[number];
export const READ_ROUTES = ['inspect', 'events'] as const;
export type ReadRoute = (typeof READ_ROUTES)[number];

/** Turns each read run is given: 1 + 4 x 10 = 41 events, all in one page of 50, and the run still waiting. */
export const READ_RUN_TURNS = 10;
const EVENTS_PER_RUN = 1 + 4 * READ_RUN_TURNS;
export const EVENTS_PAGE_QUERY = 'after_seq=0&limit=50';

export interface ReadThroughput extends Throughput {
  /** Size of one answer, so a reader can see both servers send as many bytes. */
  readonly responseBytes: number;
}

const readUrl = (target: TargetReady, route: ReadRoute, runId: string): string => {
  const runUrl = `${target.url}${RUNS_PATH}/${encodeURIComponent(runId)}`;
  return route === 'inspect' ? runUrl : `${runUrl}/events?${EVENTS_PAGE_QUERY}`;
};

/** One GET, checked: the run's snapshot, or a page holding all of its events. Returns the answer's size. */
const probe = async (target: TargetReady, route: ReadRoute, runId: string): Promise<number> => {
  const response = await fetch(readUrl(target, route, runId), { headers: { authorization: `Bearer ${target.token}` } });
  const text = await response.text();
  const where = `${route} on ${target.url}`;
  if (response.status !== 200)
    throw new Error(`${where}: expected HTTP 200, got ${response.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { run_id?: unknown; events?: unknown };
  if (body.run_id !== runId) throw new Error(`${where}: not this run's answer: ${text.slice(0, 300)}`);
  if (route === 'events' && (!Array.isArray(body.events) || body.events.length !== EVENTS_PER_RUN)) {
    throw new Error(`${where}: expected ${EVENTS_PER_RUN} events: ${text.slice(0, 300)}`);
  }
  return Buffer.byteLength(text);
};

export const readLoad = (target: TargetReady, route: ReadRoute, runId: string, connections: number): Load => {
  const url = readUrl(target, route, runId);
  return (seconds) =>
    autocannon({
      url,
      connections,
      duration: seconds,
      method: 'GET',
      headers: { authorization: `Bearer ${target.token}` },
    });
};

/** A run with READ_RUN_TURNS turns behind it, so its snapshot and events page have their usual size. */
export const preparedRun = async (target: TargetReady): Promise<string> => {
  const nextKey = idempotencyKeys('read');
  let run = await startRun(target, nextKey());
  for (let turn = 0; turn < READ_RUN_TURNS; turn++) run = await continueRun(target, run, nextKey());
  return run.runId;
};

export const measureReadThroughput = async (
  targets: Readonly<Record<ReadTarget, TargetReady>>,
  route: ReadRoute,
  load: LoadShape,
): Promise<Record<ReadTarget, ReadThroughput>> => {
  const runIds = { helix: await preparedRun(targets.helix), floor: await preparedRun(targets.floor) };
  const bytes = {
    helix: await probe(targets.helix, route, runIds.helix),
    floor: await probe(targets.floor, route, runIds.floor),
  };
  const throughput = await measureAlternating(
    READ_TARGETS,
    {
      helix: readLoad(targets.helix, route, runIds.helix, load.connections),
      floor: readLoad(targets.floor, route, runIds.floor, load.connections),
    },
    load,
  );
  for (const kind of READ_TARGETS) await probe(targets[kind], route, runIds[kind]);
  return {
    helix: { ...throughput.helix, responseBytes: bytes.helix },
    floor: { ...throughput.floor, responseBytes: bytes.floor },
  };
};
