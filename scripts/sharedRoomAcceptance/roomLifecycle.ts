import { randomUUID } from 'node:crypto';
import { boundedStartRequest, checkStartedRun, helixErrorOf } from '../deploymentProbe/boundedRun.js';
import type { ProbeContext } from '../deploymentProbe/guardedFetch.js';
import { check, type Check } from '../deploymentProbe/report.js';
import { field, replayedProblem, statusProblem, statusThen, step, type Answer } from '../deploymentProbe/restCall.js';
import { replayingStep } from './lostResponse.js';
import { ROOMS_PATH, RUNS_PATH } from './plan.js';
import { send, type Resources, type RestRequest } from './resources.js';
import { runBindingChecks } from './runBindingChecks.js';
import { flagProblems, idOf, roomIdOf, schemaProblems } from './roomReceipts.js';

/** The create body never changes: the caller-stable key must replay, not conflict (HAR-11). */
export const ROOM_TITLE = 'Helix shared live room acceptance';
const RUN_OBJECTIVE =
  'Helix shared live room acceptance: a bounded run bound to the acceptance room; never continued, cancelled at cleanup.';
const CREATED = [200, 201] as const;

const replayedHeader = (a: Answer): string[] =>
  ['true', 'false'].includes(a.headers.get('idempotency-replayed') ?? '') ? [] : ['no Idempotency-Replayed header'];

const createRoom = async (ctx: ProbeContext, token: string, key: string, resources: Resources): Promise<Check[]> => {
  const request: RestRequest = { method: 'POST', path: ROOMS_PATH, payload: { key, body: { title: ROOM_TITLE } } };
  const judge = (a: Answer) =>
    statusThen(a, CREATED, () => [
      ...(roomIdOf(a.body) === undefined ? ['the receipt has no room.room_id'] : []),
      ...flagProblems(a.body),
    ]);
  const created = await replayingStep(
    'room.create',
    () => send(ctx, token, request),
    (a) => [...judge(a), ...replayedHeader(a)],
    (a) =>
      a.headers.get('idempotency-replayed') === 'true'
        ? `room ${String(roomIdOf(a.body))} replayed from an earlier invocation`
        : `room ${String(roomIdOf(a.body))} created`,
  );
  const roomId = created.answer === undefined ? undefined : roomIdOf(created.answer.body);
  if (roomId === undefined) return [created.check];
  resources.roomId = roomId;
  const replay = await step(
    'room.create_replay',
    () => send(ctx, token, request),
    (a) => [
      ...judge(a),
      ...replayedProblem(a, 'true'),
      ...(roomIdOf(a.body) === roomId ? [] : ['the replay answered another room_id']),
    ],
    `the same key replayed room ${roomId}`,
  );
  return [created.check, replay.check];
};

const inspectRoom = async (ctx: ProbeContext, token: string, roomId: string): Promise<Check> => {
  const result = await step(
    'room.inspect',
    () => send(ctx, token, { method: 'GET', path: `${ROOMS_PATH}/${encodeURIComponent(roomId)}` }),
    (a) =>
      statusThen(a, 200, () => [
        ...schemaProblems(a.body, 'inspect'),
        ...flagProblems(a.body),
        ...(roomIdOf(a.body) === roomId ? [] : ['the receipt does not name the room']),
      ]),
    `room ${roomId} inspected`,
  );
  return result.check;
};

const startRun = async (ctx: ProbeContext, token: string, resources: Resources): Promise<Check> => {
  const request: RestRequest = {
    method: 'POST',
    path: RUNS_PATH,
    payload: { key: `helix-room-acceptance-run-${randomUUID()}`, body: boundedStartRequest(RUN_OBJECTIVE) },
  };
  resources.runStart = request;
  const result = await replayingStep(
    'run.start',
    () => send(ctx, token, request),
    (a, replayed) => {
      const started = checkStartedRun(a.body);
      return [
        ...statusProblem(a, 201),
        ...('problem' in started ? [started.problem] : []),
        ...replayedProblem(a, replayed ? 'true' : 'false'),
      ];
    },
    (a) => `run ${String(idOf(a.body, 'run_id'))} started: one step, 60 s`,
  );
  if (result.answer?.status === 201) resources.runId = idOf(result.answer.body, 'run_id');
  return result.check;
};

/** RREST-10: the command facade never executes anything. */
const commandDisabled = async (ctx: ProbeContext, token: string, roomId: string): Promise<Check> => {
  const result = await step(
    'room.command_disabled',
    () =>
      send(ctx, token, {
        method: 'POST',
        path: `${ROOMS_PATH}/${encodeURIComponent(roomId)}/commands`,
        payload: { body: { room_id: roomId, command: 'live acceptance: this command must not execute' } },
      }),
    (a) =>
      statusThen(a, 501, () => [
        ...(field(a.body, 'code') === 'command_execution_not_enabled'
          ? []
          : [`code is ${helixErrorOf(a.body) ?? 'not a Helix error'}, expected command_execution_not_enabled`]),
        ...(field(field(a.body, 'details'), 'execution_enabled') === false
          ? []
          : ['details.execution_enabled is not false']),
      ]),
    '501 command_execution_not_enabled, execution_enabled false',
  );
  return result.check;
};

/**
 * The mutation steps (HAR-07): the one retained room, one bounded run bound, withdrawn and bound
 * again, and the disabled command. Everything created is recorded in `resources` as soon as it is
 * known, for cleanup to undo.
 */
export const mutationChecks = async (
  ctx: ProbeContext,
  token: string,
  roomKey: string,
  resources: Resources,
): Promise<Check[]> => {
  const room = await createRoom(ctx, token, roomKey, resources);
  const roomId = resources.roomId;
  if (roomId === undefined) return room;
  const inspected = await inspectRoom(ctx, token, roomId);
  const started = await startRun(ctx, token, resources);
  const runId = resources.runId;
  const bindings =
    runId === undefined
      ? ['room.bind_run', 'room.bind_run_retry', 'room.unbind_run', 'room.unbind_run_again', 'room.rebind_run'].map(
          (id) => check(id, 'skipped', 'no run was started'),
        )
      : await runBindingChecks(ctx, token, resources, roomId, runId);
  return [...room, inspected, started, ...bindings, await commandDisabled(ctx, token, roomId)];
};
