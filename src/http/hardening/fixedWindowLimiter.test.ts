import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from './fixedWindowLimiter.js';

const clock = (start = 1_000) => {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
};

const limiter = (limit: number, c = clock(), maxKeys = 1_000) => ({
  c,
  l: new FixedWindowLimiter({ limit, windowMs: 60_000, maxKeys, now: c.now }),
});

describe('FixedWindowLimiter', () => {
  it('admits exactly `limit` requests per window, then refuses with the seconds until the window frees', () => {
    const { c, l } = limiter(3);
    expect([l.hit('a'), l.hit('a'), l.hit('a')].every((d) => d.allowed)).toBe(true);
    c.advance(10_500);
    const refused = l.hit('a');
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 50, firstRefusal: true });
    expect(l.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 50, firstRefusal: false });
    c.advance(49_499);
    expect(l.hit('a').retryAfterSeconds).toBe(1); // never 0 while refusing
    c.advance(1);
    expect(l.hit('a').allowed).toBe(true); // the window ended exactly at start + 60 s
  });

  it('counts keys independently', () => {
    const { l } = limiter(1);
    expect(l.hit('a').allowed).toBe(true);
    expect(l.hit('a').allowed).toBe(false);
    expect(l.hit('b').allowed).toBe(true);
  });

  it('each key starts its own window at its first request', () => {
    const { c, l } = limiter(1);
    l.hit('a');
    c.advance(30_000);
    l.hit('b');
    c.advance(30_000);
    expect(l.hit('a').allowed).toBe(true);
    expect(l.hit('b')).toMatchObject({ allowed: false, retryAfterSeconds: 30 });
  });

  it('forgets expired windows, so memory follows live keys only', () => {
    const { c, l } = limiter(5);
    for (let i = 0; i < 500; i += 1) l.hit(`ip-${i}`);
    expect(l.size).toBe(500);
    c.advance(60_000);
    l.hit('late');
    expect(l.size).toBe(1);
  });

  it('never tracks more than maxKeys, dropping the oldest window first', () => {
    const { c, l } = limiter(1, clock(), 100);
    l.hit('first');
    expect(l.hit('first').allowed).toBe(false);
    for (let i = 0; i < 10_000; i += 1) {
      c.advance(1);
      l.hit(`spoofed-${i}`);
      expect(l.size).toBeLessThanOrEqual(100);
    }
    // The oldest ('first') was dropped to make room; it merely starts a new window.
    expect(l.hit('first').allowed).toBe(true);
    const fresh = limiter(1, clock(), 2).l;
    fresh.hit('a');
    fresh.hit('b');
    fresh.hit('c');
    expect(fresh.hit('c').allowed).toBe(false); // the newest key keeps its count
  });

  it('refuses nonsensical settings', () => {
    const now = () => 0;
    expect(() => new FixedWindowLimiter({ limit: 0, windowMs: 1, maxKeys: 1, now })).toThrow(RangeError);
    expect(() => new FixedWindowLimiter({ limit: 1, windowMs: 0, maxKeys: 1, now })).toThrow(RangeError);
    expect(() => new FixedWindowLimiter({ limit: 1, windowMs: 1, maxKeys: 0, now })).toThrow(RangeError);
  });

  it('property: within any one window a key is admitted at most `limit` times, and exactly that many if it asks enough', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c'), gap: fc.integer({ min: 0, max: 20_000 }) }), {
          maxLength: 200,
        }),
        (limit, steps) => {
          const c = clock(0);
          const l = new FixedWindowLimiter({ limit, windowMs: 60_000, maxKeys: 10, now: c.now });
          // Reference model: the same fixed-window rule, written naively.
          const model = new Map<string, { start: number; count: number }>();
          for (const { key, gap } of steps) {
            c.advance(gap);
            let w = model.get(key);
            if (w === undefined || w.start + 60_000 <= c.now()) {
              w = { start: c.now(), count: 0 };
              model.set(key, w);
            }
            const expected = w.count < limit;
            if (expected) w.count += 1;
            const decision = l.hit(key);
            if (decision.allowed !== expected) return false;
            if (
              !decision.allowed &&
              decision.retryAfterSeconds !== Math.max(1, Math.ceil((w.start + 60_000 - c.now()) / 1000))
            )
              return false;
          }
          return true;
        },
      ),
    );
  });
});
