import type { PortalItemRecord } from '@portal/contracts';
import { boxOf, boxPolygon, type Box } from './bbox.js';

/** A shape to draw: any GeoJSON geometry with coordinates (the renderer reads it with d3-geo). */
export interface Footprint {
  readonly box: Box;
  readonly geometry: { readonly type: string; readonly coordinates: unknown };
}

/** Where an object is: an item's geometry (else its bbox), a collection's overall spatial extent. */
export function footprintOf(record: PortalItemRecord): Footprint | null {
  const box = boxOf(record.kind === 'collection' ? record.extent?.spatial.bbox[0] : record.bbox);
  if (!box) return null;
  const geometry = record['geometry'];
  const shaped =
    typeof geometry === 'object' && geometry !== null && 'type' in geometry && 'coordinates' in geometry;
  return { box, geometry: shaped ? (geometry as Footprint['geometry']) : boxPolygon(box) };
}
