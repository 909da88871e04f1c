import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListPartsCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { downloadHeadersOf } from './download-headers.js';
import {
  type DownloadDeclaration,
  ObjectStoreRejectedError,
  ObjectStoreUnavailableError,
  type ObjectStore,
  type PresignedPart,
  type StoredObject,
  type StoredPart,
} from './object-store.js';

export interface S3Settings {
  readonly endpoint: string;
  /** Where clients reach the store; presigned URLs are signed for this host. */
  readonly publicEndpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly bucket: string;
  readonly forcePathStyle: boolean;
}

/** Errors meaning "the upload is gone". Ceph 16.2 answers ListParts on an aborted upload with NoSuchKey. */
const GONE = new Set(['NoSuchUpload', 'NoSuchKey', 'NotFound']);

function clientFor(settings: S3Settings, endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    forcePathStyle: settings.forcePathStyle,
    // Checksums only where S3 requires them: Ceph 16.2 does not know the SDK's default CRC trailers, and a
    // presigned URL must not carry a checksum of a body the signer never saw.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 60_000 },
  });
}

function isGone(error: unknown): boolean {
  return error instanceof S3ServiceException && GONE.has(error.name);
}

function isServerError(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode ?? 0) >= 500;
}

/** Turns an SDK error into one of ours: unavailable (retry later) or rejected (the request is wrong). */
function translate(error: unknown, action: string): Error {
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode ?? 0;
    if (status >= 500 || status === 0) {
      return new ObjectStoreUnavailableError(`object storage failed to ${action}: ${error.name}`);
    }
    return new ObjectStoreRejectedError(error.name, `object storage refused to ${action}: ${error.message}`);
  }
  // A request Node refused to send (a header value it cannot encode) is a bug upstream, not an outage:
  // rethrown as it is, it answers 500 instead of a 503 a client would retry forever.
  if (error instanceof TypeError) return error;
  const reason = error instanceof Error ? error.message || error.name : String(error);
  return new ObjectStoreUnavailableError(`object storage unreachable (${action}): ${reason}`);
}

export class S3ObjectStore implements ObjectStore {
  readonly bucket: string;
  private readonly s3: S3Client;
  private readonly signer: S3Client;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.s3 = clientFor(settings, settings.endpoint);
    this.signer =
      settings.publicEndpoint === settings.endpoint ? this.s3 : clientFor(settings, settings.publicEndpoint);
  }

  async createMultipartUpload(key: string, contentType: string | null): Promise<string> {
    const answer = await this.call('start the upload', () =>
      this.s3.send(
        new CreateMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          ...(contentType === null ? {} : { ContentType: contentType }),
        }),
      ),
    );
    if (!answer.UploadId) throw new ObjectStoreUnavailableError('object storage returned no upload id');
    return answer.UploadId;
  }

  async presignUploadParts(
    key: string,
    uploadId: string,
    partNumbers: readonly number[],
    ttlSeconds: number,
  ): Promise<PresignedPart[]> {
    // Signing is local (no request), so all parts are signed at once.
    return Promise.all(
      partNumbers.map(async (partNumber) => ({
        partNumber,
        url: await getSignedUrl(
          this.signer,
          new UploadPartCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: uploadId,
            PartNumber: partNumber,
          }),
          { expiresIn: ttlSeconds },
        ),
      })),
    );
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[] | null> {
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    for (;;) {
      let page;
      try {
        page = await this.s3.send(
          new ListPartsCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: uploadId,
            ...(marker === undefined ? {} : { PartNumberMarker: marker }),
          }),
        );
      } catch (error) {
        if (isGone(error)) return null;
        throw translate(error, 'list the parts');
      }
      for (const part of page.Parts ?? []) {
        if (part.PartNumber === undefined) continue;
        parts.push({
          partNumber: part.PartNumber,
          size: part.Size ?? 0,
          etag: part.ETag ?? '',
          lastModified: part.LastModified?.toISOString() ?? null,
        });
      }
      if (!page.IsTruncated || page.NextPartNumberMarker === undefined) break;
      marker = page.NextPartNumberMarker;
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: readonly { readonly partNumber: number; readonly etag: string }[],
  ): Promise<boolean> {
    try {
      await this.s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })) },
        }),
      );
      return true;
    } catch (error) {
      if (isGone(error)) return false;
      // Ceph 16.2 answers the completion of an aborted or unknown upload with 500 InternalError ("This
      // multipart completion is already in progress"), which would read as an outage: ask whether the
      // upload still exists before saying so.
      if (isServerError(error) && (await this.listParts(key, uploadId).catch(() => undefined)) === null) {
        return false;
      }
      throw translate(error, 'complete the upload');
    }
  }

  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    try {
      await this.s3.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
      );
    } catch (error) {
      if (isGone(error)) return;
      throw translate(error, 'abort the upload');
    }
  }

  async headObject(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, etag: head.ETag ?? '', contentType: head.ContentType ?? null };
    } catch (error) {
      if (isGone(error)) return null;
      throw translate(error, 'read the object');
    }
  }

  async deleteObject(key: string): Promise<void> {
    await this.call('delete the object', () =>
      this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })),
    );
  }

  async presignDownload(key: string, ttlSeconds: number, declared: DownloadDeclaration): Promise<string> {
    const headers = downloadHeadersOf(key, declared);
    return getSignedUrl(
      this.signer,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentDisposition: headers.contentDisposition,
        ResponseContentType: headers.contentType,
      }),
      { expiresIn: ttlSeconds },
    );
  }

  async check(): Promise<void> {
    await this.call('reach the bucket', () => this.s3.send(new HeadBucketCommand({ Bucket: this.bucket })));
  }

  close(): void {
    this.s3.destroy();
    if (this.signer !== this.s3) this.signer.destroy();
  }

  private async call<T>(action: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw translate(error, action);
    }
  }
}
