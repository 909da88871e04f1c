import { positiveInt, type OptionSpec } from '../support/options.js';

export interface EventsBenchOptions {
  readonly clients: number;
  readonly rate: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** Catalogs the updates go round; more than `maxInFlight`, so two updates of one never race. */
  readonly objects: number;
  readonly maxInFlight: number;
}

export const eventsOptionSpecs = {
  clients: { env: 'BENCH_EVENTS_CLIENTS', default: '1000', help: 'SSE clients connected during the run' },
  rate: { env: 'BENCH_EVENTS_RATE', default: '500', help: 'changes per second made through the API' },
  seconds: { env: 'BENCH_EVENTS_SECONDS', default: '30', help: 'measured seconds of changes' },
  warmup: { env: 'BENCH_EVENTS_WARMUP', default: '5', help: 'seconds of changes before measuring' },
  objects: { env: 'BENCH_EVENTS_OBJECTS', default: '512', help: 'catalogs the updates are spread over' },
  'max-in-flight': {
    env: 'BENCH_EVENTS_MAX_IN_FLIGHT',
    default: '256',
    help: 'change requests waiting at once; beyond it a scheduled change is skipped (and counted)',
  },
} satisfies Record<string, OptionSpec>;

export function readEventsOptions(raw: Record<keyof typeof eventsOptionSpecs, string>): EventsBenchOptions {
  const options = {
    clients: positiveInt('clients', raw.clients),
    rate: positiveInt('rate', raw.rate),
    seconds: positiveInt('seconds', raw.seconds),
    warmupSeconds: positiveInt('warmup', raw.warmup),
    objects: positiveInt('objects', raw.objects),
    maxInFlight: positiveInt('max-in-flight', raw['max-in-flight']),
  };
  if (options.objects <= options.maxInFlight)
    throw new RangeError('--objects must be more than --max-in-flight');
  return options;
}
