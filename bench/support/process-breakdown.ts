import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { pidListeningOn } from '../events/process-memory.js';

/** Where the machine's CPU goes while a bench runs, one bucket per part of the service. */
export const cpuComponents = [
  'api',
  'projector',
  'uploadWorker',
  'postgres',
  'redis',
  'bench',
  'other',
] as const;
export type CpuComponent = (typeof cpuComponents)[number];

type AppComponent = 'api' | 'projector' | 'uploadWorker';

/** The service's processes by part; a bench that runs only the API names only its processes. */
export type AppPids = Partial<Record<AppComponent, readonly number[]>>;

export interface CpuBreakdown {
  readonly wallSeconds: number;
  readonly cores: number;
  /** CPU seconds used by each component in the window; `other` is the machine's busy time left over. */
  readonly cpuSeconds: Readonly<Record<CpuComponent, number>>;
  /** The machine's idle CPU seconds (all cores). */
  readonly idleSeconds: number;
}

/** USER_HZ: the unit of /proc's CPU times (100 on every Linux that matters here). */
const TICKS_PER_SECOND = 100;

interface ProcessTimes {
  readonly command: string;
  readonly ticks: number;
}

function readProcess(pid: number): ProcessTimes | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return {
      command: stat.slice(stat.indexOf('(') + 1, close),
      ticks: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    return null; // it ended between the listing and the read
  }
}

function machineTicks(): { busy: number; idle: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: total - idle, idle };
}

const appComponents: readonly AppComponent[] = ['api', 'projector', 'uploadWorker'];

function componentOf(pid: number, command: string, apps: AppPids): CpuComponent | null {
  const app = appComponents.find((component) => apps[component]?.includes(pid));
  if (app) return app;
  if (pid === process.pid) return 'bench';
  // The whole cluster: backends of this stack, and the writers and checkpointer they keep busy.
  if (command === 'postgres') return 'postgres';
  if (command.startsWith('redis-server')) return 'redis';
  return null;
}

interface Snapshot {
  readonly at: number;
  readonly machine: { busy: number; idle: number };
  /** Ticks by pid, for the processes that belong to a named component. */
  readonly processes: ReadonlyMap<number, { component: CpuComponent; ticks: number }>;
}

function snapshot(apps: AppPids): Snapshot {
  const processes = new Map<number, { component: CpuComponent; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const times = readProcess(pid);
    if (!times) continue;
    const component = componentOf(pid, times.command, apps);
    if (component) processes.set(pid, { component, ticks: times.ticks });
  }
  return { at: performance.now(), machine: machineTicks(), processes };
}

/** CPU milliseconds per request (or per create) of each component, and of all of them together. */
export function cpuMsPer(
  breakdown: CpuBreakdown,
  count: number,
): Readonly<Record<CpuComponent | 'total', number>> {
  const per = (seconds: number): number => (count > 0 ? (1000 * seconds) / count : Number.NaN);
  const total = cpuComponents.reduce((sum, name) => sum + breakdown.cpuSeconds[name], 0);
  return {
    ...(Object.fromEntries(cpuComponents.map((name) => [name, per(breakdown.cpuSeconds[name])])) as Record<
      CpuComponent,
      number
    >),
    total: per(total),
  };
}

/**
 * Starts a window; the returned function ends it and says how many CPU seconds each component used.
 * A process that started inside the window counts from zero; one that ended inside it is lost to
 * `other` (pooled connections live through a run, so this is small). The PostgreSQL share is the whole
 * cluster's: on a shared server, other databases' work lands there too, which `machineBusy` next to it shows.
 */
export function markCpuBreakdown(apps: AppPids): () => CpuBreakdown {
  const start = snapshot(apps);
  return () => {
    const end = snapshot(apps);
    const seconds = Object.fromEntries(cpuComponents.map((name) => [name, 0])) as Record<
      CpuComponent,
      number
    >;
    for (const [pid, { component, ticks }] of end.processes) {
      const before = start.processes.get(pid)?.ticks ?? 0;
      seconds[component] += (ticks - before) / TICKS_PER_SECOND;
    }
    const busy = (end.machine.busy - start.machine.busy) / TICKS_PER_SECOND;
    const named = cpuComponents.reduce((sum, name) => sum + seconds[name], 0);
    seconds.other = Math.max(0, busy - named);
    return {
      wallSeconds: (end.at - start.at) / 1000,
      cores: availableParallelism(),
      cpuSeconds: seconds,
      idleSeconds: (end.machine.idle - start.machine.idle) / TICKS_PER_SECOND,
    };
  };
}

/** The stack's three app processes, found by the ports they listen on; throws when one is not found. */
export function stackAppPids(stack: {
  readonly baseUrl: string;
  readonly metricsUrls: Readonly<Record<'projector' | 'uploadWorker', string>>;
}): AppPids {
  const pidOn = (what: string, url: string): number => {
    const pid = pidListeningOn(Number(new URL(url).port));
    if (pid === null) throw new Error(`cannot find the ${what} process listening on ${url}`);
    return pid;
  };
  return {
    api: [pidOn('API', stack.baseUrl)],
    projector: [pidOn('projector', stack.metricsUrls.projector)],
    uploadWorker: [pidOn('upload worker', stack.metricsUrls.uploadWorker)],
  };
}
