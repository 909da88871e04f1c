import { getHeapStatistics } from 'node:v8';
import { START, type EventStore, type Position } from '@portal/domain';
import { inTransaction, withClient, type Logger, type Pool, type PoolClient } from '@portal/platform';
import type { Projection, ReadModel } from '@portal/read-model-core';
import { auditReadModel } from '@portal/read-model-audit';
import { identityReadModel } from '@portal/read-model-identity';
import { inventoryTotalsReadModel } from '@portal/read-model-inventory-totals';
import { portalObjectsReadModel } from '@portal/read-model-portal-objects';
import { quoteIdentifier } from '@portal/read-model-core';
import { replayUntil } from '../replay.js';
import { auditColumns, auditRow } from './audit-fold.js';
import type { CopyValue } from './copy-text.js';
import { FoldProgress } from './fold-progress.js';
import { IdentityFold } from './identity-fold.js';
import { PortalFold } from './portal-fold.js';
import { copyObjects } from './object-copy.js';
import { assetColumns, assetValues, objectValues, uploadColumns, uploadValues } from './portal-tables.js';
import { foldedStacItems } from './stac-item-fold.js';
import { copyRows } from './table-copy.js';
import { UnfoldableHistoryError } from './unfoldable.js';

/**
 * The read models the fold reproduces, all of them: a projection with any other (or without one of
 * these, whose tables would be missing) replays in batches.
 */
const foldedReadModels: readonly ReadModel[] = [
  portalObjectsReadModel,
  inventoryTotalsReadModel,
  identityReadModel,
  auditReadModel,
];

/** Whether `projection` is the one the fold reproduces (the portal's: its read models and no other). */
export function foldsProjection(projection: Projection): boolean {
  return (
    projection.readModels.length === foldedReadModels.length &&
    foldedReadModels.every((readModel) => projection.readModels.includes(readModel))
  );
}

/**
 * What one folded object takes in memory, with its share of the uploads, assets and identity rows,
 * rounded up (1.5–2 KB measured with the bench's objects; docs/projection.md, "Copy rebuilds").
 */
const bytesPerObject = 2560;

/**
 * The objects this process can fold: those that fit in 60 % of V8's heap at `bytesPerObject` (the rest
 * is left to the pages being read and the audit rows being copied). A larger history replays in batches.
 */
export function foldableObjects(): number {
  return Math.floor((getHeapStatistics().heap_size_limit * 0.6) / bytesPerObject);
}

/** Events read per page of the event store while folding. */
export const COPY_REPLAY_PAGE_SIZE = 10_000;

export interface CopyReplayOptions {
  readonly pool: Pool;
  readonly store: EventStore;
  /** The fresh (lean) schema to fill; its tables are empty. */
  readonly schema: string;
  /** The projection whose checkpoint row is moved to the last folded event. */
  readonly projectionName: string;
  readonly until: Position;
  /** Events the operator skipped: passed over, as the SQL path passes them over. */
  readonly passOver?: ReadonlySet<string>;
  readonly pageSize?: number;
  /** The most objects to fold before giving up to the SQL path; `foldableObjects()` by default. */
  readonly objectLimit?: number;
  readonly log: Logger;
  /** Told after each folded page. */
  readonly onPage?: (events: number, position: Position) => void;
}

export interface CopyReplayResult {
  readonly position: Position;
  readonly events: number;
  /** Where the time went: folding (with the audit rows copied as they come), then the other tables. */
  readonly phasesMs: { readonly fold: number; readonly write: number };
  /**
   * The projector indexes of `portal_objects` (all but its keys), dropped before its COPY: the caller
   * builds them with the reader indexes, side by side (`applyReaderDdl`), before anything else writes.
   */
  readonly indexesToBuild: readonly string[];
}

/**
 * Folds every event up to `until` in memory and writes each table of the fresh schema once, by COPY:
 * the audit rows page by page as they are made (they never change), the rest (objects, uploads,
 * assets, identity) once the head is reached, each item's footprint (PostGIS) as it is inserted, then
 * the checkpoint.
 * `portal_objects` is left without its projector indexes, for the caller to build (`indexesToBuild`).
 * Throws `UnfoldableHistoryError` for an event the fold cannot reproduce; the schema is then partly
 * filled and must be dropped.
 */
export async function copyReplay(options: CopyReplayOptions): Promise<CopyReplayResult> {
  const { pool, schema, log } = options;
  const portal = new PortalFold();
  const identity = new IdentityFold();
  const progress = new FoldProgress(log, options.until);
  const objectLimit = options.objectLimit ?? foldableObjects();
  const startedAt = performance.now();
  const replayed = await withClient(pool, async (client) => {
    // The audit rows of a page go out while the next page is folded; one COPY at a time on this client.
    let writing: Promise<unknown> = Promise.resolve();
    const audit: { failure: Error | null } = { failure: null };
    let events = 0;
    // A fold that gives up leaves no COPY running on the client it hands back to the pool.
    const settled = async <T>(work: Promise<T>): Promise<T> => {
      try {
        return await work;
      } finally {
        await writing;
      }
    };
    const result = await settled(
      replayUntil(
        options.store,
        {
          after: START,
          until: options.until,
          batchSize: options.pageSize ?? COPY_REPLAY_PAGE_SIZE,
          // The audit rows' data and metadata are passed through as stored, not parsed and printed again.
          keepStoredJson: true,
        },
        async (batch) => {
          const rows: CopyValue[][] = [];
          for (const recorded of batch) {
            if (options.passOver?.has(recorded.id) === true) continue;
            portal.apply(recorded);
            identity.apply(recorded);
            const row = auditRow(recorded, portal.objects, (object) => portal.pathOf(object));
            if (row) rows.push(row);
          }
          await writing;
          if (audit.failure !== null) throw audit.failure;
          writing = copyRows(client, { schema, table: 'audit_events', columns: auditColumns }, rows).catch(
            (error: unknown) => {
              audit.failure = error instanceof Error ? error : new Error(String(error));
            },
          );
          if (portal.objects.size > objectLimit) {
            throw new UnfoldableHistoryError(
              (batch.at(-1) as (typeof batch)[number]).id,
              `more than ${objectLimit} objects do not fit in this process's heap`,
            );
          }
          events += batch.length;
          const position = (batch.at(-1) as (typeof batch)[number]).position;
          progress.paged(events, position);
          options.onPage?.(events, position);
          return position;
        },
      ),
    );
    if (audit.failure !== null) throw audit.failure;
    return result;
  });
  portal.finish();
  const foldedAt = performance.now();
  log.info(
    { events: replayed.events, objects: portal.objects.size },
    'rebuild: history folded; copying the tables',
  );
  const indexesToBuild = await inTransaction(pool, async (client) => {
    const into = (table: string, columns: readonly string[]) => ({ schema, table, columns });
    // Its indexes (but the primary key) are built after the copy: one sort each, not a GIN insertion per row.
    const indexes = await withoutIndexes(client, schema, 'portal_objects');
    const stacItemOf = foldedStacItems(portal.objects, portal.assets.values());
    await client.query(`SET LOCAL search_path TO ${quoteIdentifier(schema)}, public`);
    await copyObjects(client, schema, portal.objects, (object) => objectValues(object, stacItemOf(object)));
    await copyRows(client, into('uploads', uploadColumns), mapped(portal.uploads.values(), uploadValues));
    await copyRows(client, into('assets', assetColumns), mapped(portal.assets.values(), assetValues));
    for (const { table, columns, rows } of identity.tables())
      await copyRows(client, into(table, columns), rows);
    await client.query(
      `UPDATE projection_checkpoints SET commit_position = $2, prepare_position = $3, updated_at = now()
        WHERE name = $1`,
      [options.projectionName, replayed.position.commit.toString(), replayed.position.prepare.toString()],
    );
    return indexes;
  });
  const writtenAt = performance.now();
  return {
    position: replayed.position,
    events: replayed.events,
    phasesMs: { fold: Math.round(foldedAt - startedAt), write: Math.round(writtenAt - foldedAt) },
    indexesToBuild,
  };
}

/**
 * Drops the indexes of `schema.table` that back no constraint and returns the statements that make
 * them again, exactly (`pg_get_indexdef`), so a table filled at once gets each built by one sort.
 */
async function withoutIndexes(client: PoolClient, schema: string, table: string): Promise<string[]> {
  const found = await client.query<{ name: string; definition: string }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = $1 AND t.relname = $2
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      ORDER BY c.relname`,
    [schema, table],
  );
  for (const { name } of found.rows) {
    await client.query(`DROP INDEX ${quoteIdentifier(schema)}.${quoteIdentifier(name)}`);
  }
  return found.rows.map((row) => row.definition);
}

function* mapped<T>(rows: Iterable<T>, values: (row: T) => CopyValue[]): Generator<CopyValue[]> {
  for (const row of rows) yield values(row);
}
