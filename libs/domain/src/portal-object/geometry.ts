/**
 * RFC 7946 geometries as the domain keeps them (an item's footprint). Structural and read-only, so
 * the request schema's parsed geometry is assignable to it and an event read back from JSON fits it.
 */

/** [longitude, latitude] or [longitude, latitude, altitude], WGS 84 degrees (RFC 7946 §3.1.1). */
export type GeoJsonPosition = readonly [number, number, ...number[]];

interface GeoJsonGeometryBase {
  /** The sender's own bounding box (RFC 7946 §5), 4 or 6 numbers; carried, never trusted. */
  readonly bbox?: readonly number[];
}

export interface GeoJsonPoint extends GeoJsonGeometryBase {
  readonly type: 'Point';
  readonly coordinates: GeoJsonPosition;
}

export interface GeoJsonMultiPoint extends GeoJsonGeometryBase {
  readonly type: 'MultiPoint';
  readonly coordinates: readonly GeoJsonPosition[];
}

export interface GeoJsonLineString extends GeoJsonGeometryBase {
  readonly type: 'LineString';
  readonly coordinates: readonly GeoJsonPosition[];
}

export interface GeoJsonMultiLineString extends GeoJsonGeometryBase {
  readonly type: 'MultiLineString';
  readonly coordinates: readonly (readonly GeoJsonPosition[])[];
}

/** Linear rings: the first is the exterior, the others holes; each closed (first position = last). */
export interface GeoJsonPolygon extends GeoJsonGeometryBase {
  readonly type: 'Polygon';
  readonly coordinates: readonly (readonly GeoJsonPosition[])[];
}

export interface GeoJsonMultiPolygon extends GeoJsonGeometryBase {
  readonly type: 'MultiPolygon';
  readonly coordinates: readonly (readonly (readonly GeoJsonPosition[])[])[];
}

/** Every geometry but a collection: what a GeometryCollection may hold (no nesting). */
export type GeoJsonSingleGeometry =
  | GeoJsonPoint
  | GeoJsonMultiPoint
  | GeoJsonLineString
  | GeoJsonMultiLineString
  | GeoJsonPolygon
  | GeoJsonMultiPolygon;

export interface GeoJsonGeometryCollection extends GeoJsonGeometryBase {
  readonly type: 'GeometryCollection';
  readonly geometries: readonly GeoJsonSingleGeometry[];
}

export type GeoJsonGeometry = GeoJsonSingleGeometry | GeoJsonGeometryCollection;
