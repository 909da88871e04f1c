import type { Config } from '@portal/platform';
import type { S3Settings } from './s3-object-store.js';

export function s3SettingsOf(config: Config): S3Settings {
  return {
    endpoint: config.S3_ENDPOINT,
    publicEndpoint: config.S3_PUBLIC_ENDPOINT ?? config.S3_ENDPOINT,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    bucket: config.S3_BUCKET,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  };
}
