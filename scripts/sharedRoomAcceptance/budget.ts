import type { Fetch, ProbeContext } from '../deploymentProbe/guardedFetch.js';

/** The abort reason of a request cut short by the total budget (HAR-09), not by its own timeout. */
export class BudgetExhausted extends Error {
  override readonly name = 'BudgetExhausted';
}

export interface Phase {
  readonly ctx: ProbeContext;
  /** Stops the phase's timer; the phase's requests are then bounded by their own timeout only. */
  end(): void;
}

/**
 * A phase of the run that must be over by `deadline` (epoch ms): every request made through its
 * context is aborted at the deadline, on top of the per-request timeout guardedFetch applies.
 * The automated steps end before the cleanup window; the cleanup ends with the total budget.
 */
export const startPhase = (target: string, fetch: Fetch, name: string, deadline: number, now: number): Phase => {
  const controller = new AbortController();
  const exhausted = () => controller.abort(new BudgetExhausted(`the total time budget ran out during the ${name}`));
  // A phase that starts with its budget spent sends nothing at all.
  if (deadline <= now) exhausted();
  const timer = setTimeout(exhausted, Math.max(0, deadline - now));
  timer.unref();
  const bounded: Fetch = (url, init = {}) => {
    if (controller.signal.aborted) return Promise.reject(controller.signal.reason);
    const signal = init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    return fetch(url, { ...init, signal });
  };
  return { ctx: { target, fetch: bounded }, end: () => clearTimeout(timer) };
};
