import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { helixErrorOf } from '../deploymentProbe/boundedRun.js';
import { describeFailure, type ProbeContext } from '../deploymentProbe/guardedFetch.js';
import { mcpSession } from './mcpSession.js';

/**
 * Cancels a run a provider started, with the probe's own token over MCP. Without it the run would
 * stay `waiting` in the store: Helix closes an expired run only when something next reads it. A
 * cancel is not a continuation, so the run still never takes a step (docs/spec/shared-live-room-requirements.md PCP-07).
 *
 * Answers undefined when the run is cancelled, else why not.
 */
export const cancelProbeRun = async (
  ctx: ProbeContext,
  token: string,
  runId: string,
  idempotencyKey: string,
  timeoutMs: number,
): Promise<string | undefined> => {
  const { client, transport } = mcpSession(ctx, token);
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const result = await client.callTool(
      {
        name: 'helix_run_cancel',
        arguments: {
          run_id: runId,
          idempotency_key: idempotencyKey,
          request: { expected_version: 1, reason: 'provider conformance probe: never continued' },
        },
      },
      CallToolResultSchema,
      { timeout: timeoutMs },
    );
    const answer = (result.structuredContent ?? {}) as Record<string, unknown>;
    if (result.isError === true) return `helix_run_cancel answered ${helixErrorOf(answer) ?? 'an error'}`;
    return answer.lifecycle_status === 'cancelled'
      ? undefined
      : `helix_run_cancel answered lifecycle_status ${String(answer.lifecycle_status)}`;
  } catch (err) {
    return `helix_run_cancel failed: ${describeFailure(err)}`;
  } finally {
    await client.close().catch(() => undefined);
  }
};
