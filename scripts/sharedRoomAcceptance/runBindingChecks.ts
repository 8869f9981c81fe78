import type { ProbeContext } from '../deploymentProbe/guardedFetch.js';
import { check, type Check } from '../deploymentProbe/report.js';
import { statusThen, type Answer } from '../deploymentProbe/restCall.js';
import { replayingStep } from './lostResponse.js';
import { RUN_BINDINGS_PATH } from './plan.js';
import { send, type Resources, type RestRequest } from './resources.js';
import { flagProblems, idOf, schemaProblems, unbindProblems } from './roomReceipts.js';

/** The spec fixes no status for a bind; a fresh binding and an exact retry may answer either. */
const BOUND = [200, 201] as const;

export const bindRequest = (roomId: string, runId: string): RestRequest => ({
  method: 'POST',
  path: RUN_BINDINGS_PATH,
  payload: { body: { room_id: roomId, run_id: runId } },
});

export const unbindRequest = (ref: string): RestRequest => ({
  method: 'DELETE',
  path: `${RUN_BINDINGS_PATH}/${encodeURIComponent(ref)}`,
});

const bindProblems = (a: Answer): string[] =>
  statusThen(a, BOUND, () => [
    ...schemaProblems(a.body, 'run_bind'),
    ...flagProblems(a.body),
    ...(idOf(a.body, 'binding_ref') === undefined ? ['the receipt has no binding_ref'] : []),
  ]);

/**
 * A bind whose outcome the harness must not lose track of: pending until an answer arrives, and
 * the active binding once it names one. The exact bind is naturally idempotent, so a lost response
 * is recovered by sending it again.
 */
const bind = async (
  ctx: ProbeContext,
  token: string,
  resources: Resources,
  id: string,
  request: RestRequest,
  judge: (a: Answer) => string[],
): Promise<{ check: Check; ref: string | undefined }> => {
  resources.pendingBind = request;
  const result = await replayingStep(
    id,
    () => send(ctx, token, request),
    judge,
    (a) => {
      return `binding ${String(idOf(a.body, 'binding_ref'))}`;
    },
  );
  const ref = result.answer === undefined ? undefined : idOf(result.answer.body, 'binding_ref');
  if (result.answer !== undefined) resources.pendingBind = undefined;
  if (ref !== undefined && BOUND.some((s) => s === result.answer?.status)) resources.activeBindingRef = ref;
  return { check: result.check, ref };
};

const unbind = async (
  ctx: ProbeContext,
  token: string,
  resources: Resources,
  id: string,
  ref: string,
  outcomes: (replayed: boolean) => readonly string[],
): Promise<Check> => {
  const result = await replayingStep(
    id,
    () => send(ctx, token, unbindRequest(ref)),
    (a, replayed) => statusThen(a, 200, () => unbindProblems(a.body, ref, outcomes(replayed))),
    (a) => `binding ${ref} withdrawn: ${String((a.body as Record<string, unknown>).revocation_status)}`,
  );
  if (result.answer?.status === 200) resources.activeBindingRef = undefined;
  return result.check;
};

const LATER_STEPS = ['room.bind_run_retry', 'room.unbind_run', 'room.unbind_run_again', 'room.rebind_run'];

const skipped = (ids: readonly string[], why: string): Check[] => ids.map((id) => check(id, 'skipped', why));

/** RREST-04, RREST-05, WD-03, WD-04, WD-07, WD-08: bind, retry, withdraw twice, rebind. */
export const runBindingChecks = async (
  ctx: ProbeContext,
  token: string,
  resources: Resources,
  roomId: string,
  runId: string,
): Promise<Check[]> => {
  const request = bindRequest(roomId, runId);
  const first = await bind(ctx, token, resources, 'room.bind_run', request, bindProblems);
  if (first.ref === undefined || first.check.status !== 'passed')
    return [first.check, ...skipped(LATER_STEPS, 'the bind did not succeed')];
  const ref = first.ref;
  const retry = await bind(ctx, token, resources, 'room.bind_run_retry', request, (a) => [
    ...bindProblems(a),
    ...(idOf(a.body, 'binding_ref') === ref ? [] : ['the exact retry answered another binding_ref']),
  ]);
  const withdraw = await unbind(ctx, token, resources, 'room.unbind_run', ref, (replayed) =>
    // After a lost response the replay finds the binding already withdrawn.
    replayed ? ['revoked', 'already_revoked'] : ['revoked'],
  );
  if (withdraw.status !== 'passed')
    return [first.check, retry.check, withdraw, ...skipped(LATER_STEPS.slice(2), 'the withdrawal did not succeed')];
  const again = await unbind(ctx, token, resources, 'room.unbind_run_again', ref, () => ['already_revoked']);
  const rebind = await bind(ctx, token, resources, 'room.rebind_run', request, (a) => [
    ...bindProblems(a),
    ...(idOf(a.body, 'binding_ref') === ref ? ['the rebind answered the revoked binding_ref'] : []),
  ]);
  return [first.check, retry.check, withdraw, again, rebind.check];
};
