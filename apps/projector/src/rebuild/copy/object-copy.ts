import type { PoolClient } from '@portal/platform';
import { quoteIdentifier } from '@portal/read-model-core';
import type { CopyValue } from './copy-text.js';
import type { FoldedObject } from './folded-object.js';
import { objectColumns } from './portal-tables.js';
import { copyRows } from './table-copy.js';

/** A row with a geometry or a bbox: the rows whose `footprint` PostGIS computes (`portal_footprint`). */
function placed(object: FoldedObject): boolean {
  return object.geometry !== null || object.bbox !== null;
}

/**
 * Writes the folded objects into `schema.portal_objects`, each row once. The footprint is PostGIS's
 * reading of the geometry, else of the bbox, the function the SQL path's inserts and metadata updates
 * call (catalogs and collections have neither). The rows without a place go first, in COPY's batched
 * inserts; the rows with one follow through a trigger that sets their footprint as each is inserted.
 * (Filling it by an UPDATE after the copy wrote every item row twice, and left the table with as many
 * dead rows, which every index build and ANALYZE then read.) The caller has set `search_path` to the
 * schema and `public`, where PostGIS is.
 */
export async function copyObjects(
  client: PoolClient,
  schema: string,
  objects: ReadonlyMap<string, FoldedObject>,
  valuesOf: (object: FoldedObject) => CopyValue[],
): Promise<void> {
  const target = { schema, table: 'portal_objects', columns: objectColumns };
  await copyRows(
    client,
    target,
    rowsOf(objects, (object) => !placed(object), valuesOf),
  );
  const table = `${quoteIdentifier(schema)}.portal_objects`;
  const setFootprint = `${quoteIdentifier(schema)}.copy_rebuild_footprint`;
  await client.query(
    `CREATE FUNCTION ${setFootprint}() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       NEW.footprint := portal_footprint(NEW.geometry, NEW.bbox);
       RETURN NEW;
     END
     $$`,
  );
  await client.query(
    `CREATE TRIGGER copy_rebuild_footprint BEFORE INSERT ON ${table}
       FOR EACH ROW EXECUTE FUNCTION ${setFootprint}()`,
  );
  await copyRows(client, target, rowsOf(objects, placed, valuesOf));
  await client.query(`DROP TRIGGER copy_rebuild_footprint ON ${table}`);
  await client.query(`DROP FUNCTION ${setFootprint}()`);
}

function* rowsOf(
  objects: ReadonlyMap<string, FoldedObject>,
  included: (object: FoldedObject) => boolean,
  valuesOf: (object: FoldedObject) => CopyValue[],
): Generator<CopyValue[]> {
  for (const object of objects.values()) if (included(object)) yield valuesOf(object);
}
