/** Column codecs shared by the repositories: PostgreSQL returns BIGINT as a string. */
export const toMillis = (value: number | string): number => (typeof value === 'number' ? value : Number(value));

export const toMillisOrNull = (value: number | string | null): number | null =>
  value === null ? null : toMillis(value);
