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
 * The start of the first interval (STAC: the first one spans the whole extent). Never NULL: a given
 * start is required, a computed one falls back to the creation.
 */
export const extentStartSql = `(CASE WHEN o.extent IS NOT NULL
                                 THEN (o.extent #>> '{temporal,interval,0,0}')::timestamptz
                                 ELSE COALESCE(o.items_start, o.created_at) END)`;

/** The end of the first interval; NULL when open-ended. */
export const extentEndSql = `(CASE WHEN o.extent IS NOT NULL
                               THEN (o.extent #>> '{temporal,interval,0,1}')::timestamptz
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
