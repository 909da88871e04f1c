/**
 * The synthetic items the STAC EXPLAIN scripts read (docs/stac.md, "Indexes and plans"): the
 * portal-objects read model in a scratch database, 20 collections and `count` items (1° scenes clustered
 * around 200 centres, ten years of datetimes, one in ten with a range, eight title words and a rare one,
 * keywords on one in eight, `eo:cloud_cover` 0–100).
 */
import { readFileSync } from 'node:fs';
import type pg from 'pg';

const schemaSql = readFileSync(
  new URL('../libs/read-models/portal-objects/src/schema.sql', import.meta.url),
  'utf8',
);
/** The readers' indexes (the STAC ones among them), built once the items are in, as a lean rebuild does. */
const readerIndexesSql = readFileSync(
  new URL('../libs/read-models/portal-objects/src/reader-indexes.sql', import.meta.url),
  'utf8',
);
export const collectionId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export async function seedStacItems(db: pg.Client, count: number): Promise<void> {
  await db.query('CREATE EXTENSION IF NOT EXISTS postgis');
  await db.query('CREATE SCHEMA read');
  await db.query('SET search_path = read, public');
  await db.query(schemaSql);
  await db.query(`INSERT INTO portal_objects (id, kind, status, title, slug, depth, version, created_at, updated_at)
    SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, 'collection', 'ready', 'c' || g,
           'c' || g, 1, 1, now(), now()
      FROM generate_series(1, 20) g`);
  // One item in ten has a time range instead of an instant; creation and change times spread over a year.
  await db.query(
    `INSERT INTO portal_objects (id, kind, status, title, slug, depth, version, created_at, updated_at,
                                 parent_id, bbox, footprint, datetime, start_datetime, end_datetime, properties)
     SELECT gen_random_uuid(), 'item', 'ready',
            'scene ' || (ARRAY['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'])[1 + (hashint4(g) & 7)]
              || CASE WHEN (hashint4(g + 7) & 1023) = 0 THEN ' zulu' ELSE '' END || ' ' || g,
            'i' || g, 2, 1, created, created + random() * interval '30 days',
            ('00000000-0000-4000-8000-' || lpad(to_hex(1 + g % 20), 12, '0'))::uuid,
            ARRAY[x, y, x + 1, y + 1], ST_MakeEnvelope(x, y, x + 1, y + 1, 4326),
            CASE WHEN g % 10 <> 0 THEN t END, CASE WHEN g % 10 = 0 THEN t END,
            CASE WHEN g % 10 = 0 THEN t + random() * interval '90 days' END,
            jsonb_build_object('eo:cloud_cover', round(random() * 100))
              || CASE WHEN (hashint4(g + 3) & 7) = 0 THEN jsonb_build_object('keywords', jsonb_build_array('climate', 'sea ice')) ELSE '{}' END
       FROM (SELECT g, least(178, greatest(-180, cx + (random() - 0.5) * 20)) AS x,
                    least(88, greatest(-90, cy + (random() - 0.5) * 10)) AS y,
                    timestamptz '2015-01-01' + (random() * 3650) * interval '1 day' AS t,
                    timestamptz '2024-01-01' + (random() * 365) * interval '1 day' AS created
               FROM (SELECT g, (hashint4(g % 200) % 170)::float AS cx, (hashint4(g % 200 + 7) % 70)::float AS cy
                       FROM generate_series(1, $1::int) g) centres) scenes`,
    [count],
  );
  await db.query(readerIndexesSql);
  await db.query('ANALYZE portal_objects');
}
