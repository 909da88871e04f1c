import { MAX_BATCH_COMMANDS } from '@portal/contracts';
import { nonNegativeNumber, positiveInt, positiveNumber, type OptionSpec } from '../support/options.js';

/**
 * How the changes are made. `batch`: `POST /` batches of catalog creates, the way a pipeline ingests;
 * `update`: one `PATCH` title update per request, each answered after its projection; `simulated`: the
 * projector's output (audit rows and their NOTIFY) written straight to the read model, the write path
 * left out, so the feed can be driven faster than this machine's write path goes.
 */
export type ChangeKind = 'batch' | 'update' | 'simulated';

export interface EventsBenchOptions {
  readonly clients: number;
  /** Signed-in users the clients are spread over; more than one makes the changed catalogs public. */
  readonly users: number;
  readonly rate: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly changes: ChangeKind;
  /** Creates per `POST /` request (`batch` only). */
  readonly batchSize: number;
  /** Catalogs the changes go round (`update`, `simulated`); for updates more than `maxInFlight`, so two never race. */
  readonly objects: number;
  readonly maxInFlight: number;
}

export const eventsOptionSpecs = {
  clients: { env: 'BENCH_EVENTS_CLIENTS', default: '1000', help: 'SSE clients connected during the run' },
  users: {
    env: 'BENCH_EVENTS_USERS',
    default: '1',
    help: 'users the clients are spread over (1: all on the pipeline key; more: a session each, public changes)',
  },
  rate: {
    env: 'BENCH_EVENTS_RATE',
    default: '500',
    help: 'changes per second (through the API, or simulated)',
  },
  seconds: {
    env: 'BENCH_EVENTS_SECONDS',
    default: '30',
    help: 'measured seconds of changes (fractions allowed)',
  },
  warmup: {
    env: 'BENCH_EVENTS_WARMUP',
    default: '5',
    help: 'seconds of changes before measuring (fractions allowed)',
  },
  changes: {
    env: 'BENCH_EVENTS_CHANGES',
    default: 'batch',
    help: 'batch: POST / batches of catalog creates; update: one PATCH per change; simulated: projector output only',
  },
  'batch-size': {
    env: 'BENCH_EVENTS_BATCH_SIZE',
    default: '10',
    help: 'creates per POST / request (--changes batch)',
  },
  objects: {
    env: 'BENCH_EVENTS_OBJECTS',
    default: '512',
    help: 'catalogs the changes are spread over (--changes update, simulated)',
  },
  'max-in-flight': {
    env: 'BENCH_EVENTS_MAX_IN_FLIGHT',
    default: '256',
    help: 'change requests waiting at once; beyond it a scheduled request is skipped (and counted)',
  },
} satisfies Record<string, OptionSpec>;

function changeKind(text: string): ChangeKind {
  if (text === 'batch' || text === 'update' || text === 'simulated') return text;
  throw new RangeError(`--changes must be batch, update or simulated, got "${text}"`);
}

export function readEventsOptions(raw: Record<keyof typeof eventsOptionSpecs, string>): EventsBenchOptions {
  const options = {
    clients: positiveInt('clients', raw.clients),
    users: positiveInt('users', raw.users),
    rate: positiveInt('rate', raw.rate),
    seconds: positiveNumber('seconds', raw.seconds),
    warmupSeconds: nonNegativeNumber('warmup', raw.warmup),
    changes: changeKind(raw.changes),
    batchSize: positiveInt('batch-size', raw['batch-size']),
    objects: positiveInt('objects', raw.objects),
    maxInFlight: positiveInt('max-in-flight', raw['max-in-flight']),
  };
  if (options.changes === 'update' && options.objects <= options.maxInFlight)
    throw new RangeError('--objects must be more than --max-in-flight');
  if (options.users > options.clients) throw new RangeError('--users is at most --clients');
  if (options.batchSize > MAX_BATCH_COMMANDS)
    throw new RangeError(`--batch-size is at most ${MAX_BATCH_COMMANDS}, the API's bound`);
  return options;
}
