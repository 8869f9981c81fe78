/**
 * How an operation's cost grows with its input, measured in the same process on the same machine:
 * the time at `big` divided by the time at `small`. A linear operation stays near `big / small`;
 * a quadratic one near its square. Asserting on the ratio, not on milliseconds, keeps a "stays
 * linear on hostile input" test meaningful on a loaded machine: load slows both sizes alike. Each
 * size runs `repeats` times and the fastest counts, since noise only ever adds time.
 */
export const growthRatio = async (
  run: (size: number) => unknown,
  sizes: { readonly small: number; readonly big: number },
  repeats = 3,
): Promise<number> => {
  const fastest = async (size: number): Promise<number> => {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < repeats; i++) {
      const started = performance.now();
      await run(size);
      best = Math.min(best, performance.now() - started);
    }
    // A sub-millisecond run is below the timer's resolution: count it as one millisecond.
    return Math.max(best, 1);
  };
  await run(sizes.small); // warm-up: the JIT and the allocator, not the algorithm
  return (await fastest(sizes.big)) / (await fastest(sizes.small));
};

/**
 * The bound a linear operation's growth ratio stays under: three times the size ratio. A quadratic
 * one exceeds it as soon as `big / small` is above 3 (it grows by the size ratio squared).
 */
export const linearBound = (sizes: { readonly small: number; readonly big: number }): number =>
  (3 * sizes.big) / sizes.small;
