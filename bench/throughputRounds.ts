/**
 * Throughput of several loads in alternating rounds: every load is warmed up, then each round runs
 * every load once, in forward order on even rounds and reverse order on odd ones (ABC CBA ABC…), so
 * a burst of outside load on a shared machine lands on all of them, not on one. Rounds are timed
 * rather than counted so the bench's run time stays bounded on a busy machine.
 */
import type autocannon from 'autocannon';

export interface LoadShape {
  readonly connections: number;
  /** Per load, before any round is measured. */
  readonly warmupSeconds: number;
  /** Measured rounds per load; each load gets `rounds * roundSeconds` of measured time. */
  readonly rounds: number;
  readonly roundSeconds: number;
}

export interface Throughput {
  /** Successful (2xx) responses per second of measured time, over all rounds. */
  readonly rps: number;
  /** The same figure per round, to show how steady the machine was. */
  readonly roundRps: readonly number[];
  readonly succeeded: number;
  readonly non2xx: number;
  readonly errors: number;
}

/** Runs one autocannon instance for `seconds` against one endpoint. */
export type Load = (seconds: number) => Promise<autocannon.Result>;

export const measureAlternating = async <K extends string>(
  order: readonly K[],
  loads: Readonly<Record<K, Load>>,
  shape: LoadShape,
): Promise<Record<K, Throughput>> => {
  // The warm-up lets every server JIT its hot paths (and grow its WAL) before anything is counted.
  for (const name of order) await loads[name](shape.warmupSeconds);

  const totals = new Map(
    order.map((name) => [name, { succeeded: 0, non2xx: 0, errors: 0, seconds: 0, roundRps: [] as number[] }]),
  );
  for (let round = 0; round < shape.rounds; round++) {
    for (const name of round % 2 === 0 ? order : [...order].reverse()) {
      const result = await loads[name](shape.roundSeconds);
      const total = totals.get(name);
      if (total === undefined) continue;
      total.succeeded += result['2xx'];
      total.non2xx += result.non2xx;
      total.errors += result.errors;
      total.seconds += result.duration;
      total.roundRps.push(result['2xx'] / result.duration);
    }
  }
  const summary = {} as Record<K, Throughput>;
  for (const [name, { succeeded, non2xx, errors, seconds, roundRps }] of totals) {
    summary[name] = { rps: succeeded / seconds, roundRps, succeeded, non2xx, errors };
  }
  return summary;
};
