import type { Bot } from 'mineflayer';
import { describe, expect, it } from 'vitest';
import type { IngressClient } from './ingressClient.js';
import { answerPendingProbes } from './probes.js';
import { startSession } from './session.js';
import { INVENTORY_CHECK_PROBE, type IngressRoute, REQUEST_SCHEMAS } from './wire.js';

const NOW = new Date('2026-12-01T12:00:00.000Z');

/** A player holding three diamonds in slot 36: the only part of the client a probe reads. */
const bot = { inventory: { items: () => [{ slot: 36, name: 'diamond', count: 3 }] } } as unknown as Bot;

/** A client that answers `probes/pending` with `pending` and records every post. */
const recordingClient = (pending: unknown) => {
  const posts: { route: IngressRoute; body: Record<string, unknown> }[] = [];
  const client: IngressClient = {
    post: async (route, body) => {
      posts.push({ route, body: body as Record<string, unknown> });
      return route === 'probes/pending' ? pending : {};
    },
  };
  let n = 0;
  const session = startSession({
    client,
    now: () => NOW,
    newId: () => `id-0000000000000${String(n++).padStart(3, '0')}`,
  });
  return { posts, session };
};

const probe = (probe_type: string, probe_id: string) => ({ probe_id, probe_type, requested_at: NOW.toISOString() });

describe('answerPendingProbes', () => {
  it('answers the inventory check with the inventory and any other probe type as unsupported', async () => {
    const { posts, session } = recordingClient({
      probes: [probe(INVENTORY_CHECK_PROBE, 'probe-000000000001'), probe('com.example.teleport', 'probe-000000000002')],
    });
    expect(await answerPendingProbes(bot, session, new AbortController().signal)).toBe(2);
    expect(posts.map((p) => p.route)).toEqual(['probes/pending', 'probes/result', 'probes/result']);
    for (const p of posts) expect(REQUEST_SCHEMAS[p.route].safeParse(p.body).error).toBeUndefined();
    expect(posts[1]!.body).toMatchObject({
      probe_id: 'probe-000000000001',
      status: 'completed',
      observed_at: NOW.toISOString(),
      result: { inventory: { items: [{ slot: 36, name: 'diamond', count: 3 }] } },
    });
    expect(posts[2]!.body).toMatchObject({ probe_id: 'probe-000000000002', status: 'unsupported', result: null });
    // One producer epoch for the session, a fresh request identity per request.
    expect(new Set(posts.map((p) => p.body.producer_epoch)).size).toBe(1);
    expect(new Set(posts.map((p) => p.body.request_id)).size).toBe(3);
  });

  it('refuses a pending-probe answer it cannot read, and answers nothing', async () => {
    const { posts, session } = recordingClient({ probes: [{ probe_id: 'short', probe_type: INVENTORY_CHECK_PROBE }] });
    await expect(answerPendingProbes(bot, session, new AbortController().signal)).rejects.toThrow(
      'probes/pending answered a body the connector cannot read',
    );
    expect(posts.map((p) => p.route)).toEqual(['probes/pending']);
  });
});
