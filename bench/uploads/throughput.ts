import type { CpuShare } from '../support/cpu.js';
import { MIB } from './upload-options.js';

/** Bytes moved over a span of time. */
export interface Throughput {
  readonly bytes: number;
  readonly seconds: number;
  readonly mibPerSecond: number;
  /** While the bytes moved. */
  readonly cpu: CpuShare;
}

export function throughputOf(bytes: number, startedAt: number, endedAt: number, cpu: CpuShare): Throughput {
  const seconds = (endedAt - startedAt) / 1000;
  return { bytes, seconds, mibPerSecond: seconds > 0 ? bytes / MIB / seconds : Number.NaN, cpu };
}
