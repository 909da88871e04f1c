import {
  isOn,
  nonNegativeInt,
  nonNegativeNumber,
  positiveInt,
  positiveNumber,
  type OptionSpec,
} from '../support/options.js';
import type { HttpClient } from '../support/http-get.js';

export interface StacBenchOptions {
  readonly items: number;
  readonly collections: number;
  readonly readyShare: number;
  readonly seed: number;
  /** Collections named as a STAC client names them (`archive-1`…), or known by their UUIDs alone. */
  readonly namedCollections: boolean;
  readonly batchSize: number;
  readonly clients: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  /**
   * Pairs of HTTP and SQL measurements per query shape, alternated (paired-rounds.ts); the report gives
   * the pair of the median HTTP share and the range of the shares.
   */
  readonly rounds: number;
  /** Pages of the time-sorted search measured besides the first, to show paging cost by depth. */
  readonly deepPages: readonly number[];
  readonly poolSize: number;
  /**
   * API processes started for the HTTP probe, which sends its requests to them round robin. Node runs a
   * process's JavaScript on one core; deploy/compose runs two API replicas behind its gateway for that.
   */
  readonly apiProcesses: number;
  readonly analyzeEveryMs: number;
  /** Keep the database afterwards (its name is printed) to look at plans; drop it by hand. */
  readonly keep: boolean;
  /**
   * A database kept by an earlier run with the same items, collections and seed: measure it again
   * without seeding and building (a million items take long to build; the queries are measured when
   * the machine is quiet). Never dropped.
   */
  readonly reuse: string | null;
  /** How the read models are built from the seeded history: the live projector, or a rebuild. */
  readonly build: 'projector' | 'rebuild';
  /** Only the query shapes whose name holds one of these (all when empty): a short run of a few shapes. */
  readonly views: readonly string[];
  /**
   * What the HTTP probe does with a body: `text` reads it whole as text, as the SQL probe gets its
   * rows (strings, none parsed); `json` parses it too, as a client then would (the rows of bench/README.md
   * before 2026-11-29 afternoon). Client and service share the machine's cores, so the client's parse is
   * CPU the API does not get; `text` charges both paths the same client work.
   */
  readonly clientBody: ClientBody;
  /**
   * What the HTTP probe sends its GETs with: `node` (node's HTTP client on keep-alive connections, lean as a
   * load generator should be) or `fetch` (the rows of bench/README.md before 2026-11-29 evening).
   */
  readonly httpClient: HttpClient;
}

export type ClientBody = 'text' | 'json';

/** How the HTTP probe sends its requests and reads their bodies. */
export interface HttpProbeClient {
  readonly body: ClientBody;
  readonly http: HttpClient;
}

export function probeClientOf(options: StacBenchOptions): HttpProbeClient {
  return { body: options.clientBody, http: options.httpClient };
}

export const stacOptionSpecs = {
  items: { env: 'BENCH_STAC_ITEMS', default: '1000000', help: 'items seeded through the event store' },
  collections: {
    env: 'BENCH_STAC_COLLECTIONS',
    default: '20',
    help: 'collections the items are spread over',
  },
  'ready-share': {
    env: 'BENCH_STAC_READY_SHARE',
    default: '0.25',
    help: 'share of items whose upload completes (an asset each, three more events)',
  },
  seed: {
    env: 'BENCH_STAC_SEED',
    default: '20261128',
    help: 'the archive (ids included) is deterministic per seed',
  },
  'named-collections': {
    env: 'BENCH_STAC_NAMED_COLLECTIONS',
    default: '',
    help: 'give the collections STAC names (archive-1, …), as a STAC client creates them',
    flag: true,
  },
  'batch-size': {
    env: 'BENCH_PROJECTOR_BATCH_SIZE',
    default: '500',
    help: 'PROJECTOR_BATCH_SIZE of the build',
  },
  clients: { env: 'BENCH_STAC_CLIENTS', default: '8', help: 'concurrent clients per measurement' },
  'warmup-s': {
    env: 'BENCH_STAC_WARMUP_S',
    default: '3',
    help: 'unmeasured seconds before each measurement (fractions allowed)',
  },
  'duration-s': {
    env: 'BENCH_STAC_DURATION_S',
    default: '15',
    help: 'measured seconds per query shape and path (HTTP, SQL; fractions allowed)',
  },
  rounds: {
    env: 'BENCH_STAC_ROUNDS',
    default: '1',
    help: 'HTTP and SQL measurements per query shape, in alternated pairs (each --duration-s); the median pair is reported',
  },
  'deep-pages': {
    env: 'BENCH_STAC_DEEP_PAGES',
    default: '1,10,50',
    help: 'pages of the time-sorted search to measure (1 = the first)',
  },
  'pool-size': {
    env: 'BENCH_STAC_POOL_SIZE',
    default: '10',
    help: 'DATABASE_POOL_SIZE of the API and of the SQL pool',
  },
  'api-processes': {
    env: 'BENCH_STAC_API_PROCESSES',
    default: '1',
    help: 'API processes the HTTP requests go to, round robin (as a balancer spreads them over replicas), each with its own pool',
  },
  'analyze-every-s': {
    env: 'BENCH_ANALYZE_EVERY_S',
    default: '60',
    help: 'ANALYZE the read table this often during the build, as autovacuum would; 0 = never',
  },
  keep: { env: 'BENCH_STAC_KEEP', default: '', help: 'keep the database at the end', flag: true },
  build: {
    env: 'BENCH_STAC_BUILD',
    default: 'projector',
    help: "projector (the live projector from the start) or rebuild (the operator's rebuild; PROJECTOR_REBUILD_* settings apply)",
  },
  views: {
    env: 'BENCH_STAC_VIEWS',
    default: '',
    help: 'measure only the shapes whose name holds one of these, comma-separated (e.g. "collection\'s items,sortby -datetime"); all when empty',
  },
  'client-body': {
    env: 'BENCH_STAC_CLIENT_BODY',
    default: 'text',
    help: 'text (the HTTP probe reads each body as text, decoded as it arrives, as the SQL probe reads rows) or json (it parses it too)',
  },
  'http-client': {
    env: 'BENCH_STAC_HTTP_CLIENT',
    default: 'node',
    help: "node (node's HTTP client, keep-alive: a lean load generator) or fetch (what the bench used before)",
  },
  reuse: {
    env: 'BENCH_STAC_REUSE',
    default: '',
    help: 'measure a database kept by an earlier --keep run (same items, collections, seed) without seeding or building',
  },
} satisfies Record<string, OptionSpec>;

function share(name: string, text: string): number {
  const value = Number(text);
  if (!(value >= 0 && value <= 1)) throw new RangeError(`--${name} must be from 0 to 1, got "${text}"`);
  return value;
}

export function readStacOptions(raw: Record<keyof typeof stacOptionSpecs, string>): StacBenchOptions {
  return {
    items: positiveInt('items', raw.items),
    collections: positiveInt('collections', raw.collections),
    readyShare: share('ready-share', raw['ready-share']),
    seed: positiveInt('seed', raw.seed),
    namedCollections: isOn(raw['named-collections']),
    batchSize: positiveInt('batch-size', raw['batch-size']),
    clients: positiveInt('clients', raw.clients),
    warmupMs: nonNegativeNumber('warmup-s', raw['warmup-s']) * 1000,
    durationMs: positiveNumber('duration-s', raw['duration-s']) * 1000,
    rounds: positiveInt('rounds', raw.rounds),
    deepPages: raw['deep-pages'].split(',').map((page) => positiveInt('deep-pages', page.trim())),
    poolSize: positiveInt('pool-size', raw['pool-size']),
    apiProcesses: positiveInt('api-processes', raw['api-processes']),
    analyzeEveryMs: nonNegativeInt('analyze-every-s', raw['analyze-every-s']) * 1000,
    keep: isOn(raw.keep),
    reuse: reusedDatabase(raw.reuse),
    build: buildWay(raw.build),
    views: raw.views
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
    clientBody: clientBodyOf(raw['client-body']),
    httpClient: httpClientOf(raw['http-client']),
  };
}

function httpClientOf(text: string): HttpClient {
  if (text === 'node' || text === 'fetch') return text;
  throw new RangeError(`--http-client takes node or fetch, got "${text}"`);
}

function clientBodyOf(text: string): ClientBody {
  if (text === 'text' || text === 'json') return text;
  throw new RangeError(`--client-body takes text or json, got "${text}"`);
}

function reusedDatabase(name: string): string | null {
  if (name === '') return null;
  if (!/^bench_stac_[0-9a-f]{8}$/.test(name))
    throw new RangeError(`--reuse takes a database name kept by --keep (bench_stac_<8 hex>), got "${name}"`);
  return name;
}

function buildWay(text: string): 'projector' | 'rebuild' {
  if (text === 'projector' || text === 'rebuild') return text;
  throw new RangeError(`--build must be projector or rebuild, got "${text}"`);
}
