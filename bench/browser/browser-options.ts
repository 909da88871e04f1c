import {
  isOn,
  nonNegativeInt,
  nonNegativeNumber,
  positiveInt,
  positiveNumber,
  type OptionSpec,
} from '../support/options.js';

export interface BrowserBenchOptions {
  readonly objects: number;
  readonly wideChildren: number;
  readonly itemShare: number;
  readonly seed: number;
  readonly batchSize: number;
  readonly clients: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  /** Connections of the API's pool, and of the direct-SQL pool beside it (DATABASE_POOL_SIZE). */
  readonly poolSize: number;
  /** API processes the HTTP clients are spread over (each with its own pool of `poolSize`). */
  readonly apiProcesses: number;
  readonly analyzeEveryMs: number;
  /** Keep the database afterwards (its name is printed) to look at plans; drop it by hand. */
  readonly keep: boolean;
}

export const browserOptionSpecs = {
  objects: {
    env: 'BENCH_BROWSER_OBJECTS',
    default: '1000000',
    help: 'objects seeded through the event store',
  },
  'wide-children': {
    env: 'BENCH_BROWSER_WIDE_CHILDREN',
    default: '100000',
    help: 'children of the one wide catalog (the children view pages through them)',
  },
  'item-share': {
    env: 'BENCH_BROWSER_ITEM_SHARE',
    default: '0.25',
    help: 'share of items among the objects (each with its upload events)',
  },
  seed: {
    env: 'BENCH_BROWSER_SEED',
    default: '20261122',
    help: 'the tree (ids included) is deterministic per seed',
  },
  'batch-size': {
    env: 'BENCH_PROJECTOR_BATCH_SIZE',
    default: '500',
    help: 'PROJECTOR_BATCH_SIZE of the build',
  },
  clients: { env: 'BENCH_BROWSER_CLIENTS', default: '32', help: 'concurrent clients per measurement' },
  'warmup-s': {
    env: 'BENCH_BROWSER_WARMUP_S',
    default: '3',
    help: 'unmeasured seconds before each measurement (fractions allowed)',
  },
  'duration-s': {
    env: 'BENCH_BROWSER_DURATION_S',
    default: '15',
    help: 'measured seconds per view and path (HTTP, SQL; fractions allowed)',
  },
  'pool-size': {
    env: 'BENCH_BROWSER_POOL_SIZE',
    default: '10',
    help: 'DATABASE_POOL_SIZE of the API and of the SQL pool',
  },
  'api-processes': {
    env: 'BENCH_BROWSER_API_PROCESSES',
    default: '1',
    help: 'API processes started side by side; requests go to them in turn (one per core?)',
  },
  'analyze-every-s': {
    env: 'BENCH_ANALYZE_EVERY_S',
    default: '60',
    help: 'ANALYZE the read table this often during the build, as autovacuum would; 0 = never',
  },
  keep: { env: 'BENCH_BROWSER_KEEP', default: '', help: 'keep the database at the end', flag: true },
} satisfies Record<string, OptionSpec>;

function share(name: string, text: string): number {
  const value = Number(text);
  if (!(value >= 0 && value <= 1)) throw new RangeError(`--${name} must be from 0 to 1, got "${text}"`);
  return value;
}

export function readBrowserOptions(
  raw: Record<keyof typeof browserOptionSpecs, string>,
): BrowserBenchOptions {
  return {
    objects: positiveInt('objects', raw.objects),
    wideChildren: positiveInt('wide-children', raw['wide-children']),
    itemShare: share('item-share', raw['item-share']),
    seed: positiveInt('seed', raw.seed),
    batchSize: positiveInt('batch-size', raw['batch-size']),
    clients: positiveInt('clients', raw.clients),
    warmupMs: nonNegativeNumber('warmup-s', raw['warmup-s']) * 1000,
    durationMs: positiveNumber('duration-s', raw['duration-s']) * 1000,
    poolSize: positiveInt('pool-size', raw['pool-size']),
    apiProcesses: positiveInt('api-processes', raw['api-processes']),
    analyzeEveryMs: nonNegativeInt('analyze-every-s', raw['analyze-every-s']) * 1000,
    keep: isOn(raw.keep),
  };
}
