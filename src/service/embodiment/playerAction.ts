import { randomBytes } from 'node:crypto';
import type { Principal } from '../../auth/principal.js';
import { type Action, ActionSchema } from '../../api/environmentActionSchemas.js';
import { EMBODIMENT_LIMITS, EXECUTABLE_ACTION_KINDS, type ExecutableActionKind } from '../../domain/embodiment.js';
import { HelixError } from '../../domain/errors.js';
import type { ConsumedApproval } from '../../domain/runtimeApproval.js';
import { consumeApproval, verifyApproval } from '../approvals/verifyAndConsumeApproval.js';
import {
  answerUsedKey,
  completeReceipt,
  idempotentRequest,
  requireIdempotencyKey,
  reserveKey,
} from '../idempotency.js';
import type { UnitOfWork } from '../../store/port.js';
import type { RoomDeps } from '../rooms/deps.js';
import type { ServiceResult } from '../result.js';
import { parseInput } from '../validate.js';
import { type ActingMember, loadActingMember, requireActor } from './embodimentAccess.js';
import { heldSubject, requireConnector } from './liveSubject.js';
import type { PlayerActionReceipt } from './workflowViews.js';

const LABEL_MAX = 120;

/** D-10: a kind the connector does not execute (MC-15's `craft`, `collect`…, or any other) is refused first. */
const executableAction = (input: unknown): Action => {
  const kind = typeof input === 'object' && input !== null ? (input as { kind?: unknown }).kind : undefined;
  if (typeof kind === 'string' && !EXECUTABLE_ACTION_KINDS.includes(kind as ExecutableActionKind))
    throw new HelixError('environment_action_not_supported');
  return parseInput(ActionSchema, input);
};

/**
 * The workflow's steps: `action` (one) or `actions` (1-8, in order), exactly one of them. The
 * approval receipt and the idempotency fingerprint bind `plan`, the very value the caller gave.
 */
const plannedSteps = (args: Readonly<Record<string, unknown>>): { steps: Action[]; plan: Action | Action[] } => {
  if ((args.action === undefined) === (args.actions === undefined))
    throw new HelixError('invalid_request', {
      issues: [{ path: 'action', message: 'give exactly one of action or actions' }],
    });
  if (args.action !== undefined) {
    const action = executableAction(args.action);
    return { steps: [action], plan: action };
  }
  const { actions } = args;
  if (!Array.isArray(actions) || actions.length < 1 || actions.length > EMBODIMENT_LIMITS.maxSteps)
    throw new HelixError('invalid_request', {
      issues: [{ path: 'actions', message: `must be 1-${EMBODIMENT_LIMITS.maxSteps} typed actions` }],
    });
  const steps = actions.map(executableAction);
  return { steps, plan: steps };
};

const optionalLabel = (value: unknown): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.length >= 1 && value.length <= LABEL_MAX) return value;
  throw new HelixError('invalid_request', {
    issues: [{ path: 'environment_label', message: 'must be 1-120 characters' }],
  });
};

const newRef = (prefix: string): string => `${prefix}_${randomBytes(16).toString('hex')}`;

/**
 * `helix_minecraft_player_action` (MC-03, MC-11..MC-15, D-11, M-04): queues one typed action for the
 * subject the caller holds, as a new workflow, and answers at once with status `running`: the
 * connector executes it on its next poll and the caller follows it with
 * `helix_minecraft_workflow_status` (the tool does not hold the MCP request open while a player
 * walks). In order: member, role and consent; the action's kind and strict schema; the held
 * subject and its live, admitted connector; every kind admitted by the source's adapter profile
 * (M-01); for a kind the profile puts under approval (D-11: world-mutating), the runtime approval
 * receipt bound to this exact action, room and subject (null run and turn: a direct MCP call),
 * verified first and consumed once, in the transaction that writes the workflow: a call refused
 * after verification (idempotency_conflict, a lost environment_subject_busy or
 * environment_subject_conflict race) rolls the consumption back, so the receipt stays usable.
 * Idempotent by `idempotency_key`, scoped by owner, room and tool: a retry answers the first answer
 * and consumes nothing.
 */
export const playerAction = async (
  deps: RoomDeps,
  principal: Principal,
  args: Readonly<Record<string, unknown>>,
): Promise<ServiceResult<PlayerActionReceipt>> => {
  const acting = await loadActingMember(deps, principal, 'minecraft.player_action', args.room_id);
  requireActor(acting);
  const key = requireIdempotencyKey(typeof args.idempotency_key === 'string' ? args.idempotency_key : undefined);
  const { steps, plan } = plannedSteps(args);
  const label = optionalLabel(args.environment_label);
  const roomId = acting.room.roomId;
  const idem = idempotentRequest(acting.caller.owner, 'minecraft.player_action', key, null, {
    room_id: roomId,
    environment_label: label ?? null,
    ...(Array.isArray(plan) ? { actions: plan } : { action: plan }),
  });
  const earlier = await deps.store.read.receipts.get(idem.receipt);
  if (earlier?.state === 'completed' && earlier.fingerprint === idem.fingerprint && earlier.expiresAt > deps.now())
    return { status: earlier.statusCode ?? 200, body: JSON.parse(earlier.responseBody ?? 'null'), replayed: true };

  const held = await heldSubject(deps.store.read, roomId, acting.caller.accountId, deps.now(), label);
  await requireConnector(deps, deps.store.read, held.source, deps.now());
  // Fails fast; the transaction that writes the workflow checks it again.
  await requireIdle(deps.store.read, held.subject.subjectRef);
  const lane = admittedLane(deps, held.source.profileId, steps);
  const approval = steps.some((step) => lane.approval_required_kinds.includes(step.kind))
    ? await verifiedApproval(deps, acting, plan, held.subject.subjectRef, args.approval_receipt)
    : null;
  return queue(deps, acting, idem, { steps, approval, ...held });
};

/** M-01: the source's profile admits every step's kind on its action lane; else not supported. */
const admittedLane = (deps: RoomDeps, profileId: string, steps: readonly Action[]) => {
  const lane = deps.adapters.byId(profileId)?.profile.action_lane ?? null;
  if (lane === null || steps.some((step) => !lane.action_kinds.includes(step.kind)))
    throw new HelixError('environment_action_not_supported');
  return lane;
};

/** One open workflow per subject: a second would interleave its steps with the first's. */
const requireIdle = async (store: Pick<UnitOfWork, 'embodiment'>, subjectRef: string): Promise<void> => {
  if ((await store.embodiment.openWorkflowOf(subjectRef)) !== undefined)
    throw new HelixError('environment_subject_busy');
};

const verifiedApproval = (
  deps: RoomDeps,
  acting: ActingMember,
  plan: Action | Action[],
  subjectRef: string,
  receipt: unknown,
): Promise<ConsumedApproval> =>
  verifyApproval(
    { trustedKeys: deps.runtimeApprovalKeys ?? [], now: deps.now },
    {
      receipt: typeof receipt === 'string' ? receipt : undefined,
      action: plan,
      roomId: acting.room.roomId,
      subjectRef,
      runId: null,
      turn: null,
      ownerHash: acting.caller.owner.ownerHash,
    },
  );

type Queued = { steps: readonly Action[]; approval: ConsumedApproval | null } & Awaited<ReturnType<typeof heldSubject>>;

/**
 * Reserves the key, renews the lease, consumes the approval and writes the workflow with its steps,
 * in one transaction: step 0 queued, every later step `waiting` until the one before it completes.
 * The approval is consumed after every check that can refuse the call, and any later failure rolls
 * it back too (D-11: consumed once, and only by the action it approved).
 */
const queue = (
  deps: RoomDeps,
  acting: ActingMember,
  idem: ReturnType<typeof idempotentRequest>,
  { steps, approval, subject, source }: Queued,
): Promise<ServiceResult<PlayerActionReceipt>> => {
  const now = deps.now();
  return deps.store.transaction(async (uow) => {
    const reservation = await reserveKey(uow, idem, { now, ttlMs: deps.receiptTtlMs, lease: null, runId: null });
    if (reservation.kind !== 'reserved') return answerUsedKey<PlayerActionReceipt>(reservation);
    const accountId = acting.caller.accountId;
    if (!(await uow.embodiment.takeLease(subject.subjectRef, accountId, now, now + EMBODIMENT_LIMITS.leaseMs)))
      throw new HelixError('environment_subject_conflict');
    await requireIdle(uow, subject.subjectRef);
    if (approval !== null) await consumeApproval(uow, approval);
    const approvalId = approval?.approvalId ?? null;
    const base = { sourceId: source.sourceId, ownerHash: acting.caller.owner.ownerHash };
    const workflowRef = newRef('wfr');
    await uow.embodiment.insertWorkflow({
      ...base,
      workflowRef,
      roomId: acting.room.roomId,
      subjectRef: subject.subjectRef,
      accountId,
      status: 'running',
      reason: null,
      createdAt: now,
      updatedAt: now,
    });
    const actionIds = steps.map(() => newRef('act'));
    for (const [step, action] of steps.entries())
      await uow.embodiment.insertAction({
        ...base,
        actionId: actionIds[step] ?? newRef('act'),
        workflowRef,
        actionJson: JSON.stringify(action),
        status: step === 0 ? 'queued' : 'waiting',
        reason: null,
        postconditionJson: null,
        approvalId,
        step,
        issuedAt: now,
        deadlineAt: now + EMBODIMENT_LIMITS.actionDeadlineMs,
        answeredAt: null,
      });
    const body: PlayerActionReceipt = {
      operation: 'minecraft.player.action',
      room_id: acting.room.roomId,
      workflow_ref: workflowRef,
      action_id: actionIds[0] ?? '',
      subject_ref: subject.subjectRef,
      kind: steps[0]?.kind ?? '',
      steps: steps.length,
      status: 'running',
      approval_consumed: approvalId !== null,
      answer_authority: false,
      terminal_eligible: false,
    };
    await completeReceipt(uow, idem, 200, body, null);
    return { status: 200, body, replayed: false };
  });
};
