-- Read model of every portal object (catalog, collection, item).
-- Applied with search_path set to the target schema ("read", or a fresh one during rebuild).
CREATE TABLE IF NOT EXISTS portal_objects (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('catalog', 'collection', 'item')),
  status text NOT NULL,
  title text NOT NULL,
  description text,
  parent_id uuid,
  org_id uuid,
  -- Unique among live siblings; derived from the title.
  slug text NOT NULL,
  -- Ancestor ids from the root level down to the parent; empty at root level.
  ancestor_ids uuid[] NOT NULL DEFAULT '{}',
  depth integer NOT NULL,
  child_count integer NOT NULL DEFAULT 0,
  links jsonb NOT NULL DEFAULT '[]',
  license text,
  keywords jsonb,
  -- Extent given on create; NULL means computed from ready items below.
  extent jsonb,
  bbox double precision[],
  tags jsonb NOT NULL DEFAULT '[]',
  -- Stream revision of the last event applied: the idempotence guard.
  version bigint NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz,
  -- Items: upload lifecycle and metadata.
  status_message text,
  geometry jsonb,
  -- The footprint as PostGIS (from the geometry, else the bbox) for spatial queries (`portal_footprint`).
  footprint geometry(Geometry, 4326),
  datetime timestamptz,
  start_datetime timestamptz,
  end_datetime timestamptz,
  properties jsonb,
  -- An item's assets registered by href (docs/stac.md): the domain's list as it stands, `[]` for none.
  href_assets jsonb NOT NULL DEFAULT '[]',
  -- The id a STAC client gave an item when it is not a UUID (docs/stac.md, "Item ids"): its STAC id and
  -- path segment. Not unique: a move can bring two items of one name into one collection.
  stac_id text,
  -- A collection's extent computed from the ready items directly below it (used when `extent` is NULL).
  items_bbox double precision[],
  items_start timestamptz,
  items_end timestamptz,
  -- Bytes of the item's assets, beside its kind and status, so totals over any filter (a wide parent's
  -- children, a text search) are one scan of one index instead of a join with every asset.
  asset_bytes bigint NOT NULL DEFAULT 0,
  -- Access (identity, docs/identity.md). Objects created before identity existed are public, with no
  -- organization and no creator.
  -- The object's own visibility, and the narrowest along the path from the root level down to it.
  visibility text NOT NULL DEFAULT 'public',
  effective_visibility text NOT NULL DEFAULT 'public',
  created_by uuid,
  -- The object's own shares: [{principal: {type, id}, permission}], in the order given.
  shares jsonb NOT NULL DEFAULT '[]',
  -- Principals given read (`user:<id>`, `member:<org>`) and edit (`user:<id>`, `editor:<org>`) rights by
  -- the shares on the object AND all its ancestors: what its descendants inherit. Sorted, distinct.
  share_readers text[] NOT NULL DEFAULT '{}',
  share_editors text[] NOT NULL DEFAULT '{}',
  -- Who may read the object (`grantsOf(path).read` of libs/domain/src/access/principals.ts): the API shows
  -- a row when this overlaps the caller's principals (`read_principals && $principals`). Sorted, distinct.
  read_principals text[] NOT NULL DEFAULT '{public}',
  -- An item's STAC Item JSON as the API answers it to a caller who may read the item's parent, with the
  -- public base URL as the character U+0001 (stored-stac-item.ts; '' when it cannot be stored). NULL
  -- only inside a batch, between a change to the item and its rendering before commit (stale-stac-items.ts).
  -- lz4: a row with its text passes the size PostgreSQL compresses at, and pglz cost the writes far more.
  stac_item text COMPRESSION lz4
);

-- Any change to what an item's JSON is built from clears its text (a new row starts without one). Its
-- assets are in another table, but attaching one always changes the item row (version, asset_bytes).
-- The statements need not know: a handler that forgets cannot leave a text behind its row.
CREATE OR REPLACE FUNCTION portal_stac_item_stale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.stac_item := NULL;
  RETURN NEW;
END
$$;
CREATE OR REPLACE TRIGGER portal_objects_stac_item_stale
  BEFORE UPDATE ON portal_objects FOR EACH ROW
  WHEN (NEW.kind = 'item' AND NEW.stac_item IS NOT NULL AND
        (OLD.version, OLD.parent_id, OLD.title, OLD.description, OLD.geometry, OLD.bbox, OLD.datetime,
         OLD.start_datetime, OLD.end_datetime, OLD.properties, OLD.href_assets, OLD.links, OLD.created_at,
         OLD.updated_at, OLD.deleted_at, OLD.asset_bytes)
        IS DISTINCT FROM
        (NEW.version, NEW.parent_id, NEW.title, NEW.description, NEW.geometry, NEW.bbox, NEW.datetime,
         NEW.start_datetime, NEW.end_datetime, NEW.properties, NEW.href_assets, NEW.links, NEW.created_at,
         NEW.updated_at, NEW.deleted_at, NEW.asset_bytes))
  EXECUTE FUNCTION portal_stac_item_stale();

-- Slugs are unique among live siblings. Root-level objects are siblings within their organization only:
-- a slug taken in another organization must never turn a title into `-2`, which would tell that an object
-- the caller cannot see exists there. Below a parent every sibling belongs to the parent's organization
-- already. Objects created before identity (no organization) are siblings of one another at root level.
CREATE UNIQUE INDEX IF NOT EXISTS portal_objects_sibling_slug_in_org
  ON portal_objects (COALESCE(parent_id, org_id, '00000000-0000-0000-0000-000000000000'::uuid), slug)
  WHERE deleted_at IS NULL;
-- Every index in this file is one the projector's own statements use (the rest, which only readers use, are
-- in reader-indexes.sql): the keys, the sibling slug key above, a node's live children (a recounted child
-- count, a collection's extent over its ready items; the API's children by kind or title too) and a subtree.
CREATE INDEX IF NOT EXISTS portal_objects_parent ON portal_objects (parent_id, kind, title, id) WHERE deleted_at IS NULL;
-- fastupdate off: subtree moves and deletes search this index inside busy batches, and a pending list
-- (scanned whole by every search) would make them slower the more objects were created recently.
-- The items a batch left without their text (stale-stac-items.ts): empty between batches.
CREATE INDEX IF NOT EXISTS portal_objects_stac_item_stale ON portal_objects (id)
  WHERE stac_item IS NULL AND kind = 'item' AND deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS portal_objects_ancestors ON portal_objects USING gin (ancestor_ids) WITH (fastupdate = off);

-- The footprint of an item's geometry (GeoJSON), else of its bbox [west, south, east, north] (split in two
-- at the antimeridian when west > east), else NULL. Never raises: the projector calls it inside its batch,
-- and a geometry PostGIS cannot read must not halt the projection. The exception block starts a
-- subtransaction, which takes no transaction id since it writes nothing. Forced to 2D for the column type.
-- Those of `ids` below which any row (live or a tombstone) lies: a batch's footprints ask it of the
-- objects the batch renames, moves or deletes (batch-footprints.ts). Through the ancestors index only
-- (`SET enable_seqscan = off`, for this function's query alone): planned freely, PostgreSQL estimates an
-- array's containment at thousands of rows, expects one to turn up early in a scan of the table, and for
-- an object with nothing below it reads the whole table (seconds per batch at 300,000 rows).
CREATE OR REPLACE FUNCTION portal_objects_with_rows_below(ids uuid[]) RETURNS SETOF uuid
LANGUAGE sql STABLE SET enable_seqscan = off AS $$
  SELECT o.id FROM unnest(ids) AS o(id)
   WHERE EXISTS (SELECT 1 FROM portal_objects c WHERE c.ancestor_ids @> ARRAY[o.id])
$$;

CREATE OR REPLACE FUNCTION portal_footprint(geometry_json jsonb, bbox double precision[])
RETURNS geometry LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF geometry_json IS NOT NULL THEN
    BEGIN
      RETURN ST_SetSRID(ST_Force2D(ST_GeomFromGeoJSON(geometry_json::text)), 4326);
    EXCEPTION WHEN OTHERS THEN
      NULL; -- unreadable: fall back to the bbox
    END;
  END IF;
  IF bbox IS NULL OR cardinality(bbox) <> 4 OR array_position(bbox, NULL) IS NOT NULL THEN
    RETURN NULL;
  END IF;
  BEGIN
    IF bbox[1] > bbox[3] THEN
      RETURN ST_Multi(ST_Collect(ST_MakeEnvelope(bbox[1], bbox[2], 180, bbox[4], 4326),
                                 ST_MakeEnvelope(-180, bbox[2], bbox[3], bbox[4], 4326)));
    END IF;
    RETURN ST_MakeEnvelope(bbox[1], bbox[2], bbox[3], bbox[4], 4326);
  EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
  END;
END
$$;

-- The multipart upload behind each item: one row per item, kept after it ends for `GET .../upload`.
CREATE TABLE IF NOT EXISTS uploads (
  item_id uuid PRIMARY KEY,
  upload_id text NOT NULL,
  bucket text NOT NULL,
  key text NOT NULL,
  part_size bigint NOT NULL,
  -- NULL when the client gave no size: it may upload up to 10,000 parts.
  part_count integer,
  size_bytes bigint,
  file_name text,
  content_type text,
  -- uploading | processing | ready | failed | aborted | expired (mirrors the item's status).
  status text NOT NULL,
  status_message text,
  expires_at timestamptz NOT NULL,
  completion_requested_at timestamptz,
  ended_at timestamptz,
  version bigint NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Files attached to items once their upload completed.
CREATE TABLE IF NOT EXISTS assets (
  id uuid PRIMARY KEY,
  item_id uuid NOT NULL,
  bucket text NOT NULL,
  key text NOT NULL,
  size_bytes bigint NOT NULL,
  etag text NOT NULL,
  content_type text,
  file_name text,
  created_at timestamptz NOT NULL
);
-- An item's assets: the API lists them, and the projector renders each item it stores the JSON of with
-- them (stale-stac-items.ts), during a rebuild's replay too.
CREATE INDEX IF NOT EXISTS assets_item ON assets (item_id);

-- The inventory's `q` (a substring of the title or description, any case) is found through trigram matching
-- (the index is in reader-indexes.sql; the extension is created here, where the schema's setup holds the lock).
-- pg_trgm is a trusted extension; it goes to `public` (never to this schema, which a rebuild renames and
-- drops), and the lock keeps two read schemas being set up at once from both creating it.
SELECT pg_advisory_xact_lock(hashtext('extension:pg_trgm'));
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- The narrower of two visibilities (`narrowerVisibility` of libs/domain/src/access/roles.ts).
CREATE OR REPLACE FUNCTION portal_narrower_visibility(a text, b text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN a = 'private' OR b = 'private' THEN 'private'
              WHEN a = 'org' OR b = 'org' THEN 'org'
              ELSE 'public' END
$$;

-- The principals one share ({principal: {type, id}, permission}) gives read and edit rights to; NULL for
-- the edit rights of a viewer share. Organization shares reach its members, or its editors and up.
CREATE OR REPLACE FUNCTION portal_share_reader(share jsonb)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE share->'principal'->>'type' WHEN 'user' THEN 'user:' ELSE 'member:' END
         || (share->'principal'->>'id')
$$;
CREATE OR REPLACE FUNCTION portal_share_editor(share jsonb)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN share->>'permission' = 'editor'
              THEN CASE share->'principal'->>'type' WHEN 'user' THEN 'user:' ELSE 'editor:' END
                   || (share->'principal'->>'id') END
$$;

-- Principals as the read model keeps them: distinct, in byte order, without NULLs.
CREATE OR REPLACE FUNCTION portal_principal_set(principals text[])
RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(array_agg(DISTINCT p ORDER BY p), '{}')
    FROM (SELECT u COLLATE "C" AS p FROM unnest(principals) AS u) given
   WHERE p IS NOT NULL
$$;

-- The read principals of an object from its organization, creator, effective visibility and inherited
-- share readers: the rule of `grantsOf` (libs/domain/src/access/principals.ts), in its order too (byte
-- order, as JavaScript sorts), so a row and a TypeScript computation compare equal. Legacy objects (no
-- organization) grant only what their visibility and shares give. Calls no other function of this
-- schema, so it works under any search_path (schema-qualified, or after a rebuild renamed the schema).
CREATE OR REPLACE FUNCTION portal_read_principals(
  org_id uuid, created_by uuid, effective_visibility text, share_readers text[])
RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(array_agg(DISTINCT p ORDER BY p), '{}')
    FROM (SELECT u COLLATE "C" AS p
            FROM unnest(ARRAY[
                   CASE WHEN org_id IS NOT NULL THEN 'admin:' || org_id END,
                   CASE WHEN org_id IS NOT NULL AND effective_visibility <> 'private' THEN 'member:' || org_id END,
                   CASE WHEN org_id IS NOT NULL AND created_by IS NOT NULL
                        THEN 'member:' || org_id || '/user:' || created_by END,
                   CASE WHEN effective_visibility = 'public' THEN 'public' END
                 ] || share_readers) AS u) granted
   WHERE p IS NOT NULL
$$;

-- Who may change an object (`grantsOf(path).edit` of libs/domain/src/access/principals.ts): its
-- organization's admins; its editors unless it is private; its creator while an editor there; the
-- editors its shares reach. The API checks a subtree with it before a delete (docs/identity.md).
CREATE OR REPLACE FUNCTION portal_edit_principals(
  org_id uuid, created_by uuid, effective_visibility text, share_editors text[])
RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY[
           CASE WHEN org_id IS NOT NULL THEN 'admin:' || org_id END,
           CASE WHEN org_id IS NOT NULL AND effective_visibility <> 'private' THEN 'editor:' || org_id END,
           CASE WHEN org_id IS NOT NULL AND created_by IS NOT NULL
                THEN 'editor:' || org_id || '/user:' || created_by END
         ] || share_editors
$$;

