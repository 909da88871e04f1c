import { choiceList, isOn, positiveInt, positiveNumber, type OptionSpec } from '../support/options.js';

export const PHASES = [
  'create-async',
  'create',
  'patch',
  'item',
  'children',
  'breadcrumbs',
  'path',
  'static',
] as const;
export type Phase = (typeof PHASES)[number];

export const apiCpuOptionSpecs = {
  phases: { env: 'BENCH_API_CPU_PHASES', default: PHASES.join(','), help: 'requests measured, in order' },
  clients: { env: 'BENCH_API_CPU_CLIENTS', default: '16', help: 'concurrent HTTP clients' },
  'duration-s': { env: 'BENCH_API_CPU_SECONDS', default: '10', help: 'measured seconds per phase' },
  'warmup-s': { env: 'BENCH_API_CPU_WARMUP_S', default: '2', help: 'unmeasured seconds before each phase' },
  children: { env: 'BENCH_API_CPU_CHILDREN', default: '2000', help: 'children of the listed node' },
  profile: {
    env: 'BENCH_API_CPU_PROFILE',
    default: '',
    help: 'profile the API (node --cpu-prof)',
    flag: true,
  },
} satisfies Record<string, OptionSpec>;

export interface ApiCpuOptions {
  readonly phases: readonly Phase[];
  readonly clients: number;
  readonly durationMs: number;
  readonly warmupMs: number;
  readonly children: number;
  readonly profile: boolean;
}

export function readApiCpuOptions(values: Record<keyof typeof apiCpuOptionSpecs, string>): ApiCpuOptions {
  return {
    phases: choiceList('phases', values.phases, PHASES),
    clients: positiveInt('clients', values.clients),
    durationMs: positiveNumber('duration-s', values['duration-s']) * 1000,
    warmupMs: Number(values['warmup-s']) * 1000 || 0,
    children: positiveInt('children', values.children),
    profile: isOn(values.profile),
  };
}
