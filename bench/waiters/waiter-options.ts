import { positiveInt, positiveIntList, type OptionSpec } from '../support/options.js';

export const waiterOptionSpecs = {
  waiters: {
    env: 'BENCH_WAITERS',
    default: '1,1000,10000',
    help: 'waiting requests per run, comma-separated',
  },
  steps: { env: 'BENCH_WAITER_STEPS', default: '200', help: 'checkpoint advances per run' },
  interval: { env: 'BENCH_WAITER_INTERVAL_MS', default: '5', help: 'milliseconds between advances' },
} satisfies Record<string, OptionSpec>;

export interface WaiterOptions {
  readonly waiterCounts: readonly number[];
  readonly steps: number;
  readonly intervalMs: number;
}

export function readWaiterOptions(values: Record<keyof typeof waiterOptionSpecs, string>): WaiterOptions {
  return {
    waiterCounts: positiveIntList('waiters', values.waiters),
    steps: positiveInt('steps', values.steps),
    intervalMs: positiveInt('interval', values.interval),
  };
}
