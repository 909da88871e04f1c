import { z } from 'zod';
import { findGeometryProblem, MAX_GEOMETRY_POSITIONS } from './geojson-problems.js';

export { findGeometryProblem, MAX_GEOMETRY_POSITIONS } from './geojson-problems.js';

/*
 * RFC 7946 geometries. `findGeometryProblem` decides and words every 400 (first problem only); the
 * zod shapes below give the parsed type and the OpenAPI description, and cannot fail on a geometry
 * that walk accepted. Keep the two in step: the walk's unit tests parse through both.
 */

// The walk checks the ranges; here they only describe (real checks would double the parse time of a
// 100,000-position geometry for nothing).
const longitude = z.number().meta({ minimum: -180, maximum: 180 });
const latitude = z.number().meta({ minimum: -90, maximum: 90 });

const positionShape = z
  .tuple([longitude, latitude], z.number())
  .meta({ maxItems: 3, description: '[longitude, latitude] or [longitude, latitude, altitude], WGS 84.' });

const bboxMemberShape = z
  .array(z.number())
  .min(4)
  .max(6)
  .meta({ description: 'RFC 7946 §5: 4 numbers [west, south, east, north] or 6 with altitudes.' });

const lineStringCoordinates = z.array(positionShape).min(2);
const linearRing = z
  .array(positionShape)
  .min(4)
  .meta({ description: 'Closed: the last position equals the first.' });
const polygonCoordinates = z
  .array(linearRing)
  .min(1)
  .meta({ description: 'The exterior ring, then any holes.' });

function geometryShape<Type extends string, Member extends z.ZodRawShape>(type: Type, member: Member) {
  return z.strictObject({ type: z.literal(type), ...member, bbox: bboxMemberShape.exactOptional() });
}

const singleGeometryShapes = [
  geometryShape('Point', { coordinates: positionShape }),
  geometryShape('MultiPoint', { coordinates: z.array(positionShape).min(1) }),
  geometryShape('LineString', { coordinates: lineStringCoordinates }),
  geometryShape('MultiLineString', { coordinates: z.array(lineStringCoordinates).min(1) }),
  geometryShape('Polygon', { coordinates: polygonCoordinates }),
  geometryShape('MultiPolygon', { coordinates: z.array(polygonCoordinates).min(1) }),
] as const;

const geometryCollectionShape = geometryShape('GeometryCollection', {
  geometries: z
    .array(z.discriminatedUnion('type', singleGeometryShapes))
    .min(1)
    .meta({ description: 'Single geometries: a collection may not hold another collection.' }),
});

const anyGeometryShape = z.discriminatedUnion('type', [...singleGeometryShapes, geometryCollectionShape]);

/**
 * A GeoJSON geometry (RFC 7946 §3.1), as ST_GeomFromGeoJSON parses it. Empty coordinates are refused
 * (a footprint with no positions has no bbox), and so are members beyond `type`, the coordinates or
 * geometries, and `bbox`.
 */
export const geometrySchema = z
  .preprocess((value, ctx) => {
    const problem = findGeometryProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', ...problem, input: value });
    return value;
  }, anyGeometryShape)
  .meta({
    description:
      `RFC 7946 geometry: Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon or a ` +
      `GeometryCollection of those; at most ${MAX_GEOMETRY_POSITIONS} positions in all.`,
  });
export type Geometry = z.infer<typeof geometrySchema>;
