import { readFileSync } from 'node:fs';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) this summary reads. */
interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  }[];
  /** Microseconds on the machine's monotonic clock, the one `process.hrtime` reads in every process. */
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileShare {
  readonly name: string;
  readonly milliseconds: number;
  /** Of the window's busy samples (idle excluded). */
  readonly percent: number;
}

export interface ProfileSummary {
  readonly busyMilliseconds: number;
  readonly byArea: readonly ProfileShare[];
  readonly byFunction: readonly ProfileShare[];
}

/** The monotonic clock in microseconds, comparable with a profile's sample times. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

const repoRoot = new URL('../../', import.meta.url).pathname;

/** Where a function lives: one of our workspaces, a package, node itself, or V8's own buckets. */
function areaOf(url: string, functionName: string): string {
  if (url === '') return `(${functionName.replace(/^\(|\)$/g, '') || 'native'})`;
  if (url.startsWith('node:')) return 'node internals';
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? path);
  }
  const relative = path.startsWith(repoRoot) ? path.slice(repoRoot.length) : path;
  // apps/api/src/browser/x.ts → apps/api/src/browser
  return relative.split('/').slice(0, 4).join('/');
}

function top(totals: Map<string, number>, busy: number, count: number): ProfileShare[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => ({ name, milliseconds: micros / 1000, percent: (100 * micros) / busy }));
}

/**
 * Self time of the samples taken between `fromMicros` and `toMicros` (monotonic clock), by area and by
 * function. Idle samples are left out: what is left is the CPU the process spent in that window.
 */
export function summarizeProfile(
  file: string,
  fromMicros: number,
  toMicros: number,
  topFunctions = 15,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((nodeId, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (at < fromMicros || at > toMicros) return;
    const frame = frames.get(nodeId);
    if (!frame || frame.functionName === '(idle)') return;
    busy += delta;
    const area = areaOf(frame.url, frame.functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + delta);
    const where =
      frame.url === '' ? '' : ` ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
    const name = `${frame.functionName || '(anonymous)'}${where}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + delta);
  });
  return {
    busyMilliseconds: busy / 1000,
    byArea: top(byArea, busy, 12),
    byFunction: top(byFunction, busy, topFunctions),
  };
}
