import { REFERENCE_TABLES } from './referenceTables.js';

/** The user-facing reference whose tables are generated, relative to the repository root. */
export const API_REFERENCE_FILE = 'docs/api.md';

const BLOCK = /<!-- generated:([a-z:-]+) -->\n[\s\S]*?<!-- \/generated:\1 -->/g;

/**
 * Rewrites every generated block of the reference: the text between `<!-- generated:NAME -->` and
 * `<!-- /generated:NAME -->` becomes REFERENCE_TABLES[NAME]. The prose around the blocks is kept
 * as written. Each table must appear exactly once, so a table cannot be dropped from the docs,
 * and an unknown name fails rather than leaving a block nobody regenerates.
 */
export const renderApiReference = (markdown: string): string => {
  const seen = new Map<string, number>();
  const rendered = markdown.replace(BLOCK, (_block, name: string) => {
    const render = REFERENCE_TABLES[name];
    if (render === undefined) throw new Error(`${API_REFERENCE_FILE}: no generated table named ${name}`);
    seen.set(name, (seen.get(name) ?? 0) + 1);
    return `<!-- generated:${name} -->\n${render()}\n<!-- /generated:${name} -->`;
  });
  const misplaced = Object.keys(REFERENCE_TABLES).filter((name) => seen.get(name) !== 1);
  if (misplaced.length > 0)
    throw new Error(`${API_REFERENCE_FILE}: each generated table must appear once: ${misplaced.join(', ')}`);
  return rendered;
};
