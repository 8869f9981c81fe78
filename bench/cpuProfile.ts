/**
 * Reads a V8 `.cpuprofile` (what `node --cpu-prof` writes) into the costs the profile phase reports:
 * self time per function and per area (a package, a Helix source folder, Node's internals, or the
 * VM itself), as shares of the time the process was busy. Idle time is reported on its own: a
 * server waiting for its clients is not a cost of its code.
 */

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface Cost {
  readonly name: string;
  /** Share of busy time, 0..1. */
  readonly share: number;
}

export interface ProfileSummary {
  /** Wall time the profile covers, in ms. */
  readonly totalMs: number;
  /** Time the event loop waited with nothing to run, in ms. */
  readonly idleMs: number;
  readonly byArea: readonly Cost[];
  readonly byFunction: readonly Cost[];
}

/** `(idle)`, `(program)`, `(garbage collector)`: V8's own pseudo-frames. */
const isPseudo = (frame: CallFrame): boolean => frame.url === '' && frame.functionName.startsWith('(');

/** The area a frame belongs to: `kysely`, `helix src/store`, `node:internal/crypto`, `(garbage collector)`… */
export const areaOf = (frame: CallFrame): string => {
  if (isPseudo(frame)) return frame.functionName;
  const url = frame.url;
  if (url === '') return '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg !== undefined) return pkg;
  const helix = /\/dist\/([^/]+)(?:\/([^/]+))?/.exec(url);
  if (helix?.[1] !== undefined) {
    const folder = helix[2] === undefined || helix[2].endsWith('.js') ? helix[1] : `${helix[1]}/${helix[2]}`;
    return `helix ${folder.replace(/\.js$/, '')}`;
  }
  if (url.startsWith('node:')) return url.split('/').slice(0, 3).join('/');
  return url.split('/').slice(-2).join('/');
};

const functionLabel = (frame: CallFrame): string =>
  isPseudo(frame) ? frame.functionName : `${frame.functionName || '(anonymous)'} · ${areaOf(frame)}`;

const ranked = (totals: Map<string, number>, busy: number, top: number): Cost[] =>
  [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => ({ name, share: busy === 0 ? 0 : micros / busy }));

/** Self time by area and by function over the busy (non-idle) time; the `top` largest of each. */
export const summarizeProfile = (profile: CpuProfile, top: number): ProfileSummary => {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    const frame = frames.get(id);
    total += micros;
    if (frame === undefined) return;
    if (frame.functionName === '(idle)' && frame.url === '') {
      idle += micros;
      return;
    }
    const area = areaOf(frame);
    areas.set(area, (areas.get(area) ?? 0) + micros);
    const label = functionLabel(frame);
    functions.set(label, (functions.get(label) ?? 0) + micros);
  });
  const busy = total - idle;
  return {
    totalMs: total / 1000,
    idleMs: idle / 1000,
    byArea: ranked(areas, busy, top),
    byFunction: ranked(functions, busy, top),
  };
};
