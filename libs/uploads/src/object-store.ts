/** A part the object store holds for an open multipart upload. */
export interface StoredPart {
  readonly partNumber: number;
  readonly size: number;
  /** Quoted, as S3 reports it. */
  readonly etag: string;
  readonly lastModified: string | null;
}

export interface StoredObject {
  readonly size: number;
  readonly etag: string;
  readonly contentType: string | null;
}

/** What an upload declared about its file: how a download names and types it. */
export interface DownloadDeclaration {
  readonly fileName: string | null;
  readonly contentType: string | null;
}

export interface PresignedPart {
  readonly partNumber: number;
  readonly url: string;
}

/**
 * What the API and the upload worker need from S3: multipart uploads, presigned URLs and object
 * metadata. One implementation speaks S3 (any S3-compatible server); tests run it against Ceph's
 * RADOS Gateway, which checks signatures like AWS does.
 */
export interface ObjectStore {
  readonly bucket: string;
  createMultipartUpload(key: string, contentType: string | null): Promise<string>;
  presignUploadParts(
    key: string,
    uploadId: string,
    partNumbers: readonly number[],
    ttlSeconds: number,
  ): Promise<PresignedPart[]>;
  /** Every part received so far, ordered by part number; `null` when the upload is gone. */
  listParts(key: string, uploadId: string): Promise<StoredPart[] | null>;
  /**
   * `false` when the upload is gone (aborted, never existed, or completed earlier: S3 servers may also
   * answer a repeated completion with the same parts as a success).
   */
  completeMultipartUpload(
    key: string,
    uploadId: string,
    parts: readonly { readonly partNumber: number; readonly etag: string }[],
  ): Promise<boolean>;
  /** Idempotent: aborting an upload that is already gone succeeds. */
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;
  headObject(key: string): Promise<StoredObject | null>;
  /** Idempotent: deleting an object that is gone succeeds. */
  deleteObject(key: string): Promise<void>;
  /**
   * A presigned GET of the object, served as `download-headers.ts` decides from what the upload
   * declared: inline for raster images, otherwise an attachment of neutral type.
   */
  presignDownload(key: string, ttlSeconds: number, declared: DownloadDeclaration): Promise<string>;
  /** Throws unless the bucket answers: the readiness probe. */
  check(): Promise<void>;
  close(): void;
}

/** The object store did not answer (network, DNS, 5xx): worth retrying later, never the client's fault. */
export class ObjectStoreUnavailableError extends Error {
  override readonly name = 'ObjectStoreUnavailableError';
}

/** The object store refused the request for a reason retrying will not change (InvalidPart, EntityTooSmall…). */
export class ObjectStoreRejectedError extends Error {
  override readonly name = 'ObjectStoreRejectedError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
