// The extent a collection (or catalog) gets from the ready, live items directly below it, kept in
// `items_bbox` [west, south, east, north], `items_start` and `items_end`. It grows by a cheap union when
// an item becomes ready or moves in, and is recomputed from the remaining items when one leaves, since
// a union cannot shrink. Both paths take min/max of the same values, so they agree exactly.

/**
 * An item's box as the extent counts it: one crossing the antimeridian (west > east) covers every
 * longitude, since a single [west, east] box cannot hold both of its sides.
 */
export function extentBox(bbox: string): string {
  return `CASE WHEN ${bbox}[1] > ${bbox}[3] THEN ARRAY[-180, ${bbox}[2], 180, ${bbox}[4]]::double precision[]
               ELSE ${bbox} END`;
}

/**
 * The union of two boxes (SQL expressions of [west, south, east, north] arrays): the smallest box holding
 * both; a NULL one adds nothing.
 */
export function boxUnionSql(a: string, b: string): string {
  return `CASE WHEN ${b} IS NULL THEN ${a} WHEN ${a} IS NULL THEN ${b}
               ELSE ARRAY[least(${a}[1], ${b}[1]), least(${a}[2], ${b}[2]),
                          greatest(${a}[3], ${b}[3]), greatest(${a}[4], ${b}[4])] END`;
}

/** Where an item's interval starts and ends: its instant, or its start and end. */
const itemStart = 'COALESCE(datetime, start_datetime)';
const itemEnd = 'COALESCE(datetime, end_datetime)';

/**
 * An UPDATE widening the parent of the item in `item` (a CTE or table name with parent_id, bbox,
 * datetime, start_datetime, end_datetime; none or one row) by that item. A tombstoned parent is left
 * alone, and so is any parent when `item` is empty.
 */
export function unionIntoParentSql(item: string): string {
  return `
    UPDATE portal_objects p
       SET items_bbox = ${boxUnionSql('p.items_bbox', 'i.box')},
           items_start = least(p.items_start, i.starts),
           items_end = greatest(p.items_end, i.ends)
      FROM (SELECT ${extentBox('bbox')} AS box, ${itemStart} AS starts, ${itemEnd} AS ends FROM ${item}) i
     -- By a scalar subquery, not a join: an index lookup even on a table without statistics (a rebuild).
     WHERE p.id = (SELECT parent_id FROM ${item}) AND p.deleted_at IS NULL`;
}

/**
 * A subquery (for a LATERAL join) of one row, `box`, `starts`, `ends`: the extent of the ready, live
 * items directly below `parent` (an SQL expression), leaving out the item `leftOut` (one leaving it, still
 * below it in the statement's snapshot). One aggregate over the parent index (the items of one
 * collection, not the table); no item left gives NULLs. Only computed where `when` holds.
 */
export function itemsExtentWithoutSql(parent: string, leftOut: string, when: string): string {
  return `
    SELECT CASE WHEN count(box) > 0 THEN ARRAY[min(box[1]), min(box[2]), max(box[3]), max(box[4])] END AS box,
           min(starts) AS starts, max(ends) AS ends
      FROM (SELECT ${extentBox('bbox')} AS box, ${itemStart} AS starts, ${itemEnd} AS ends
              FROM portal_objects
             WHERE ${when} AND parent_id = ${parent} AND kind = 'item' AND status = 'ready'
               AND deleted_at IS NULL AND id <> ${leftOut}) items`;
}

/** An item's box, start and end as its parent's extent counts them (`item`: an alias of its row). */
export function itemExtentOf(item: string): string {
  return `${extentBox(`${item}.bbox`)} AS box, COALESCE(${item}.datetime, ${item}.start_datetime) AS starts,
          COALESCE(${item}.datetime, ${item}.end_datetime) AS ends`;
}
