-- The indexes and statistics of portal_objects, uploads and assets that only readers use (the API's
-- browser, inventory, STAC search and access filters, the upload worker's sweep). The projector's own
-- statements never need them: they find rows by key, by the sibling slug key, by parent (child counts,
-- collection extents) and by ancestors (subtrees), with the indexes schema.sql creates. A normal start
-- applies this file right after schema.sql; a rebuild applies it once its replay reached the head, so
-- the replay does not maintain ~25 indexes per row it writes (docs/projection.md, "Lean rebuilds").
-- Applied with search_path on the read schema, statement by statement: names no schema.

-- Path lookup at the root level finds a slug in every organization (apps/api/src/browser/path-lookup.ts).
CREATE INDEX IF NOT EXISTS portal_objects_root_slug ON portal_objects (slug)
  WHERE deleted_at IS NULL AND parent_id IS NULL;

-- An item or a collection by the id a STAC client gave it: its path, and `ids` or `collections` in a search.
CREATE INDEX IF NOT EXISTS portal_objects_stac_id ON portal_objects (stac_id, parent_id)
  WHERE stac_id IS NOT NULL AND deleted_at IS NULL;

CREATE INDEX IF NOT EXISTS portal_objects_kind_created ON portal_objects (kind, created_at, id) WHERE deleted_at IS NULL;

CREATE INDEX IF NOT EXISTS portal_objects_footprint ON portal_objects USING gist (footprint) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS portal_objects_status ON portal_objects (kind, status, created_at, id) WHERE deleted_at IS NULL;
-- `GET /portal/items/?status=failed` without a kind: a pipeline polling its failures.
CREATE INDEX IF NOT EXISTS portal_objects_status_any_kind ON portal_objects (status, created_at, id) WHERE deleted_at IS NULL;

-- The upload worker's sweep: open uploads past their time to live, completions that never got a job.
CREATE INDEX IF NOT EXISTS uploads_open_expiry ON uploads (expires_at) WHERE status IN ('uploading', 'failed');
CREATE INDEX IF NOT EXISTS uploads_processing ON uploads (completion_requested_at) WHERE status = 'processing';

CREATE INDEX IF NOT EXISTS portal_objects_parent_totals
  ON portal_objects (parent_id, kind, status) INCLUDE (asset_bytes) WHERE deleted_at IS NULL;

-- Browser and inventory: every page the API serves is a range scan of one of these per kind (keyset
-- pagination on the sort key and the id; the API merges the kinds in order), so a page costs the same
-- on the last of 100,000 children as on the first, and a filter on some kinds never reads the others.
-- A node's children (the root level too: `parent_id IS NULL` is an index condition) by kind or title use
-- `portal_objects_parent` (schema.sql); by time, these:
CREATE INDEX IF NOT EXISTS portal_objects_parent_created ON portal_objects (parent_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS portal_objects_parent_updated ON portal_objects (parent_id, updated_at, id) WHERE deleted_at IS NULL;
-- The flat inventory by kind or title, and by change time (by creation time: `portal_objects_kind_created`
-- above). `depth >= 1` holds for every row: it is there so that only queries stating it (the inventory
-- without `parentId`) can use these. A node's children must never be read by walking a portal-wide
-- order and filtering on the parent: past the parent's last child the walk would read the rest of the table.
CREATE INDEX IF NOT EXISTS portal_objects_inventory_kind_title ON portal_objects (kind, title, id)
  WHERE deleted_at IS NULL AND depth >= 1;
CREATE INDEX IF NOT EXISTS portal_objects_inventory_kind_updated ON portal_objects (kind, updated_at, id)
  WHERE deleted_at IS NULL AND depth >= 1;

-- The API searches exactly this expression (apps/api/src/inventory/text-search.ts). GiST, not GIN: a row
-- is one entry (its trigrams, under pages summarized by 256-byte signatures) instead of ~100 posting-list
-- entries merged into the index later; over a million events the live projector spent 42 % less
-- PostgreSQL time per event with it. The price: an index about 3.5 times larger, and a word found in
-- tens of thousands of rows found 1.3-1.8 times slower; a rare word or a phrase of few matches is as fast
-- (docs/decisions.md, "The inventory's text index is GiST, not GIN").
CREATE INDEX IF NOT EXISTS portal_objects_text_trigrams ON portal_objects
  USING gist ((title || ' ' || COALESCE(description, '')) public.gist_trgm_ops(siglen = 256))
  WHERE deleted_at IS NULL;
-- The GIN index earlier versions built, dropped only once the index above exists: a schema that had it
-- builds the new one at its next start, which blocks the projector's writes but not the API's reads, and
-- the drop then holds its exclusive lock only until the start's transaction commits.
DROP INDEX IF EXISTS portal_objects_text_trgm;

CREATE INDEX IF NOT EXISTS portal_objects_read_principals ON portal_objects USING gin (read_principals)
  WHERE deleted_at IS NULL;
-- The children a caller may not see are among the live ones that are not public: the API's
-- `visibleChildCount` (apps/api/src/browser/visibility.ts) counts those of one visibility under a node in
-- one index-only range of this, never the public bulk of a wide node (~2 ms instead of ~100 ms for an
-- anonymous caller on a node of 100,000 children). Kept small: public rows are not in it.
CREATE INDEX IF NOT EXISTS portal_objects_hidden_children ON portal_objects (parent_id, effective_visibility)
  INCLUDE (read_principals) WHERE deleted_at IS NULL AND effective_visibility <> 'public';

-- STAC item search (docs/stac.md, with the plans). An item's time is its `datetime`, or its range
-- `start_datetime`..`end_datetime`, or, when it has neither, its creation (STAC requires a time). Items
-- are served newest first by the start of that time, then by id: a page is one range of the first two
-- indexes (all items, or one parent's), walked from the previous page's last key. A search by area (and
-- time) is one scan of the third, which holds the footprint and the time range together. The expressions
-- are written exactly so in apps/api/src/stac/item-query.ts, or the planner would not match them.
CREATE INDEX IF NOT EXISTS portal_objects_stac_time
  ON portal_objects ((COALESCE(start_datetime, datetime, created_at)) DESC, id DESC)
  WHERE deleted_at IS NULL AND kind = 'item';
CREATE INDEX IF NOT EXISTS portal_objects_stac_parent_time
  ON portal_objects (parent_id, (COALESCE(start_datetime, datetime, created_at)) DESC, id DESC)
  WHERE deleted_at IS NULL AND kind = 'item';
CREATE INDEX IF NOT EXISTS portal_objects_stac_footprint_time
  ON portal_objects USING gist (footprint, tstzrange(COALESCE(start_datetime, datetime, created_at),
                                                     COALESCE(end_datetime, datetime, created_at), '[]'))
  WHERE deleted_at IS NULL AND kind = 'item';
-- The sort extension's `sortby=end_datetime` (either way): the end of the item's time, so such a page is
-- one range too, all items or one parent's. `datetime` and `start_datetime` sort on the two above
-- (scanned backwards for ascending); created, updated and title on the browser's and inventory's.
CREATE INDEX IF NOT EXISTS portal_objects_stac_end_time
  ON portal_objects ((COALESCE(end_datetime, datetime, created_at)) DESC, id DESC)
  WHERE deleted_at IS NULL AND kind = 'item';
CREATE INDEX IF NOT EXISTS portal_objects_stac_parent_end_time
  ON portal_objects (parent_id, (COALESCE(end_datetime, datetime, created_at)) DESC, id DESC)
  WHERE deleted_at IS NULL AND kind = 'item';
-- The longest item time (end − start), read as one probe by a search with a time interval
-- (apps/api/src/stac/item-time-sql.ts): it bounds the other end of the interval on each time index, so a
-- scan stops near the interval rather than at the oldest (or newest) item. Only items with a range.
CREATE INDEX IF NOT EXISTS portal_objects_stac_time_length
  ON portal_objects ((COALESCE(end_datetime, datetime, created_at) - COALESCE(start_datetime, datetime, created_at)))
  WHERE deleted_at IS NULL AND kind = 'item' AND (start_datetime IS NOT NULL OR end_datetime IS NOT NULL);
-- The sort extension's `sortby=properties.eo:cloud_cover` (either way), all items or one parent's: whether
-- the key is NULL, the key exactly as apps/api/src/stac/item-sort.ts writes a property's (a string,
-- number or boolean, else NULL), then the id, so a page is one range read until `limit` rows and not a
-- sort of every item (0.2 ms instead of 180 ms on 100,000 items, bench/README.md "STAC sort indexes").
-- The `IS NULL` column first (the API orders by it too) lets a later ascending page start at the previous
-- page's key and still reach the items without the property, which come after every value: on the key
-- alone the bound that starts the scan would have left them out, so such a page walked from the start.
-- Cloud cover only: the one free-form property the API itself names (its aggregation); any other
-- property still sorts, by a sort of the matches. `collection` has no index: its key is the parent's id
-- only when the caller may read the parent and it is a collection, which no expression over the item row
-- alone can say. The first definitions (key, id) are dropped: the API no longer orders by them alone.
DROP INDEX IF EXISTS portal_objects_stac_cloud_cover;
DROP INDEX IF EXISTS portal_objects_stac_parent_cloud_cover;
CREATE INDEX IF NOT EXISTS portal_objects_stac_cloud_cover_nulls
  ON portal_objects (((CASE WHEN jsonb_typeof(properties -> 'eo:cloud_cover') IN ('string', 'number', 'boolean')
                            THEN properties -> 'eo:cloud_cover' END) IS NULL),
                     (CASE WHEN jsonb_typeof(properties -> 'eo:cloud_cover') IN ('string', 'number', 'boolean')
                           THEN properties -> 'eo:cloud_cover' END), id)
  WHERE deleted_at IS NULL AND kind = 'item';
CREATE INDEX IF NOT EXISTS portal_objects_stac_parent_cloud_cover_nulls
  ON portal_objects (parent_id,
                     ((CASE WHEN jsonb_typeof(properties -> 'eo:cloud_cover') IN ('string', 'number', 'boolean')
                            THEN properties -> 'eo:cloud_cover' END) IS NULL),
                     (CASE WHEN jsonb_typeof(properties -> 'eo:cloud_cover') IN ('string', 'number', 'boolean')
                           THEN properties -> 'eo:cloud_cover' END), id)
  WHERE deleted_at IS NULL AND kind = 'item';

-- The aggregations (`/aggregate`) of one collection's items, or of all items: counts per collection and per
-- time interval, the earliest and latest time. Each reads every match, so each must read the matches
-- without the table: the parent is the key, and the columns the time expressions are written over
-- (PostgreSQL answers an expression from an index only when its columns are there) and the readers
-- (visibility) are included, so such a statement is an index-only scan (one collection of 5,000 items:
-- 196 buffers instead of 5,038 table pages, bench/README.md "STAC aggregation"). About 300 bytes an item,
-- most of it `read_principals`.
CREATE INDEX IF NOT EXISTS portal_objects_stac_aggregation
  ON portal_objects (parent_id) INCLUDE (start_datetime, datetime, end_datetime, created_at, read_principals)
  WHERE deleted_at IS NULL AND kind = 'item';

-- The free-text extension's `q` on items: the words of the title, description and `keywords` property,
-- as apps/api/src/stac/free-text-sql.ts writes them (the `simple` configuration: any language, no
-- stemming). A search's terms, phrases, AND, OR and NOT are one tsquery this index answers.
CREATE INDEX IF NOT EXISTS portal_objects_stac_text ON portal_objects
  USING gin ((to_tsvector('simple'::regconfig, title || ' ' || COALESCE(description, '') || ' ' || COALESCE(properties ->> 'keywords', ''))))
  WHERE deleted_at IS NULL AND kind = 'item';
-- Statistics of the expressions the STAC search filters on: the words (most common lexemes) and the
-- start and end of the item's time. The planner never reads the statistics of a partial index's
-- expression, so without these it assumed 0.5% of the items for any word and for any time interval:
-- it sorted every match of a common word (282 ms instead of 2 ms on 300,000 items) and of a word in a
-- year (203 ms instead of 9 ms) where walking a time index stops after one page (docs/stac.md).
-- Expression statistics need PostgreSQL 14. Filled at once when first created (later by autovacuum).
DO $$
DECLARE
  created boolean := false;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_statistic_ext WHERE stxname = 'portal_objects_stac_text_words'
                    AND stxnamespace = current_schema()::regnamespace) THEN
    CREATE STATISTICS portal_objects_stac_text_words
      ON (to_tsvector('simple'::regconfig, title || ' ' || COALESCE(description, '') || ' ' || COALESCE(properties ->> 'keywords', '')))
      FROM portal_objects;
    created := true;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_statistic_ext WHERE stxname = 'portal_objects_stac_start'
                    AND stxnamespace = current_schema()::regnamespace) THEN
    CREATE STATISTICS portal_objects_stac_start ON (COALESCE(start_datetime, datetime, created_at)) FROM portal_objects;
    created := true;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_statistic_ext WHERE stxname = 'portal_objects_stac_end'
                    AND stxnamespace = current_schema()::regnamespace) THEN
    CREATE STATISTICS portal_objects_stac_end ON (COALESCE(end_datetime, datetime, created_at)) FROM portal_objects;
    created := true;
  END IF;
  IF created THEN
    ANALYZE portal_objects;
  END IF;
END $$;
