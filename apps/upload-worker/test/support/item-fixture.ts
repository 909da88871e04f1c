import { randomBytes, randomUUID } from 'node:crypto';
import { handleCommand, loadStream } from '@portal/commands';
import {
  noItemMetadata,
  planParts,
  portalObjectDecider,
  streamIdOf,
  type EventMetadata,
  type EventStore,
  type ItemAsset,
  type PortalObjectCommand,
  type ItemCommand,
  type PortalObjectState,
  type RecordedEvent,
  type UploadedPart,
  type UploadPlan,
} from '@portal/domain';
import { objectKeyOf, type ObjectStore } from '@portal/uploads';

export const MIB = 1024 ** 2;

/** The worker never checks access: test objects belong to no organization. */
const testAccess = { orgId: null, createdBy: null, visibility: 'public' } as const;

export interface TestItem {
  readonly id: string;
  readonly collectionId: string;
  readonly streamId: string;
  readonly plan: UploadPlan;
}

export interface StartUploadOptions {
  /** Bytes of the whole file; `null` for an upload of unknown size. */
  readonly size: number | null;
  readonly partSize?: number;
  readonly fileName?: string;
  readonly contentType?: string;
  readonly expiresAt?: string;
  readonly collectionId?: string;
}

/**
 * Drives an item's upload the way the API and a client do, through the real domain decider, the real
 * event store and presigned PUTs to the real object store; only HTTP is left out.
 */
export class ItemFixture {
  readonly correlationId = `test-${randomUUID()}`;

  constructor(
    private readonly eventStore: EventStore,
    private readonly objectStore: ObjectStore,
  ) {}

  metadata(requestId: string | null = null): EventMetadata {
    return {
      actorId: 'test-user',
      orgId: null,
      correlationId: this.correlationId,
      causationId: null,
      requestId,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    };
  }

  async createCollection(parentCatalogId: string | null = null): Promise<string> {
    const id = randomUUID();
    const parent =
      parentCatalogId === null
        ? null
        : ({
            found: true,
            id: parentCatalogId,
            kind: 'catalog',
            depth: 1,
            ancestorIds: [],
            deleted: false,
            orgId: null,
          } as const);
    await this.decideAndAppend(streamIdOf('collection', id), {
      type: 'CreateCollection',
      data: { id, title: `Collection ${id}`, description: 'test', links: [], parent, access: testAccess },
    });
    return id;
  }

  async createCatalog(): Promise<string> {
    const id = randomUUID();
    await this.decideAndAppend(streamIdOf('catalog', id), {
      type: 'CreateCatalog',
      data: {
        id,
        title: `Catalog ${id}`,
        description: 'test',
        links: [],
        parent: null,
        access: testAccess,
      },
    });
    return id;
  }

  async deleteObject(kind: 'catalog' | 'collection' | 'item', id: string, recursive = false): Promise<void> {
    await this.decideAndAppend(streamIdOf(kind, id), {
      type: 'DeletePortalObject',
      data: { id, recursive, hasChildren: recursive, ancestorDeleted: false },
    });
  }

  async startUpload(options: StartUploadOptions): Promise<TestItem> {
    const collectionId = options.collectionId ?? (await this.createCollection());
    const id = randomUUID();
    const fileName = options.fileName ?? 'scene.tif';
    const contentType = options.contentType ?? 'image/tiff';
    const key = objectKeyOf(id, fileName);
    const parts = planParts({
      ...(options.size === null ? {} : { size: options.size }),
      partSize: options.partSize ?? 5 * MIB,
    });
    const plan: UploadPlan = {
      uploadId: await this.objectStore.createMultipartUpload(key, contentType),
      bucket: this.objectStore.bucket,
      key,
      partSize: parts.partSize,
      partCount: parts.partCount,
      size: options.size,
      fileName,
      contentType,
      expiresAt: options.expiresAt ?? new Date(Date.now() + 3_600_000).toISOString(),
    };
    await this.decideAndAppend(streamIdOf('item', id), {
      type: 'CreateItem',
      data: {
        id,
        title: `Item ${id}`,
        description: null,
        links: [],
        metadata: noItemMetadata,
        upload: plan,
        stacId: null,
        parent: {
          found: true,
          id: collectionId,
          kind: 'collection',
          depth: 1,
          ancestorIds: [],
          deleted: false,
          orgId: null,
        },
        access: testAccess,
      },
    });
    return { id, collectionId, streamId: streamIdOf('item', id), plan };
  }

  /** PUTs a part to its presigned URL like a browser; answers the part's ETag header. */
  async uploadPart(item: TestItem, partNumber: number, body: Buffer): Promise<string> {
    const [presigned] = await this.objectStore.presignUploadParts(
      item.plan.key,
      item.plan.uploadId,
      [partNumber],
      300,
    );
    if (!presigned) throw new Error('no presigned URL');
    const response = await fetch(presigned.url, { method: 'PUT', body });
    if (response.status !== 200) throw new Error(`part ${partNumber} PUT answered ${response.status}`);
    return response.headers.get('etag') ?? '';
  }

  /** Uploads random bytes for each size, as parts 1, 2, …; answers the parts and the whole file. */
  async uploadParts(
    item: TestItem,
    sizes: readonly number[],
  ): Promise<{ parts: UploadedPart[]; file: Buffer }> {
    const bodies = sizes.map((size) => randomBytes(size));
    const parts: UploadedPart[] = [];
    for (const [index, body] of bodies.entries()) {
      parts.push({ partNumber: index + 1, etag: await this.uploadPart(item, index + 1, body) });
    }
    return { parts, file: Buffer.concat(bodies) };
  }

  /** What `POST …/upload/complete` records; answers the `UploadCompletionRequested` event. */
  async requestCompletion(
    item: TestItem,
    parts: readonly UploadedPart[] | null = null,
  ): Promise<RecordedEvent> {
    await this.decideAndAppend(
      item.streamId,
      {
        type: 'RequestUploadCompletion',
        data: { id: item.id, parts, ancestorDeleted: false, now: new Date().toISOString() },
      },
      'request-1',
    );
    const completion = (await this.events(item)).findLast(
      (event) => event.type === 'UploadCompletionRequested',
    );
    if (!completion) throw new Error('no completion was recorded');
    return completion;
  }

  events(item: TestItem): Promise<readonly RecordedEvent[]> {
    return this.eventStore.readStream(item.streamId);
  }

  async types(item: TestItem): Promise<string[]> {
    return (await this.events(item)).map((event) => event.type);
  }

  async status(item: TestItem): Promise<string> {
    const state = await this.state(item);
    if (state.status !== 'live' || state.kind !== 'item') return state.status;
    return state.uploadStatus;
  }

  async statusMessage(item: TestItem): Promise<string | null> {
    const state = await this.state(item);
    return state.status === 'live' && state.kind === 'item' ? state.statusMessage : null;
  }

  private async state(item: TestItem): Promise<PortalObjectState> {
    return (await loadStream(this.eventStore, item.streamId, portalObjectDecider)).state;
  }

  async attachedAssets(item: TestItem): Promise<ItemAsset[]> {
    return (await this.events(item))
      .filter((event) => event.type === 'AssetAttached')
      .map((event) => (event.data as { asset: ItemAsset }).asset);
  }

  private async decideAndAppend(
    streamId: string,
    command: PortalObjectCommand | ItemCommand,
    requestId: string | null = null,
  ): Promise<void> {
    await handleCommand(
      { store: this.eventStore, newId: randomUUID },
      { streamId, decider: portalObjectDecider, command, metadata: this.metadata(requestId) },
    );
  }
}
