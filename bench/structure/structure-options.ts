import { nonNegativeInt, positiveInt, positiveIntList, type OptionSpec } from '../support/options.js';
import type { StructureOptions } from './run-structure.js';

export const structureOptionSpecs = {
  operations: {
    env: 'BENCH_STRUCTURE_OPERATIONS',
    default: '500',
    help: 'moves, and as many deletes, per client count',
  },
  clients: {
    env: 'BENCH_STRUCTURE_CLIENTS',
    default: '1,16',
    help: 'concurrent HTTP clients, comma-separated',
  },
  organizations: {
    env: 'BENCH_STRUCTURE_ORGANIZATIONS',
    default: '1',
    help: 'organizations the clients are spread over (1: every operation of a run in one organization)',
  },
  warmup: { env: 'BENCH_STRUCTURE_WARMUP', default: '50', help: 'moves and deletes sent before measuring' },
  'analyze-every-s': {
    env: 'BENCH_ANALYZE_EVERY_S',
    default: '60',
    help: 'ANALYZE the stack database this often, as autovacuum would; 0 = never',
  },
  'batch-size': { env: 'BENCH_PROJECTOR_BATCH_SIZE', default: '500', help: "the projector's batch size" },
} satisfies Record<string, OptionSpec>;

export function readStructureOptions(raw: Record<keyof typeof structureOptionSpecs, string>): {
  structure: StructureOptions;
  stackEnv: Record<string, string>;
} {
  const structure: StructureOptions = {
    operations: positiveInt('operations', raw.operations),
    clients: positiveIntList('clients', raw.clients),
    organizations: positiveInt('organizations', raw.organizations),
    warmup: nonNegativeInt('warmup', raw.warmup),
    analyzeEveryMs: nonNegativeInt('analyze-every-s', raw['analyze-every-s']) * 1000,
  };
  if (structure.organizations > Math.min(...structure.clients)) {
    throw new RangeError('--organizations is at most the smallest --clients: each needs a client');
  }
  return {
    structure,
    // As the ingest bench: `startStack` waits for the API's info-level "listening" line.
    stackEnv: {
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      PROJECTOR_BATCH_SIZE: String(positiveInt('batch-size', raw['batch-size'])),
    },
  };
}
