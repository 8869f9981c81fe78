import { HelixError } from '../../domain/errors.js';

export interface TurnLimits {
  /** Turns this process runs at once (HELIX_MAX_CONCURRENT_TURNS). */
  readonly perProcess: number;
  /** Turns one owner may have running or queued in this process (HELIX_MAX_CONCURRENT_TURNS_PER_OWNER). */
  readonly perOwner: number;
  /** Turns that may wait for a free slot in this process (HELIX_MAX_QUEUED_TURNS); 0 refuses at once. */
  readonly queue: number;
}

/** A held slot: `ready` settles when the turn may run (at once unless it was queued). */
export interface TurnSlot {
  readonly queued: boolean;
  /**
   * Set when a bound is reached: nothing is held, and the caller refuses with this error once it
   * knows the request would otherwise have won its compare-and-set (a request that loses it is a
   * `version_conflict` or `run_busy` whatever the load, docs/spec/security-test-matrix.md #30).
   */
  readonly refusal?: HelixError;
  readonly ready: Promise<void>;
  /** Gives the slot (or the place in the queue) back; safe to call more than once. */
  release(): void;
}

interface Waiter {
  readonly start: () => void;
  released: boolean;
}

/**
 * Bounds how many turns run at once, per process and per owner, so one tenant cannot take every
 * slot and a burst cannot exhaust memory. A continue over its owner's bound, or arriving when the
 * process's slots and queue are all taken, is refused with `429 too_many_turns` and claims
 * nothing; a continue that finds only the slots taken is claimed as `queued` and runs, first come
 * first served, when a slot frees. Reservations are synchronous, so concurrent requests cannot
 * all slip past a bound.
 */
export class TurnSlots {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private readonly byOwner = new Map<string, number>();

  constructor(private readonly limits: TurnLimits) {}

  reserve(ownerHash: string): TurnSlot {
    const ownerTurns = this.byOwner.get(ownerHash) ?? 0;
    const queued = this.running >= this.limits.perProcess;
    if (ownerTurns >= this.limits.perOwner || (queued && this.liveWaiters() >= this.limits.queue)) {
      return {
        queued: false,
        ready: Promise.resolve(),
        release: () => undefined,
        refusal: new HelixError('too_many_turns', { retry_after_seconds: 1 }),
      };
    }
    this.byOwner.set(ownerHash, ownerTurns + 1);

    let state: 'waiting' | 'running' | 'released' = 'waiting';
    let start: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (start = resolve));
    const run = () => {
      state = 'running';
      this.running += 1;
      start();
    };
    const waiter: Waiter = { start: run, released: false };
    if (queued) this.waiting.push(waiter);
    else run();

    return {
      queued,
      ready,
      release: () => {
        if (state === 'released') return;
        const wasRunning = state === 'running';
        state = 'released';
        waiter.released = true;
        const left = (this.byOwner.get(ownerHash) ?? 1) - 1;
        if (left <= 0) this.byOwner.delete(ownerHash);
        else this.byOwner.set(ownerHash, left);
        if (wasRunning) {
          this.running -= 1;
          this.startNext();
        }
      },
    };
  }

  private startNext(): void {
    while (this.running < this.limits.perProcess) {
      const next = this.waiting.shift();
      if (next === undefined) return;
      if (!next.released) next.start();
    }
  }

  private liveWaiters(): number {
    return this.waiting.filter((w) => !w.released).length;
  }
}
