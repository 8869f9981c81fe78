import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestHelix } from './harness.js';
import { batchBody, envelope, heartbeatBody, manifestBody, newEpoch, snapshot } from './ingressBodies.js';
import { ACTION_LANE_OPERATION_DOCS } from '../../src/http/openapi/ingressOperations.js';
import { actionPost, type ClaimedSource, ingressPost } from './ingressSources.js';

const WORLD = 'minecraft:overworld';

/**
 * A scripted connector (§23.3 item 4: not live-verified): it speaks the ingress lane with its
 * source bearer and the action lane (connectors/minecraft/src/actionWire.ts shapes) with its action
 * credential, and reports whatever outcome the test scripts, without any game behind it.
 */
export const fakeConnector = async (h: TestHelix, source: ClaimedSource, now: () => number, player = 'helix_scout') => {
  const epoch = newEpoch();
  const iso = () => new Date(now()).toISOString();
  /** Every answer the lane accepts is the success the published contract documents (docs/api.md, OpenAPI). */
  const action = async (route: string, body: object) => {
    const answer = await actionPost(h, source.id, source.actionToken ?? '', route, body);
    if (answer.status < 300) {
      const documented = ACTION_LANE_OPERATION_DOCS[`POST /api/room-actions/v1/bindings/:binding_id/${route}`]?.success;
      expect(documented?.status, `${route} answered ${answer.status}; the contract documents no success`).toBe(
        answer.status,
      );
      documented?.schema?.parse(answer.body);
    }
    return answer;
  };
  const ingress = async (route: string, body: object) => {
    const answer = await ingressPost(h, source, route, body);
    expect(answer.status, answer.text).toBe(200);
  };
  const connector = {
    epoch,
    /** A heartbeat (game connected) and a snapshot of the embodied player, now. */
    beat: async () => {
      await ingress('heartbeat', heartbeatBody(epoch, now(), now()));
      await ingress('world-events/batch', batchBody(epoch, now(), WORLD, [snapshot(player)]));
    },
    poll: async () => {
      const answer = await action('actions/pending', {
        schema: 'helix.environment_action_poll.v1',
        ...envelope(epoch, now()),
        max_actions: 4,
      });
      expect(answer.status, answer.text).toBe(200);
      return answer.body as { controls: any[]; actions: any[] };
    },
    result: (actionId: string, workflowRef: string, status: string, postcondition: object | null, reason = null) =>
      action('actions/result', {
        schema: 'helix.environment_action_result.v1',
        ...envelope(epoch, now()),
        action_id: actionId,
        workflow_ref: workflowRef,
        status,
        reason: status === 'completed' ? null : (reason ?? 'unreachable'),
        postcondition,
        observed_at: iso(),
      }),
    controlResult: (c: { control_id: string; workflow_ref: string; control: string }, status: string, drift: number) =>
      action('controls/result', {
        schema: 'helix.environment_control_result.v1',
        ...envelope(epoch, now()),
        control_id: c.control_id,
        workflow_ref: c.workflow_ref,
        control: c.control,
        status,
        postcondition: { kind: 'stationary', drift_blocks: drift, window_ticks: 5 },
        observed_at: iso(),
      }),
    requestId: () => randomUUID(),
  };
  await ingress('manifest', manifestBody(epoch, now(), WORLD));
  await connector.beat();
  return connector;
};
