import { randomBytes } from 'node:crypto';
import { underBarrierWatch, type BarrierReport } from './barrier-watch.js';
import { measureCompleteToReady, type CompleteToReadyResult } from './complete-to-ready.js';
import type { DirectS3 } from './direct-s3.js';
import { pipelineKeyAt } from '../../test/support/pipeline-key.js';
import { PortalClient } from './portal-client.js';
import { measureRawPutCeiling, type CeilingResult } from './raw-put-ceiling.js';
import { measureServiceUpload, type ServiceUploadResult } from './service-upload.js';
import { MIB, type UploadBenchOptions } from './upload-options.js';

export interface UploadBenchResult {
  readonly ceiling: CeilingResult;
  readonly service: ServiceUploadResult;
  readonly smallItems: CompleteToReadyResult;
  /** Other databases' transactions holding back event delivery while each service measurement ran. */
  readonly foreignTransactions: { readonly service: BarrierReport; readonly smallItems: BarrierReport };
}

/** The three measurements against one running stack, one after the other: ceiling, large file, small items. */
export async function runUploadBench(
  stack: { readonly baseUrl: string; readonly databaseUrl: string },
  s3: DirectS3,
  options: UploadBenchOptions,
  progress: (line: string) => void,
): Promise<UploadBenchResult> {
  const runTag = randomBytes(4).toString('hex');
  const portal = new PortalClient(stack.baseUrl, await pipelineKeyAt(stack.baseUrl));
  const parentId = await portal.createCollection(`Uploads bench ${runTag}`);
  // One random part-sized buffer, every part a view of it: random so nothing on the way can compress it.
  const source = randomBytes(options.partBytes);
  const mib = options.sizeBytes / MIB;

  progress(
    `ceiling: ${mib} MiB as PutObjects of ${options.partBytes / MIB} MiB, ${options.putParallel} at once`,
  );
  const ceiling = await measureRawPutCeiling(s3, source, options, runTag);
  progress(`  ${ceiling.put.mibPerSecond.toFixed(1)} MiB/s`);

  progress(`through the service: ${mib} MiB in ${options.partBytes / MIB} MiB parts`);
  const large = await underBarrierWatch(stack.databaseUrl, () =>
    measureServiceUpload(portal, s3, parentId, source, options),
  );
  const service = large.result;
  progress(
    `  PUT ${service.put.mibPerSecond.toFixed(1)} MiB/s, create→ready ${service.endToEnd.mibPerSecond.toFixed(1)} MiB/s`,
  );

  const small = await underBarrierWatch(stack.databaseUrl, () =>
    measureCompleteToReady(
      portal,
      parentId,
      source.subarray(0, options.itemBytes),
      options,
      (key) => {
        s3.track(key);
      },
      progress,
    ),
  );
  const smallItems = small.result;
  progress(
    `  complete→ready p50 ${smallItems.completeToReadyMs.p50.toFixed(1)} ms, p99 ${smallItems.completeToReadyMs.p99.toFixed(1)} ms`,
  );
  return {
    ceiling,
    service,
    smallItems,
    foreignTransactions: { service: large.foreignTransactions, smallItems: small.foreignTransactions },
  };
}
