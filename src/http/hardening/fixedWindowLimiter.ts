/** What one counted request learns from a limiter. */
export interface LimitDecision {
  readonly allowed: boolean;
  /** Whole seconds until the key's window frees (>= 1 when refused, 0 when allowed). */
  readonly retryAfterSeconds: number;
  /** True only on the first refusal of a window, so a flood is logged once per window, not per request. */
  readonly firstRefusal: boolean;
}

export interface FixedWindowOptions {
  /** Requests admitted per key per window (>= 1; a limit of 0 means "no limiter" and is the caller's choice). */
  readonly limit: number;
  readonly windowMs: number;
  /** Upper bound on tracked keys; beyond it the oldest window is dropped. */
  readonly maxKeys: number;
  /** A monotonic clock in milliseconds: a wall-clock step must neither reset nor freeze windows. */
  readonly now: () => number;
}

interface Window {
  readonly start: number;
  count: number;
  refused: boolean;
}

const ALLOWED: LimitDecision = Object.freeze({ allowed: true, retryAfterSeconds: 0, firstRefusal: false });

/**
 * An exact fixed-window counter per key: the first `limit` requests of a window pass, the rest are
 * refused until `windowMs` after the key's first request. Each key's window starts at its own
 * first request, so clients are not all released at the same instant.
 *
 * Memory is bounded two ways. Every window has the same length and is inserted when it starts,
 * so the Map's insertion order is expiry order: expired windows are popped from the front on each
 * hit (amortised O(1)). And at `maxKeys` live windows the oldest is dropped: that key merely
 * starts over, whereas refusing new keys would let a flood of addresses lock out everyone else.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly options: FixedWindowOptions) {
    if (!Number.isInteger(options.limit) || options.limit < 1) throw new RangeError('limit must be a positive integer');
    if (!(options.windowMs > 0)) throw new RangeError('windowMs must be positive');
    if (!Number.isInteger(options.maxKeys) || options.maxKeys < 1)
      throw new RangeError('maxKeys must be a positive integer');
  }

  /** Counts one request for `key` and says whether it may proceed. */
  hit(key: string): LimitDecision {
    const now = this.options.now();
    this.expire(now);
    let window = this.windows.get(key);
    if (window === undefined) {
      if (this.windows.size >= this.options.maxKeys) this.dropOldest();
      window = { start: now, count: 0, refused: false };
      this.windows.set(key, window);
    }
    if (window.count < this.options.limit) {
      window.count += 1;
      return ALLOWED;
    }
    const firstRefusal = !window.refused;
    window.refused = true;
    const remainingMs = window.start + this.options.windowMs - now;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(remainingMs / 1000)), firstRefusal };
  }

  /** Keys currently tracked (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  private expire(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.start + this.options.windowMs > now) return;
      this.windows.delete(key);
    }
  }

  private dropOldest(): void {
    const oldest = this.windows.keys().next();
    if (oldest.done !== true) this.windows.delete(oldest.value);
  }
}
