import {
  DeleteObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { loadConfig } from '@portal/platform';
import { s3SettingsOf, type S3Settings } from '@portal/uploads';
import { registerCleanup } from '../support/cleanup.js';
import { mapConcurrently } from './concurrently.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const DELETE_PARALLEL = 16;

/**
 * The bench's own line to the S3 server the stack uses (same settings, read through the apps' config
 * parsing): presigned PutObject URLs for the ceiling, the size check, and deleting what the run wrote.
 * Every key the run writes is tracked and deleted at the end, also on Ctrl-C, because the test gateway
 * keeps objects in RAM (memstore, 4 GiB) and is shared with everyone's test runs. Deleting only queues the
 * bytes for the gateway's garbage collection; bench/README.md says how to free them at once.
 */
export class DirectS3 {
  readonly bucket: string;
  private readonly client: S3Client;
  private readonly written = new Set<string>();
  private readonly unregister: () => void;

  private constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      forcePathStyle: settings.forcePathStyle,
      // As the service's own client does: a presigned URL must not carry a checksum of a body the signer
      // never saw, and Ceph 16.2 does not know the SDK's default CRC trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.unregister = registerCleanup(() => this.deleteWritten());
  }

  /** Refuses an S3 endpoint off this machine: the bench writes gigabytes and times loopback only. */
  static fromEnvironment(): DirectS3 {
    const settings = s3SettingsOf(loadConfig(process.env));
    for (const endpoint of [settings.endpoint, settings.publicEndpoint]) {
      if (!LOOPBACK_HOSTS.has(new URL(endpoint).hostname)) {
        throw new Error(`the uploads bench runs against a loopback S3 only; S3 endpoint is ${endpoint}`);
      }
    }
    return new DirectS3(settings);
  }

  /** Records a key the run has written (or is about to), so it is deleted at the end. */
  track(key: string): void {
    this.written.add(key);
  }

  presignPut(key: string, ttlSeconds: number): Promise<string> {
    this.track(key);
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: ttlSeconds,
    });
  }

  /** The stored object's size; `null` when there is none. */
  async sizeOf(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? null;
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
      throw error;
    }
  }

  /** Deletes the given keys now (and stops tracking them). */
  async delete(keys: readonly string[]): Promise<void> {
    await mapConcurrently(keys, DELETE_PARALLEL, async (key) => {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
      this.written.delete(key);
    });
  }

  /** Deletes every tracked key; one that will not go is reported, not thrown: the numbers are printed. */
  async deleteWritten(): Promise<void> {
    await this.delete([...this.written]).catch((error: unknown) => {
      process.stderr.write(`could not delete every object the bench wrote: ${String(error)}\n`);
    });
  }

  async close(): Promise<void> {
    await this.deleteWritten();
    this.unregister();
    this.client.destroy();
  }
}
