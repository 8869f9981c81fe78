/**
 * The CPU profiles' headline for docs/performance.md: per hot path, the server CPU per request and
 * the five largest self-time costs of each labelled profile in docs/performance-profiles.md
 * (written by `npm run bench:profile`), `before` and `after` first when they are there.
 */
import { markdownTable } from './tables.js';

interface PathSummary {
  readonly cpuMsPerRequest: string;
  readonly topFunctions: readonly string[];
}

type LabelledProfile = { readonly label: string; readonly paths: ReadonlyMap<string, PathSummary> };

const SECTION = /<!-- profile:(\S+) -->([\s\S]*?)<!-- \/profile:\1 -->/g;

const parsePath = (text: string): [string, PathSummary] | undefined => {
  const name = /^(\S+)/.exec(text)?.[1];
  const cpu = /server CPU ([\d.]+) ms per request/.exec(text)?.[1];
  if (name === undefined || cpu === undefined) return undefined;
  const table = text.split('| function |')[1] ?? '';
  const rows = table
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| ---'))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map((cells) => `${cells[1] ?? ''} ${cells[2] ?? ''}`);
  return [name, { cpuMsPerRequest: cpu, topFunctions: rows.slice(0, 5) }];
};

export const parseProfiles = (doc: string): LabelledProfile[] =>
  [...doc.matchAll(SECTION)].map(([, label, body]) => ({
    label: label ?? '',
    paths: new Map(
      (body ?? '')
        .split('\n### ')
        .slice(1)
        .map(parsePath)
        .filter((p): p is [string, PathSummary] => p !== undefined),
    ),
  }));

/** The table, or undefined when the profiles document has no labelled section. */
export const profileSummaryTable = (doc: string): string | undefined => {
  const all = parseProfiles(doc);
  const preferred = ['before', 'after'].flatMap((l) => all.filter((p) => p.label === l));
  const chosen = (preferred.length > 0 ? preferred : all).slice(-2);
  if (chosen.length === 0) return undefined;
  const paths = [...new Set(chosen.flatMap((p) => [...p.paths.keys()]))];
  const header = [
    'path',
    ...chosen.flatMap((p) => [`${p.label}: CPU per request`, `${p.label}: largest self-time costs`]),
  ];
  const rows = paths.map((path) => [
    path,
    ...chosen.flatMap((p) => {
      const summary = p.paths.get(path);
      return summary === undefined ? ['-', '-'] : [`${summary.cpuMsPerRequest} ms`, summary.topFunctions.join('; ')];
    }),
  ]);
  return markdownTable([header, ...rows]);
};
