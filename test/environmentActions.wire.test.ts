// §23.3, MC-11, MC-15, M-02, M-03: the action lane's contract is written twice, in two packages:
// the connector's connectors/minecraft/src/actionWire.ts and Helix's src/api/environmentActionSchemas.ts.
// Property checks keep them from drifting: every body the connector's schemas accept is accepted by
// Helix's (and the reverse for the typed action), and Helix's constants equal the connector's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as wire from '../connectors/minecraft/src/actionWire.js';
import {
  ACTION_LANE_LIMITS,
  ActionPollRequestSchema,
  ActionResultRequestSchema,
  ActionSchema,
  ControlResultRequestSchema,
} from '../src/api/environmentActionSchemas.js';
import { EXECUTABLE_ACTION_KINDS, WORLD_MUTATING_KINDS } from '../src/domain/embodiment.js';
import { ACTION_LANE_ROUTES } from '../src/service/roomIngress/ingressRequest.js';

const at = '2026-12-01T12:00:00.000Z';
const id = fc.stringMatching(/^[A-Za-z0-9._:-]{16,40}$/);
const coord = fc.double({ min: -1000, max: 1000, noNaN: true });
const position = fc.record({ x: coord, y: fc.double({ min: -64, max: 320, noNaN: true }), z: coord });
const name = fc.stringMatching(/^[a-z0-9_]{1,20}$/);
const actionArb = fc.oneof(
  fc.record({ kind: fc.constant('navigate_to'), target: position, range: fc.double({ min: 0, max: 8, noNaN: true }) }),
  fc.record({ kind: fc.constant('look_at'), target: position }),
  fc.record({
    kind: fc.constant('walk'),
    direction: fc.constantFrom('forward', 'back', 'left', 'right'),
    ticks: fc.integer({ min: 1, max: 100 }),
  }),
  fc.record({ kind: fc.constant('jump') }),
  fc.record({ kind: fc.constant('hotbar_select'), slot: fc.integer({ min: 0, max: 8 }) }),
  fc.record({ kind: fc.constant('equip'), item: name, destination: fc.constantFrom('hand', 'off-hand', 'head') }),
  fc.record({
    kind: fc.constant('follow'),
    player: fc.stringMatching(/^[A-Za-z0-9_]{3,16}$/),
    range: fc.double({ min: 1, max: 8, noNaN: true }),
    duration_ms: fc.integer({ min: 1000, max: 30000 }),
  }),
  fc.record({ kind: fc.constant('mine'), target: position }),
  fc.record({ kind: fc.constant('place'), target: position, item: name }),
  fc.record({ kind: fc.constant('interact'), target: position }),
);
const postArb = fc.oneof(
  fc.record({
    kind: fc.constant('position'),
    position,
    distance_to_target: fc.option(fc.double({ min: 0, max: 100, noNaN: true })),
  }),
  fc.record({ kind: fc.constant('block'), target: position, block: name }),
  fc.record({
    kind: fc.constant('stationary'),
    drift_blocks: fc.double({ min: 0, max: 5, noNaN: true }),
    window_ticks: fc.integer({ min: 1, max: 20 }),
  }),
  fc.record({ kind: fc.constant('hotbar'), slot: fc.integer({ min: 0, max: 8 }) }),
);
const envelope = fc.record({ request_id: id, producer_epoch: id, sent_at: fc.constant(at) });

describe('the action lane wire contract: Helix mirrors connectors/minecraft/src/actionWire.ts', () => {
  it('§23.3: the same routes, kinds, world-mutating kinds and limits', () => {
    expect([...ACTION_LANE_ROUTES]).toEqual([...wire.ACTION_ROUTES]);
    expect([...EXECUTABLE_ACTION_KINDS]).toEqual([...wire.EXECUTABLE_KINDS]);
    expect([...WORLD_MUTATING_KINDS]).toEqual([...wire.WORLD_MUTATING_KINDS]);
    expect(ACTION_LANE_LIMITS).toMatchObject({
      maxPendingActions: wire.ACTION_LIMITS.maxPendingActions,
      maxRangeBlocks: wire.ACTION_LIMITS.maxRangeBlocks,
      maxWalkTicks: wire.ACTION_LIMITS.maxWalkTicks,
      maxFollowMs: wire.ACTION_LIMITS.maxFollowMs,
      stationaryEpsilonBlocks: wire.ACTION_LIMITS.stationaryEpsilonBlocks,
    });
  });

  it('MC-11, MC-15: a typed action is accepted by both sides or by neither, and Helix hands out what the connector parses', () => {
    fc.assert(
      fc.property(fc.oneof(actionArb, fc.record({ kind: fc.string(), text: fc.string() })), (candidate) => {
        const ours = ActionSchema.safeParse(candidate);
        expect(ours.success).toBe(wire.action.safeParse(candidate).success);
        if (ours.success)
          expect(
            wire.pendingAction.safeParse({
              action_id: 'act_0123456789abcdef',
              workflow_ref: 'wfr_0123456789abcdef',
              subject_ref: 'esr_0123456789abcdef',
              action: ours.data,
              issued_at: at,
              deadline_at: at,
            }).success,
          ).toBe(true);
      }),
    );
  });

  it('M-02, M-03: every poll, action result and control result the connector can send is accepted by Helix', () => {
    fc.assert(
      fc.property(envelope, fc.integer({ min: 1, max: 4 }), (env, max) => {
        const body = { schema: 'helix.environment_action_poll.v1', ...env, max_actions: max };
        expect(wire.actionPollRequest.parse(body)).toEqual(ActionPollRequestSchema.parse(body));
      }),
    );
    fc.assert(
      fc.property(
        envelope,
        id,
        id,
        fc.constantFrom(...wire.ACTION_RESULT_STATUSES),
        fc.option(postArb),
        (env, a, w, status, post) => {
          const body = {
            schema: 'helix.environment_action_result.v1',
            ...env,
            action_id: a,
            workflow_ref: w,
            status,
            reason: status === 'completed' ? null : 'unreachable',
            postcondition: post,
            observed_at: at,
          };
          expect(wire.actionResultRequest.safeParse(body).success).toBe(true);
          expect(ActionResultRequestSchema.safeParse(body).success).toBe(true);
        },
      ),
    );
    fc.assert(
      fc.property(
        envelope,
        id,
        id,
        fc.constantFrom('cancel', 'emergency_stop'),
        fc.constantFrom('stopped', 'failed'),
        postArb,
        (env, c, w, control, status, post) => {
          const body = {
            schema: 'helix.environment_control_result.v1',
            ...env,
            control_id: c,
            workflow_ref: w,
            control,
            status,
            postcondition: post,
            observed_at: at,
          };
          expect(wire.controlResultRequest.safeParse(body).success).toBe(true);
          expect(ControlResultRequestSchema.safeParse(body).success).toBe(true);
        },
      ),
    );
  });
});
