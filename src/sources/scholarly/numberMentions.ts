import { escapeRegExp } from '../../domain/regExp.js';

/** A span of the input, in UTF-16 offsets, start inclusive and end exclusive (like `slice`). */
export interface TextSpan {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

export interface NumberMention extends TextSpan {
  /** The first number of the mention (of a range or `a ± b`), with exponent and scale applied. */
  readonly value: number;
  readonly unit: string;
  readonly sentence: TextSpan;
}

const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'al',
  'fig',
  'figs',
  'eq',
  'eqs',
  'ref',
  'refs',
  'vs',
  'approx',
  'cf',
  'etc',
  'no',
  'sec',
  'tab',
  'dr',
  'resp',
]);

// One punctuation mark, closing quotes/brackets, then whitespace. Matching a single mark (not a
// run) keeps the scan linear on inputs like "......".
const SENTENCE_END = /[.!?]["'”’)\]]*(?=\s)|\n\s*\n/g;

const span = (text: string, start: number, end: number): TextSpan | undefined => {
  let from = start;
  let to = end;
  while (from < to && /\s/.test(text[from] ?? '')) from += 1;
  while (to > from && /\s/.test(text[to - 1] ?? '')) to -= 1;
  return from < to ? { text: text.slice(from, to), start: from, end: to } : undefined;
};

/** Splits prose into sentences, not splitting after "e.g.", "et al.", "Fig." or an initial. */
export const splitSentences = (text: string): TextSpan[] => {
  const sentences: TextSpan[] = [];
  let start = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    if (match[0].startsWith('.')) {
      const token = (/(\S+)$/.exec(text.slice(Math.max(start, match.index - 12), match.index))?.[1] ?? '').replace(
        /^[("'“‘[]+/,
        '',
      );
      if (ABBREVIATIONS.has(token.toLowerCase()) || /^[A-Z]$/.test(token)) continue;
    }
    const end = match.index + match[0].length;
    const sentence = span(text, start, end);
    if (sentence !== undefined) sentences.push(sentence);
    start = end;
  }
  const last = span(text, start, text.length);
  if (last !== undefined) sentences.push(last);
  return sentences;
};

/*
 * Units that follow a number. Case-sensitive, because case is the unit (mW vs MW). Ambiguous
 * one-letter words ("A", "a", "t") are left out; counted nouns common in papers ("tokens",
 * "participants") are in, since "7 B tokens" is as much a measured quantity as "3 ms".
 */
const UNITS = [
  '%',
  'percent',
  'per cent',
  'percentage points',
  'pp',
  '‰',
  'ns',
  'µs',
  'μs',
  'us',
  'ms',
  's',
  'sec',
  'secs',
  'second',
  'seconds',
  'min',
  'mins',
  'minute',
  'minutes',
  'h',
  'hr',
  'hrs',
  'hour',
  'hours',
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'yr',
  'yrs',
  'year',
  'years',
  'Hz',
  'kHz',
  'MHz',
  'GHz',
  'THz',
  'bit',
  'bits',
  'B',
  'kB',
  'KB',
  'MB',
  'GB',
  'TB',
  'PB',
  'KiB',
  'MiB',
  'GiB',
  'TiB',
  'byte',
  'bytes',
  'kbps',
  'Mbps',
  'Gbps',
  'nm',
  'µm',
  'μm',
  'mm',
  'cm',
  'm',
  'km',
  'mi',
  'm²',
  'km²',
  'm2',
  'km2',
  'ha',
  'mg',
  'g',
  'kg',
  'tonnes',
  'tons',
  'Mt',
  'Gt',
  'lb',
  'lbs',
  '°C',
  '°F',
  '℃',
  'K',
  'J',
  'kJ',
  'MJ',
  'GJ',
  'Wh',
  'kWh',
  'MWh',
  'GWh',
  'TWh',
  'W',
  'mW',
  'kW',
  'MW',
  'GW',
  'TW',
  'eV',
  'keV',
  'MeV',
  'GeV',
  'TeV',
  'cal',
  'kcal',
  'Pa',
  'kPa',
  'MPa',
  'GPa',
  'bar',
  'mbar',
  'atm',
  'psi',
  'mol',
  'mmol',
  'µmol',
  'M',
  'mM',
  'µM',
  'μM',
  'nM',
  'ppm',
  'ppb',
  'L',
  'mL',
  'µL',
  'μL',
  'l',
  'ml',
  'V',
  'mV',
  'kV',
  'mA',
  'Ω',
  'kΩ',
  'dB',
  'dBm',
  'rpm',
  'fps',
  'USD',
  'EUR',
  'GBP',
  'dollars',
  'euros',
  'tokens',
  'parameters',
  'params',
  'layers',
  'epochs',
  'steps',
  'FLOPs',
  'FLOP',
  'GPUs',
  'TPUs',
  'GPU-hours',
  'GPU hours',
  'participants',
  'patients',
  'subjects',
  'samples',
  'examples',
  'images',
  'languages',
  'tasks',
  'citations',
  'papers',
  'people',
  'users',
  'words',
  'queries',
  'questions',
  'times',
  'fold',
];

const UNIT_PATTERN = [...UNITS]
  .sort((a, b) => b.length - a.length)
  .map(escapeRegExp)
  .join('|');
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const SCALES: Readonly<Record<string, number>> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };

const MENTION = new RegExp(
  String.raw`(?<![\p{L}\p{N}_.,$€£¥])` +
    String.raw`(?:(?<currency>[$€£¥])\s?)?` +
    '(?<sign>[-−+])?' +
    `(?<number>${NUMBER})` +
    String.raw`(?<exponent>\s?[×*]\s?10\^?[-−]?\d{1,3}|[eE][-+−]?\d{1,3})?` +
    String.raw`(?:\s?(?:±|\+/-)\s?(?:${NUMBER}))?` +
    String.raw`(?:\s?(?:-|–|—|to)\s?(?:${NUMBER}))?` +
    String.raw`(?:\s(?<scale>thousand|million|billion|trillion))?` +
    String.raw`(?:(?<times>[x×])|\s?(?<unit>${UNIT_PATTERN})(?:/(?:s|h|hr|min|day|GPU|token|step|sample|kg|m|m²|year))?)?` +
    String.raw`(?![\p{L}\p{N}])`,
  'gu',
);

const CURRENCIES: Readonly<Record<string, string>> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY' };

const mentionValue = (groups: Readonly<Record<string, string | undefined>>): number => {
  const base = Number((groups.number ?? '').replace(/,/g, ''));
  const exponentText = (groups.exponent ?? '').replace(/\s/g, '').replace('−', '-');
  const exponent = exponentText === '' ? 0 : Number(/[-+]?\d+$/.exec(exponentText)?.[0] ?? 0);
  const sign = groups.sign === '-' || groups.sign === '−' ? -1 : 1;
  return sign * base * 10 ** exponent * (SCALES[groups.scale ?? ''] ?? 1);
};

/** Every number in `text` that carries a unit or a currency, with the sentence it appears in. */
export const findNumberMentions = (text: string): NumberMention[] => {
  const mentions: NumberMention[] = [];
  for (const sentence of splitSentences(text)) {
    for (const match of sentence.text.matchAll(MENTION)) {
      const groups = match.groups ?? {};
      const currency = groups.currency === undefined ? undefined : CURRENCIES[groups.currency];
      const unit = groups.unit ?? (groups.times === undefined ? currency : '×');
      if (unit === undefined) continue;
      const raw = match[0].trimEnd();
      const start = sentence.start + match.index;
      mentions.push({ text: raw, start, end: start + raw.length, value: mentionValue(groups), unit, sentence });
    }
  }
  return mentions;
};
