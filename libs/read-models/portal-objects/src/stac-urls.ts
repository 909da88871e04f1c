/**
 * Where an item's STAC JSON points, as absolute URLs from the service's base. The API's full set of STAC
 * URLs (apps/api/src/stac/stac-links.ts) is built on these, so an item the projector stores and one the
 * API builds name the same paths.
 */
export const STAC_PATH = '/api/v1/stac';

export interface ItemUrls {
  readonly root: string;
  readonly collection: (id: string) => string;
  readonly catalog: (id: string) => string;
  /** An item outside any collection (directly under a catalog) has no OGC Features path: its own. */
  readonly item: (id: string, collectionId: string | null) => string;
}

export function itemUrls(baseUrl: string): ItemUrls {
  const root = `${baseUrl}${STAC_PATH}`;
  return {
    root,
    // A STAC id may hold characters a path segment cannot (`#`, `?`, `%`, spaces): encoded. A UUID is
    // the same encoded.
    collection: (id) => `${root}/collections/${encodeURIComponent(id)}`,
    catalog: (id) => `${root}/catalogs/${id}`,
    item: (id, collectionId) =>
      collectionId === null
        ? `${root}/items/${id}`
        : `${root}/collections/${encodeURIComponent(collectionId)}/items/${encodeURIComponent(id)}`,
  };
}

/** Resolves a stored href against the base; an href that is not a URL at all is returned unchanged. */
export function absoluteHref(href: string, baseUrl: string): string {
  try {
    return new URL(href, `${baseUrl}/`).toString();
  } catch {
    return href;
  }
}

/**
 * The box as a GeoJSON geometry: one polygon, or two when it crosses the antimeridian (one each side),
 * so that a search is one intersection test against the footprints whichever way the box lies.
 */
export function bboxGeometry([west, south, east, north]: readonly [number, number, number, number]): Record<
  string,
  unknown
> {
  const ring = (w: number, e: number) => [
    [
      [w, south],
      [e, south],
      [e, north],
      [w, north],
      [w, south],
    ],
  ];
  if (west <= east) return { type: 'Polygon', coordinates: ring(west, east) };
  return { type: 'MultiPolygon', coordinates: [ring(west, 180), ring(-180, east)] };
}
