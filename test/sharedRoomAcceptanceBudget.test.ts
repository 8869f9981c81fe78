import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from '../scripts/deploymentProbe/guardedFetch.js';
import { BudgetExhausted, startPhase } from '../scripts/sharedRoomAcceptance/budget.js';
import { mayHaveLostResponse } from '../scripts/sharedRoomAcceptance/lostResponse.js';

/** HAR-09: a phase's deadline cuts off its requests, whatever their own timeout allows. */
describe('live acceptance total budget', () => {
  let url = '';
  const seen: string[] = [];
  const server = createServer((req) => {
    seen.push(req.url ?? ''); // and never answers
  });
  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('aborts an unanswered request at the phase deadline with BudgetExhausted, which is not a lost response to replay', async () => {
    const now = Date.now();
    const phase = startPhase(url, guardedFetch(url, 600_000), 'automated steps', now + 50, now);
    const failure = await phase.ctx.fetch(`${url}/api/v1/rooms`).catch((err: unknown) => err);
    phase.end();
    expect(failure).toBeInstanceOf(BudgetExhausted);
    expect((failure as Error).message).toBe('the total time budget ran out during the automated steps');
    expect(mayHaveLostResponse(failure)).toBe(false);
  });

  it('sends nothing in a phase whose budget is already spent', async () => {
    const now = Date.now();
    const phase = startPhase(url, guardedFetch(url, 600_000), 'cleanup', now, now);
    await expect(phase.ctx.fetch(`${url}/spent-phase`)).rejects.toBeInstanceOf(BudgetExhausted);
    phase.end();
    expect(seen).not.toContain('/spent-phase');
  });
});
