/**
 * Proves a local S3 endpoint does what the upload flow relies on: a browser-style multipart upload through
 * presigned UploadPart URLs and plain fetch, the parts read back intact, a tampered URL refused, and the
 * bucket's CORS rule exposing ETag. Exits non-zero on the first broken promise.
 * Run by scripts/test-services.sh with S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_BUCKET set.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createS3Client, s3SettingsFromEnv } from './s3-client.js';

const settings = s3SettingsFromEnv();
const s3 = createS3Client(settings);
const bucket = settings.bucket;
const key = `smoke/${randomUUID()}`;

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`S3 smoke test: ${message}`);
}

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

// S3's smallest non-final part is 5 MiB, so two parts of 5 MiB and 1 KiB exercise the real rule.
const parts = [randomBytes(5 * 1024 * 1024), randomBytes(1024)];
const whole = Buffer.concat(parts);

const { UploadId: uploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
check(uploadId !== undefined, 'CreateMultipartUpload answered no UploadId');

const presignPart = (partNumber: number): Promise<string> =>
  getSignedUrl(
    s3,
    new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }),
    {
      expiresIn: 300,
    },
  );

// A URL whose part number was changed after signing, and one with a flipped signature, must both be
// refused for their signature. Each part's own URL, untouched, then succeeds: the 403s prove something.
async function expectTamperedRefused(signed: URL): Promise<void> {
  const otherPart = new URL(signed);
  otherPart.searchParams.set('partNumber', '9');
  const badSignature = new URL(signed);
  const signature = badSignature.searchParams.get('X-Amz-Signature') ?? '';
  badSignature.searchParams.set(
    'X-Amz-Signature',
    `${signature.startsWith('0') ? '1' : '0'}${signature.slice(1)}`,
  );
  for (const [what, url] of [
    ['a changed part number', otherPart],
    ['an altered signature', badSignature],
  ] as const) {
    const response = await fetch(url, { method: 'PUT', body: 'tampered' });
    const answer = await response.text();
    check(response.status === 403, `a presigned URL with ${what} answered ${response.status}, expected 403`);
    check(
      answer.includes('SignatureDoesNotMatch'),
      `a presigned URL with ${what} was refused for: ${answer}`,
    );
  }
}

const uploaded: { PartNumber: number; ETag: string }[] = [];
for (const [index, body] of parts.entries()) {
  const partNumber = index + 1;
  const url = new URL(await presignPart(partNumber));
  await expectTamperedRefused(url);
  const response = await fetch(url, { method: 'PUT', body });
  check(
    response.ok,
    `presigned PUT of part ${partNumber} answered ${response.status}: ${await response.text()}`,
  );
  const etag = response.headers.get('etag');
  check(etag !== null && etag !== '', `part ${partNumber} answered no ETag`);
  uploaded.push({ PartNumber: partNumber, ETag: etag });
}

await s3.send(
  new CompleteMultipartUploadCommand({
    Bucket: bucket,
    Key: key,
    UploadId: uploadId,
    MultipartUpload: { Parts: uploaded },
  }),
);

const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
check(
  head.ContentLength === whole.length,
  `HeadObject says ${head.ContentLength} bytes, uploaded ${whole.length}`,
);
check(
  head.ETag?.endsWith('-2"') === true,
  `a two-part object should have a multipart ETag, got ${head.ETag}`,
);

const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
check(object.Body !== undefined, 'GetObject answered no body');
const readBack = await object.Body.transformToByteArray();
check(sha256(readBack) === sha256(whole), 'the object read back differs from what was uploaded');

// What a browser asks before a presigned PUT from another origin; without ETag exposed it cannot complete.
const preflight = await fetch(`${settings.endpoint}/${bucket}/${key}`, {
  method: 'OPTIONS',
  headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'PUT' },
});
const exposed = preflight.headers.get('access-control-expose-headers') ?? '';
check(preflight.ok, `CORS preflight answered ${preflight.status}`);
check(/\betag\b/i.test(exposed), `CORS preflight exposes "${exposed}", not ETag`);

await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
s3.destroy();
console.log(`S3 smoke test passed against ${settings.endpoint}/${bucket}`);
