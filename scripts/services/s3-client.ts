import { S3Client } from '@aws-sdk/client-s3';

/** The S3 settings the apps read too (libs/platform/src/config.ts), taken as given by s3.sh. */
export interface S3Settings {
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly bucket: string;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (value === undefined || value === '') throw new Error(`${name} must be set`);
  return value;
}

export function s3SettingsFromEnv(env: NodeJS.ProcessEnv = process.env): S3Settings {
  return {
    endpoint: required(env, 'S3_ENDPOINT'),
    region: env['S3_REGION'] ?? 'us-east-1',
    accessKeyId: required(env, 'S3_ACCESS_KEY_ID'),
    secretAccessKey: required(env, 'S3_SECRET_ACCESS_KEY'),
    bucket: required(env, 'S3_BUCKET'),
  };
}

/**
 * Path-style, because the gateway has no wildcard DNS for bucket subdomains. Checksums only where S3
 * requires them: Ceph 16.2 does not understand the SDK's default trailing CRC checksums, and presigned
 * URLs must not carry a checksum of a body the signer never saw.
 */
export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
