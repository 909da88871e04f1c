import { loadConfig } from '@portal/platform';
import { positiveInt, type OptionSpec } from '../support/options.js';

export const MIB = 1024 ** 2;

export const uploadOptionSpecs = {
  'size-mib': { env: 'BENCH_UPLOAD_SIZE_MIB', default: '1024', help: 'size of the large file, in MiB' },
  'part-mib': { env: 'BENCH_UPLOAD_PART_MIB', default: '64', help: 'part size, in MiB (S3 minimum 5)' },
  'put-parallel': { env: 'BENCH_UPLOAD_PUT_PARALLEL', default: '4', help: 'part PUTs in flight at once' },
  items: { env: 'BENCH_UPLOAD_ITEMS', default: '1000', help: 'small items timed from complete to ready' },
  'item-bytes': { env: 'BENCH_UPLOAD_ITEM_BYTES', default: '1024', help: 'size of each small item' },
  completions: {
    env: 'BENCH_UPLOAD_COMPLETIONS',
    default: '16',
    help: 'small items between complete and ready at once',
  },
  'poll-ms': {
    env: 'BENCH_UPLOAD_POLL_MS',
    default: '10',
    help: 'pause between GETs of an item waiting for ready',
  },
  'worker-concurrency': {
    env: 'BENCH_UPLOAD_WORKER_CONCURRENCY',
    default: '',
    help: "the stack's UPLOAD_WORKER_CONCURRENCY; unset: the app's default",
  },
} satisfies Record<string, OptionSpec>;

export interface UploadBenchOptions {
  readonly sizeBytes: number;
  readonly partBytes: number;
  readonly putParallel: number;
  readonly items: number;
  readonly itemBytes: number;
  readonly completions: number;
  readonly pollMs: number;
  /** The value the worker runs with, read through the apps' own config parsing. */
  readonly workerConcurrency: number;
}

const S3_MIN_PART_MIB = 5;
/** Multipart parts must fit in one presigned PUT; S3 caps a part at 5 GiB. */
const S3_MAX_PART_MIB = 5 * 1024;

export function readUploadOptions(raw: Record<keyof typeof uploadOptionSpecs, string>): {
  uploads: UploadBenchOptions;
  stackEnv: Record<string, string>;
} {
  const partMib = positiveInt('part-mib', raw['part-mib']);
  if (partMib < S3_MIN_PART_MIB || partMib > S3_MAX_PART_MIB) {
    throw new RangeError(`--part-mib must be ${S3_MIN_PART_MIB}–${S3_MAX_PART_MIB}, got ${partMib}`);
  }
  const itemBytes = positiveInt('item-bytes', raw['item-bytes']);
  if (itemBytes > S3_MIN_PART_MIB * MIB) {
    // Small items go up in one PUT (the API's default part is 64 MiB) before the timing starts; beyond
    // 5 MiB that setup would outlast the measurement.
    throw new RangeError(`--item-bytes must be at most ${S3_MIN_PART_MIB * MIB}, got ${itemBytes}`);
  }
  const productionDefaults = loadConfig({});
  const stackEnv: Record<string, string> = {
    // `startStack` waits for the API's info-level "listening" line; info is also production's level.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // startStack's own default (200) suits tests; the benches run the production batch size.
    PROJECTOR_BATCH_SIZE: String(productionDefaults.PROJECTOR_BATCH_SIZE),
  };
  if (raw['worker-concurrency'] !== '') {
    stackEnv.UPLOAD_WORKER_CONCURRENCY = String(positiveInt('worker-concurrency', raw['worker-concurrency']));
  }
  return {
    uploads: {
      sizeBytes: positiveInt('size-mib', raw['size-mib']) * MIB,
      partBytes: partMib * MIB,
      putParallel: positiveInt('put-parallel', raw['put-parallel']),
      items: positiveInt('items', raw.items),
      itemBytes,
      completions: positiveInt('completions', raw.completions),
      pollMs: positiveInt('poll-ms', raw['poll-ms']),
      workerConcurrency: loadConfig({ ...process.env, ...stackEnv }).UPLOAD_WORKER_CONCURRENCY,
    },
    stackEnv,
  };
}
