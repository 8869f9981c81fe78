/** "1 passage", "2 passages": a count with its noun, for what the CLI prints to people. */
export const counted = (n: number, singular: string, plural = `${singular}s`): string =>
  `${n} ${n === 1 ? singular : plural}`;
