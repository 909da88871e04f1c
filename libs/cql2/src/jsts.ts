import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import GeoJSONReader from 'jsts/org/locationtech/jts/io/GeoJSONReader.js';
import IsValidOp from 'jsts/org/locationtech/jts/operation/valid/IsValidOp.js';
import RelateOp from 'jsts/org/locationtech/jts/operation/relate/RelateOp.js';
import type { Geometry, SpatialOp } from './ast.js';

// jsts (the JavaScript port of JTS, whose C++ port GEOS runs PostGIS) answers spatial predicates from
// the same DE-9IM matrix as ST_Intersects & co. Its typings are loose (`any`); this file is the only
// place that touches them.

interface JstsGeometry {
  getDimension(): number;
}
interface Matrix {
  isIntersects(): boolean;
  isDisjoint(): boolean;
  isWithin(): boolean;
  isContains(): boolean;
  isEquals(dimensionA: number, dimensionB: number): boolean;
  isTouches(dimensionA: number, dimensionB: number): boolean;
  isCrosses(dimensionA: number, dimensionB: number): boolean;
  isOverlaps(dimensionA: number, dimensionB: number): boolean;
}

const reader = new GeoJSONReader(new GeometryFactory());

function read(geometry: Geometry): JstsGeometry {
  return reader.read(geometry) as JstsGeometry;
}

/** Why a geometry literal is not a valid OGC simple feature (self-intersection, …), or undefined. */
export function invalidGeometryReason(geometry: Geometry): string | undefined {
  const op = new IsValidOp(read(geometry)) as {
    isValid(): boolean;
    getValidationError(): { toString(): string } | null;
  };
  if (op.isValid()) return undefined;
  return op.getValidationError()?.toString() ?? 'not a valid geometry';
}

export function spatialRelation(op: SpatialOp, left: Geometry, right: Geometry): boolean {
  const [a, b] = [read(left), read(right)];
  const matrix = RelateOp.relate(a, b) as Matrix;
  const [da, db] = [a.getDimension(), b.getDimension()];
  switch (op) {
    case 's_intersects':
      return matrix.isIntersects();
    case 's_disjoint':
      return matrix.isDisjoint();
    case 's_within':
      return matrix.isWithin();
    case 's_contains':
      return matrix.isContains();
    case 's_equals':
      return matrix.isEquals(da, db);
    case 's_touches':
      return matrix.isTouches(da, db);
    case 's_crosses':
      return matrix.isCrosses(da, db);
    case 's_overlaps':
      return matrix.isOverlaps(da, db);
  }
}
