import type { PortalKind, SearchBox } from '@portal/contracts';
import type { QueryParams } from '@portal/read-model-core';
import { bboxGeometry } from '../stac/bbox.js';
import { extentMeetsBox } from '../stac/collection-search.js';

/** The kinds that have a footprint: catalogs have none, so a box filter never keeps one. */
const placedKinds = ['item', 'collection'] as const satisfies readonly PortalKind[];

/** The box as a geometry to meet item footprints with: two rectangles when it crosses the antimeridian. */
function itemArea(box: SearchBox, params: QueryParams): string {
  return `ST_SetSRID(ST_GeomFromGeoJSON(${params.add(JSON.stringify(bboxGeometry(box)), 'text')}), 4326)`;
}

/**
 * `bbox`: the objects whose footprint meets the box (docs/decisions.md, "Inventory by area"). An item's
 * footprint is the `footprint` column (its geometry, else its bbox), found through the footprints' GiST
 * indexes; a collection's is its extent as its record shows it (given, else computed from its ready items,
 * else the whole world), the test the STAC collection search makes (`extentMeetsBox`). Items without a
 * footprint and catalogs are left out. A box across the antimeridian is two rectangles, as in the search.
 */
export function meetsBox(
  alias: string,
  box: SearchBox,
  kinds: readonly PortalKind[] | undefined,
  params: QueryParams,
): string {
  const wanted = placedKinds.filter((kind) => kinds === undefined || kinds.includes(kind));
  // Parameters only for the kinds asked for: PostgreSQL refuses a parameter the text never uses.
  if (wanted.length === 0) return 'FALSE';
  const parts = wanted.map((kind) =>
    kind === 'item'
      ? `(${alias}.kind = 'item' AND ST_Intersects(${alias}.footprint, ${itemArea(box, params)}))`
      : `(${alias}.kind = 'collection' AND ${extentMeetsBox(alias, box, params)})`,
  );
  return `(${parts.join(' OR ')})`;
}
