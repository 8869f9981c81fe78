/**
 * Test timeouts are ceilings, not expectations: how long a test may wait for what it waits for
 * before it counts as hung, on the slowest machine the suite must pass on (two cores shared with a
 * second `npm test`). A passing test takes a fraction of its ceiling; a ceiling is never tightened
 * to catch slowness (a test that means "promptly" compares with what the server would otherwise
 * wait, not with the wall clock).
 */

/** A test, or hook, that waits only for work in this worker: the server, the store, fixture servers. */
export const IN_PROCESS_CEILING_MS = 30_000;

/**
 * One child process waited for from spawn to its answer or exit: `node --import tsx` compiles the
 * CLI before it runs (about 2 s on an idle core, several times that on a loaded one).
 */
export const CHILD_PROCESS_CEILING_MS = 30_000;

/** The ceiling of a test or hook that waits, one after another, for `children` child processes. */
export const ceilingFor = (children: number, inProcessMs = IN_PROCESS_CEILING_MS): number =>
  inProcessMs + children * CHILD_PROCESS_CEILING_MS;
