// The action lane (docs/spec/shared-live-room-requirements.md MC-07, MC-12, M-03, §23.3): poll
// `actions/pending`, apply the controls first, queue the actions and run them one at a time, each
// within its deadline, and report each outcome and each control's verified postcondition. Polling
// goes on while an action runs, so a control reaches a running action at the next poll.
import type { Bot } from 'mineflayer';
import { ACTION_LIMITS, actionPollResponse, type PendingAction, type PendingControl } from '../actionWire.js';
import type { Log } from '../log.js';
import type { ActionSession } from '../session.js';
import { executeAction, type Interruption } from './executeAction.js';
import { haltMotion, verifyStationary } from './halt.js';
import type { Outcome } from './outcome.js';

interface Running {
  readonly pending: PendingAction;
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

export interface ActionLane {
  /** One poll: apply its controls, queue its actions. */
  poll(signal: AbortSignal): Promise<void>;
  /** Stops the running action (the connector is stopping) and waits for its report. */
  close(): Promise<void>;
}

/** Action ids already taken, so an action handed out twice still runs once. */
const SEEN_LIMIT = 1_000;

const reportAction = (session: ActionSession, pending: PendingAction, outcome: Outcome, signal: AbortSignal) =>
  session.send(
    'actions/result',
    {
      schema: 'helix.environment_action_result.v1',
      action_id: pending.action_id,
      workflow_ref: pending.workflow_ref,
      ...outcome,
      observed_at: session.now().toISOString(),
    },
    signal,
  );

/** M-03: `stopped` only with the verified stationary postcondition, else `failed`. */
const reportControl = (
  session: ActionSession,
  control: PendingControl,
  verified: Awaited<ReturnType<typeof verifyStationary>>,
  signal: AbortSignal,
) =>
  session.send(
    'controls/result',
    {
      schema: 'helix.environment_control_result.v1',
      control_id: control.control_id,
      workflow_ref: control.workflow_ref,
      control: control.control,
      status: verified.stationary ? 'stopped' : 'failed',
      postcondition: verified.postcondition,
      observed_at: session.now().toISOString(),
    },
    signal,
  );

/** Queues `pending` unless it was handed out before. */
const take = (pending: PendingAction, seen: string[], queue: PendingAction[]): void => {
  if (seen.includes(pending.action_id)) return;
  seen.push(pending.action_id);
  seen.splice(0, Math.max(0, seen.length - SEEN_LIMIT));
  queue.push(pending);
};

export const startActionLane = (
  bot: Bot,
  session: ActionSession,
  onError: (error: unknown) => void,
  log: Log,
): ActionLane => {
  const queue: PendingAction[] = [];
  const seen: string[] = [];
  let running: Running | undefined;
  let draining = false;
  let worker: Promise<void> = Promise.resolve();
  let laneSignal: AbortSignal = new AbortController().signal;

  const report = (pending: PendingAction, outcome: Outcome) => reportAction(session, pending, outcome, laneSignal);

  const runOne = async (pending: PendingAction): Promise<void> => {
    const controller = new AbortController();
    const msLeft = Date.parse(pending.deadline_at) - session.now().getTime();
    const deadline = setTimeout(() => controller.abort('deadline' satisfies Interruption), Math.max(0, msLeft));
    const done = (async () => {
      try {
        const outcome =
          msLeft <= 0
            ? ({ status: 'failed', reason: 'deadline', postcondition: null } as const)
            : await executeAction(bot, pending.action, controller.signal);
        await report(pending, outcome);
      } finally {
        clearTimeout(deadline);
      }
    })();
    running = { pending, controller, done };
    await done.catch(onError);
    running = undefined;
  };

  const drain = async () => {
    draining = true;
    try {
      for (let next = queue.shift(); next !== undefined && !laneSignal.aborted; next = queue.shift()) {
        await runOne(next);
      }
    } finally {
      draining = false;
    }
  };

  const applyControl = async (control: PendingControl): Promise<void> => {
    // cancel reaches its own workflow; emergency_stop reaches whatever the player is doing.
    const reaches = (workflow: string) => control.control === 'emergency_stop' || workflow === control.workflow_ref;
    const dropped = queue.filter((p) => reaches(p.workflow_ref));
    queue.splice(0, queue.length, ...queue.filter((p) => !reaches(p.workflow_ref)));
    const haltedAt = bot.entity.position.clone();
    const current = running;
    if (current !== undefined && reaches(current.pending.workflow_ref)) {
      haltMotion(bot);
      current.controller.abort(control.control satisfies Interruption);
      await current.done.catch(() => undefined);
    } else if (control.control === 'emergency_stop') {
      haltMotion(bot);
    }
    for (const pending of dropped) {
      await report(pending, { status: 'stopped', reason: control.control, postcondition: null });
    }
    const verified = await verifyStationary(bot, haltedAt);
    log('control applied', {
      control: control.control,
      stationary: verified.stationary,
      glide_blocks: verified.glide_blocks,
      drift_blocks: verified.postcondition.drift_blocks,
    });
    await reportControl(session, control, verified, laneSignal);
  };

  return {
    async poll(signal) {
      laneSignal = signal;
      const body = await session.send(
        'actions/pending',
        { schema: 'helix.environment_action_poll.v1', max_actions: ACTION_LIMITS.maxPendingActions },
        signal,
      );
      const parsed = actionPollResponse.safeParse(body);
      if (!parsed.success) throw new Error('actions/pending answered a body the connector cannot read');
      for (const control of parsed.data.controls) await applyControl(control);
      for (const pending of parsed.data.actions) take(pending, seen, queue);
      if (!draining && queue.length > 0) worker = drain();
    },
    async close() {
      queue.length = 0;
      if (running !== undefined) {
        haltMotion(bot);
        running.controller.abort('cancel' satisfies Interruption);
      }
      await worker.catch(() => undefined);
    },
  };
};
