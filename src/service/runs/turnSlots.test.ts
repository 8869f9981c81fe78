import { describe, expect, it } from 'vitest';
import { TurnSlots } from './turnSlots.js';

const settled = async (promise: Promise<void>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('TurnSlots', () => {
  it('queues past the process bound, first come first served, skipping a waiter that gave up', async () => {
    const slots = new TurnSlots({ perProcess: 1, perOwner: 10, queue: 2 });
    const a = slots.reserve('o1');
    const b = slots.reserve('o2');
    const c = slots.reserve('o3');
    expect([a.queued, b.queued, c.queued]).toEqual([false, true, true]);
    expect(slots.reserve('o4').refusal?.code).toBe('too_many_turns');
    b.release(); // gave up while queued
    a.release();
    a.release(); // twice is harmless
    expect(await settled(c.ready)).toBe(true);
    expect(await settled(b.ready)).toBe(false);
    expect(slots.reserve('o5').queued).toBe(true);
  });

  it("counts an owner's running and queued turns against its bound and frees them on release", () => {
    const slots = new TurnSlots({ perProcess: 1, perOwner: 2, queue: 5 });
    const first = slots.reserve('owner');
    const second = slots.reserve('owner');
    expect(second.queued).toBe(true);
    expect(slots.reserve('owner').refusal?.status).toBe(429);
    expect(slots.reserve('someone else').refusal).toBeUndefined();
    second.release();
    expect(slots.reserve('owner').refusal).toBeUndefined();
    first.release();
  });
});
