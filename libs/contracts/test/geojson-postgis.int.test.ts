import { bboxOfGeometry } from '@portal/domain';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geometrySchema, MAX_GEOMETRY_POSITIONS } from '../src/geojson.js';
import { longLineString, validGeometries } from '../src/test-support/geometries.js';
import { acceptanceOf } from '../src/test-support/parse.js';

/**
 * The projector hands every accepted geometry to ST_GeomFromGeoJSON; a geometry the schema lets
 * through but PostGIS cannot parse would fail the projection, not the request. So every kind and edge
 * the schema accepts goes through the real function, as JSON text and from jsonb (the read model keeps
 * the geometry as jsonb). OGC validity is not asked for: a bow tie is a legal GeoJSON polygon.
 */

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test';
const alreadyExists = new Set(['42710', '23505']);

interface ParsedRow {
  points: number;
  west: number;
  south: number;
  east: number;
  north: number;
  valid: boolean;
}

const parseSql = `
  SELECT ST_NPoints(g) AS points, ST_XMin(g::box3d) AS west, ST_YMin(g::box3d) AS south,
         ST_XMax(g::box3d) AS east, ST_YMax(g::box3d) AS north, ST_IsValid(g) AS valid
  FROM (SELECT ST_GeomFromGeoJSON($1::text) AS g) AS parsed`;

const bothWaysSql = `
  SELECT ST_AsEWKT(ST_GeomFromGeoJSON($1::text)) AS "fromText",
         ST_AsEWKT(ST_GeomFromGeoJSON($1::jsonb)) AS "fromJsonb"`;

/** What the API hands on: the schema's output for a geometry that arrived as JSON. */
function received(input: unknown) {
  return acceptanceOf(geometrySchema, JSON.parse(JSON.stringify(input)));
}

/** Positions as GeoJSON counts them: arrays of numbers, at any depth of `coordinates`. */
function positionCount(value: unknown): number {
  if (!Array.isArray(value)) return 0;
  if (typeof value[0] === 'number') return 1;
  return value.reduce((sum: number, element: unknown) => sum + positionCount(element), 0);
}

function positionsOf(geometry: Record<string, unknown>): number {
  const members = Array.isArray(geometry.geometries)
    ? (geometry.geometries as Record<string, unknown>[])
    : [];
  return members.reduce((sum, member) => sum + positionsOf(member), positionCount(geometry.coordinates));
}

describe('geometries the schema accepts, in PostGIS', () => {
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: 'contracts-geojson-tests',
  });

  beforeAll(async () => {
    await client.connect();
    await client.query('SET client_min_messages = warning'); // ST_IsValid's notices about bow ties
    await client.query('CREATE EXTENSION IF NOT EXISTS postgis').catch((error: unknown) => {
      // Another test file created it at the same moment.
      const code = error instanceof Error && 'code' in error ? error.code : undefined;
      if (typeof code !== 'string' || !alreadyExists.has(code)) throw error;
    });
  });

  afterAll(() => client.end());

  async function parseInPostgis(geometry: unknown): Promise<ParsedRow> {
    const { rows } = await client.query<ParsedRow>(parseSql, [JSON.stringify(geometry)]);
    const [row] = rows;
    if (row === undefined) throw new Error('no row');
    return row;
  }

  it.each(validGeometries)('%s parses, with every position and the same bbox', async (_name, input) => {
    const geometry = received(input);
    const row = await parseInPostgis(geometry);
    expect(row.points).toBe(positionsOf(input));
    expect([row.west, row.south, row.east, row.north]).toEqual(bboxOfGeometry(geometry));
    expect(typeof row.valid).toBe('boolean');

    const { rows } = await client.query<{ fromText: string; fromJsonb: string }>(bothWaysSql, [
      JSON.stringify(geometry),
    ]);
    expect(rows[0]?.fromText).toMatch(/^SRID=4326;[A-Z]/);
    expect(rows[0]?.fromJsonb).toBe(rows[0]?.fromText);
  });

  it(`parses a line string of ${MAX_GEOMETRY_POSITIONS} positions, the most the schema accepts`, async () => {
    const geometry = received(longLineString(MAX_GEOMETRY_POSITIONS));
    const row = await parseInPostgis(geometry);
    expect(row.points).toBe(MAX_GEOMETRY_POSITIONS);
    expect([row.west, row.south, row.east, row.north]).toEqual(bboxOfGeometry(geometry));
  });

  it('fits the read model footprint column, geometry(Geometry, 4326), once forced to 2D', async () => {
    await client.query('CREATE TEMP TABLE footprints (footprint geometry(Geometry, 4326))');
    try {
      for (const [, input] of validGeometries) {
        const geometry = received(input);
        await client.query('INSERT INTO footprints VALUES (ST_Force2D(ST_GeomFromGeoJSON($1::text)))', [
          JSON.stringify(geometry),
        ]);
      }
      const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM footprints');
      expect(Number(rows[0]?.count)).toBe(validGeometries.length);
    } finally {
      await client.query('DROP TABLE footprints');
    }
  });
});
