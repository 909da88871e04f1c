import {
  slugify,
  type AccessEvent,
  type AssetAttached,
  type ItemMetadata,
  type PortalObjectDeleted,
  type PortalObjectEvent,
  type PortalObjectMoved,
  type PortalObjectUpdated,
  type RecordedEvent,
} from '@portal/domain';
import {
  asPortalObjectEvent,
  endingStatuses,
  statusChangeOf,
  type StatusEvent,
  itemColumns,
  newObjectRow,
  siblingGroupOf,
  type CreateEvent,
} from '@portal/read-model-portal-objects';
import { inherit, rootAccess } from './access-fold.js';
import { extentOf, noExtent, widened, type Box } from './extent-fold.js';
import {
  addChild,
  inExtent,
  isLive,
  noChildren,
  noElements,
  removeChild,
  type FoldedObject,
  type FoldedUpload,
} from './folded-object.js';
import { SiblingSlugs } from './sibling-slugs.js';
import { parseStamp, type Stamp } from './timestamps.js';
import { UnfoldableHistoryError } from './unfoldable.js';

/** An asset row, written as it arrives (it never changes). */
export interface FoldedAsset {
  readonly id: string;
  readonly itemId: string;
  readonly bucket: string;
  readonly key: string;
  readonly sizeBytes: number;
  readonly etag: string;
  readonly contentType: string | null;
  readonly fileName: string | null;
  readonly createdAt: string;
}

/**
 * The portal-objects read model folded in memory: `portal_objects`, `uploads`, `assets` as applying
 * each event's statements (handlers.ts, move-statement.ts, delete-statement.ts, access-handlers.ts,
 * item-handlers.ts) one after the other would leave them, version guards included. Whatever those
 * statements would refuse (a row they would not find) is not guessed: it throws `UnfoldableHistoryError`.
 */
export class PortalFold {
  readonly objects = new Map<string, FoldedObject>();
  readonly uploads = new Map<string, FoldedUpload>();
  readonly assets = new Map<string, FoldedAsset>();
  private readonly slugs = new SiblingSlugs();

  /** Folds one event; `false` when this read model does not follow its type. */
  apply(recorded: RecordedEvent): boolean {
    const event = asPortalObjectEvent(recorded);
    if (!event) return false;
    this.applyEvent(event, recorded);
    return true;
  }

  private applyEvent(event: PortalObjectEvent, recorded: RecordedEvent): void {
    switch (event.type) {
      case 'CatalogCreated':
      case 'CollectionCreated':
      case 'ItemUploadStarted':
      case 'ItemRegistered': {
        this.created(event, recorded);
        return;
      }
      case 'PortalObjectUpdated': {
        this.updated(event, recorded);
        return;
      }
      case 'PortalObjectMoved': {
        this.moved(event, recorded);
        return;
      }
      case 'PortalObjectDeleted': {
        this.deleted(event, recorded);
        return;
      }
      case 'VisibilityChanged':
      case 'ObjectShared':
      case 'ObjectUnshared': {
        this.accessChanged(event, recorded);
        return;
      }
      case 'AssetAttached': {
        this.assetAttached(event, recorded);
        return;
      }
      case 'UploadCompletionRequested':
      case 'UploadFailed':
      case 'UploadAborted':
      case 'UploadExpired':
      case 'UploadCompleted': {
        this.statusChanged(event, recorded);
        return;
      }
      default:
        throw new UnfoldableHistoryError(recorded.id, `unknown portal object event`);
    }
  }

  private find(recorded: RecordedEvent, id: string, what = 'object'): FoldedObject {
    const object = this.objects.get(id);
    if (!object) throw new UnfoldableHistoryError(recorded.id, `${what} ${id} is not in the read model`);
    return object;
  }

  /** A parent, or any ancestor, is a tombstone (`under_tombstone` of placed-insert.ts, `buried` of a move). */
  private underTombstone(parent: FoldedObject): boolean {
    for (let row: FoldedObject | undefined = parent; row; row = this.parentOf(row)) {
      if (!isLive(row)) return true;
    }
    return false;
  }

  private parentOf(object: FoldedObject): FoldedObject | undefined {
    return object.parent ?? undefined;
  }

  /**
   * The row's `ancestor_ids` as they stand: the ids along its parents from the root level down. The SQL
   * statements keep the column so (a create appends its parent's path, a move rewrites its subtree's),
   * so the fold derives it from the parents when it is read, and writes it once at the end (`finish`).
   */
  pathOf(object: FoldedObject): string[] {
    const path: string[] = [];
    for (let row = this.parentOf(object); row; row = this.parentOf(row)) path.push(row.id);
    return path.reverse();
  }

  /**
   * Fills what the fold leaves to the end: each row's path and depth, and what it inherits (effective
   * visibility, share readers and editors, read principals). Both are functions of the tree as it ends
   * and of each row's own facts: every statement that changes a path or an own fact recomputes them for
   * the whole subtree it touches (moves, access changes), and a create copies its parent's, so computing
   * them once, parents first, gives the values the statements left.
   */
  finish(): void {
    const pending: FoldedObject[] = [];
    for (const object of this.objects.values()) {
      if (object.parentId !== null) continue;
      object.ancestorIds = noElements;
      object.depth = 1;
      inherit(object, rootAccess);
      pending.push(object);
    }
    for (let parent = pending.pop(); parent; parent = pending.pop()) {
      const path = [...parent.ancestorIds, parent.id];
      for (const childId of parent.children) {
        const child = this.objects.get(childId);
        if (!child) continue;
        child.ancestorIds = path;
        child.depth = parent.depth + 1;
        inherit(child, parent);
        pending.push(child);
      }
    }
  }

  private stamp(recorded: RecordedEvent, text: string | null | undefined): Stamp | null {
    if (text === null || text === undefined) return null;
    const stamp = parseStamp(text);
    if (!stamp) throw new UnfoldableHistoryError(recorded.id, `timestamp ${text} is not read exactly here`);
    return stamp;
  }

  private box(recorded: RecordedEvent, bbox: readonly number[] | null): Box | null {
    if (bbox === null) return null;
    if (bbox.length !== 4 || !bbox.every((value) => typeof value === 'number' && Number.isFinite(value))) {
      throw new UnfoldableHistoryError(recorded.id, 'a bbox that is not four numbers');
    }
    return [bbox[0], bbox[1], bbox[2], bbox[3]] as Box;
  }

  /** The metadata columns of an item, as `itemColumns` gives them to the SQL path. */
  private metadataColumns(recorded: RecordedEvent, metadata: ItemMetadata) {
    const columns = itemColumns(metadata);
    return {
      tags: columns.tags,
      bbox: this.box(recorded, columns.bbox),
      geometry: columns.geometry,
      datetime: this.stamp(recorded, columns.datetime),
      startDatetime: this.stamp(recorded, columns.startDatetime),
      endDatetime: this.stamp(recorded, columns.endDatetime),
      properties: columns.properties,
    };
  }

  private created(event: CreateEvent, recorded: RecordedEvent): void {
    const row = newObjectRow(event, recorded);
    const parent = row.parentId === null ? null : this.find(recorded, row.parentId, 'parent');
    // A replayed create finds its row and changes nothing.
    if (this.objects.has(row.id)) return;
    const buried = parent !== null && this.underTombstone(parent);
    const group = siblingGroupOf(row.parentId, row.orgId);
    const plain = slugify(row.title);
    // Below a tombstone the row is born one, outside the live siblings' slug index: the plain slug.
    const slug =
      buried || this.slugs.holder(group, plain, row.id) === null
        ? plain
        : this.slugs.assign(group, plain, row.id, null);
    const item = event.type === 'ItemUploadStarted' || event.type === 'ItemRegistered';
    const metadata = item ? this.metadataColumns(recorded, event.data.metadata) : null;
    const object: FoldedObject = {
      id: row.id,
      kind: row.kind,
      status: row.status,
      title: row.title,
      description: row.description,
      parentId: row.parentId,
      parent,
      orgId: row.orgId,
      slug,
      // Set once the history is folded (`finish`), as are the inherited access columns below.
      ancestorIds: noElements,
      depth: 0,
      childCount: 0,
      links: row.links,
      license: row.license,
      keywords: row.keywords,
      extent: row.extent,
      bbox: metadata?.bbox ?? null,
      tags: metadata?.tags ?? '[]',
      version: recorded.revision,
      createdAt: row.occurredAt,
      updatedAt: row.occurredAt,
      deletedAt: buried ? row.occurredAt : null,
      statusMessage: null,
      geometry: metadata?.geometry ?? null,
      datetime: metadata?.datetime ?? null,
      startDatetime: metadata?.startDatetime ?? null,
      endDatetime: metadata?.endDatetime ?? null,
      properties: metadata?.properties ?? null,
      hrefAssets: row.hrefAssets ?? '[]',
      stacId: row.stacId,
      itemsExtent: noExtent,
      assetBytes: 0,
      visibility: row.visibility,
      effectiveVisibility: row.visibility,
      createdBy: row.createdBy,
      shares: noElements,
      shareReaders: noElements,
      shareEditors: noElements,
      readPrincipals: noElements,
      children: noChildren,
    };
    this.objects.set(object.id, object);
    if (parent !== null) addChild(parent, object.id);
    if (!buried) {
      this.slugs.take(object);
      if (parent !== null) parent.childCount += 1;
    }
    if (row.upload !== null) {
      const { upload } = row;
      this.uploads.set(object.id, {
        itemId: object.id,
        uploadId: upload.uploadId,
        bucket: upload.bucket,
        key: upload.key,
        partSize: upload.partSize,
        partCount: upload.partCount,
        sizeBytes: upload.size,
        fileName: upload.fileName,
        contentType: upload.contentType,
        status: 'uploading',
        statusMessage: null,
        expiresAt: upload.expiresAt,
        completionRequestedAt: null,
        endedAt: null,
        version: recorded.revision,
        createdAt: row.occurredAt,
        updatedAt: row.occurredAt,
      });
    }
    // A registered item widens its live parent's extent, as a completed upload does.
    if (event.type === 'ItemRegistered' && !buried && parent !== null) this.widenParent(object);
  }

  /** `unionIntoParentSql`: the live parent's extent widened by the item. */
  private widenParent(item: FoldedObject): void {
    const parent = item.parentId === null ? undefined : this.objects.get(item.parentId);
    if (!parent || !isLive(parent)) return;
    parent.itemsExtent = widened(parent.itemsExtent, item);
  }

  /** The extent of the ready, live items directly below `parent`, leaving `leftOut` out. */
  private itemsExtentWithout(parent: FoldedObject, leftOut: string | null): FoldedObject['itemsExtent'] {
    const items: FoldedObject[] = [];
    for (const childId of parent.children) {
      const child = this.objects.get(childId);
      if (child && child.id !== leftOut && inExtent(child)) items.push(child);
    }
    return extentOf(items);
  }

  private updated(event: PortalObjectUpdated, recorded: RecordedEvent): void {
    const row = this.find(recorded, event.data.id, event.data.kind);
    if (row.version >= recorded.revision) return;
    const { changes } = event.data;
    row.version = recorded.revision;
    row.updatedAt = recorded.metadata.occurredAt;
    if (changes.title !== undefined) {
      row.title = changes.title;
      const group = siblingGroupOf(row.parentId, row.orgId);
      const slug = this.slugs.assign(group, slugify(changes.title), row.id, row.slug);
      if (isLive(row)) this.slugs.release(row);
      row.slug = slug;
      if (isLive(row)) this.slugs.take(row);
    }
    if (changes.description !== undefined) row.description = changes.description;
    if (changes.links !== undefined) row.links = JSON.stringify(changes.links);
    if (changes.license !== undefined) row.license = changes.license;
    if (changes.keywords !== undefined) row.keywords = JSON.stringify(changes.keywords);
    if (changes.extent !== undefined) row.extent = changes.extent && JSON.stringify(changes.extent);
    if (changes.assets !== undefined) row.hrefAssets = JSON.stringify(changes.assets);
    if (changes.metadata !== undefined) {
      Object.assign(row, this.metadataColumns(recorded, changes.metadata));
      // recomputeParentExtent: a ready, live item's live parent gets its extent from its items again.
      if (inExtent(row) && row.parentId !== null) {
        const parent = this.objects.get(row.parentId);
        if (parent && isLive(parent)) parent.itemsExtent = this.itemsExtentWithout(parent, null);
      }
    }
  }

  /** Every row of the subtree below `top` (not `top` itself), parents before children. */
  private descendants(top: FoldedObject): FoldedObject[] {
    const found: FoldedObject[] = [];
    const stack = [...top.children];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      const object = this.objects.get(id);
      if (!object) continue;
      found.push(object);
      for (const child of object.children) stack.push(child);
    }
    return found;
  }

  private moved(event: PortalObjectMoved, recorded: RecordedEvent): void {
    const { id, toParentId } = event.data;
    const at = recorded.metadata.occurredAt;
    const target = this.find(recorded, id, event.data.kind);
    if (target.version >= recorded.revision) return;
    const destination = toParentId === null ? null : this.find(recorded, toParentId, 'parent');
    if (destination !== null && (destination === target || this.pathOf(destination).includes(target.id))) {
      throw new UnfoldableHistoryError(recorded.id, `a move of ${id} below itself`);
    }
    const buried = destination !== null && this.underTombstone(destination);
    const wasDeleted = !isLive(target);
    const itemInExtent = inExtent(target);
    const newGroup = siblingGroupOf(toParentId, target.orgId);
    // The current slug when no live sibling there holds it, else the first free candidate of the title.
    const newSlug =
      buried || this.slugs.holder(newGroup, target.slug, target.id) === null
        ? target.slug
        : this.slugs.assign(newGroup, slugify(target.title), target.id, target.slug);
    const oldParent = this.parentOf(target);
    if (!wasDeleted) this.slugs.release(target);
    // Below a tombstone the subtree is buried, as the tombstone's delete would have done.
    if (buried) {
      for (const row of this.descendants(target)) {
        if (isLive(row)) this.slugs.release(row);
        row.deletedAt ??= at;
        row.childCount = 0;
      }
    }
    if (oldParent !== undefined) removeChild(oldParent, target.id);
    if (destination !== null) addChild(destination, target.id);
    target.parentId = toParentId;
    target.parent = destination;
    target.slug = newSlug;
    target.version = recorded.revision;
    target.updatedAt = at;
    if (buried) {
      target.deletedAt ??= at;
      target.childCount = 0;
    } else if (!wasDeleted) {
      this.slugs.take(target);
    }
    // The old and the new parent (one row when the same), as they stood before the move.
    if (wasDeleted) return;
    const leaving = oldParent !== undefined && isLive(oldParent) ? oldParent : null;
    const arriving = !buried && destination !== null && isLive(destination) ? destination : null;
    if (leaving) {
      leaving.childCount -= 1;
      if (itemInExtent) leaving.itemsExtent = this.itemsExtentWithout(leaving, target.id);
    }
    if (arriving) {
      arriving.childCount += 1;
      if (itemInExtent) arriving.itemsExtent = widened(arriving.itemsExtent, target);
    }
  }

  private deleted(event: PortalObjectDeleted, recorded: RecordedEvent): void {
    const at = recorded.metadata.occurredAt;
    const target = this.find(recorded, event.data.id, event.data.kind);
    if (target.version >= recorded.revision) return;
    const wasDeleted = !isLive(target);
    const itemInExtent = inExtent(target);
    const hadChildren = target.childCount > 0;
    if (!wasDeleted) this.slugs.release(target);
    target.deletedAt ??= at;
    target.childCount = 0;
    target.version = recorded.revision;
    target.updatedAt = at;
    if (hadChildren) {
      for (const row of this.descendants(target)) {
        if (!isLive(row)) continue;
        this.slugs.release(row);
        row.deletedAt = at;
        row.childCount = 0;
      }
    }
    const parent = target.parentId === null ? undefined : this.objects.get(target.parentId);
    if (wasDeleted || !parent || !isLive(parent)) return;
    parent.childCount -= 1;
    if (itemInExtent) parent.itemsExtent = this.itemsExtentWithout(parent, target.id);
  }

  private accessChanged(event: AccessEvent, recorded: RecordedEvent): void {
    const target = this.find(recorded, event.data.id, event.data.kind);
    if (target.version >= recorded.revision) return;
    switch (event.type) {
      case 'VisibilityChanged':
        target.visibility = event.data.to;
        break;
      case 'ObjectShared': {
        const { principal, permission } = event.data;
        const share = { type: principal.type, id: principal.id, permission };
        const same = (s: { type: string; id: string }) => s.type === principal.type && s.id === principal.id;
        target.shares = target.shares.some(same)
          ? target.shares.map((s) => (same(s) ? share : s))
          : [...target.shares, share];
        break;
      }
      case 'ObjectUnshared': {
        const { principal } = event.data;
        target.shares = target.shares.filter((s) => !(s.type === principal.type && s.id === principal.id));
        break;
      }
    }
    target.version = recorded.revision;
    target.updatedAt = recorded.metadata.occurredAt;
  }

  private knownUpload(recorded: RecordedEvent, itemId: string): FoldedUpload {
    const upload = this.uploads.get(itemId);
    if (!upload)
      throw new UnfoldableHistoryError(recorded.id, `item ${itemId} has no upload in the read model`);
    return upload;
  }

  private statusChanged(event: StatusEvent, recorded: RecordedEvent): void {
    const at = recorded.metadata.occurredAt;
    const change = statusChangeOf(event);
    const upload = this.knownUpload(recorded, event.data.id);
    const message = (current: string | null): string | null =>
      change.statusMessage === undefined ? current : change.statusMessage;
    if (upload.version < recorded.revision) {
      upload.status = change.status;
      upload.statusMessage = message(upload.statusMessage);
      upload.version = recorded.revision;
      upload.updatedAt = at;
      if (change.status === 'processing') upload.completionRequestedAt = at;
      if (endingStatuses.has(change.status)) upload.endedAt = at;
    }
    const item = this.objects.get(event.data.id);
    if (!item || item.version >= recorded.revision || !isLive(item)) return;
    item.status = change.status;
    item.statusMessage = message(item.statusMessage);
    item.version = recorded.revision;
    item.updatedAt = at;
    if (change.status === 'ready') this.widenParent(item);
  }

  private assetAttached(event: AssetAttached, recorded: RecordedEvent): void {
    const { id, asset } = event.data;
    const at = recorded.metadata.occurredAt;
    this.knownUpload(recorded, id);
    if (!this.assets.has(asset.id)) {
      this.assets.set(asset.id, {
        id: asset.id,
        itemId: id,
        bucket: asset.bucket,
        key: asset.key,
        sizeBytes: asset.size,
        etag: asset.etag,
        contentType: asset.contentType,
        fileName: asset.fileName,
        createdAt: at,
      });
    }
    const item = this.objects.get(id);
    if (!item || item.version >= recorded.revision || !isLive(item)) return;
    item.version = recorded.revision;
    item.updatedAt = at;
    item.assetBytes += asset.size;
  }
}
