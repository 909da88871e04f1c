import {
  choiceList,
  nonNegativeInt,
  positiveInt,
  positiveIntList,
  type OptionSpec,
} from '../support/options.js';
import { eventMixes, type EventMixName } from './portal-history.js';
import { replayModes } from './replay-job.js';
import type { ReplayOptions } from './run-replay.js';

export const replayOptionSpecs = {
  events: { env: 'BENCH_REPLAY_EVENTS', default: '1000000', help: 'events to seed and replay' },
  'batch-sizes': {
    env: 'BENCH_REPLAY_BATCH_SIZES',
    default: '500,2000',
    help: 'projector batch sizes to try',
  },
  // Not `modes`: run-all.ts takes ingest's `--modes` beside these.
  'replay-modes': {
    env: 'BENCH_REPLAY_MODES',
    default: 'projector',
    help: 'what replays, per batch size in this order: projector, rebuild-lean, rebuild-full, copy',
  },
  segment: { env: 'BENCH_REPLAY_SEGMENT', default: '100000', help: 'events per reported segment' },
  seed: { env: 'BENCH_REPLAY_SEED', default: '20261121', help: 'seed of the synthetic history' },
  'analyze-every-s': {
    env: 'BENCH_ANALYZE_EVERY_S',
    default: '60',
    help: 'ANALYZE the read table this often, as autovacuum would (its naptime is 60 s); 0 = never',
  },
  'timeout-min': { env: 'BENCH_REPLAY_TIMEOUT_MIN', default: '30', help: 'give up a replay after this long' },
  mix: {
    env: 'BENCH_REPLAY_MIX',
    default: 'default',
    help: 'history: default (creates, updates, moves, deletes), creates (creates only) or items (registered by href)',
  },
  'index-build-memory': {
    env: 'BENCH_REPLAY_INDEX_BUILD_MEMORY',
    default: '',
    help: "a rebuild's maintenance_work_mem while it builds the reader indexes (e.g. 1GB); empty: the projector's default",
  },
  'worker-node-args': {
    env: 'BENCH_REPLAY_WORKER_NODE_ARGS',
    default: '',
    help: "node flags of the replay worker after the projector's own (which they override); variants separated by | each run over the same history, in order (e.g. '|--max-semi-space-size=16|')",
  },
  'replay-ceiling-inserts': {
    env: 'BENCH_REPLAY_CEILING_INSERTS',
    default: '5000',
    help: 'single-row INSERTs timed after the replays, in the same database (0 = none)',
  },
} satisfies Record<string, OptionSpec>;

export function readReplayOptions(raw: Record<keyof typeof replayOptionSpecs, string>): ReplayOptions {
  return {
    events: positiveInt('events', raw.events),
    batchSizes: positiveIntList('batch-sizes', raw['batch-sizes']),
    modes: choiceList('replay-modes', raw['replay-modes'], replayModes),
    segmentEvents: positiveInt('segment', raw.segment),
    seed: positiveInt('seed', raw.seed),
    timeoutMs: positiveInt('timeout-min', raw['timeout-min']) * 60_000,
    analyzeEveryMs: nonNegativeInt('analyze-every-s', raw['analyze-every-s']) * 1000,
    mix: choiceList('mix', raw.mix, Object.keys(eventMixes) as EventMixName[])[0] ?? 'default',
    ceilingInserts: nonNegativeInt('replay-ceiling-inserts', raw['replay-ceiling-inserts']),
    indexBuildMemory: memorySetting('index-build-memory', raw['index-build-memory']),
    workerNodeVariants: raw['worker-node-args'].split('|').map((variant) => variant.trim()),
  };
}

/** A PostgreSQL memory setting (`256MB`, `1GB`), or null for none given. */
function memorySetting(name: string, value: string): string | null {
  if (value === '') return null;
  if (!/^\d+(kB|MB|GB)$/.test(value)) throw new Error(`--${name} must be like 256MB or 1GB, not ${value}`);
  return value;
}
