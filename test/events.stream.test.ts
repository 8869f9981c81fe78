import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_MAX_WAIT_MS } from '../src/api/schemas.js';
import { HelixRestClient } from '../src/client/restClient.js';
import { emptyOutcome } from '../src/domain/turn.js';
import { ScriptedExecutor } from '../src/solver/scriptedExecutor.js';
import { api, startTestHelix, type TestHelix } from './support/harness.js';
import { storeFlavours } from './support/stores.js';

const RUNS = '/api/v1/agent-runs';

/** Reads an SSE response into parsed frames until `until` says stop (or the stream ends). */
const readFrames = async (
  response: Response,
  until: (frames: { id?: string; event?: string; data?: string }[]) => boolean,
) => {
  const frames: { id?: string; event?: string; data?: string; comment?: boolean }[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  while (!until(frames)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const frame: { id?: string; event?: string; data?: string; comment?: boolean } = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = true;
        const [field, ...rest] = line.split(': ');
        if (field === 'id' || field === 'event' || field === 'data') frame[field] = rest.join(': ');
      }
      frames.push(frame);
    }
  }
  await reader.cancel().catch(() => undefined);
  return frames.filter((f) => !f.comment);
};

describe.each(storeFlavours())('event waiting and streaming on $name', (flavour) => {
  let h: TestHelix;
  let token: string;
  let client: HelixRestClient;
  beforeAll(async () => {
    h = await startTestHelix(flavour, { executor: new ScriptedExecutor([], emptyOutcome()) });
    token = await h.key();
    client = new HelixRestClient(h.url, token);
  });
  afterAll(async () => h.close());

  const startRun = () => client.start({ objective: 'stream' });

  it('a long poll returns as soon as a new event commits, not at its bound', async () => {
    const run = await startRun();
    const began = Date.now();
    const poll = client.events(run.run_id, { after_seq: 1, wait_ms: EVENTS_MAX_WAIT_MS });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.continue(run.run_id, { expected_version: 1, instruction: 'go' });
    const page = await poll;
    expect(page.events[0]?.seq).toBe(2);
    // Compared with what the server would otherwise do: hold the poll to its bound.
    expect(Date.now() - began).toBeLessThan(EVENTS_MAX_WAIT_MS);
    const bounded = await client.events(run.run_id, { after_seq: 999, wait_ms: 300 });
    expect(bounded.events).toEqual([]);
    expect((await api(h.url, 'GET', `${RUNS}/${run.run_id}/events?wait_ms=25001`, { token })).status).toBe(400);
  });

  it('streams events as SSE with id = seq, live, and ends after the terminal event', async () => {
    const run = await startRun();
    const response = await fetch(`${h.url}${RUNS}/${run.run_id}/events/stream`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const reading = readFrames(response, (frames) => frames.some((f) => f.event === 'end'));
    await client.continue(run.run_id, { expected_version: 1, instruction: 'go' });
    await client.cancel(run.run_id, { expected_version: 3 });
    const frames = await reading;
    const events = frames.filter((f) => f.event !== 'end');
    expect(events.map((f) => Number(f.id))).toEqual(events.map((_, i) => i + 1));
    expect(events[0]?.event).toBe('run.started');
    expect(events.at(-1)?.event).toBe('run.cancelled');
    expect(JSON.parse(events[0]!.data!)).toMatchObject({
      schema: 'helix.agent_run.event.v1',
      seq: 1,
      answer_authority: false,
    });
    expect(frames.at(-1)?.event).toBe('end');
  });

  it('resumes after Last-Event-ID (or after_seq) without repeating events', async () => {
    const run = await startRun();
    await client.cancel(run.run_id, { expected_version: 1 });
    const resumed = await fetch(`${h.url}${RUNS}/${run.run_id}/events/stream`, {
      headers: { authorization: `Bearer ${token}`, 'last-event-id': '1' },
    });
    const frames = await readFrames(resumed, (f) => f.some((x) => x.event === 'end'));
    expect(frames.map((f) => f.event)).toEqual(['run.cancelled', 'end']);
    const viaQuery = await readFrames(
      await fetch(`${h.url}${RUNS}/${run.run_id}/events/stream?after_seq=2`, {
        headers: { authorization: `Bearer ${token}` },
      }),
      (f) => f.some((x) => x.event === 'end'),
    );
    expect(viaQuery.map((f) => f.event)).toEqual(['end']);
  });

  it("refuses before streaming: no token, bad cursor, another owner's run", async () => {
    const run = await startRun();
    const path = `${RUNS}/${run.run_id}/events/stream`;
    expect((await api(h.url, 'GET', path)).status).toBe(401);
    const bad = await api(h.url, 'GET', path, { token, headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    const stranger = await h.key(undefined, 'tenant-z', 'account-z');
    expect((await api(h.url, 'GET', path, { token: stranger })).status).toBe(404);
    // ADR-0004's stream.subscribe admits the stream (same owner as the run); run.create does not.
    const subscriber = await fetch(`${h.url}${RUNS}/${run.run_id}/events/stream`, {
      headers: { authorization: `Bearer ${await h.key('stream.subscribe')}` },
    });
    expect(subscriber.status).toBe(200);
    await subscriber.body?.cancel();
    expect((await api(h.url, 'GET', path, { token: await h.key('run.create') })).status).toBe(403);
  });
});
