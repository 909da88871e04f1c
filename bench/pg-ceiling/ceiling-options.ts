import { positiveInt, positiveIntList, type OptionSpec } from '../support/options.js';
import type { CeilingOptions } from './run-pg-ceiling.js';

export const ceilingOptionSpecs = {
  'ceiling-inserts': { env: 'BENCH_CEILING_INSERTS', default: '20000', help: 'inserts per client count' },
  'ceiling-clients': { env: 'BENCH_CEILING_CLIENTS', default: '1,16', help: 'concurrent connections' },
} satisfies Record<string, OptionSpec>;

export function readCeilingOptions(raw: Record<keyof typeof ceilingOptionSpecs, string>): CeilingOptions {
  return {
    inserts: positiveInt('ceiling-inserts', raw['ceiling-inserts']),
    clients: positiveIntList('ceiling-clients', raw['ceiling-clients']),
  };
}
