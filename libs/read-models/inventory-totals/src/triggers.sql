-- The statement triggers that keep inventory_totals (schema.sql says why triggers), and the filling of a
-- table that is empty while portal_objects is not. Only readers need the totals: a normal start applies
-- this file right after the read models' tables; a rebuild applies it once its replay reached the head
-- (docs/projection.md, "Lean rebuilds"), so the replay's statements fire no trigger.
-- Applied with search_path on the read schema, statement by statement: names no schema.

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
