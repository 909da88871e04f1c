import {
  choiceList,
  nonNegativeInt,
  positiveInt,
  positiveIntList,
  type OptionSpec,
} from '../support/options.js';
import { ingestModes } from './create-load.js';
import type { IngestOptions } from './run-ingest.js';

export const ingestOptionSpecs = {
  creates: { env: 'BENCH_CREATES', default: '5000', help: 'creates per mode and client count' },
  clients: {
    env: 'BENCH_CLIENTS',
    default: '16,64',
    help: 'concurrent HTTP clients, comma-separated (1,16,64 takes ~3.5 min)',
  },
  modes: { env: 'BENCH_MODES', default: 'projected,async', help: 'projected and/or async' },
  warmup: { env: 'BENCH_WARMUP', default: '300', help: 'creates sent before measuring' },
  parents: { env: 'BENCH_PARENTS', default: '8', help: 'catalogs the collections go under' },
  'analyze-every-s': {
    env: 'BENCH_ANALYZE_EVERY_S',
    default: '60',
    help: 'ANALYZE the stack database this often, as autovacuum would; 0 = never',
  },
  'batch-size': { env: 'BENCH_PROJECTOR_BATCH_SIZE', default: '500', help: "the projector's batch size" },
  rates: {
    env: 'BENCH_RATES',
    default: '',
    help: 'open-loop runs after the closed-loop ones: creates per second offered, comma-separated',
  },
} satisfies Record<string, OptionSpec>;

export function readIngestOptions(raw: Record<keyof typeof ingestOptionSpecs, string>): {
  ingest: IngestOptions;
  stackEnv: Record<string, string>;
} {
  return {
    ingest: {
      creates: positiveInt('creates', raw.creates),
      clients: positiveIntList('clients', raw.clients),
      modes: choiceList('modes', raw.modes, ingestModes),
      warmup: nonNegativeInt('warmup', raw.warmup),
      parents: positiveInt('parents', raw.parents),
      analyzeEveryMs: nonNegativeInt('analyze-every-s', raw['analyze-every-s']) * 1000,
      rates: raw.rates.trim() === '' ? [] : positiveIntList('rates', raw.rates),
    },
    // `startStack` waits for the API's info-level "listening" line, so info it is: one log line per
    // request, as in production.
    stackEnv: {
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      PROJECTOR_BATCH_SIZE: String(positiveInt('batch-size', raw['batch-size'])),
    },
  };
}
