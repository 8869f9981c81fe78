// Pending probes: poll Helix, answer each with what the player sees right now. Only the
// read-only inventory check is known (docs/spec/shared-live-room-requirements.md PRB-01, PRB-02);
// any other probe type is answered `unsupported`, never guessed at.
import type { Bot } from 'mineflayer';
import { readInventory } from './observe.js';
import type { IngressSession } from './session.js';
import { INVENTORY_CHECK_PROBE, LIMITS, type PendingProbe, pendingProbesResponse } from './wire.js';

const answer = (bot: Bot, probe: PendingProbe, observedAt: Date) => {
  const supported = probe.probe_type === INVENTORY_CHECK_PROBE;
  return {
    schema: 'helix.environment_probe_result.v1',
    probe_id: probe.probe_id,
    probe_type: probe.probe_type,
    status: supported ? 'completed' : 'unsupported',
    observed_at: observedAt.toISOString(),
    result: supported ? { inventory: readInventory(bot) } : null,
  };
};

/** One poll: fetch the pending probes and post one result per probe; returns how many were answered. */
export const answerPendingProbes = async (bot: Bot, session: IngressSession, signal: AbortSignal): Promise<number> => {
  const body = await session.send(
    'probes/pending',
    { schema: 'helix.environment_probe_poll.v1', max_probes: LIMITS.maxPendingProbes },
    signal,
  );
  const parsed = pendingProbesResponse.safeParse(body);
  if (!parsed.success) throw new Error('probes/pending answered a body the connector cannot read');
  for (const probe of parsed.data.probes) {
    await session.send('probes/result', answer(bot, probe, session.now()), signal);
  }
  return parsed.data.probes.length;
};
