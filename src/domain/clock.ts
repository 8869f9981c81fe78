/** Time, injected: the service reads it only through a Clock, so tests move it by hand. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
