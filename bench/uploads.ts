/**
 * Uploads through presigned URLs: a large file in parts beside the raw PUT rate of the same S3 server
 * (the ceiling, measured in the same run), then the time from `complete` to `ready` for many small items.
 * Usage: npx tsx bench/uploads.ts [--size-mib 1024] [--items 1000] [--help for every option]
 */
import { startBenchStack } from './support/bench-stack.js';
import { readOptions } from './support/options.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine } from './support/table.js';
import { DirectS3 } from './uploads/direct-s3.js';
import { runUploadBench } from './uploads/run-uploads.js';
import { printUploadTables } from './uploads/uploads-report.js';
import { readUploadOptions, uploadOptionSpecs } from './uploads/upload-options.js';

const raw = readOptions('npx tsx bench/uploads.ts [options]', uploadOptionSpecs);
const { uploads, stackEnv } = readUploadOptions(raw);
useTestServiceDefaults();
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const s3 = DirectS3.fromEnvironment();
log(
  `starting the stack (${JSON.stringify(stackEnv)}); S3 bucket ${s3.bucket} at ${process.env.S3_ENDPOINT ?? ''}`,
);
const stack = await startBenchStack(stackEnv);
let result;
try {
  result = await runUploadBench(stack, s3, uploads, log);
} finally {
  // Objects first: the gateway is shared and keeps them in RAM; then the apps and the database.
  await s3.close();
  await stack.stop();
}
printUploadTables(result, uploads);
printJsonLine('uploads', { options: { ...uploads, ...stackEnv }, result });
