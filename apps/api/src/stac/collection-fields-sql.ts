/**
 * A collection's STAC fields as SQL over its row `o`, each the value `container-json.ts` writes: the
 * collection search's filter, query and sort read them here, so they select and order what a client
 * reading the JSON sees. The extent is the one given on create, else the one computed from the ready
 * items (the whole world from the collection's creation, open-ended, before any: `collection-record.ts`).
 * The contract keeps a given interval's start non-null and its end null when open.
 */

/** The extent's boxes, as jsonb `[[w, s, e, n], …]`: given, else computed (the whole world without). */
export const extentBoxesSql = (
  alias: string,
) => `CASE WHEN ${alias}.extent IS NOT NULL THEN ${alias}.extent -> 'spatial' -> 'bbox'
                    ELSE to_jsonb(ARRAY[COALESCE(${alias}.items_bbox, '{-180,-90,180,90}'::float8[])]) END`;

/** The extent's intervals, as jsonb `[[start, end or null], …]`: given, else computed. */
export const extentIntervalsSql = (alias: string) => `CASE WHEN ${alias}.extent IS NOT NULL
                         THEN ${alias}.extent -> 'temporal' -> 'interval'
                         ELSE jsonb_build_array(jsonb_build_array(COALESCE(${alias}.items_start, ${alias}.created_at), ${alias}.items_end)) END`;

/**
 * A stored extent time as the contract takes it today: RFC 3339 in UTC, a day that exists, a year from
 * 0001, no fraction rounding into year 10000 (PostgreSQL's timestamptz reads exactly these as the same
 * instant). Extents stored before the contract checked the range can hold `0000-…` or such a fraction;
 * both answer as an open end (`null`) rather than failing the cast, and with it every search, sort or
 * filter that reads the collection (docs/stac.md, "Collection search").
 */
const DATE_TIME_PATTERN =
  '^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29' +
  '|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8])))' +
  'T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?';
const STORED_TIME_PATTERN = `${DATE_TIME_PATTERN}Z$`;
/**
 * In SQL an offset is allowed too: a computed extent's times are jsonb timestamps (`…+00:00`), from the
 * items' bounded times.
 */
const SQL_TIME_PATTERN = `${DATE_TIME_PATTERN}(?:Z|[+-]\\d\\d:\\d\\d)$`;
/** What PostgreSQL cannot read as the same instant although the pattern allows it. */
const OUT_OF_RANGE_PATTERN = '^(?:0000-|9999-12-31T23:59:59\\.999999[5-9])';

const storedTime = new RegExp(STORED_TIME_PATTERN);
const outOfRange = new RegExp(OUT_OF_RANGE_PATTERN);

/** The stored time when it is one (see above), else `null`: an open end. */
export function validExtentTime(value: unknown): string | null {
  return typeof value === 'string' && storedTime.test(value) && !outOfRange.test(value) ? value : null;
}

/** The same in SQL over a text expression: a timestamptz, or NULL where `validExtentTime` answers null. */
export const extentTimeSql = (text: string) =>
  `(CASE WHEN ${text} ~ '${SQL_TIME_PATTERN}' AND ${text} !~ '${OUT_OF_RANGE_PATTERN}'
         THEN (${text})::timestamptz END)`;

/**
 * The start of the first interval (STAC: the first one spans the whole extent). NULL only for a given
 * start that is no valid time (an old extent; open, as the JSON shows it): a computed one falls back to
 * the creation.
 */
export const extentStartSql = `(CASE WHEN o.extent IS NOT NULL
                                 THEN ${extentTimeSql(`(o.extent #>> '{temporal,interval,0,0}')`)}
                                 ELSE COALESCE(o.items_start, o.created_at) END)`;

/** The end of the first interval; NULL when open-ended (or no valid time). */
export const extentEndSql = `(CASE WHEN o.extent IS NOT NULL
                               THEN ${extentTimeSql(`(o.extent #>> '{temporal,interval,0,1}')`)}
                               ELSE o.items_end END)`;

/**
 * Every box of the extent as one valid geometry, their union: a box across the antimeridian (west > east)
 * is its two halves, and each part is made valid on its own (a degenerate box is the line or point it is)
 * before the union merges overlapping boxes, as STAC's first box and the parts inside it always are.
 * ST_MakeValid of the collected boxes would not do: it reads overlapping parts of one multipolygon as
 * linework, so where two boxes overlap it leaves a hole.
 */
export const extentGeometrySql = `(SELECT ST_UnaryUnion(ST_Collect(ST_MakeValid(part)))
     FROM jsonb_array_elements(${extentBoxesSql('o')}) AS extent_box(b),
          LATERAL (SELECT (b->>0)::float8 AS w, (b->>1)::float8 AS s, (b->>2)::float8 AS e, (b->>3)::float8 AS n) AS side,
          LATERAL (SELECT ST_MakeEnvelope(side.w, side.s, side.e, side.n, 4326) WHERE side.w <= side.e
                   UNION ALL SELECT ST_MakeEnvelope(side.w, side.s, 180, side.n, 4326) WHERE side.w > side.e
                   UNION ALL SELECT ST_MakeEnvelope(-180, side.s, side.e, side.n, 4326) WHERE side.w > side.e) AS parts(part))`;

/** The fields the JSON fills in when the portal has none: an empty description, the `other` license. */
export const descriptionSql = `COALESCE(o.description, '')`;
export const licenseSql = `COALESCE(o.license, 'other')`;
export const keywordsSql = `COALESCE(o.keywords, '[]'::jsonb)`;
