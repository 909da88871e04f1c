import type {
  AssetAttached,
  PortalObjectDeleted,
  PortalObjectMoved,
  PortalObjectUpdated,
  RecordedEvent,
} from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { asPortalObjectEvent } from './events.js';
import { createdInsert } from './handlers.js';
import { endingStatuses, registeredInsert, statusChangeOf, uploadStartedInsert } from './item-handlers.js';
import { newObjectRow, type NewObjectRow } from './new-object-row.js';
import type { PlacedInsertStatements } from './placed-insert.js';
import { insertCreatesRun, widenExtentsByRegistered } from './run-creates.js';
import { attachRunAssets, changeRunStatuses, type RunStatusChange } from './run-items.js';
import { applyLeafDeletesInRun } from './run-deletes.js';
import { applyLeafMovesInRun } from './run-moves.js';
import { applyRenamesInRun } from './run-renames.js';
import { recomputeExtentsOfUpdated, updateRunObjects } from './run-updates.js';

/**
 * A run of portal object events (see run-footprint.ts and batch-footprints.ts for what a run may hold),
 * one statement per kind of change. They touch different rows, or the same parent row in ways that
 * commute (a child count, an extent widened by min and max, or recomputed from the parent's ready
 * items), so their order does not matter. The renames, and the moves and deletes of objects with
 * nothing below them, are one statement each for the run too (run-renames.ts, run-moves.ts,
 * run-deletes.ts).
 */
export async function applyPortalObjectRun(sql: Sql, events: readonly RecordedEvent[]): Promise<void> {
  const creates: { row: NewObjectRow; statements: PlacedInsertStatements }[] = [];
  const registered: NewObjectRow[] = [];
  const updates: [PortalObjectUpdated, RecordedEvent][] = [];
  const statuses: RunStatusChange[] = [];
  const assets: [AssetAttached, RecordedEvent][] = [];
  const renames: [PortalObjectUpdated, RecordedEvent][] = [];
  const moves: [PortalObjectMoved, RecordedEvent][] = [];
  const deletes: [PortalObjectDeleted, RecordedEvent][] = [];
  for (const recorded of events) {
    const event = asPortalObjectEvent(recorded);
    if (!event) continue;
    switch (event.type) {
      case 'CatalogCreated':
      case 'CollectionCreated':
        creates.push({ row: newObjectRow(event, recorded), statements: createdInsert });
        break;
      case 'ItemUploadStarted':
        creates.push({ row: newObjectRow(event, recorded), statements: uploadStartedInsert });
        break;
      case 'ItemRegistered': {
        const row = newObjectRow(event, recorded);
        creates.push({ row, statements: registeredInsert });
        registered.push(row);
        break;
      }
      case 'PortalObjectUpdated':
        if (event.data.changes.title === undefined) updates.push([event, recorded]);
        else renames.push([event, recorded]);
        break;
      case 'UploadCompletionRequested':
      case 'UploadCompleted':
      case 'UploadFailed':
      case 'UploadAborted':
      case 'UploadExpired': {
        const change = statusChangeOf(event);
        statuses.push({ itemId: event.data.id, recorded, change, ending: endingStatuses.has(change.status) });
        break;
      }
      case 'AssetAttached':
        assets.push([event, recorded]);
        break;
      case 'PortalObjectMoved':
        moves.push([event, recorded]);
        break;
      case 'PortalObjectDeleted':
        deletes.push([event, recorded]);
        break;
      case 'VisibilityChanged':
      case 'ObjectShared':
      case 'ObjectUnshared':
        throw new Error(`${event.type} cannot be applied in a run`);
      default:
        return exhausted(event);
    }
  }
  await insertCreatesRun(sql, creates);
  await widenExtentsByRegistered(sql, registered);
  const metadataChanged = await updateRunObjects(sql, updates);
  await changeRunStatuses(sql, statuses);
  await attachRunAssets(sql, assets);
  // Last: over the parents' ready items as the run leaves them (see run-footprint.ts).
  await recomputeExtentsOfUpdated(sql, metadataChanged);
  await applyRenamesInRun(sql, renames);
  await applyLeafMovesInRun(sql, moves);
  await applyLeafDeletesInRun(sql, deletes);
}

function exhausted(event: never): never {
  throw new Error(`unhandled portal object event ${JSON.stringify(event)}`);
}
