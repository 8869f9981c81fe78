import type { RestMethod } from '../deploymentProbe/restCall.js';

/**
 * The acceptance plan (docs/spec/shared-live-room-requirements.md §17): every automated step with
 * what it sends and what it expects, and the manual checkpoints of HAR-14. The dry run prints it
 * as is; network mode fills in each step's outcome. Paths are templates: the opaque identifiers a
 * run learns appear only in step details.
 */
export const ROOMS_PATH = '/api/v1/rooms';
export const RUN_BINDINGS_PATH = `${ROOMS_PATH}/run-bindings`;
export const RUNS_PATH = '/api/v1/agent-runs';
export const ROOMS_METADATA_PATH = '/.well-known/oauth-protected-resource/api/v1/rooms';

export const STEP_PHASES = ['read_only', 'mutation', 'cleanup'] as const;
export type StepPhase = (typeof STEP_PHASES)[number];

/** What a step needs beyond the network opt-in. */
export const STEP_NEEDS = ['network', 'token', 'mutation'] as const;
export type StepNeed = (typeof STEP_NEEDS)[number];

export interface PlannedStep {
  readonly id: string;
  readonly phase: StepPhase;
  readonly method: RestMethod;
  readonly path: string;
  readonly expected: string;
  readonly needs: StepNeed;
  /** The requirement rows the step verifies. */
  readonly requirements: readonly string[];
}

const step = (
  id: string,
  phase: StepPhase,
  needs: StepNeed,
  request: `${RestMethod} ${string}`,
  expected: string,
  requirements: readonly string[],
): PlannedStep => {
  const [method, path] = request.split(' ') as [RestMethod, string];
  return { id, phase, needs, method, path, expected, requirements };
};

const BINDING = `${RUN_BINDINGS_PATH}/{binding_ref}`;
const FLAGS = 'the four false-authority flags';

export const STEPS = [
  step(
    'rooms.protected_resource_metadata',
    'read_only',
    'network',
    `GET ${ROOMS_METADATA_PATH}`,
    '200 application/json: the canonical resource, every run and room scope, bearer method "header"',
    ['SLR-14'],
  ),
  step(
    'rooms.protected_resource_metadata.authorization_servers',
    'read_only',
    'network',
    `GET ${ROOMS_METADATA_PATH}`,
    'at least one authorization server (an empty list is a warning)',
    ['SLR-14'],
  ),
  step(
    'rooms.unauthenticated_challenge',
    'read_only',
    'network',
    `GET ${ROOMS_PATH}`,
    'without credentials: 401 with a WWW-Authenticate Bearer challenge naming resource_metadata',
    ['SLR-02'],
  ),
  step('rooms.list', 'read_only', 'token', `GET ${ROOMS_PATH}`, `200 list_receipt.v1 with ${FLAGS}`, ['RREST-01']),
  step(
    'room.create',
    'mutation',
    'mutation',
    `POST ${ROOMS_PATH}`,
    `{title} under the caller-stable Idempotency-Key: 201 (200 on a replay) with room_id and ${FLAGS}`,
    ['RREST-02', 'HAR-11'],
  ),
  step(
    'room.create_replay',
    'mutation',
    'mutation',
    `POST ${ROOMS_PATH}`,
    'the same key and body again: the same room_id with Idempotency-Replayed: true',
    ['SLR-03', 'HAR-11'],
  ),
  step(
    'room.inspect',
    'mutation',
    'mutation',
    `GET ${ROOMS_PATH}/{room_id}`,
    `200 inspect_receipt.v1 naming the room, with ${FLAGS}`,
    ['RREST-03'],
  ),
  step(
    'run.start',
    'mutation',
    'mutation',
    `POST ${RUNS_PATH}`,
    'a fresh Idempotency-Key: 201, version 1, waiting, max_steps 1, expiring 60 s after creation',
    ['HAR-11'],
  ),
  step(
    'room.bind_run',
    'mutation',
    'mutation',
    `POST ${RUN_BINDINGS_PATH}`,
    `{room_id, run_id}: 201 run_bind_receipt.v1 with an opaque binding_ref and ${FLAGS}`,
    ['RREST-04'],
  ),
  step(
    'room.bind_run_retry',
    'mutation',
    'mutation',
    `POST ${RUN_BINDINGS_PATH}`,
    'the exact same bind: the same binding_ref',
    ['RREST-04'],
  ),
  step(
    'room.unbind_run',
    'mutation',
    'mutation',
    `DELETE ${BINDING}`,
    `no body: 200 run_unbind_receipt.v1, binding_status revoked, revocation_status revoked, ${FLAGS}`,
    ['RREST-05', 'WD-01', 'WD-04'],
  ),
  step(
    'room.unbind_run_again',
    'mutation',
    'mutation',
    `DELETE ${BINDING}`,
    '200 with revocation_status already_revoked',
    ['WD-03'],
  ),
  step(
    'room.rebind_run',
    'mutation',
    'mutation',
    `POST ${RUN_BINDINGS_PATH}`,
    'the ordinary bind again: a new binding_ref',
    ['WD-07', 'WD-08'],
  ),
  step(
    'room.command_disabled',
    'mutation',
    'mutation',
    `POST ${ROOMS_PATH}/{room_id}/commands`,
    '501 command_execution_not_enabled with details.execution_enabled false',
    ['RREST-10'],
  ),
  step(
    'cleanup.unbind_run',
    'cleanup',
    'mutation',
    `DELETE ${BINDING}`,
    'the active binding withdrawn (revoked or already_revoked); a lost bind is recovered first; retried once',
    ['HAR-12'],
  ),
  step(
    'cleanup.cancel_run',
    'cleanup',
    'mutation',
    `POST ${RUNS_PATH}/{run_id}/cancel`,
    '200 cancelled (or already terminal); a lost start is recovered first; retried once under the same key',
    ['HAR-12'],
  ),
] as const satisfies readonly PlannedStep[];

export type StepId = (typeof STEPS)[number]['id'];

export interface ManualCheckpoint {
  readonly id: string;
  readonly description: string;
  readonly status: 'not_automated';
}

const manual = (id: string, description: string): ManualCheckpoint => ({ id, description, status: 'not_automated' });

/** HAR-14: what a person still has to do; the harness never accepts a cookie, claim or source bearer (HAR-13). */
export const MANUAL_CHECKPOINTS: readonly ManualCheckpoint[] = [
  manual(
    'manual.chat_selection',
    'a signed-in same-origin browser selects the chat and issues the one-time chat claim',
  ),
  manual('manual.source_delivery_claim', 'the signed-in browser issues and claims the source credential delivery'),
  manual('manual.observer_disconnect_rebind', 'the browser exercises observer disconnect, rebind and after_seq'),
  manual('manual.single_terminal_append', 'exactly one canonical terminal message is appended to the bound chat'),
  manual('manual.minecraft_fresh_evidence', 'a real Minecraft producer submits fresh exact-provenance evidence'),
  manual(
    'manual.keyed_equivalence',
    'keyed Ask, Realtime, text and voice equivalence (companion interactive checkpoint)',
  ),
];

/** HAR-15, PCP-10: the harness never starts, replaces or bypasses the server it tests. */
export const PRECONDITIONS: readonly string[] = [
  'for loopback acceptance the user starts the keyed server and confirms it is running before enabling network mode',
  'the harness never starts, replaces or bypasses that server; stop it when the acceptance battery ends',
  'the one acceptance room is retained: the external facade has no room-close operation (RREST-11)',
];
