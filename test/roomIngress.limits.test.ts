// ING-01: the source ingress lane's own rate limits (HELIX_ROOM_INGRESS_*_RATE_LIMIT). The limits
// sit in front of the store, so one dialect is enough here.
import { afterEach, describe, expect, it } from 'vitest';
import { api, startTestHelix, type TestHelix } from './support/harness.js';
import { heartbeatBody, newEpoch } from './support/ingressBodies.js';
import { ingressPost, sourceOwner } from './support/ingressSources.js';
import { storeFlavours } from './support/stores.js';

const sqlite = storeFlavours().find((f) => f.name === 'sqlite');
const OFF = {
  HELIX_AGENT_IP_RATE_LIMIT: '0',
  HELIX_ROOM_AGENT_IP_RATE_LIMIT: '0',
  HELIX_ROOM_AGENT_PRINCIPAL_RATE_LIMIT: '0',
  HELIX_ROOM_INGRESS_IP_RATE_LIMIT: '0',
};
const BAD_BEARER = `hlxsrc_${'A'.repeat(43)}`;

const running: TestHelix[] = [];
const start = async (env: Record<string, string>): Promise<TestHelix> => {
  if (sqlite === undefined) throw new Error('no sqlite flavour');
  const h = await startTestHelix(sqlite, { env: { ...OFF, ...env } });
  running.push(h);
  return h;
};
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.close()));
});

describe('source ingress limits (ING-01)', () => {
  it('HELIX_ROOM_INGRESS_BINDING_RATE_LIMIT counts each binding after its bearer check; bad bearers spend none of it', async () => {
    const h = await start({ HELIX_ROOM_INGRESS_BINDING_RATE_LIMIT: '2' });
    const { newSource } = await sourceOwner(h, Date.now);
    const [a, b] = [await newSource(), await newSource()];
    for (let i = 0; i < 5; i += 1)
      expect((await ingressPost(h, { id: a.id, bearer: BAD_BEARER }, 'heartbeat', {})).status).toBe(401);
    const beat = (source: typeof a) => ingressPost(h, source, 'heartbeat', heartbeatBody(newEpoch(), Date.now(), null));
    // No admission yet (409), but counted: the third is over the binding's budget.
    expect([(await beat(a)).status, (await beat(a)).status]).toEqual([409, 409]);
    const refused = await beat(a);
    expect([refused.status, refused.body.code]).toEqual([429, 'rate_limited']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await beat(b)).status).toBe(409);
  });

  it('HELIX_ROOM_INGRESS_IP_RATE_LIMIT is a pre-auth bucket of its own, separate from the REST one', async () => {
    const h = await start({ HELIX_ROOM_INGRESS_IP_RATE_LIMIT: '3', HELIX_AGENT_IP_RATE_LIMIT: '100' });
    const path = `/api/room-ingress/v1/bindings/rsb_${'0'.repeat(32)}/status`;
    const status = () => api(h.url, 'GET', path, { token: BAD_BEARER });
    const seen = [];
    for (let i = 0; i < 4; i += 1) seen.push((await status()).status);
    expect(seen).toEqual([401, 401, 401, 429]);
    expect((await api(h.url, 'GET', '/api/v1/agent-runs/run_doesnotexist', { token: BAD_BEARER })).status).toBe(401);
  });
});
