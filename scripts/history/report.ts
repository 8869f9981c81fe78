import { readFile, writeFile } from 'node:fs/promises';
import type { ScenarioSummary } from './summary.js';

export const RELIABILITY_DOC = new URL('../../docs/reliability.md', import.meta.url);
const BEGIN = '<!-- check:histories figures begin -->';
const END = '<!-- check:histories figures end -->';

export interface ReportContext {
  readonly date: string;
  readonly commit: string;
  readonly secondsPerScenario: number;
  readonly machine: string;
  /** Scenarios that could not run here, with the reason. */
  readonly skipped: readonly string[];
}

const HEADER = [
  'scenario',
  'model',
  'replicas',
  'kill -9',
  'operations',
  'no answer',
  'objects',
  'linearizable',
  'violations',
  'undecided',
  'check time',
];

export const summaryRows = (summaries: readonly ScenarioSummary[]): string[][] =>
  summaries.map((s) => [
    s.name,
    s.model,
    String(s.replicas),
    String(s.kills),
    String(s.operations),
    String(s.unknown),
    String(s.objects),
    String(s.verdicts.linearizable),
    String(s.verdicts.violation),
    String(s.verdicts.undecided),
    `${(s.checkMs / 1000).toFixed(1)} s`,
  ]);

export const markdownTable = (rows: readonly string[][]): string[] => [
  `| ${HEADER.join(' | ')} |`,
  `| ${HEADER.map(() => '---').join(' | ')} |`,
  ...rows.map((row) => `| ${row.join(' | ')} |`),
];

export const plainTable = (rows: readonly string[][]): string[] => {
  const all = [HEADER, ...rows];
  const widths = HEADER.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  return all.map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  '));
};

/** The figures section of docs/reliability.md, as `npm run check:histories` last measured them. */
export const figuresSection = (summaries: readonly ScenarioSummary[], context: ReportContext): string[] => [
  BEGIN,
  `Last run: ${context.date}, commit \`${context.commit}\`, ${context.secondsPerScenario} s of load per scenario, ${context.machine}. ` +
    'Written by `npm run check:histories`; the bounded CI version is `test/history.runs.test.ts`.',
  '',
  ...markdownTable(summaryRows(summaries)),
  ...(context.skipped.length > 0 ? ['', ...context.skipped.map((line) => `- Not run: ${line}`)] : []),
  ...summaries.flatMap((s) =>
    s.findings.length > 0 ? ['', `Findings in ${s.name}:`, '', '```', ...s.findings, '```'] : [],
  ),
  END,
];

/** Replaces the figures section of docs/reliability.md (the rest of the document is prose kept by hand). */
export const writeFigures = async (section: readonly string[]): Promise<void> => {
  const doc = await readFile(RELIABILITY_DOC, 'utf8');
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`docs/reliability.md lacks the ${BEGIN} … ${END} markers`);
  await writeFile(RELIABILITY_DOC, `${doc.slice(0, begin)}${section.join('\n')}${doc.slice(end + END.length)}`);
};
