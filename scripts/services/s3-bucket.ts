/**
 * Makes the project's bucket exist with the CORS rule presigned browser uploads need: a browser may only
 * read the `ETag` of a part (which CompleteMultipartUpload needs) when the bucket exposes it.
 * Idempotent. Run by s3.sh with S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_BUCKET set.
 */
import {
  CreateBucketCommand,
  PutBucketCorsCommand,
  PutBucketLifecycleConfigurationCommand,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { createS3Client, s3SettingsFromEnv } from './s3-client.js';

const settings = s3SettingsFromEnv();
const s3 = createS3Client(settings);

try {
  await s3.send(new CreateBucketCommand({ Bucket: settings.bucket }));
} catch (error) {
  const alreadyOurs = error instanceof S3ServiceException && error.name === 'BucketAlreadyOwnedByYou';
  if (!alreadyOurs) throw error;
}

await s3.send(
  new PutBucketCorsCommand({
    Bucket: settings.bucket,
    CORSConfiguration: {
      CORSRules: [
        {
          AllowedOrigins: ['*'],
          AllowedMethods: ['PUT', 'GET', 'HEAD'],
          AllowedHeaders: ['*'],
          ExposeHeaders: ['ETag'],
          MaxAgeSeconds: 3600,
        },
      ],
    },
  }),
);
// The safety net under the upload worker's own expiry: an upload no item knows of (its create failed
// after the upload was started, and the abort failed too) is removed by the store itself.
await s3.send(
  new PutBucketLifecycleConfigurationCommand({
    Bucket: settings.bucket,
    LifecycleConfiguration: {
      Rules: [
        {
          ID: 'abort-incomplete-multipart-uploads',
          Status: 'Enabled',
          Filter: { Prefix: '' },
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 },
        },
      ],
    },
  }),
);
s3.destroy();
