import type { Pool } from '@portal/platform';
import { accessInconsistencies } from './access-consistency.js';

interface TreeRow {
  id: string;
  kind: string;
  status: string;
  parent_id: string | null;
  ancestor_ids: string[];
  depth: number;
  child_count: number;
  deleted: boolean;
  bbox: number[] | null;
  datetime: Date | null;
  start_datetime: Date | null;
  end_datetime: Date | null;
  items_bbox: number[] | null;
  items_start: Date | null;
  items_end: Date | null;
}

interface Extent {
  bbox: number[] | null;
  start: number | null;
  end: number | null;
}

const minOf = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.min(a, b);
const maxOf = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.max(a, b);
const time = (date: Date | null): number | null => date?.getTime() ?? null;

/** An item's share of its parent's extent, computed here independently of the projector's SQL. */
function itemExtent(item: TreeRow): Extent {
  const [west, south, east, north] = item.bbox ?? [];
  const box =
    west === undefined || south === undefined || east === undefined || north === undefined
      ? null
      : west > east
        ? [-180, south, 180, north]
        : [west, south, east, north];
  return {
    bbox: box,
    start: time(item.datetime ?? item.start_datetime),
    end: time(item.datetime ?? item.end_datetime),
  };
}

function union(a: Extent, b: Extent): Extent {
  const bbox =
    a.bbox && b.bbox
      ? a.bbox.map((value, i) =>
          i < 2 ? Math.min(value, b.bbox?.[i] ?? value) : Math.max(value, b.bbox?.[i] ?? value),
        )
      : (a.bbox ?? b.bbox);
  return { bbox, start: minOf(a.start, b.start), end: maxOf(a.end, b.end) };
}

/**
 * What the projector keeps incrementally, recounted from scratch: depth and path, each live parent's count
 * of live children (a tombstone's is 0), each live parent's extent from its ready, live items, and each
 * object's inherited access from its path (`accessInconsistencies`).
 * Returns one line per disagreement (`<id>: <what>`) among `ids`, or every row.
 */
export async function readModelInconsistencies(
  pool: Pool,
  schema: string,
  ids?: readonly string[],
): Promise<string[]> {
  const result = await pool.query<TreeRow>(
    `SELECT id, kind, status, parent_id, ancestor_ids, depth, child_count, deleted_at IS NOT NULL AS deleted,
            bbox, datetime, start_datetime, end_datetime, items_bbox, items_start, items_end
       FROM "${schema}".portal_objects`,
  );
  const rows = result.rows;
  const liveChildren = new Map<string, number>();
  const extents = new Map<string, Extent>();
  for (const row of rows) {
    if (row.deleted || row.parent_id === null) continue;
    liveChildren.set(row.parent_id, (liveChildren.get(row.parent_id) ?? 0) + 1);
    if (row.kind !== 'item' || row.status !== 'ready') continue;
    const previous = extents.get(row.parent_id) ?? { bbox: null, start: null, end: null };
    extents.set(row.parent_id, union(previous, itemExtent(row)));
  }
  const wanted = ids ? new Set(ids) : null;
  const problems: string[] = [];
  for (const row of rows) {
    if (wanted && !wanted.has(row.id)) continue;
    if (row.depth !== row.ancestor_ids.length + 1) problems.push(`${row.id}: depth`);
    if (row.parent_id !== null && row.ancestor_ids.at(-1) !== row.parent_id) problems.push(`${row.id}: path`);
    const children = row.deleted ? 0 : (liveChildren.get(row.id) ?? 0);
    if (row.child_count !== children)
      problems.push(`${row.id}: child_count ${row.child_count} ≠ ${children}`);
    if (row.deleted || row.kind === 'item') continue;
    const expected = extents.get(row.id) ?? { bbox: null, start: null, end: null };
    const found = { bbox: row.items_bbox, start: time(row.items_start), end: time(row.items_end) };
    if (JSON.stringify(found) !== JSON.stringify(expected)) {
      problems.push(`${row.id}: items extent ${JSON.stringify(found)} ≠ ${JSON.stringify(expected)}`);
    }
  }
  return [...problems, ...(await accessInconsistencies(pool, schema, ids ? { ids } : {}))];
}
