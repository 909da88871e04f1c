-- Totals of the inventory: live objects and the bytes of their assets per set of read principals, kind
-- and status. Every live object sits in exactly one row (that of its own `read_principals`, kind and
-- status), and a caller sees an object exactly when its `read_principals` overlap the caller's principals
-- (docs/identity.md). So the totals of everything a caller can see, unfiltered or filtered by kind and
-- status, are the sums over the rows whose `read_principals` overlap the caller's: exact for every
-- caller, from a few rows instead of a count of a million (apps/api/src/inventory/inventory-totals.ts).
--
-- The table grows with the distinct principal sets, not with the objects: a set is made of the object's
-- organization, its creator (`member:<org>/user:<id>` is in every set of an object with an organization),
-- its effective visibility and the share readers inherited along its path. So: about organizations ×
-- creators × 3 visibilities, times the distinct combinations of shares above objects, times the kinds and
-- statuses in use. A bucket that empties is deleted.
--
-- Kept by statement-level triggers on portal_objects rather than by event handlers: the totals are a
-- function of its rows (`read_principals`, kind, status, liveness and `asset_bytes`, which the projector
-- keeps beside the item), so each statement adds exactly the difference it made, whichever handler,
-- present or future, changed the rows: a subtree's visibility change, share or move rewrites
-- `read_principals` in one UPDATE, which moves its rows between buckets; a replayed event that changes no
-- row changes no total; a rebuild replays into fresh tables with these triggers and builds the totals
-- with them.
--
-- Applied with search_path on the read schema. The trigger bodies name no schema: each switches the
-- search_path to the schema of the table that fired it (TG_TABLE_SCHEMA, right after a rebuild's rename
-- too) and restores the caller's, so any session may write the tables, not only the projector's.

-- Before objects had readers the table was kept per organization and the bytes came from `assets`: a read schema from
-- then loses that table (it is filled again from the rows below) and the triggers on `assets`.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name = 'inventory_totals'
                AND column_name = 'org_key') THEN
    DROP TABLE inventory_totals;
  END IF;
END $$;
DROP TRIGGER IF EXISTS inventory_totals_assets_inserted ON assets;
DROP TRIGGER IF EXISTS inventory_totals_assets_updated ON assets;
DROP TRIGGER IF EXISTS inventory_totals_assets_deleted ON assets;
DROP TRIGGER IF EXISTS inventory_totals_assets_truncated ON assets;
DROP FUNCTION IF EXISTS inventory_totals_assets_inserted();
DROP FUNCTION IF EXISTS inventory_totals_assets_updated();
DROP FUNCTION IF EXISTS inventory_totals_assets_deleted();
DROP FUNCTION IF EXISTS inventory_totals_assets_truncated();

CREATE TABLE IF NOT EXISTS inventory_totals (
  -- The objects' `read_principals` (sorted, distinct, as the projector writes them).
  read_principals text[] NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  object_count bigint NOT NULL,
  asset_bytes bigint NOT NULL,
  PRIMARY KEY (read_principals, kind, status)
);

-- Each trigger adds the statement's difference to the buckets it touched, in one upsert, and deletes
-- those it emptied: `sign` is +1 for a row as it is after the statement, -1 for a row as it was before.
-- Rows that stayed in their bucket cancel out (the HAVING), so most updates (child counts, titles,
-- timestamps) write nothing.
CREATE OR REPLACE FUNCTION inventory_totals_objects_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE caller_path text := current_setting('search_path');
BEGIN
  PERFORM set_config('search_path', format('%I, public', TG_TABLE_SCHEMA), true);
  INSERT INTO inventory_totals AS t (read_principals, kind, status, object_count, asset_bytes)
  SELECT n.read_principals, n.kind, n.status, count(*), sum(n.asset_bytes)
    FROM inserted_objects n
   WHERE n.deleted_at IS NULL
   GROUP BY 1, 2, 3
  ON CONFLICT (read_principals, kind, status) DO UPDATE
    SET object_count = t.object_count + excluded.object_count, asset_bytes = t.asset_bytes + excluded.asset_bytes;
  PERFORM set_config('search_path', caller_path, true);
  RETURN NULL;
END $$;

-- Not paired by id: the net difference per bucket is what the new rows add less what the old ones took,
-- whatever moved where (an update of the id itself included).
CREATE OR REPLACE FUNCTION inventory_totals_objects_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  caller_path text := current_setting('search_path');
  emptied record;
BEGIN
  PERFORM set_config('search_path', format('%I, public', TG_TABLE_SCHEMA), true);
  -- Most updates (child counts, titles, moves within one principal set) leave every row in its bucket:
  -- they return after one look. Every column the buckets depend on must be compared here.
  IF NOT EXISTS (
    SELECT 1 FROM updated_objects_old o FULL JOIN updated_objects_new n USING (id)
     WHERE (o.read_principals, o.kind, o.status, o.deleted_at IS NULL, o.asset_bytes)
           IS DISTINCT FROM (n.read_principals, n.kind, n.status, n.deleted_at IS NULL, n.asset_bytes)
  ) THEN
    PERFORM set_config('search_path', caller_path, true);
    RETURN NULL;
  END IF;
  FOR emptied IN
    WITH difference AS (
      SELECT read_principals, kind, status, sum(sign) AS objects, sum(sign * asset_bytes) AS bytes
        FROM (SELECT read_principals, kind, status, 1 AS sign, asset_bytes
                FROM updated_objects_new WHERE deleted_at IS NULL
              UNION ALL
              SELECT read_principals, kind, status, -1, asset_bytes
                FROM updated_objects_old WHERE deleted_at IS NULL) rows
       GROUP BY read_principals, kind, status
      HAVING sum(sign) <> 0 OR sum(sign * asset_bytes) <> 0
    ), added AS (
      INSERT INTO inventory_totals AS t (read_principals, kind, status, object_count, asset_bytes)
      SELECT read_principals, kind, status, objects, bytes FROM difference
      ON CONFLICT (read_principals, kind, status) DO UPDATE
        SET object_count = t.object_count + excluded.object_count,
            asset_bytes = t.asset_bytes + excluded.asset_bytes
      RETURNING t.read_principals, t.kind, t.status, t.object_count, t.asset_bytes
    )
    SELECT read_principals, kind, status FROM added WHERE object_count = 0 AND asset_bytes = 0
  LOOP
    DELETE FROM inventory_totals
     WHERE (read_principals, kind, status) = (emptied.read_principals, emptied.kind, emptied.status)
       AND object_count = 0 AND asset_bytes = 0;
  END LOOP;
  PERFORM set_config('search_path', caller_path, true);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION inventory_totals_objects_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  caller_path text := current_setting('search_path');
  emptied record;
BEGIN
  PERFORM set_config('search_path', format('%I, public', TG_TABLE_SCHEMA), true);
  FOR emptied IN
    WITH added AS (
      INSERT INTO inventory_totals AS t (read_principals, kind, status, object_count, asset_bytes)
      SELECT o.read_principals, o.kind, o.status, -count(*), -sum(o.asset_bytes)
        FROM deleted_objects o
       WHERE o.deleted_at IS NULL
       GROUP BY 1, 2, 3
      ON CONFLICT (read_principals, kind, status) DO UPDATE
        SET object_count = t.object_count + excluded.object_count,
            asset_bytes = t.asset_bytes + excluded.asset_bytes
      RETURNING t.read_principals, t.kind, t.status, t.object_count, t.asset_bytes
    )
    SELECT read_principals, kind, status FROM added WHERE object_count = 0 AND asset_bytes = 0
  LOOP
    DELETE FROM inventory_totals
     WHERE (read_principals, kind, status) = (emptied.read_principals, emptied.kind, emptied.status)
       AND object_count = 0 AND asset_bytes = 0;
  END LOOP;
  PERFORM set_config('search_path', caller_path, true);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION inventory_totals_objects_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE caller_path text := current_setting('search_path');
BEGIN
  PERFORM set_config('search_path', format('%I, public', TG_TABLE_SCHEMA), true);
  DELETE FROM inventory_totals;
  PERFORM set_config('search_path', caller_path, true);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER inventory_totals_objects_inserted AFTER INSERT ON portal_objects
  REFERENCING NEW TABLE AS inserted_objects FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_objects_inserted();
CREATE OR REPLACE TRIGGER inventory_totals_objects_updated AFTER UPDATE ON portal_objects
  REFERENCING OLD TABLE AS updated_objects_old NEW TABLE AS updated_objects_new
  FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_objects_updated();
CREATE OR REPLACE TRIGGER inventory_totals_objects_deleted AFTER DELETE ON portal_objects
  REFERENCING OLD TABLE AS deleted_objects FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_objects_deleted();
CREATE OR REPLACE TRIGGER inventory_totals_objects_truncated AFTER TRUNCATE ON portal_objects
  FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_objects_truncated();

-- A read schema that existed before this table (or whose totals were never filled) gets them from its
-- rows once. The triggers above already hold their table lock, so no write slips between the two.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM inventory_totals) THEN
    INSERT INTO inventory_totals (read_principals, kind, status, object_count, asset_bytes)
    SELECT read_principals, kind, status, count(*), sum(asset_bytes)
      FROM portal_objects
     WHERE deleted_at IS NULL
     GROUP BY 1, 2, 3;
  END IF;
END $$;
