import { settleCommandAt } from '../../test/support/command-answer.js';

/** What `POST /api/v1/portal/items/create` answers: where to PUT each part. */
export interface UploadDescriptor {
  readonly portalItemId: string;
  readonly key: string;
  readonly bucket: string;
  readonly uploadId: string;
  readonly partSize: number;
  readonly partUrls: readonly { readonly partNumber: number; readonly url: string }[];
}

export interface ItemRecord {
  readonly status: string;
  readonly statusMessage?: string | null;
  readonly assets: readonly { readonly key: string; readonly size?: number }[];
}

export interface ReadyObservation {
  readonly item: ItemRecord;
  /** `performance.now()` when the GET answer that showed `ready` had been read. */
  readonly readyAt: number;
  /** GETs it took, the one that showed `ready` included. */
  readonly polls: number;
  /** Request to answer of each of those GETs, in ms. */
  readonly pollMs: readonly number[];
}

export interface UploadedPart {
  readonly partNumber: number;
  readonly etag: string;
}

/** The HTTP calls a client of the service makes to upload a file; node's fetch, keep-alive, loopback. */
export class PortalClient {
  constructor(
    private readonly baseUrl: string,
    /** The pipeline's credential (test/support/pipeline-key.ts). */
    private readonly credential: Record<string, string>,
  ) {}

  async createCollection(title: string): Promise<string> {
    const answer = await this.call('POST', '/api/v1/portal/collections/create', {
      title,
      description: 'Items of the uploads benchmark',
      links: [],
    });
    await settleCommandAt(this.baseUrl, answer, 201, 'create collection');
    const body = answer.body as { portalItemId?: string };
    if (typeof body.portalItemId !== 'string') {
      throw new Error(`create collection answered no id: ${JSON.stringify(body)}`);
    }
    return body.portalItemId;
  }

  /** A 202 (projection slower than the API waits) is waited out: the bench then polls the item. */
  async createItem(fields: Record<string, unknown>): Promise<UploadDescriptor> {
    const answer = await this.call('POST', '/api/v1/portal/items/create', { links: [], ...fields });
    await settleCommandAt(this.baseUrl, answer, 201, 'create item');
    return answer.body as UploadDescriptor;
  }

  /** Asks for completion with the parts the client uploaded; the API answers 202 and the worker takes over. */
  async complete(itemId: string, parts: readonly UploadedPart[]): Promise<void> {
    const { status, body } = await this.call('POST', `/api/v1/portal/items/${itemId}/upload/complete`, {
      parts,
    });
    if (status !== 202) throw new Error(`complete answered ${status} ${JSON.stringify(body)}`);
  }

  /**
   * GETs the item (no `X-Min-Position`: what any reader sees) every `pauseMs` after the previous answer,
   * until it reads `ready`. `failed` or the deadline throws.
   */
  async waitForReady(itemId: string, pauseMs: number, timeoutMs: number): Promise<ReadyObservation> {
    const deadline = performance.now() + timeoutMs;
    const pollMs: number[] = [];
    for (;;) {
      const sentAt = performance.now();
      const answer = await this.call('GET', `/api/v1/portal/items/${itemId}`);
      const { status } = answer;
      const body = answer.body as ItemRecord;
      const answeredAt = performance.now();
      pollMs.push(answeredAt - sentAt);
      if (status !== 200) throw new Error(`GET item answered ${status} ${JSON.stringify(body)}`);
      if (body.status === 'ready') {
        return { item: body, readyAt: answeredAt, polls: pollMs.length, pollMs };
      }
      if (body.status === 'failed') {
        throw new Error(`item ${itemId} failed: ${body.statusMessage ?? 'no message'}`);
      }
      if (answeredAt > deadline) throw new Error(`item ${itemId} still ${body.status} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }

  /** The answer's JSON as parsed, unchecked: the callers know what they asked for. */
  private async call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; headers: Headers; body: unknown }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { accept: 'application/json', 'content-type': 'application/json', ...this.credential },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? (JSON.parse(text) as unknown) : {},
    };
  }
}
